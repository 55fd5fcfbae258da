//! What `/moves` lists in each step, and the turn clock's choice among it.

use super::super::guild_cards::GuildCard::*;
use super::super::phase::{step, Step};
use super::super::pieces::TowerColour::*;
use super::super::tests::test_support::*;
use super::super::{houses, towers, Mauerbauer};
use super::*;
use crate::testing::given;

#[test]
fn a_turn_begins_with_a_wall_on_any_free_line() {
    let state = given::<Mauerbauer>(Layout::new(3).events()).state;
    let commands = legal_commands(&state, 0);
    assert_eq!(commands.len(), 77);
    assert_eq!(commands[0], BuildWall { line: 0 }.into());
    assert!(legal_commands(&state, 1).is_empty(), "only the seat to act");
    let state = given::<Mauerbauer>(Layout::new(3).city(&[1, 2, 3, 10, 11, 12]).events()).state;
    let lines: Vec<MauerbauerCommand> = legal_commands(&state, 0);
    assert_eq!(
        lines.len(),
        77 - 6 - 6,
        "not on the walls, not inside the city"
    );
    assert!(!lines.contains(&BuildWall { line: 4 }.into()));
}

#[test]
fn the_placements_the_dice_leave_open_are_listed() {
    let state = given::<Mauerbauer>(Layout::new(2).events()).state;
    let (_, rolled) = act(&state, 0, BuildWall { line: 50 });
    assert_eq!(step(&rolled), Step::PlaceTowers);
    let listed = legal_commands(&rolled, 0);
    assert_eq!(
        listed.len(),
        5,
        "the die's colour on either end, a free one on the other"
    );
    let options = towers::options(&rolled);
    assert_eq!(
        listed,
        options
            .into_iter()
            .map(|towers| PlaceTowers { towers }.into())
            .collect::<Vec<_>>()
    );
    let (_, placed) = act(&rolled, 0, listed[0].clone());
    assert_eq!(
        step(&placed),
        Step::PlaceHouses,
        "the dice at seed 7 leave a choice"
    );
    assert_eq!(
        legal_commands(&placed, 0),
        houses::options(&placed)
            .into_iter()
            .map(|houses| PlaceHouses { houses }.into())
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_scoring_choice_is_every_one_or_two_cards_or_one_discard() {
    let events = Layout::new(2)
        .walls(&[31, 33])
        .towers(&[(12, White), (13, Grey), (18, Black)])
        .hand(0, &[BoardWalls, BoardWalls, ClosedCities])
        .hand(1, &[BoardWalls])
        .events();
    let state = given::<Mauerbauer>(events).state;
    let (_, state) = build(&state, 35, 1);
    let lay = |cards: &[super::super::guild_cards::GuildCard]| -> MauerbauerCommand {
        LayGuildCards {
            cards: cards.to_vec(),
        }
        .into()
    };
    assert_eq!(
        legal_commands(&state, 0),
        vec![
            lay(&[BoardWalls]),
            lay(&[ClosedCities]),
            lay(&[BoardWalls, BoardWalls]),
            lay(&[BoardWalls, ClosedCities]),
            DiscardGuildCard { card: BoardWalls }.into(),
            DiscardGuildCard { card: ClosedCities }.into(),
        ]
    );
    assert_eq!(
        default_command(&state, 0),
        Some(DiscardGuildCard { card: BoardWalls }.into()),
        "the clock scores nothing for an absent player"
    );
    assert_eq!(default_command(&state, 1), None);
    // Seat 1 discards too: both stay in last place and swap, seat 0 first.
    let (_, state) = act(&state, 0, DiscardGuildCard { card: BoardWalls });
    let (_, state) = act(&state, 1, DiscardGuildCard { card: BoardWalls });
    assert_eq!(step(&state), Step::CardSwap(0));
    let hand: Vec<MauerbauerCommand> = state
        .hand(0)
        .kinds()
        .map(|card| SwapOutGuildCard { card }.into())
        .chain([FinishCardSwap {}.into()])
        .collect();
    assert_eq!(legal_commands(&state, 0), hand);
    assert_eq!(default_command(&state, 0), Some(FinishCardSwap {}.into()));
}

#[test]
fn the_clock_builds_where_no_city_closes_and_never_joins() {
    let events = Layout::new(2)
        .walls(&[0, 3])
        .towers(&[(0, White), (1, White), (6, White)])
        .city(&[20])
        .walls(&[36])
        .towers(&[(19, Grey)])
        .events();
    let state = given::<Mauerbauer>(events).state;
    // Line 1 would close field 0; line 2 is the first that closes nothing.
    assert_eq!(
        default_command(&state, 0),
        Some(BuildWall { line: 2 }.into())
    );
    let (_, closing) = build(&state, 47, 3);
    assert_eq!(step(&closing), Step::JoinCities);
    assert_eq!(
        default_command(&closing, 0),
        Some(KeepCitiesApart {}.into())
    );
}

#[test]
fn the_clock_places_the_first_listed_towers() {
    let state = given::<Mauerbauer>(Layout::new(2).events()).state;
    let (_, rolled) = act(&state, 0, BuildWall { line: 50 });
    assert_eq!(
        default_command(&rolled, 0),
        legal_commands(&rolled, 0).first().cloned()
    );
}

#[test]
fn when_every_free_line_closes_a_city_the_clock_takes_the_lowest() {
    let rest: Vec<u8> = (1..45).collect();
    let state = given::<Mauerbauer>(Layout::new(2).city(&rest).walls(&[0]).events()).state;
    assert_eq!(
        default_command(&state, 0),
        Some(BuildWall { line: 1 }.into())
    );
}
