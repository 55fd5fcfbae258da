//! The take-back rule on every kind, by random play over legal moves: what it allows and
//! refuses, and that a take-back restores exactly the state before the command.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::*;
use crate::contract::Ctx;
use crate::registry;
use crate::rng::GameRng;
use crate::testing::viewers;

/// What random play found for one kind: commands by type, taken back or not.
#[derive(Default, Debug)]
struct Verdicts {
    undoable: BTreeMap<String, usize>,
    refused: BTreeMap<String, usize>,
    taken_back: usize,
}

fn tag(command: &Value) -> String {
    command["type"].as_str().unwrap_or_default().to_string()
}

/// Where a game says its viewers all see alike, every seat sees what the spectators see.
fn viewers_alike_see_alike(game: &dyn DynGame, state: &GameState, seats: u8) {
    if game.viewers_see_alike() {
        for seat in 0..seats {
            assert_eq!(
                game.view(state, Viewer::Seat(seat)),
                game.view(state, Viewer::Spectator),
                "{}: seat {seat} sees otherwise than the spectators",
                game.kind()
            );
        }
    }
}

/// The rule's parts, each on its own: a command that drew randomness, ended the game or
/// produced an event some viewer sees redacted is judged to reveal.
fn each_part_of_the_rule_reveals(
    game: &dyn DynGame,
    state: &GameState,
    events: &[Value],
    draws: u64,
    seats: u8,
    revealed: bool,
    command: &Value,
) {
    if draws > 0 || game.status(state).finished {
        assert!(
            revealed,
            "{}: {command} drew or ended but is undoable",
            game.kind()
        );
    }
    let hidden = viewers(seats)
        .into_iter()
        .filter(|v| *v != Viewer::Everyone)
        .any(|v| {
            events
                .iter()
                .any(|e| game.redact(state, e, v).as_ref() != Some(e))
        });
    if hidden {
        assert!(
            revealed,
            "{}: {command} hid an event but is undoable",
            game.kind()
        );
    }
}

/// Plays `game` with `seats` seats by random legal moves, judging every command by the rule,
/// and takes back about half of the undoable ones (then plays on from the restored state).
/// Returns the verdicts and the whole log, take-backs included.
fn play(game: &'static dyn DynGame, seats: u8, seed: u64, max: usize) -> (Verdicts, Vec<Value>) {
    let options = game.validate_options(&Value::Null, seats).unwrap();
    let mut picker = GameRng::from_seed(seed);
    let mut log = game.setup(&options, seats, &mut Ctx::new(seed, 0)).unwrap();
    let mut state = game.replay(&log).unwrap();
    let mut verdicts = Verdicts::default();
    // The views the last judgement left, as the server keeps them for a game's next command.
    let mut kept = ViewTapes::default();
    for step in 0..max {
        let status = game.status(&state);
        if status.finished || status.to_act.is_empty() {
            break;
        }
        let seat = status.to_act[picker.index(status.to_act.len())];
        let legal = game.legal_commands(&state, seat);
        let command = legal[picker.index(legal.len())].clone();
        let mut ctx = Ctx::new(picker.next_u64(), step as i64 * 1000);
        let events = game.decide(&state, seat, &command, &mut ctx).unwrap();
        let draws = ctx.rng.draws();
        let before = state.clone();
        for event in &events {
            game.evolve(&mut state, event).unwrap();
        }
        let revealed = reveals(game, &before, &state, &events, draws, seats);
        let judgement = judge_keeping(game, &before, &state, &events, draws, seats, kept);
        assert_eq!(
            judgement.reveals,
            revealed,
            "{}: {command}: judged on the views kept from the last command, the verdict differs",
            game.kind()
        );
        kept_are_the_views(game, &state, seats, &judgement.after);
        viewers_alike_see_alike(game, &state, seats);
        kept = judgement.after;
        assert_eq!(
            revealed,
            as_stated(game, &before, &state, &events, draws, seats),
            "{}: {command}: the walk and the rule as stated disagree",
            game.kind()
        );
        each_part_of_the_rule_reveals(game, &state, &events, draws, seats, revealed, &command);
        let verdict = judge(
            true,
            seat,
            LastCommand::Player {
                seat,
                reveals: revealed,
            },
            true,
        );
        assert_eq!(verdict.is_ok(), !revealed);
        if revealed {
            assert_eq!(verdict, Err(Refusal::Reveals));
            *verdicts.refused.entry(tag(&command)).or_default() += 1;
        } else {
            *verdicts.undoable.entry(tag(&command)).or_default() += 1;
            // Nothing drawn: the same command decided with other randomness gives the same
            // events (what was shown did not depend on chance).
            let again = game
                .decide(
                    &before,
                    seat,
                    &command,
                    &mut Ctx::new(!seed, step as i64 * 1000),
                )
                .unwrap();
            assert_eq!(again, events, "{}: {command}", game.kind());
        }
        let from_version = log.len() as i64 + 1;
        log.extend(events.iter().cloned());
        if !revealed && picker.below(2) == 0 {
            let take_back = CommandTakenBack {
                seat,
                from_version,
                to_version: log.len() as i64,
            };
            log.push(take_back.to_value());
            state = game
                .replay(&log)
                .unwrap_or_else(|e| panic!("{}: {e}", game.kind()));
            assert!(
                game.same_state(&state, &before),
                "{}: taking back {command} does not restore the state",
                game.kind()
            );
            for viewer in viewers(seats) {
                assert_eq!(game.view(&state, viewer), game.view(&before, viewer));
            }
            assert_eq!(game.legal_commands(&state, seat), legal);
            verdicts.taken_back += 1;
            // The state is the one before the command again: the views kept of it are not.
            kept = ViewTapes::default();
        }
    }
    assert!(game.same_state(&game.replay(&log).unwrap(), &state));
    (verdicts, log)
}

