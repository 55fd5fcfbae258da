//! The scoring round and the last-place swap, on a one-field city (field 20) closed by line 35.

use super::super::guild_cards::GuildCard::{self, *};
use super::super::phase::{step, Step};
use super::super::pieces::TowerColour::*;
use super::super::tests::test_support::*;
use super::super::Mauerbauer;
use super::*;
use crate::testing::given;

/// The state once `turn` has closed field 20, with these hands and scores before.
fn closing(hands: &[&[GuildCard]], scores: &[i64], turn: Seat) -> State {
    let mut layout = Layout::new(hands.len() as u8)
        .walls(&[31, 33])
        .towers(&[(12, White), (13, Grey), (18, Black)])
        .scores(scores)
        .turn(turn);
    for (seat, cards) in hands.iter().enumerate() {
        layout = layout.hand(seat as Seat, cards);
    }
    let state = given::<Mauerbauer>(layout.events()).state;
    build(&state, 35, 9).1
}

#[test]
fn players_choose_in_turn_from_the_one_who_closed_the_city() {
    let state = closing(
        &[&[BoardWalls], &[BoardWalls], &[BoardWalls]],
        &[1, 1, 1],
        1,
    );
    let round = state.round.as_ref().unwrap();
    assert_eq!(round.order, vec![1, 2, 0]);
    assert_eq!(step(&state), Step::GuildScoring(1));
    assert_eq!(
        refused(&state, 0, DiscardGuildCard { card: BoardWalls }),
        "not_your_turn"
    );
}

#[test]
fn laid_cards_score_now_for_the_city_just_closed() {
    let state = closing(
        &[&[CityOfOneField], &[CityTowers, ClosedCities, BoardWalls]],
        &[1, 1],
        0,
    );
    let (events, after) = act(
        &state,
        0,
        LayGuildCards {
            cards: vec![CityOfOneField],
        },
    );
    assert_eq!(events, vec![laid(0, Some(0), &[(CityOfOneField, 6)])]);
    assert_eq!(after.scores, vec![7, 1]);
    let (events, after) = act(
        &after,
        1,
        LayGuildCards {
            cards: vec![CityTowers, ClosedCities],
        },
    );
    let laid = &events_of!(events, GuildCardsLaid)[0];
    assert_eq!(laid.points, 3 + 1, "three towers, one closed city");
    assert_eq!(after.scores, vec![7, 5]);
    assert_eq!(
        &after.discard_pile[..],
        &[CityOfOneField, CityTowers, ClosedCities],
        "laid cards go face up on the discard pile"
    );
}

#[test]
fn who_laid_draws_one_and_who_discarded_draws_two_once_everybody_has_chosen() {
    let state = closing(
        &[&[BoardWalls, BoardTowers], &[ClosedCities], &[CityPalaces]],
        &[1, 1, 1],
        2,
    );
    let (events, after) = act(
        &state,
        2,
        LayGuildCards {
            cards: vec![CityPalaces],
        },
    );
    assert!(events_of!(events, GuildCardsDrawn).is_empty(), "not yet");
    let (_, after) = act(&after, 0, DiscardGuildCard { card: BoardTowers });
    let (events, after) = act(
        &after,
        1,
        LayGuildCards {
            cards: vec![ClosedCities],
        },
    );
    let draws: Vec<(Seat, u8)> = events_of!(events, GuildCardsDrawn)
        .iter()
        .map(|d| (d.seat, d.count))
        .collect();
    assert_eq!(draws, vec![(2, 1), (0, 2), (1, 1)], "in the round's order");
    assert_eq!(
        (0..3).map(|s| after.hand(s).total()).collect::<Vec<_>>(),
        vec![3, 1, 1]
    );
    assert!(after.round.is_none());
}

#[test]
fn players_without_cards_sit_the_round_out() {
    let state = closing(&[&[BoardWalls], &[], &[BoardWalls]], &[1, 1, 1], 0);
    assert_eq!(state.round.as_ref().unwrap().order, vec![0, 2]);
}

