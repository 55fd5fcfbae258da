//! Space Builder bots: they cannot see the others' boards, their guesses agree with the seat's
//! view, and they build the plan.

use serde_json::{json, Value};

use super::super::{target, Placement, State};
use crate::bots::test_support::{assert_blind, play_out, Played, TEST_BUDGET};
use crate::bots::{act_millis, choose, due_ms, gives_up, Level};
use crate::contract::{Seat, Viewer};
use crate::rng::GameRng;

/// A round of Space Builder for three in which every seat but `seat` has placed some cards, and
/// the same game in which they placed them elsewhere: the two differ only in the boards `seat`
/// may not see.
fn twins(seed: u64) -> (Played, Played, Seat) {
    let mut a = Played::set_up("space-builder", 3, Value::Null, seed);
    let mut b = Played::set_up("space-builder", 3, Value::Null, seed);
    let seat = 0;
    for other in 1..3u8 {
        for (i, slot) in [(1, 0), (2, 1)] {
            let lay = |slot: u8| json!({"type": "PlaceBuildingCard", "card": i, "slot": slot, "face": "A", "rotation": 0});
            a.play(other, &lay(slot), seed + u64::from(other));
            b.play(other, &lay(8 - slot), seed + u64::from(other));
        }
    }
    assert_ne!(
        a.game.view(&a.state, Viewer::Everyone),
        b.game.view(&b.state, Viewer::Everyone),
        "the twins differ in the others' boards"
    );
    (a, b, seat)
}

#[test]
fn space_builder_bots_cannot_peek_at_other_boards() {
    for seed in 0..4 {
        let (a, b, seat) = twins(seed);
        assert_blind(&a, &b, seat, seed);
    }
}

#[test]
fn space_builder_guesses_show_the_seat_its_view_and_as_many_cards_placed() {
    let (a, _, seat) = twins(3);
    for guess in a.guesses(seat, 3) {
        let g = guess.downcast::<State>().unwrap();
        let plan = target(g.blueprint.as_ref().unwrap());
        for other in 1..3 {
            assert_eq!(g.players[other].city.len(), 2);
            assert!(g.players[other].city.iter().all(|p| plan.contains(p)));
        }
    }
}

#[test]
fn space_builder_searching_bots_lay_their_cards_as_the_plan_wants() {
    let game = Played::set_up("space-builder", 2, Value::Null, 5);
    let state = game.state.downcast::<State>().unwrap();
    let plan = target(state.blueprint.as_ref().unwrap());
    for level in [Level::Greedy, Level::Strong] {
        let input = game.input(0);
        let chosen = choose(&input, level, TEST_BUDGET, &mut GameRng::from_seed(1)).unwrap();
        assert_eq!(chosen["type"], "PlaceBuildingCard", "{level:?}");
        let card = chosen["card"].as_u64().unwrap() as u8;
        let want = plan.iter().find(|p| p.card == card).unwrap();
        assert_eq!(chosen["slot"], want.slot, "{level:?}");
        assert_eq!(chosen["rotation"], want.rotation, "{level:?}");
    }
}

#[test]
fn space_builder_greedy_and_strong_bots_finish_games_against_random_players() {
    play_out(
        "space-builder",
        3,
        &[(0, Level::Greedy), (1, Level::Strong)],
        31,
        20_000,
    );
}

#[test]
fn a_space_builder_bot_acts_a_persons_time_after_its_last_act_and_a_draw_stands() {
    let mut game = Played::set_up("space-builder", 2, Value::Null, 11);
    let started = game.input(1).view["round_started_ms"].as_i64().unwrap();
    for level in Level::ALL {
        let (low, high) = act_millis(level);
        let due = due_ms(&game.input(1), level, 3).expect("a race is paced");
        assert!((started + low..=started + high).contains(&due), "{level:?}");
    }
    let first = due_ms(&game.input(1), Level::Greedy, 3).unwrap();
    // The other player's acts do not draw the bot's time again.
    let plan = target(
        game.state
            .downcast::<State>()
            .unwrap()
            .blueprint
            .as_ref()
            .unwrap(),
    );
    let lay = |p: &Placement| {
        let mut command = serde_json::to_value(p).unwrap();
        command["type"] = json!("PlaceBuildingCard");
        command
    };
    let hand = game.input(0).view["players"][0]["hand"].clone();
    let held: Vec<_> = plan
        .iter()
        .filter(|p| hand.as_array().unwrap().contains(&json!(p.card)))
        .collect();
    game.play_at(0, &lay(held[0]), started + 500);
    assert_eq!(due_ms(&game.input(1), Level::Greedy, 3), Some(first));
    // Its own act starts the next wait.
    game.play_at(1, &lay(held[0]), started + 10_000);
    let (low, high) = act_millis(Level::Greedy);
    let next = due_ms(&game.input(1), Level::Greedy, 3).unwrap();
    assert!((started + 10_000 + low..=started + 10_000 + high).contains(&next));
}

#[test]
fn the_random_bot_gives_up_a_round_after_two_acts_a_card_and_two_more() {
    let mut game = Played::set_up("space-builder", 2, Value::Null, 11);
    let lay = |slot: u8| json!({"type": "PlaceBuildingCard", "card": 1, "slot": slot, "face": "A", "rotation": 0});
    let shift = |slot: u8| json!({"type": "MoveBuildingCard", "card": 1, "slot": slot, "face": "A", "rotation": 0});
    game.play_at(1, &lay(0), 1_000);
    // Four cards held: ten acts (two a card and two more) before it gives up.
    for act in 1..10u8 {
        assert_eq!(gives_up(&game.input(1), Level::Random), None, "after {act}");
        game.play_at(1, &shift(act % 9), 1_000 + i64::from(act));
    }
    assert_eq!(
        gives_up(&game.input(1), Level::Random),
        Some(json!({"type": "StopBuilding"}))
    );
    assert_eq!(
        gives_up(&game.input(1), Level::Greedy),
        None,
        "it builds the plan"
    );
    assert_eq!(
        gives_up(&game.input(0), Level::Random),
        None,
        "its own acts count"
    );
}
