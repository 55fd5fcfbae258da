//! The audit's starting points. A stored snapshot that carries this server's signature over the
//! state at its version, and whose hash is the stored event's there, may start a run of the
//! audit: the runs between snapshots are checked at once (on every core), each deciding its
//! commands again from the snapshot's state. None is trusted blindly: every snapshot is
//! compared with the state the run before it reached at its version, and when one is not that
//! state, everything after it is checked again from event 1. So the verdict is the one a single
//! fold from event 1 gives (by induction over the runs), in a fraction of the time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use baumeister_domain::fairness::to_hex;
use baumeister_domain::{DynGame, GameState};

use crate::audit::export::Export;
use crate::audit::trust::Trust;
use crate::audit::verify::{check_end, Checks, Difference, Found, Start};
use crate::audit::verify_commands::check_commands;
use crate::audit::verify_prelude::check_prelude;
use crate::read::snapshots::{signed_by, StoredSnapshot};

/// What the audit found.
pub(crate) struct Outcome {
    pub differences: Vec<Difference>,
    /// What is wrong with stored snapshots (each is compared with the fold, trusted or not).
    pub snapshot_problems: Vec<String>,
    /// Where the audit began: event 1, and each snapshot it started a run from.
    pub starting_points: usize,
}

/// A run of commands, `commands[start.command..end]`, and the snapshots its fold passes.
struct Run {
    start: Start,
    end: usize,
}

/// What one run found: its differences, where it ended, and for each snapshot it passed
/// whether that was the state its fold reached.
struct RunResult {
    found: Found,
    reached: Option<Start>,
    matched: Vec<(usize, bool)>,
}

/// Audits `export` from event 1 and from every trustworthy snapshot at once (see the module).
pub(crate) fn audit(
    export: &Export,
    checks: &Checks,
    snapshots: &[StoredSnapshot],
    trust: &Trust,
) -> Outcome {
    let mut found = Found::new(checks.limit);
    let Some((game, randomness)) = check_prelude(export, checks, &mut found) else {
        return Outcome {
            differences: found.differences,
            snapshot_problems: Vec::new(),
            starting_points: 0,
        };
    };
    // Each version's event: its command and stored hash.
    let events: Vec<(usize, &str)> = export
        .commands
        .iter()
        .enumerate()
        .flat_map(|(c, command)| command.events.iter().map(move |e| (c, e.hash.as_str())))
        .collect();
    let signed: Vec<bool> = snapshots
        .iter()
        .map(|s| signed_by(trust, &export.game, s))
        .collect();
    let (runs, starts_at) = plan_runs(game, export, snapshots, &signed, &events);
    let results = run_all(game, export, checks, &randomness, snapshots, runs);

    // Every snapshot compared with the fold that passed its version; the runs hold together
    // only if each one started from such a state.
    let mut matched = vec![None; snapshots.len()];
    for result in &results {
        for &(index, same) in &result.matched {
            matched[index] = Some(same);
        }
    }
    let sound = starts_at
        .iter()
        .flatten()
        .all(|&index| matched[index] == Some(true));
    let (differences, reached, starting_points) = if sound {
        let mut differences = Vec::new();
        let mut reached = None;
        for result in results {
            differences.extend(result.found.differences);
            reached = result.reached;
            if reached.is_none() {
                break;
            }
        }
        (differences, reached, starts_at.len())
    } else {
        // A snapshot was not what the events give: from event 1 again, in one run.
        let mut found = Found::new(checks.limit);
        let reached = check_commands(
            game,
            export,
            checks,
            &randomness,
            Start::first(game),
            export.commands.len(),
            &mut found,
            |_, _| {},
        );
        (found.differences, reached, 1)
    };
    let mut found = Found::new(checks.limit);
    found.differences = differences;
    if let (Some(reached), false) = (reached, found.full()) {
        check_end(game, export, checks, &reached, &mut found);
    }
    found.differences.truncate(checks.limit);
    Outcome {
        differences: found.differences,
        snapshot_problems: snapshot_problems(snapshots, &signed, &matched, &events),
        starting_points,
    }
}