/// Every view a judgement kept is the view of the state after the command, written afresh.
fn kept_are_the_views(game: &dyn DynGame, after: &GameState, seats: u8, kept: &ViewTapes) {
    let fresh = |viewer| {
        let mut tape = Tape::default();
        game.judged_tape(after, viewer, &mut tape);
        tape
    };
    if let Some(everyone) = &kept.everyone {
        assert_eq!(*everyone, fresh(Viewer::Everyone), "{}", game.kind());
    }
    let viewers = judged_viewers(game, seats);
    assert!(kept.seen.len() <= viewers.len(), "{}", game.kind());
    for (tape, viewer) in kept.seen.iter().zip(viewers) {
        if let Some(tape) = tape {
            assert_eq!(*tape, fresh(viewer), "{}: {viewer:?}", game.kind());
        }
    }
}

/// The rule of [`reveals`] as stated, written plainly (every difference path collected, owned,
/// then looked up): the reference that the allocation-free walk must agree with.
fn as_stated(
    game: &dyn DynGame,
    before: &GameState,
    after: &GameState,
    events: &[Value],
    draws: u64,
    seats: u8,
) -> bool {
    #[derive(Clone, Debug, PartialEq)]
    enum Owned {
        Field(String),
        Index(usize),
    }
    fn paths(a: &Value, b: &Value, path: &mut Vec<Owned>, out: &mut Vec<Vec<Owned>>) {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for key in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                    path.push(Owned::Field(key.clone()));
                    match (x.get(key), y.get(key)) {
                        (Some(p), Some(q)) => paths(p, q, path, out),
                        _ => out.push(path.clone()),
                    }
                    path.pop();
                }
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    path.push(Owned::Index(i));
                    paths(p, q, path, out);
                    path.pop();
                }
            }
            _ if a != b => out.push(path.clone()),
            _ => {}
        }
    }
    fn at<'v>(value: &'v Value, path: &[Owned]) -> Option<&'v Value> {
        path.iter().try_fold(value, |v, step| match step {
            Owned::Field(key) => v.get(key),
            Owned::Index(i) => v.get(i),
        })
    }
    if draws > 0 || game.status(after).finished {
        return true;
    }
    let viewers: Vec<Viewer> = (0..seats)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator))
        .collect();
    if viewers.iter().any(|v| {
        events
            .iter()
            .any(|e| game.redact(after, e, *v).as_ref() != Some(e))
    }) {
        return true;
    }
    let all_before = game.view(before, Viewer::Everyone);
    let all_after = game.view(after, Viewer::Everyone);
    viewers.iter().any(|viewer| {
        let seen_before = game.view(before, *viewer);
        let seen_after = game.view(after, *viewer);
        if seen_before == seen_after {
            return false;
        }
        let mut hidden_before = Vec::new();
        paths(
            &all_before,
            &seen_before,
            &mut Vec::new(),
            &mut hidden_before,
        );
        let mut hidden = hidden_before.clone();
        paths(&all_after, &seen_after, &mut Vec::new(), &mut hidden);
        hidden
            .iter()
            .any(|path| at(&all_before, path) != at(&all_after, path))
            || hidden_before
                .iter()
                .any(|path| at(&seen_before, path) != at(&seen_after, path))
    })
}

