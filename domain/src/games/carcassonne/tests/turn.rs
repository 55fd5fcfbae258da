//! A turn: the drawn tile, placed where it fits; the steps in order; the next player's draw;
//! tiles that fit nowhere; the end when the pile is empty.

use crate::contract::{Ctx, Game};
use crate::games::carcassonne::state::State;
use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

#[test]
fn the_drawn_tile_is_placed_and_the_player_may_then_place_a_follower() {
    let table = Table::new(2).drawn(0, "U");
    let state = given::<Carcassonne>(table)
        .when(0, place_tile(1, 0, 0))
        .then([placed(0, "U", 1, 0, 0)]);
    assert_eq!(Carcassonne::status(&state).to_act, vec![0]);
    assert_eq!(
        Carcassonne::legal_commands(&state, 0),
        vec![
            SkipFollower {}.into(),
            PlaceFollower { segment: 0 }.into(),
            PlaceFollower { segment: 1 }.into(),
            PlaceFollower { segment: 2 }.into(),
        ]
    );
}

#[test]
fn a_tile_goes_where_its_edges_match_turned_in_quarters() {
    let table = Table::new(2).drawn(0, "U");
    given::<Carcassonne>(table.clone())
        .when(0, place_tile(1, 0, 90))
        .then_error("edges_do_not_match");
    given::<Carcassonne>(table.clone())
        .when(0, place_tile(1, 0, 45))
        .then_error("invalid_rotation");
    given::<Carcassonne>(table.clone())
        .when(0, place_tile(2, 0, 0))
        .then_error("not_adjacent");
    given::<Carcassonne>(table.clone())
        .when(0, place_tile(0, 0, 0))
        .then_error("place_taken");
    given::<Carcassonne>(table)
        .when(0, place_tile(-1, 0, 180))
        .accepted();
}

#[test]
fn every_legal_placement_of_the_drawn_tile_is_listed_in_reading_order() {
    let state = given::<Carcassonne>(Table::new(2).drawn(0, "U")).state;
    let listed: Vec<(i32, i32, u16)> = Carcassonne::legal_commands(&state, 0)
        .into_iter()
        .map(|c| match c {
            CarcassonneCommand::PlaceTile(p) => (p.x, p.y, p.rotation),
            other => panic!("{other:?}"),
        })
        .collect();
    // West and east the road runs on, south the fields meet: a straight road fits each way
    // round; north lies the start tile's city.
    assert_eq!(
        listed,
        vec![
            (-1, 0, 0),
            (-1, 0, 180),
            (1, 0, 0),
            (1, 0, 180),
            (0, 1, 0),
            (0, 1, 180),
        ]
    );
    assert_eq!(
        Carcassonne::default_command(&state, 0),
        Some(place_tile(-1, 0, 0).into()),
        "the clock plays the first placement"
    );
    assert!(Carcassonne::legal_commands(&state, 1).is_empty());
}

#[test]
fn each_step_comes_in_its_order() {
    let table = Table::new(2).drawn(0, "U");
    given::<Carcassonne>(table.clone())
        .when(0, PlaceFollower { segment: 0 })
        .then_error("not_this_step");
    given::<Carcassonne>(table.clone())
        .when(0, SkipFollower {})
        .then_error("not_this_step");
    given::<Carcassonne>(table.clone())
        .when(0, PlaceGoldIngot { x: 0, y: 0 })
        .then_error("not_this_step");
    given::<Carcassonne>(table)
        .when(1, place_tile(1, 0, 0))
        .then_error("not_your_turn");
    given::<Carcassonne>(Table::new(2).lay(0, "U", 1, 0, 0).events)
        .when(0, place_tile(-1, 0, 0))
        .then_error("not_this_step");
}

#[test]
fn after_the_follower_step_the_next_player_draws() {
    let state = given::<Carcassonne>(Table::new(3).lay(2, "U", 1, 0, 0).events)
        .when(2, SkipFollower {})
        .then([FollowerSkipped { seat: 2 }.into(), tile_drawn(0, "B")]);
    assert_eq!(Carcassonne::status(&state).to_act, vec![0]);
    assert_eq!(state.tiles_left(), 19);
    assert_eq!(phase(&state), Phase::PlaceTile);
}

#[test]
fn with_no_follower_to_place_the_turn_ends_with_the_tile() {
    // Seat 0 has all 7 followers on the board: the follower step has no choice and passes.
    let mut table = Table::new(2);
    for x in 1..=7 {
        table = table.lay(0, "U", x, 0, 0).follower(0, x, 0, 1);
    }
    let (events, state) = given::<Carcassonne>(table.drawn(0, "U"))
        .when(0, place_tile(-1, 0, 0))
        .accepted();
    assert_eq!(
        events[..2],
        [placed(0, "U", -1, 0, 0), FollowerSkipped { seat: 0 }.into(),]
    );
    assert_eq!(Carcassonne::status(&state).to_act, vec![1]);
}

