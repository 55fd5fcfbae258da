//! Imagined games are played with typed commands ([`crate::TypedCommand`]): they must be the
//! game's listed commands and play exactly as their JSON does through `decide` and `evolve`.

use serde_json::Value;

use super::Played;
use crate::contract::Ctx;
use crate::registry;
use crate::registry::bot_rules;
use crate::rng::GameRng;

/// In random games of every kind, at every step and for every seat to act: the typed commands
/// are the listed ones in the same order, each reads back from its JSON as itself, the bot
/// rules' typed moves are the commands their JSON candidates keep, and a command played typed
/// leaves the very state that deciding and folding its JSON leaves, with the same randomness.
#[test]
fn typed_commands_are_the_listed_ones_and_play_as_their_json_does() {
    for game in registry::all() {
        let kind = game.kind();
        let info = game.info();
        let seats = info.min_seats.max(2).min(info.max_seats);
        let rules = bot_rules(kind).unwrap();
        for seed in 0..3u64 {
            let mut played = Played::set_up(kind, seats, Value::Null, seed);
            let mut pick = GameRng::from_seed(seed);
            let mut compared = 0;
            for step in 0..200u64 {
                let status = game.status(&played.state);
                if status.finished {
                    break;
                }
                for &seat in &status.to_act {
                    let legal = game.legal_commands(&played.state, seat);
                    let typed = game.typed_commands(&played.state, seat);
                    let written: Vec<Value> = typed.iter().map(|c| c.to_value()).collect();
                    assert_eq!(written, legal, "{kind}: typed commands are the listed ones");
                    for (json, command) in legal.iter().zip(&typed) {
                        assert_eq!(&game.read_typed(json).unwrap(), command, "{kind}: {json}");
                    }
                    let moves: Vec<Value> = rules
                        .moves(&played.state, seat)
                        .iter()
                        .map(|c| c.to_value())
                        .filter(|c| legal.contains(c))
                        .collect();
                    if !moves.is_empty() {
                        let kept = rules.candidates(&played.state, seat, legal.clone());
                        assert_eq!(moves, kept, "{kind}: typed moves are the candidates");
                    }
                }
                let seat = status.to_act[pick.index(status.to_act.len())];
                let typed = game.typed_commands(&played.state, seat);
                let command = &typed[pick.index(typed.len())];
                let mut imagined = played.state.clone();
                game.play_typed(&mut imagined, seat, command, &mut Ctx::new(step, 0))
                    .unwrap();
                played.play(seat, &command.to_value(), step);
                assert!(
                    game.same_state(&imagined, &played.state),
                    "{kind}: {command:?} played typed as its JSON"
                );
                compared += 1;
            }
            assert!(compared > 20, "{kind}: only {compared} commands compared");
        }
    }
}

/// A command of another kind is refused by a typed game, never played as something else.
#[test]
fn a_typed_command_of_another_kind_is_refused() {
    let mauerbauer = Played::set_up("mauerbauer", 2, Value::Null, 1);
    let seat = mauerbauer.to_act().unwrap();
    let foreign = registry::find("carcassonne").unwrap();
    let carcassonne = Played::set_up("carcassonne", 2, Value::Null, 1);
    let command =
        foreign.typed_commands(&carcassonne.state, carcassonne.to_act().unwrap())[0].clone();
    let mut state = mauerbauer.state.clone();
    assert!(mauerbauer
        .game
        .play_typed(&mut state, seat, &command, &mut Ctx::new(0, 0))
        .is_err());
    assert!(mauerbauer.game.same_state(&state, &mauerbauer.state));
    assert_ne!(
        command,
        mauerbauer.game.typed_commands(&mauerbauer.state, seat)[0]
    );
}
