//! The tower die against the towers already at the new wall's ends, at the level of whole
//! commands: both ends towered, one end towered, and a run-out colour at the one free end.

use super::super::phase::{step, Step};
use super::super::pieces::Colour;
use super::super::pieces::TowerColour::{self, *};
use super::super::tests::test_support::*;
use super::super::Mauerbauer;
use super::*;
use crate::contract::{Ctx, Game};
use crate::testing::given;

// Line 34 runs from vertex 13 to vertex 14, between fields 13 and 22.
const LINE: LineId = 34;

/// The wall on line 34 and the events it brings, dice from `seed`.
fn wall(state: &State, seed: u64) -> (Vec<MauerbauerEvent>, State) {
    let events = Mauerbauer::decide(
        state,
        0,
        &BuildWall { line: LINE }.into(),
        &mut Ctx::new(seed, 0),
    )
    .expect("a free line");
    let after = fold(state, &events);
    (events, after)
}

fn tower_die(events: &[MauerbauerEvent]) -> Option<TowerColour> {
    events_of!(events, MauerbauerDiceRolled)[0].tower
}

#[test]
fn a_wall_between_two_towers_rolls_no_tower_die_and_places_no_tower() {
    let state =
        given::<Mauerbauer>(Layout::new(2).towers(&[(13, White), (14, Grey)]).events()).state;
    for seed in 0..12 {
        let (events, after) = wall(&state, seed);
        assert_eq!(
            tower_die(&events),
            None,
            "seed {seed}: the tower die stays put"
        );
        assert!(
            events_of!(events, TowersPlaced)
                .iter()
                .all(|t| t.towers.is_empty()),
            "seed {seed}: no tower"
        );
        assert_eq!(after.supply.towers, state.supply.towers);
        assert_ne!(step(&after), Step::PlaceTowers);
        assert!(options(&after).is_empty());
    }
}

#[test]
fn with_a_tower_at_one_end_the_die_colour_goes_on_the_other() {
    let state = given::<Mauerbauer>(Layout::new(2).towers(&[(13, Black)]).events()).state;
    let mut seen = Vec::new();
    for seed in 0..24 {
        let (events, after) = wall(&state, seed);
        let die = tower_die(&events).expect("one end is free: the die is rolled");
        assert_eq!(
            events_of!(events, TowersPlaced),
            vec![TowersPlaced {
                seat: 0,
                towers: vec![TowerPlacement {
                    vertex: 14,
                    colour: die
                }],
            }],
            "seed {seed}: no choice, so the server places the die's colour on vertex 14"
        );
        assert_eq!(after.towers[13], Some(Black), "the tower there stays");
        if !seen.contains(&die) {
            seen.push(die);
        }
    }
    assert_eq!(seen.len(), 3, "every colour of the die came up: {seen:?}");
}

#[test]
fn with_a_tower_at_one_end_a_run_out_die_colour_is_replaced_by_choice() {
    // Every black tower stands on the board already (none of them near line 34).
    let all_black: Vec<(u8, TowerColour)> = (0..10).map(|v| (v, Black)).collect();
    let state = given::<Mauerbauer>(
        Layout::new(2)
            .towers(&all_black)
            .towers(&[(13, White)])
            .events(),
    )
    .state;
    assert_eq!(state.supply.towers[Black.index()], 0);
    let (events, rolled) = (0..64)
        .map(|seed| wall(&state, seed))
        .find(|(events, _)| tower_die(events) == Some(Black))
        .expect("some seed rolls black");
    assert!(
        events_of!(events, TowersPlaced).is_empty(),
        "a choice is left"
    );
    assert_eq!(step(&rolled), Step::PlaceTowers);
    let one = |colour| PlaceTowers {
        towers: vec![TowerPlacement { vertex: 14, colour }],
    };
    assert_eq!(
        Mauerbauer::legal_commands(&rolled, 0),
        vec![one(White).into(), one(Grey).into()]
    );
    assert_eq!(refused(&rolled, 0, one(Black)), "towers_not_allowed");
    let (_, placed) = act(&rolled, 0, one(Grey));
    assert_eq!(placed.towers[14], Some(Grey));
}
