//! The four ends (last wall, tower, house, palace), the board without a free line, the final
//! scoring and the tie-breaks.

use super::super::board::FIELDS;
use super::super::guild_cards::GuildCard::*;
use super::super::phase::{step, Step};
use super::super::pieces::HouseColour::*;
use super::super::pieces::TowerColour::*;
use super::super::tests::test_support::*;
use super::super::Mauerbauer;
use super::*;
use crate::contract::Game;
use crate::testing::given;

/// Two players holding cards, a closed city on field 20, seat 0 to build.
fn with_city() -> State {
    let events = Layout::new(2)
        .towers(&[(12, White), (13, White), (18, White)])
        .city(&[20])
        .hand(0, &[CityOfOneField, BoardWalls])
        .hand(1, &[ClosedCities])
        .events();
    given::<Mauerbauer>(events).state
}

#[test]
fn the_last_wall_ends_the_game_after_a_final_scoring() {
    let mut state = with_city();
    state.supply.walls = 1;
    let (events, after) = build(&state, 50, 1);
    assert_eq!(after.end, Some(EndReason::LastWall));
    assert_eq!(
        events_of!(events, FinalScoringStarted),
        vec![FinalScoringStarted { order: vec![0, 1] }]
    );
    assert_eq!(step(&after), Step::FinalScoring(0));
}

#[test]
fn the_last_tower_ends_the_game() {
    let mut state = with_city();
    state.supply.towers = [0, 1, 0];
    let (events, after) = build(&state, 50, 1);
    assert_eq!(
        events_of!(events, TowersPlaced)[0].towers.len(),
        1,
        "the last one"
    );
    assert_eq!(after.end, Some(EndReason::LastTower));
    assert_eq!(step(&after), Step::FinalScoring(0));
}

#[test]
fn the_last_house_ends_the_game() {
    let mut state = with_city();
    state.supply.houses = [0, 0, 0, 1, 0];
    let (events, after) = build(&state, 50, 1);
    let houses = &events_of!(events, HousesPlaced)[0].houses;
    assert_eq!(houses.len(), 1);
    assert_eq!(houses[0].colour, Pink, "whatever the dice said");
    assert_eq!(after.end, Some(EndReason::LastHouse));
}

#[test]
fn the_last_palace_ends_the_game_once_its_city_is_scored() {
    let events = Layout::new(2)
        .towers(&[(12, White), (13, White), (18, White)])
        .walls(&[31, 33])
        .houses(&[(20, Red), (20, Red)])
        .hand(0, &[BoardWalls])
        .hand(1, &[BoardWalls])
        .events();
    let mut state = given::<Mauerbauer>(events).state;
    state.supply.palaces = [0, 0, 0, 0, 1];
    let (events, after) = build(&state, 35, 1);
    assert_eq!(
        events_of!(events, PalacesBuilt),
        vec![PalacesBuilt {
            city: 0,
            palaces: vec![Red]
        }]
    );
    assert_eq!(after.end, Some(EndReason::LastPalace));
    let (_, after) = act(
        &after,
        0,
        LayGuildCards {
            cards: vec![BoardWalls],
        },
    );
    let (events, after) = act(
        &after,
        1,
        LayGuildCards {
            cards: vec![BoardWalls],
        },
    );
    assert!(
        events_of!(events, GuildScoringEnded)[0]
            .last_place
            .is_empty(),
        "no swap"
    );
    assert!(
        events_of!(events, FinalScoringStarted).is_empty(),
        "the city was the last scoring"
    );
    let ended = &events_of!(events, MauerbauerGameEnded)[0];
    assert_eq!(ended.reason, EndReason::LastPalace);
    assert_eq!(step(&after), Step::Finished);
    assert_eq!(
        refused(&after, 0, BuildWall { line: 0 }),
        "game_over",
        "nothing more"
    );
}

