//! Bots of every kind choose legal commands, finish games, see only what their seat sees, and
//! search as their level says. Each kind's own bot is tested in its folder's `tests/bot.rs`.

use serde_json::{json, Value};

use super::test_support::{play_out, play_out_with, Played, TEST_BUDGET};
use super::*;
use crate::contract::{Seat, Viewer};
use crate::dynamic::GameState;
use crate::games::burgbaumeister::tests::test_support::face_down_cards;
use crate::registry;

mod typed;

#[test]
fn bots_of_every_level_finish_games_of_every_kind_against_random_players() {
    for game in registry::all() {
        let kind = game.kind();
        let seats = game.info().min_seats.max(2);
        let bots: Vec<(Seat, Level)> = [(0, Level::Greedy), (1, Level::Strong)]
            .into_iter()
            .filter(|&(_, level)| supports(kind, level))
            .collect();
        play_out(kind, seats, &bots, 7, 5_000);
    }
}

/// Games with no person at the table end, whatever levels sit at it: every pair of levels, two
/// seats and the most seats, in every kind (Burgbaumeister's variant too). Bots that each
/// judged waiting best once kept a Burgbaumeister game going for ever, every seat turning up a
/// card and returning it.
#[test]
fn games_between_bots_of_any_levels_end_within_a_bound() {
    const BOUND: usize = 3_000;
    for game in registry::all() {
        let kind = game.kind();
        let info = game.info();
        let mut tables = vec![info.min_seats.max(2), info.max_seats];
        tables.dedup();
        let mut options = vec![Value::Null];
        if kind == "burgbaumeister" {
            options.push(json!({"variant": true}));
        }
        for (i, (a, b)) in [
            (Level::Greedy, Level::Greedy),
            (Level::Greedy, Level::Strong),
            (Level::Strong, Level::Strong),
            (Level::Random, Level::Greedy),
        ]
        .into_iter()
        .enumerate()
        {
            for &seats in &tables {
                for options in &options {
                    let bots: Vec<(Seat, Level)> = (0..seats)
                        .map(|s| (s, if s % 2 == 0 { a } else { b }))
                        .collect();
                    let seed = 40 + i as u64 + u64::from(seats);
                    play_out_with(kind, seats, options.clone(), &bots, seed, BOUND);
                }
            }
        }
    }
}

/// A search's quick guesses (the log folded once) are guesses as [`BotRules::determinize`]
/// makes them: the same game for the same randomness where a kind deals the same way, and in
/// every kind a game in which the seat sees just what it sees and the hidden cards are the
/// hidden cards, differently laid out from guess to guess.
#[test]
fn quick_guesses_are_the_guesses_determinize_makes() {
    for game in registry::all() {
        let kind = game.kind();
        let info = game.info();
        let rules = registry::bot_rules(kind).unwrap();
        let mut played = Played::set_up(
            kind,
            3.clamp(info.min_seats, info.max_seats),
            Value::Null,
            11,
        );
        played.play_randomly(&mut GameRng::from_seed(11), 40, 500);
        let seat = played
            .to_act()
            .expect("40 random commands do not end a game");
        let input = played.input(seat);
        let mut guesses = rules.guesser(&input).unwrap();
        let mut layouts = Vec::new();
        for i in 0..4 {
            let quick = guesses(&mut GameRng::from_seed(i)).unwrap();
            assert_eq!(game.view(&quick, Viewer::Seat(seat)), input.view, "{kind}");
            assert_eq!(game.legal_commands(&quick, seat), input.moves, "{kind}");
            if kind == "burgbaumeister" {
                let face_down =
                    |state: &GameState| face_down_cards(&game.view(state, Viewer::Everyone));
                assert_eq!(face_down(&quick), face_down(&played.state));
                layouts.push(game.view(&quick, Viewer::Everyone)["store"].clone());
            } else {
                let slow = rules
                    .determinize(&input, &mut GameRng::from_seed(i))
                    .unwrap();
                assert!(game.same_state(&quick, &slow), "{kind}");
            }
        }
        if let Some(first) = layouts.first() {
            assert!(
                layouts.iter().any(|l| l != first),
                "the store's guesses differ"
            );
        }
    }
}

#[test]
fn every_level_plays_every_kind_and_sends_a_legal_command() {
    for game in registry::all() {
        let kind = game.kind();
        for level in Level::ALL {
            assert!(supports(kind, level), "{kind} {level:?}");
        }
        let game = Played::set_up(kind, game.info().min_seats.max(2), Value::Null, 2);
        let Some(seat) = game.to_act() else { continue };
        let input = game.input(seat);
        for level in Level::ALL {
            let chosen = choose(&input, level, TEST_BUDGET, &mut GameRng::from_seed(1)).unwrap();
            assert!(input.moves.contains(&chosen), "{kind} {level:?}");
        }
    }
    assert!(!supports("chess", Level::Random));
    assert!(!supports("chess", Level::Strong));
}

