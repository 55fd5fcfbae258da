//! Die Goldminen: two ingots per gold tile (the second where the player chooses among the 8
//! around it), a supply of 16, the gold of completed features handed out one ingot at a time
//! among tied majorities starting with the active player, a cloister's 3 × 3 tiles.

use crate::contract::Game;
use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

fn ingot(seat: u8, x: i32, y: i32) -> CarcassonneEvent {
    GoldIngotPlaced { seat, x, y }.into()
}

fn taken(seat: u8, x: i32, y: i32) -> CarcassonneEvent {
    GoldIngotTaken { seat, x, y }.into()
}

/// The ingots taken, in order, when `seat` skips placing a follower at `table`, and the state
/// after.
fn ingots_taken_on_skipping(table: Table, seat: u8) -> (Vec<CarcassonneEvent>, State) {
    let (events, state) = given::<Carcassonne>(table.events)
        .when(seat, SkipFollower {})
        .accepted();
    let gold = events
        .into_iter()
        .filter(|e| matches!(e, CarcassonneEvent::GoldIngotTaken(_)))
        .collect();
    (gold, state)
}

fn gm8_placed(seat: u8) -> CarcassonneEvent {
    placed(seat, "GM8", 1, 0, 0)
}

#[test]
fn a_gold_tile_takes_one_ingot_and_the_player_places_the_second_next_to_it() {
    let table = Table::expansions(2).lay(0, "E", 0, -1, 180).drawn(1, "GM8");
    let state = given::<Carcassonne>(table.clone())
        .when(1, place_tile(1, 0, 0))
        .then([gm8_placed(1), ingot(1, 1, 0)]);
    assert_eq!(phase(&state), Phase::PlaceGoldIngot);
    assert_eq!(
        Carcassonne::legal_commands(&state, 1),
        vec![
            PlaceGoldIngot { x: 0, y: -1 }.into(),
            PlaceGoldIngot { x: 0, y: 0 }.into(),
        ],
        "the placed tiles around it, diagonals too, in reading order"
    );
    let mut events = table;
    events.extend([gm8_placed(1), ingot(1, 1, 0)]);
    for (x, y) in [(1, 0), (2, 0), (5, 5)] {
        given::<Carcassonne>(events.clone())
            .when(1, PlaceGoldIngot { x, y })
            .then_error("not_next_to_gold_tile");
    }
    let state = given::<Carcassonne>(events)
        .when(1, PlaceGoldIngot { x: 0, y: -1 })
        .then([ingot(1, 0, -1)]);
    assert_eq!(phase(&state), Phase::PlaceFollower);
    assert_eq!(state.gold_supply, 14);
    assert_eq!(state.board.at(at(1, 0)).unwrap().gold, 1);
    assert_eq!(state.board.at(at(0, -1)).unwrap().gold, 1);
}

#[test]
fn with_one_tile_next_to_it_both_ingots_go_down_by_themselves() {
    let table = Table::expansions(2).drawn(0, "GM8");
    let state = given::<Carcassonne>(table)
        .when(0, place_tile(1, 0, 0))
        .then([gm8_placed(0), ingot(0, 1, 0), ingot(0, 0, 0)]);
    assert_eq!(phase(&state), Phase::PlaceFollower);
}

#[test]
fn ingots_run_out_after_16() {
    // 15 ingots already taken: one left, and it goes onto the gold tile itself.
    let table = Table::expansions(2)
        .lay(0, "E", 0, -1, 180)
        .ingots(0, 15, at(0, 0))
        .drawn(1, "GM8");
    let state = given::<Carcassonne>(table)
        .when(1, place_tile(1, 0, 0))
        .then([gm8_placed(1), ingot(1, 1, 0)]);
    assert_eq!(
        phase(&state),
        Phase::PlaceFollower,
        "no second ingot to place"
    );
    let table = Table::expansions(2).ingots(0, 16, at(0, 0)).drawn(1, "GM8");
    given::<Carcassonne>(table)
        .when(1, place_tile(1, 0, 0))
        .then([gm8_placed(1)]);
}

#[test]
fn without_the_expansion_a_gold_symbol_does_nothing() {
    let events = Table::new(2).drawn(0, "GM8");
    given::<Carcassonne>(events)
        .when(0, place_tile(1, 0, 0))
        .then([gm8_placed(0)]);
}

#[test]
fn the_only_majority_takes_all_the_gold_of_a_completed_city() {
    let table = Table::expansions(2)
        .gold(0, 0, 2)
        .follower(1, 0, 0, 0)
        .lay(0, "E", 0, -1, 180);
    let (gold, state) = ingots_taken_on_skipping(table, 0);
    assert_eq!(gold, vec![taken(1, 0, 0), taken(1, 0, 0)]);
    assert_eq!(state.ingots, vec![0, 2]);
}

#[test]
fn a_completed_feature_without_followers_leaves_its_gold() {
    let table = Table::expansions(2).gold(0, 0, 2).lay(0, "E", 0, -1, 180);
    let (gold, state) = ingots_taken_on_skipping(table, 0);
    assert!(gold.is_empty());
    assert_eq!(state.board.at(at(0, 0)).unwrap().gold, 2);
}

#[test]
fn tied_players_take_one_ingot_each_in_turn_the_active_player_first() {
    // The two-part city of the scoring tests, knights of seats 0 and 1, gold on two of its
    // tiles; seat 1 lays the joining G. Seat 2 has no knight there and takes nothing.
    let table = city_in_two_parts(Table::expansions(3))
        .gold(0, -1, 3)
        .gold(2, 0, 2)
        .lay(1, "G", 1, -1, 0);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .accepted();
    let gold: Vec<CarcassonneEvent> = until_next_turn(events)
        .into_iter()
        .filter(|e| matches!(e, CarcassonneEvent::GoldIngotTaken(_)))
        .collect();
    assert_eq!(
        gold,
        vec![
            taken(1, 0, -1),
            taken(0, 0, -1),
            taken(1, 0, -1),
            taken(0, 2, 0),
            taken(1, 2, 0),
        ]
    );
    assert_eq!(state.ingots, vec![2, 3, 0]);
}

#[test]
fn a_completed_cloister_takes_the_gold_of_its_3_by_3_tiles() {
    let table = cloister_nearly_surrounded(Table::expansions(2))
        .gold(-1, 2, 1)
        .gold(-1, 0, 2)
        .lay(0, "E", 1, 2, 180);
    let (gold, state) = ingots_taken_on_skipping(table, 0);
    assert_eq!(
        gold,
        vec![taken(1, -1, 0), taken(1, -1, 0), taken(1, -1, 2)],
        "the monk's player takes it all, tile by tile in reading order"
    );
    assert_eq!(state.ingots, vec![0, 3]);
}

#[test]
fn gold_claimed_by_two_features_is_shared_between_their_majorities() {
    // The E at (0,-1) closes the start tile's city (seat 0's knight) and completes the
    // cloister at (1,-1) (seat 1's monk). The start tile lies in both: its 2 ingots are shared,
    // seat 0 first as the active player; the ingot at (2,-1) is the monk's alone.
    let table = city_and_cloister_open(Table::expansions(2))
        .gold(0, 0, 2)
        .gold(2, -1, 1)
        .lay(0, "E", 0, -1, 180);
    let (gold, state) = ingots_taken_on_skipping(table, 0);
    assert_eq!(gold, vec![taken(0, 0, 0), taken(1, 0, 0), taken(1, 2, -1)]);
    assert_eq!(state.ingots, vec![1, 2]);
}