/// The city north of the start tile closed by an E: a C (city all round) fits nowhere.
fn c_fits_nowhere(pile: &[(&str, u8)]) -> Table {
    Table::with(2, CarcassonneOptions::default(), pile)
        .lay(0, "E", 0, -1, 180)
        .lay(1, "U", 1, 0, 0)
}

#[test]
fn a_tile_that_fits_nowhere_is_discarded_and_another_drawn() {
    let table = c_fits_nowhere(&[("C", 1), ("E", 2)]);
    let mut patterns = std::collections::HashSet::new();
    for seed in 0..30 {
        let (events, state) = given::<Carcassonne>(table.events.clone())
            .seed(seed)
            .when(1, SkipFollower {})
            .accepted();
        let drawn: CarcassonneEvent = tile_drawn(0, "E");
        let discarded: CarcassonneEvent = TileDiscarded {
            seat: 0,
            tile: "C".into(),
        }
        .into();
        if events[1..] == [discarded, drawn.clone()] {
            patterns.insert("C discarded, then E");
            assert_eq!(state.tiles_left(), 0);
            assert_eq!(
                Carcassonne::view(&state, crate::contract::Viewer::Spectator).discarded,
                ["C"]
            );
        } else {
            assert_eq!(events[1..], [drawn]);
            patterns.insert("E");
            assert_eq!(state.tiles_left(), 1);
        }
    }
    assert_eq!(patterns.len(), 2, "each tile is drawn first for some seed");
}

#[test]
fn the_game_ends_when_the_pile_runs_out_even_by_discards() {
    let table = c_fits_nowhere(&[("C", 1), ("E", 1)]);
    let state = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .then([
            FollowerSkipped { seat: 1 }.into(),
            TileDiscarded {
                seat: 0,
                tile: "C".into(),
            }
            .into(),
            CarcassonneGameEnded {
                scores: vec![0, 0],
                winners: vec![0, 1],
            }
            .into(),
        ]);
    let status = Carcassonne::status(&state);
    assert!(status.finished && status.to_act.is_empty());
    assert!(Carcassonne::legal_commands(&state, 0).is_empty());
    given::<Carcassonne>(table_after(&state))
        .when(0, SkipFollower {})
        .then_error("game_over");
}

fn table_after(state: &State) -> Vec<CarcassonneEvent> {
    // The ended game, as the state's own result (evolve is lenient about what came before).
    vec![state.ended.clone().unwrap().into()]
}

#[test]
fn setup_lays_the_start_tile_and_draws_the_first() {
    for seed in 0..20 {
        for (bits, tiles) in [(0, 71), (1, 79), (2, 79), (3, 87)] {
            let options = CarcassonneOptions {
                mage_and_witch: bits & 1 != 0,
                gold_mines: bits & 2 != 0,
            };
            let events = Carcassonne::setup(&options, 4, &mut Ctx::new(seed, 0)).unwrap();
            let state = given::<Carcassonne>(events.clone()).state;
            let CarcassonneEvent::CarcassonneGameStarted(started) = &events[0] else {
                panic!("the game starts first")
            };
            assert_eq!(started.followers, 7);
            assert_eq!(started.gold_ingots, if options.gold_mines { 16 } else { 0 });
            let pile: u32 = started.tile_counts.iter().map(|c| u32::from(c.count)).sum();
            assert_eq!(pile, tiles);
            assert_eq!(
                events[1],
                StartTilePlaced {
                    tile: "D".into(),
                    x: 0,
                    y: 0,
                    rotation: 0
                }
                .into()
            );
            let CarcassonneEvent::TileDrawn(drawn) = &events[2] else {
                panic!("then the first tile is drawn")
            };
            assert_eq!(drawn.seat, started.starting_seat);
            assert_eq!(state.tiles_left(), tiles - 1);
            assert_eq!(Carcassonne::status(&state).to_act, vec![drawn.seat]);
        }
    }
}

#[test]
fn setup_refuses_a_seat_count_outside_2_to_5() {
    for seats in [1, 6] {
        let err = Carcassonne::setup(&CarcassonneOptions::default(), seats, &mut Ctx::new(0, 0))
            .unwrap_err();
        assert_eq!(err.code, "seats_out_of_range");
    }
}