#[test]
fn a_bot_sends_only_legal_commands_and_refuses_when_it_has_none() {
    let game = Played::set_up("burgbaumeister", 2, Value::Null, 3);
    let seat = game.to_act().unwrap();
    let idle = 1 - seat;
    for level in Level::ALL {
        let input = game.input(idle);
        assert!(input.moves.is_empty());
        assert_eq!(
            choose(&input, level, TEST_BUDGET, &mut GameRng::from_seed(1)),
            Err(BotError::NothingToDo)
        );
    }
}

#[test]
fn levels_are_named_as_the_api_names_them() {
    for level in Level::ALL {
        assert_eq!(Level::from_name(level.name()), Some(level));
        assert_eq!(serde_json::to_value(level).unwrap(), json!(level.name()));
    }
    assert_eq!(Level::from_name("grandmaster"), None);
}

/// The strong level starts from greedy's judgement: given a single iteration, it sends a
/// command greedy judges as good as its own choice (Carcassonne has no secret, so the two judge
/// the same positions; several placements often score alike), and with more it may leave that
/// choice only for one its search finds better.
#[test]
fn a_guided_search_starts_from_the_greedy_choice() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let mut game = Played::set_up("carcassonne", 2, Value::Null, 8);
    let judge = |game: &Played, seat: Seat, command: &Value| {
        let mut state = game.state.clone();
        simulate::apply(
            game.game,
            &mut state,
            seat,
            &game.game.read_typed(command).unwrap(),
            &mut GameRng::from_seed(0),
        )
        .unwrap();
        evaluate::rewards(rules, &state)[usize::from(seat)]
    };
    let mut pick = GameRng::from_seed(8);
    let one = Budget {
        iterations: 1,
        max_millis: None,
    };
    let mut compared = 0;
    for step in 0..24 {
        let seat = game.to_act().unwrap();
        let input = game.input(seat);
        if step % 3 == 0 && input.moves.len() > 3 {
            let greedy = choose(&input, Level::Greedy, one, &mut GameRng::from_seed(step)).unwrap();
            let strong = choose(&input, Level::Strong, one, &mut GameRng::from_seed(step)).unwrap();
            let (strong, greedy) = (judge(&game, seat, &strong), judge(&game, seat, &greedy));
            assert!(
                (strong - greedy).abs() < 1e-9,
                "step {step}: {strong} < {greedy}"
            );
            compared += 1;
        }
        game.play_randomly(&mut pick, 1, step);
    }
    assert!(compared >= 4, "compared only {compared}");
}

/// A playout's greedy move is the one whose next position the evaluation likes best for the
/// seat (Carcassonne: no secret, and a placement's value does not hang on the next tile).
#[test]
fn a_greedy_playout_move_is_the_best_judged_one() {
    let rules = registry::bot_rules("carcassonne").unwrap();
    let mut game = Played::set_up("carcassonne", 2, Value::Null, 3);
    let mut pick = GameRng::from_seed(3);
    let mut compared = 0;
    for step in 0..30 {
        let seat = game.to_act().unwrap();
        let moves = rules.moves(&game.state, seat);
        if moves.len() > 2 {
            let judged: Vec<f64> = moves
                .iter()
                .map(|m| {
                    let mut state = game.state.clone();
                    simulate::apply(game.game, &mut state, seat, m, &mut GameRng::from_seed(0))
                        .unwrap();
                    evaluate::rewards(rules, &state)[usize::from(seat)]
                })
                .collect();
            let best = simulate::best_next(
                rules,
                &game.state,
                seat,
                &moves,
                &mut GameRng::from_seed(step),
            );
            let top = judged.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert_eq!(judged[best], top, "step {step}: {:?}", moves[best]);
            compared += 1;
        }
        game.play_randomly(&mut pick, 1, step);
    }
    assert!(compared > 10, "only {compared} positions compared");
}

#[test]
fn bots_are_not_paced_when_nothing_is_raced() {
    let mut game = Played::set_up("space-builder", 2, Value::Null, 11);
    game.play_at(1, &json!({"type": "StopBuilding"}), 1_000);
    assert_eq!(due_ms(&game.input(1), Level::Greedy, 3), None, "stopped");
    let turns = Played::set_up("mauerbauer", 2, Value::Null, 11);
    let seat = turns.to_act().unwrap();
    assert_eq!(due_ms(&turns.input(seat), Level::Greedy, 3), None);
    let looks = Played::set_up("space-builder", 2, json!({"timing": "elapsed"}), 11);
    assert_eq!(
        due_ms(&looks.input(1), Level::Greedy, 3),
        None,
        "looking at the blueprint is not delayed"
    );
}