/// The runs: from event 1, and from each snapshot that is signed, at its version's event,
/// loads, and lies before a command it can start from (the first command at or after it; the
/// events of a command it falls inside are folded onto it first). With each run, the index of
/// the snapshot it starts from (none for the first).
fn plan_runs(
    game: &'static dyn DynGame,
    export: &Export,
    snapshots: &[StoredSnapshot],
    signed: &[bool],
    events: &[(usize, &str)],
) -> (Vec<Run>, Vec<Option<usize>>) {
    let event_at = |version: i64| event_at(events, version);
    let mut runs = vec![Run {
        start: Start::first(game),
        end: export.commands.len(),
    }];
    let mut starts_at = vec![None];
    for (index, snapshot) in snapshots.iter().enumerate() {
        let Some(&(_, hash)) = event_at(snapshot.version) else {
            continue;
        };
        if !signed[index] || hash != to_hex(&snapshot.hash) {
            continue;
        }
        let Some(command) = export
            .commands
            .iter()
            .position(|c| c.position >= snapshot.version)
        else {
            continue;
        };
        // A run cannot start at a take-back: judging it needs the command before it.
        if command <= runs.last().unwrap().start.command
            || export.commands[command]
                .body
                .get("type")
                .and_then(|t| t.as_str())
                == Some(baumeister_domain::take_back::COMMAND)
        {
            continue;
        }
        let Some(state) = start_state(game, export, snapshot, command) else {
            continue;
        };
        let position = export.commands[command].position;
        let previous = event_at(position)
            .and_then(|(_, h)| baumeister_domain::fairness::from_hex(h))
            .unwrap_or_else(|| snapshot.hash.clone());
        runs.last_mut().unwrap().end = command;
        runs.push(Run {
            start: Start {
                command,
                state,
                version: position,
                previous,
            },
            end: export.commands.len(),
        });
        starts_at.push(Some(index));
    }
    (runs, starts_at)
}

/// The event at `version` (from 1): its command's index and its stored hash.
fn event_at<'a>(events: &'a [(usize, &'a str)], version: i64) -> Option<&'a (usize, &'a str)> {
    usize::try_from(version - 1)
        .ok()
        .and_then(|i| events.get(i))
}

/// What is wrong with the stored snapshots: beyond the log, not the state the events give, or
/// not signed by this server (and so not used).
fn snapshot_problems(
    snapshots: &[StoredSnapshot],
    signed: &[bool],
    matched: &[Option<bool>],
    events: &[(usize, &str)],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (index, snapshot) in snapshots.iter().enumerate() {
        let at = event_at(events, snapshot.version);
        let at_its_event = at.is_some_and(|&(_, hash)| hash == to_hex(&snapshot.hash));
        let same = at_its_event && matched[index] == Some(true);
        if at.is_none() {
            problems.push(format!(
                "the snapshot at version {} is beyond the log",
                snapshot.version
            ));
        } else if !same {
            problems.push(format!(
                "the snapshot at version {} is not the state the events give{}",
                snapshot.version,
                if signed[index] {
                    ""
                } else {
                    " (nor signed by this server, so it is not used)"
                }
            ));
        } else if !signed[index] {
            problems.push(format!(
                "the snapshot at version {} is not signed by this server's key (it is not used)",
                snapshot.version
            ));
        }
    }
    problems
}

/// The state before `commands[command]`: the snapshot's, with the events of the command it
/// falls inside folded on (those are checked by the run before). `None` when it does not load.
fn start_state(
    game: &'static dyn DynGame,
    export: &Export,
    snapshot: &StoredSnapshot,
    command: usize,
) -> Option<GameState> {
    let mut state = game.load_state(&snapshot.state).ok()?;
    let position = export.commands[command].position;
    let gap = export.commands[..command]
        .iter()
        .flat_map(|c| &c.events)
        .filter(|e| e.version > snapshot.version && e.version <= position);
    for event in gap {
        game.evolve(&mut state, &event.payload).ok()?;
    }
    Some(state)
}

/// Checks every run, on as many threads as there are cores (and runs).
fn run_all(
    game: &'static dyn DynGame,
    export: &Export,
    checks: &Checks,
    randomness: &crate::audit::verify::Randomness,
    snapshots: &[StoredSnapshot],
    runs: Vec<Run>,
) -> Vec<RunResult> {
    let count = runs.len();
    let runs: Vec<Mutex<Option<Run>>> = runs.into_iter().map(|r| Mutex::new(Some(r))).collect();
    let results: Vec<Mutex<Option<RunResult>>> = (0..count).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(run) = runs.get(i).and_then(|r| r.lock().unwrap().take()) else {
            return;
        };
        let mut found = Found::new(checks.limit);
        let mut matched = Vec::new();
        let from = run.start.version;
        let mut wanted = snapshots
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.version > from)
            .peekable();
        let reached = check_commands(
            game,
            export,
            checks,
            randomness,
            run.start,
            run.end,
            &mut found,
            |version, state| {
                while let Some((index, snapshot)) = wanted.next_if(|(_, s)| s.version <= version) {
                    let same = snapshot.version == version
                        && game
                            .load_state(&snapshot.state)
                            .is_ok_and(|stored| game.same_state(&stored, state));
                    matched.push((index, same));
                }
            },
        );
        *results[i].lock().unwrap() = Some(RunResult {
            found,
            reached,
            matched,
        });
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap().expect("every run was checked"))
        .collect()
}

