//! Space Builder bots: they cannot see the others' boards, their guesses agree with the seat's
//! view, and they build the plan.

use serde_json::{json, Value};

use super::{assert_blind, play_out, Played};
use crate::bots::{choose, Level};
use crate::contract::{Seat, Viewer};
use crate::games::space_builder::{target, State};
use crate::registry::bot_rules;
use crate::rng::GameRng;

use super::TEST_BUDGET;

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
    let rules = bot_rules("space-builder").unwrap();
    let (a, _, seat) = twins(3);
    let input = a.input(seat);
    let mut rng = GameRng::from_seed(3);
    for _ in 0..5 {
        let guess = rules.determinize(&input, &mut rng).unwrap();
        assert_eq!(a.game.view(&guess, Viewer::Seat(seat)), input.view);
        assert_eq!(a.game.legal_commands(&guess, seat), input.moves);
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