/// A fold that starts at any version of `log` (as from a stored snapshot) ends where the whole
/// fold does; when a take-back reaches back before its start, it says from where to fold.
fn fold_from_anywhere(game: &'static dyn DynGame, log: &[Value]) {
    let whole = game.replay(log).unwrap();
    for start in (0..log.len()).step_by(7) {
        let mut from = start;
        let fold = loop {
            let base = game.replay(&log[..from]).unwrap();
            let take_backs = log[from..]
                .iter()
                .filter_map(|e| CommandTakenBack::of(e).unwrap());
            match Fold::new(game, base, from as i64, take_backs) {
                Ok(fold) => break fold,
                Err(back_to) => {
                    assert!((back_to as usize) < from);
                    from = back_to as usize;
                }
            }
        };
        let mut fold = fold;
        for (i, event) in log.iter().enumerate().skip(from) {
            fold.apply(i as i64 + 1, event).unwrap();
        }
        assert!(game.same_state(&fold.state, &whole), "from {start}");
    }
}

#[test]
fn every_kind_has_undoable_and_refused_commands_and_a_take_back_restores_the_state() {
    for game in registry::all() {
        let info = game.info();
        let mut total = Verdicts::default();
        for seed in 0..6u64 {
            let seats = info.min_seats + (seed as u8 % (info.max_seats - info.min_seats + 1));
            let (verdicts, log) = play(*game, seats, seed, 250);
            fold_from_anywhere(*game, &log);
            for (k, n) in verdicts.undoable {
                *total.undoable.entry(k).or_default() += n;
            }
            for (k, n) in verdicts.refused {
                *total.refused.entry(k).or_default() += n;
            }
            total.taken_back += verdicts.taken_back;
        }
        println!("{}: {total:?}", info.kind);
        assert!(!total.refused.is_empty(), "{}: nothing refused", info.kind);
        assert!(
            !total.undoable.is_empty(),
            "{}: nothing undoable",
            info.kind
        );
        assert!(total.taken_back > 0, "{}", info.kind);
    }
}

#[test]
fn the_rule_refuses_with_the_reason() {
    let player = |seat, reveals| LastCommand::Player { seat, reveals };
    assert_eq!(judge(false, 0, player(0, false), true), Err(Refusal::Off));
    assert_eq!(judge(true, 0, player(0, false), true), Ok(()));
    assert_eq!(judge(true, 0, player(0, true), true), Err(Refusal::Reveals));
    assert_eq!(
        judge(true, 0, player(1, false), true),
        Err(Refusal::OthersActed)
    );
    assert_eq!(
        judge(true, 0, player(1, false), false),
        Err(Refusal::NothingToUndo)
    );
    assert_eq!(
        judge(true, 0, LastCommand::SetUp, false),
        Err(Refusal::NothingToUndo)
    );
    assert_eq!(
        judge(true, 0, LastCommand::TakeBack, true),
        Err(Refusal::NothingToUndo)
    );
    assert_eq!(
        judge(true, 0, LastCommand::Deadline, true),
        Err(Refusal::OthersActed)
    );
    assert_eq!(
        judge(true, 0, LastCommand::Clock { seat: 0 }, true),
        Err(Refusal::NotYourCommand)
    );
    assert_eq!(
        judge(true, 0, LastCommand::Clock { seat: 1 }, true),
        Err(Refusal::OthersActed)
    );
    let codes: Vec<_> = [
        Refusal::Off,
        Refusal::NothingToUndo,
        Refusal::NotYourCommand,
        Refusal::OthersActed,
        Refusal::Reveals,
    ]
    .iter()
    .map(|r| r.code())
    .collect();
    assert_eq!(
        codes,
        [
            "undo_off",
            "nothing_to_undo",
            "not_your_command",
            "others_acted",
            "undo_reveals"
        ]
    );
}

#[test]
fn a_take_back_is_public_to_every_viewer() {
    let event = CommandTakenBack {
        seat: 1,
        from_version: 5,
        to_version: 6,
    }
    .to_value();
    assert_eq!(event["type"], EVENT);
    for game in registry::all() {
        let state = game.initial();
        for viewer in viewers(2) {
            assert_eq!(game.redact(&state, &event, viewer), Some(event.clone()));
        }
    }
}