#[cfg(test)]
mod tests {
    use baumeister_domain::fairness::from_hex;
    use baumeister_domain::registry;

    use super::*;
    use crate::audit::offline::random_export;
    use crate::audit::trust::{uid_bytes, Signer};
    use crate::audit::verify::check;
    use crate::read::snapshots::message;

    fn checks(export: &Export) -> Checks {
        Checks {
            chain: crate::audit::chain::Chain::salted(
                uid_bytes(&export.game),
                from_hex(&export.secret).unwrap(),
            ),
            fair: true,
            signature: false,
            limit: 20,
        }
    }

    /// A long game (Burgbaumeister, four seats) and its state every `every` events, signed as
    /// the server signs its snapshots.
    fn game_with_snapshots(every: i64, trust: &Trust) -> (Export, Vec<StoredSnapshot>) {
        let export = random_export("burgbaumeister", 4, 3, 5000, &trust.signer).unwrap();
        let game = registry::find(&export.kind).unwrap();
        let mut state = game.initial();
        let mut snapshots = Vec::new();
        for event in export.commands.iter().flat_map(|c| &c.events) {
            game.evolve(&mut state, &event.payload).unwrap();
            if event.version % every == 0 {
                snapshots.push(signed(
                    trust,
                    &export,
                    event.version,
                    game.save_state(&state),
                ));
            }
        }
        (export, snapshots)
    }

    fn signed(trust: &Trust, export: &Export, version: i64, state: Vec<u8>) -> StoredSnapshot {
        let hash = export
            .commands
            .iter()
            .flat_map(|c| &c.events)
            .find(|e| e.version == version)
            .map(|e| from_hex(&e.hash).unwrap())
            .unwrap();
        StoredSnapshot {
            version,
            signature: trust
                .signer
                .sign_bytes(&message(&export.game, version, &hash, &state)),
            state,
            hash,
        }
    }

    #[test]
    fn runs_from_the_snapshots_find_what_one_fold_from_event_1_finds() {
        let trust = Trust::new(Signer::from_seed(&[9; 32]));
        let (export, snapshots) = game_with_snapshots(37, &trust);
        assert!(
            snapshots.len() > 5,
            "a long game: {} snapshots",
            snapshots.len()
        );
        let outcome = audit(&export, &checks(&export), &snapshots, &trust);
        assert_eq!(outcome.differences, Vec::new());
        assert_eq!(outcome.snapshot_problems, Vec::<String>::new());
        assert!(
            outcome.starting_points > snapshots.len() / 2,
            "{} starting points",
            outcome.starting_points
        );
        // An event changed late in the game is found where one fold finds it.
        let mut changed = export.clone();
        let last = changed.commands.len() - 3;
        let event = &mut changed.commands[last].events[0];
        event.payload["changed"] = true.into();
        let outcome = audit(&changed, &checks(&changed), &snapshots, &trust);
        let alone = check(&changed, &checks(&changed));
        assert!(!alone.is_empty());
        assert_eq!(outcome.differences, alone);
    }

    #[test]
    fn a_snapshot_that_is_not_the_state_is_named_and_the_audit_goes_back_to_event_1() {
        let trust = Trust::new(Signer::from_seed(&[9; 32]));
        let (export, mut snapshots) = game_with_snapshots(50, &trust);
        // Signed by the server's own key, yet another state (a server fault, or a stolen key):
        // the run before it reaches a different state there.
        let forged = snapshots.len() / 2;
        let version = snapshots[forged].version;
        let other_state = snapshots[forged - 1].state.clone();
        snapshots[forged] = signed(&trust, &export, version, other_state);
        // And one that is not signed at all is never a starting point.
        snapshots[1].signature[0] ^= 1;
        let outcome = audit(&export, &checks(&export), &snapshots, &trust);
        assert_eq!(outcome.starting_points, 1, "back to event 1");
        assert_eq!(outcome.differences, Vec::new(), "the events are sound");
        let problems = outcome.snapshot_problems.join("; ");
        assert!(
            problems.contains(&format!("snapshot at version {version} is not the state")),
            "{problems}"
        );
        assert!(
            problems.contains(&format!(
                "snapshot at version {} is not signed",
                snapshots[1].version
            )),
            "{problems}"
        );
        // A decision changed after the forged snapshot is still found (from event 1).
        let mut changed = export.clone();
        let c = changed
            .commands
            .iter()
            .position(|c| c.position > version + 10 && c.seat.is_some())
            .unwrap();
        changed.commands[c].seed.replace_range(0..2, "00");
        let outcome = audit(&changed, &checks(&changed), &snapshots, &trust);
        assert!(
            outcome.differences.iter().any(|d| d.part == "seed"),
            "{:?}",
            outcome.differences
        );
    }
}