#[test]
fn the_game_ends_when_no_line_is_free() {
    // Every field but field 0 is one city; field 0 is open to the water at lines 0 and 1.
    let rest: Vec<u8> = (1..FIELDS as u8).collect();
    let events = Layout::new(2)
        .city(&rest)
        .walls(&[0])
        .hand(0, &[BoardWalls])
        .hand(1, &[BoardWalls])
        .events();
    let state = given::<Mauerbauer>(events).state;
    assert_eq!(
        Mauerbauer::legal_commands(&state, 0),
        vec![BuildWall { line: 1 }.into()]
    );
    let (_, after) = build(&state, 1, 1);
    assert_eq!(after.end, Some(EndReason::NoFreeLine));
    let (_, after) = act(&after, 0, KeepCitiesApart {});
    let (_, after) = act(&after, 0, DiscardGuildCard { card: BoardWalls });
    let (events, after) = act(&after, 1, DiscardGuildCard { card: BoardWalls });
    assert_eq!(
        events_of!(events, MauerbauerGameEnded)[0].reason,
        EndReason::NoFreeLine
    );
    assert!(Mauerbauer::status(&after).finished);
}

#[test]
fn in_the_final_scoring_city_cards_score_the_city_each_player_chooses() {
    let mut state = with_city();
    state.supply.walls = 1;
    let (_, state) = build(&state, 50, 1);
    assert_eq!(
        Mauerbauer::legal_commands(&state, 0),
        vec![
            ChooseFinalCity { city: 0 }.into(),
            LayGuildCards {
                cards: vec![BoardWalls]
            }
            .into(),
            PassFinalScoring {}.into(),
        ],
        "city cards wait for a city"
    );
    let city_card = LayGuildCards {
        cards: vec![CityOfOneField],
    };
    assert_eq!(refused(&state, 0, city_card.clone()), "choose_a_city_first");
    assert_eq!(
        refused(&state, 0, ChooseFinalCity { city: 4 }),
        "no_such_city"
    );
    assert_eq!(
        refused(&state, 0, DiscardGuildCard { card: BoardWalls }),
        "awaiting_final_scoring"
    );
    let (_, state) = act(&state, 0, ChooseFinalCity { city: 0 });
    assert_eq!(
        refused(&state, 0, ChooseFinalCity { city: 0 }),
        "city_already_chosen"
    );
    let (events, state) = act(&state, 0, city_card);
    assert_eq!(events, vec![laid(0, Some(0), &[(CityOfOneField, 6)])]);
    assert!(
        events_of!(events, GuildCardsDrawn).is_empty(),
        "no more draws"
    );
    let (events, state) = act(&state, 1, PassFinalScoring {});
    let ended = &events_of!(events, MauerbauerGameEnded)[0];
    assert_eq!(ended.reason, EndReason::LastWall);
    assert_eq!(ended.scores, vec![7, 1]);
    assert_eq!(ended.winners, vec![0]);
    assert_eq!(Mauerbauer::status(&state).winners, vec![0]);
}

#[test]
fn most_points_win_then_most_cards_then_a_shared_win() {
    let state = |scores: &[i64], hands: &[&[super::super::guild_cards::GuildCard]]| {
        let mut layout = Layout::new(3).scores(scores);
        for (seat, cards) in hands.iter().enumerate() {
            layout = layout.hand(seat as Seat, cards);
        }
        layout.state().clone()
    };
    let winners = |s: &State| result(s, EndReason::LastTower).winners;
    assert_eq!(
        winners(&state(&[9, 12, 3], &[&[], &[], &[BoardWalls]])),
        vec![1]
    );
    assert_eq!(
        winners(&state(&[12, 12, 3], &[&[BoardWalls], &[], &[BoardWalls]])),
        vec![0],
        "more cards in hand"
    );
    assert_eq!(
        winners(&state(&[12, 12, 12], &[&[BoardWalls], &[BoardTowers], &[]])),
        vec![0, 1],
        "shared"
    );
    let ended = result(
        &state(&[4, 2, 3], &[&[BoardWalls], &[], &[]]),
        EndReason::LastHouse,
    );
    assert_eq!(ended.cards_in_hand, vec![1, 0, 0]);
    assert_eq!(ended.scores, vec![4, 2, 3]);
}