#[test]
fn a_take_back_that_names_versions_after_it_or_unannounced_is_corrupt() {
    let game = registry::all()[0];
    let options = game.validate_options(&Value::Null, 2).unwrap();
    let mut log = game.setup(&options, 2, &mut Ctx::new(1, 0)).unwrap();
    let n = log.len() as i64;
    log.push(
        CommandTakenBack {
            seat: 0,
            from_version: n,
            to_version: n + 3,
        }
        .to_value(),
    );
    assert!(matches!(
        game.replay(&log),
        Err(DomainError::CorruptEvent(_))
    ));
    let mut fold = Fold::new(game, game.initial(), 0, []).unwrap();
    let err = fold.apply(
        1,
        &CommandTakenBack {
            seat: 0,
            from_version: 1,
            to_version: 1,
        }
        .to_value(),
    );
    assert!(err.is_err());
}

/// The views' rule worked through by hand, on views written as JSON: the cases random play of
/// the five games does not tell apart (there a change to a hidden place comes with a draw or a
/// hidden event, which decide before the views are compared).
#[test]
fn the_views_reveal_exactly_a_change_where_the_viewer_did_not_see() {
    // (all before, all after, seen before, seen after) → revealed to that viewer.
    let cases = [
        // A face-down card swapped for another: the viewer's view is as it was, but what was
        // hidden from them changed.
        (
            json!({"store": [{"card": 5}, {"card": 1}], "turn": 0}),
            json!({"store": [{"card": 7}, {"card": 1}], "turn": 1}),
            json!({"store": [{"card": null}, {"card": 1}], "turn": 0}),
            json!({"store": [{"card": null}, {"card": 1}], "turn": 1}),
            true,
        ),
        // A face-down card taken away: the place now shows nothing to anybody, as it showed
        // nothing to the viewer before, but what was hidden there changed.
        (
            json!({"store": [{"card": 5}, {"card": 1}], "turn": 0}),
            json!({"store": [{"card": null}, {"card": 1}], "turn": 1}),
            json!({"store": [{"card": null}, {"card": 1}], "turn": 0}),
            json!({"store": [{"card": null}, {"card": 1}], "turn": 1}),
            true,
        ),
        // A face-down card turned up: its number did not change, only who sees it.
        (
            json!({"store": [{"card": 5}], "turn": 0}),
            json!({"store": [{"card": 5}], "turn": 0}),
            json!({"store": [{"card": null}], "turn": 0}),
            json!({"store": [{"card": 5}], "turn": 0}),
            true,
        ),
        // A public card changed where the viewer now cannot see it: what is hidden after
        // changed (the second walk's case).
        (
            json!({"hand": [1, 2], "turn": 0}),
            json!({"hand": [1, 3], "turn": 0}),
            json!({"hand": [1, 2], "turn": 0}),
            json!({"hand": null, "turn": 0}),
            true,
        ),
        // Only public parts changed, beside hidden ones left as they were.
        (
            json!({"store": [{"card": 5}, {"card": 1}], "turn": 0, "score": [0, 0]}),
            json!({"store": [{"card": 5}, {"card": 1}], "turn": 1, "score": [0, 2]}),
            json!({"store": [{"card": null}, {"card": 1}], "turn": 0, "score": [0, 0]}),
            json!({"store": [{"card": null}, {"card": 1}], "turn": 1, "score": [0, 2]}),
            false,
        ),
        // A public card moved within a part that also holds a hidden one left as it was.
        (
            json!({"store": [{"card": 5}, {"card": 1}]}),
            json!({"store": [{"card": 5}, {"card": 2}]}),
            json!({"store": [{"card": null}, {"card": 1}]}),
            json!({"store": [{"card": null}, {"card": 2}]}),
            false,
        ),
        // Nothing the viewer sees changed, and nothing hidden did.
        (
            json!({"store": [{"card": 5}], "turn": 0}),
            json!({"store": [{"card": 5}], "turn": 0}),
            json!({"store": [{"card": null}], "turn": 0}),
            json!({"store": [{"card": null}], "turn": 0}),
            false,
        ),
    ];
    for (i, (all_before, all_after, seen_before, seen_after, revealed)) in cases.iter().enumerate()
    {
        let tapes: Vec<Tape> = [all_before, all_after, seen_before, seen_after]
            .iter()
            .map(|v| Tape::of(v).unwrap())
            .collect();
        assert_eq!(
            revealed_to(
                tapes[0].root(),
                tapes[1].root(),
                tapes[2].root(),
                tapes[3].root(),
                &Unchanged::new(&tapes[0]),
            ),
            *revealed,
            "case {i}"
        );
    }
}
