//! Carcassonne's bot: with no secret in the game, a guess is the game; its judgement of a
//! position.

use serde_json::Value;

use crate::bots::test_support::Played;
use crate::registry;
use crate::rng::GameRng;

#[test]
fn carcassonne_has_no_secret_so_a_guess_is_the_game() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let mut game = Played::set_up("carcassonne", 2, Value::Null, 5);
    let played = game.play_randomly(&mut GameRng::from_seed(5), 30, 0);
    assert_eq!(played.len(), 30, "30 random commands do not end a game");
    let seat = game.to_act().unwrap();
    let guess = rules
        .determinize(&game.input(seat), &mut GameRng::from_seed(0))
        .unwrap();
    assert!(game.game.same_state(&guess, &game.state));
}

#[test]
fn carcassonne_counts_unfinished_features_and_followers_at_home() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let game = Played::set_up("carcassonne", 2, Value::Null, 5);
    let start = rules.evaluate(&game.state, 0);
    assert_eq!(
        start,
        7.0 * 1.5,
        "nothing scored yet; seven followers at home"
    );
}