#[test]
fn one_or_two_held_cards_in_catalogue_order() {
    let state = closing(
        &[&[BoardWalls, BoardTowers, ClosedCities], &[BoardWalls]],
        &[1, 1],
        0,
    );
    let lay = |cards: &[GuildCard]| LayGuildCards {
        cards: cards.to_vec(),
    };
    assert_eq!(refused(&state, 0, lay(&[])), "lay_one_or_two_cards");
    assert_eq!(
        refused(&state, 0, lay(&[BoardWalls, BoardTowers, ClosedCities])),
        "lay_one_or_two_cards"
    );
    assert_eq!(
        refused(&state, 0, lay(&[BoardTowers, BoardWalls])),
        "cards_out_of_order"
    );
    assert_eq!(
        refused(&state, 0, lay(&[BoardWalls, BoardWalls])),
        "card_not_in_hand"
    );
    assert_eq!(refused(&state, 0, lay(&[CityPalaces])), "card_not_in_hand");
    assert_eq!(
        refused(&state, 0, DiscardGuildCard { card: CityPalaces }),
        "card_not_in_hand"
    );
    assert_eq!(
        refused(&state, 0, BuildWall { line: 0 }),
        "awaiting_guild_scoring"
    );
    assert_eq!(
        refused(&state, 0, FinishCardSwap {}),
        "awaiting_guild_scoring"
    );
}

#[test]
fn the_players_in_last_place_swap_from_the_player_whose_turn_it_is() {
    let state = closing(
        &[
            &[BoardWalls, BoardTowers],
            &[BoardWalls, ClosedCities],
            &[BoardTowers, CityPalaces],
        ],
        &[5, 3, 3],
        2,
    );
    let (_, s) = act(&state, 2, DiscardGuildCard { card: CityPalaces });
    let (_, s) = act(&s, 0, DiscardGuildCard { card: BoardWalls });
    let (events, s) = act(&s, 1, DiscardGuildCard { card: ClosedCities });
    assert_eq!(
        events_of!(events, GuildScoringEnded),
        vec![GuildScoringEnded {
            city: 0,
            last_place: vec![2, 1]
        }]
    );
    assert_eq!(step(&s), Step::CardSwap(2));
    let before = s.hand(2);
    assert_eq!(before.total(), 3);
    let first = before.kinds().next().unwrap();
    let (events, s) = act(&s, 2, SwapOutGuildCard { card: first });
    assert_eq!(
        events,
        vec![GuildCardSwappedOut {
            seat: 2,
            card: first
        }
        .into()]
    );
    let second = s.hand(2).kinds().next().unwrap();
    let (_, s) = act(&s, 2, SwapOutGuildCard { card: second });
    assert_eq!(s.hand(2).total(), 1);
    let (events, s) = act(&s, 2, FinishCardSwap {});
    let drawn = events_of!(events, GuildCardsDrawn);
    assert_eq!(
        drawn.iter().map(|d| d.count).sum::<u8>(),
        2,
        "as many as put away"
    );
    assert_eq!(s.hand(2).total(), 3);
    assert_eq!(step(&s), Step::CardSwap(1));
    let (events, s) = act(&s, 1, FinishCardSwap {});
    assert!(
        events_of!(events, GuildCardsDrawn).is_empty(),
        "swapping none keeps the hand"
    );
    assert_eq!(step(&s), Step::BuildWall);
    assert_eq!(s.turn, 0, "then the dice pass on");
}

#[test]
fn a_player_with_no_cards_does_not_swap_and_nobody_swaps_at_the_end() {
    let mut state = Layout::new(3)
        .hand(0, &[BoardWalls])
        .hand(2, &[BoardWalls])
        .turn(1)
        .state()
        .clone();
    state.turn = 1;
    assert_eq!(last_place(&state), vec![2, 0], "seat 1 holds no cards");
    state.end = Some(EndReason::LastTower);
    assert!(last_place(&state).is_empty());
}
