//! The checks of an export's commands (see `verify.rs`): each command's position and seed, the
//! hash chain of its events, and deciding it again (a take-back by the take-back rule, any
//! other by the game's rules) to get the same events.

use baumeister_domain::fairness::{derive_key, from_hex, to_hex};
use baumeister_domain::take_back::{self, CommandTakenBack, LastCommand};
use baumeister_domain::{Ctx, DynGame, GameState};
use serde_json::Value;

use crate::audit::export::{Export, ExportCommand};
use crate::audit::verify::{differ, Checks, Difference, Found, Randomness, Start};
use crate::command::append::event_type;

/// Checking stopped: the limit of differences was reached.
struct Stop;

/// Reports `d`; `Err(Stop)` when that reached the limit.
fn report(found: &mut Found, d: Difference) -> Result<(), Stop> {
    if found.report(d) {
        Err(Stop)
    } else {
        Ok(())
    }
}

/// Checks `commands[start.command..end]` from `start`: each command's position and seed, its
/// events' hashes, and deciding it again; `passed(version, state)` is told the state after each
/// event. Where the run ended, unless checking stopped (the limit was reached).
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_commands(
    game: &'static dyn DynGame,
    export: &Export,
    checks: &Checks,
    randomness: &Randomness,
    start: Start,
    end: usize,
    found: &mut Found,
    mut passed: impl FnMut(i64, &GameState),
) -> Option<Start> {
    let Start {
        command: first_command,
        mut state,
        mut version,
        mut previous,
    } = start;
    // The command before, as the take-back rule judges it, with the state before it.
    let mut last: Option<Judged> = None;
    for (n, command) in export.commands[first_command..end].iter().enumerate() {
        let n = first_command + n;
        let before = state.clone();
        let at = command.position;
        if at != version {
            report(
                found,
                differ(
                    "position",
                    format!("command {n} claims position {at} but follows {version} events"),
                ),
            )
            .ok()?;
        }
        let Some(mut ctx) = command_ctx(checks, randomness, command, version, found).ok()? else {
            continue;
        };
        let first = version + 1;
        check_chain(checks, command, &mut version, &mut previous, found).ok()?;
        let last_version = version;
        let taking_back =
            command.body.get("type").and_then(Value::as_str) == Some(take_back::COMMAND);
        let decided = if taking_back {
            judge_take_back(command, last.as_ref())
        } else {
            decide(game, &state, command, export, &mut ctx)
        };
        match decided {
            Ok(produced) if produced.iter().eq(command.events.iter().map(|e| &e.payload)) => {}
            Ok(_) => report(
                found,
                differ(
                    "decision",
                    format!(
                        "deciding the command at position {at} again does not give versions {first}..={last_version}"
                    ),
                ),
            )
            .ok()?,
            // The rules refused it: its events may be anything (a seat the game does not
            // have), and folding them could not be trusted, so the run stops here.
            Err(e) => {
                found.report(differ(
                    "decision",
                    format!("deciding the command at position {at} again is refused ({e})"),
                ));
                return None;
            }
        }
        if taking_back {
            // Judged above: the state before the command taken back.
            state = last.take().map(|l| l.before).unwrap_or(state);
            passed(version, &state);
            continue;
        }
        for event in &command.events {
            if let Err(e) = game.evolve(&mut state, &event.payload) {
                report(
                    found,
                    differ(
                        "decision",
                        format!("version {} does not apply ({e})", event.version),
                    ),
                )
                .ok()?;
            }
            passed(event.version, &state);
        }
        last = Some(Judged {
            rule: rule_of(game, export, command, &before, &state, &ctx),
            before,
            from: first,
            to: last_version,
        });
    }
    Some(Start {
        command: end,
        state,
        version,
        previous,
    })
}

/// The command's context, from its seed: with the fairness checks, the seed must be the one
/// derived from the secret and the client seeds at `version`. `Ok(None)`: the seed is unreadable
/// (reported; the command is skipped).
fn command_ctx(
    checks: &Checks,
    randomness: &Randomness,
    command: &ExportCommand,
    version: i64,
    found: &mut Found,
) -> Result<Option<Ctx>, Stop> {
    if checks.fair {
        let key = derive_key(&randomness.secret, &randomness.client_seeds, version);
        if to_hex(&key) != command.seed.to_ascii_lowercase() {
            report(
                found,
                differ(
                    "seed",
                    format!(
                        "the seed of the command at position {version} is not HMAC-SHA256(secret, client seeds, {version})"
                    ),
                ),
            )?;
        }
        return Ok(Some(Ctx::from_key(&key, command.now_ms)));
    }
    let seed = from_hex(&command.seed)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_be_bytes);
    match seed {
        Some(seed) => Ok(Some(Ctx::new(seed, command.now_ms))),
        None => {
            report(
                found,
                differ(
                    "seed",
                    format!("the seed at position {} is not 8 bytes", command.position),
                ),
            )?;
            Ok(None)
        }
    }
}

/// The command's events: each at the next version, each hash covering its event after the
/// previous hash. Moves `version` and `previous` past them.
fn check_chain(
    checks: &Checks,
    command: &ExportCommand,
    version: &mut i64,
    previous: &mut Vec<u8>,
    found: &mut Found,
) -> Result<(), Stop> {
    for event in &command.events {
        *version += 1;
        if event.version != *version {
            report(
                found,
                differ(
                    "chain",
                    format!(
                        "event {} comes where version {} belongs",
                        event.version, *version
                    ),
                ),
            )?;
        }
        let hash = checks.chain.event_hash(
            previous,
            event.version,
            event_type(&event.payload),
            &event.payload,
        );
        if to_hex(&hash) != event.hash.to_ascii_lowercase() {
            report(
                found,
                differ(
                    "chain",
                    format!(
                        "the hash of version {} does not cover that event after the previous hash: the event or its hash was changed",
                        event.version
                    ),
                ),
            )?;
        }
        *previous = from_hex(&event.hash).unwrap_or(hash);
    }
    Ok(())
}

/// How the take-back rule sees the command just checked: the setup, a deadline's, or a seat's
/// with what it revealed.
fn rule_of(
    game: &'static dyn DynGame,
    export: &Export,
    command: &ExportCommand,
    before: &GameState,
    state: &GameState,
    ctx: &Ctx,
) -> LastCommand {
    let kind = command.body.get("type").and_then(Value::as_str);
    match (kind, command.seat) {
        (Some("Setup"), None) => LastCommand::SetUp,
        (_, None) => LastCommand::Deadline,
        (_, Some(seat)) => {
            let payloads: Vec<Value> = command.events.iter().map(|e| e.payload.clone()).collect();
            LastCommand::Player {
                seat,
                reveals: take_back::reveals(
                    game,
                    before,
                    state,
                    &payloads,
                    ctx.rng.draws(),
                    export.seat_count,
                ),
            }
        }
    }
}

/// A command as the take-back rule saw it once decided again: who made it, whether it
/// revealed anything, the state before it and its versions.
struct Judged {
    rule: LastCommand,
    before: GameState,
    from: i64,
    to: i64,
}

/// The one event a take-back produces, if the rule allowed it: the command before it is the
/// same seat's own, revealed nothing (decided again with the same randomness: no draw, every
/// event shown as-is to everybody, the game not ended), and is not itself a take-back. The
/// turn clock's default moves are not told apart from a player's in an export (the server
/// refuses to take them back; see docs/api.md, "Undo").
fn judge_take_back(command: &ExportCommand, last: Option<&Judged>) -> Result<Vec<Value>, String> {
    let Some(seat) = command.seat else {
        return Err("a take-back without a seat".into());
    };
    let Some(last) = last else {
        return Err("a take-back with no command before it".into());
    };
    take_back::judge(true, seat, last.rule, true)
        .map_err(|r| format!("the rule does not allow this take-back ({})", r.code()))?;
    Ok(vec![CommandTakenBack {
        seat,
        from_version: last.from,
        to_version: last.to,
    }
    .to_value()])
}

/// The events a stored command produces when decided again.
fn decide(
    game: &'static dyn DynGame,
    state: &baumeister_domain::GameState,
    command: &ExportCommand,
    export: &Export,
    ctx: &mut Ctx,
) -> Result<Vec<Value>, String> {
    let body = &command.body;
    match (body.get("type").and_then(Value::as_str), command.seat) {
        (Some("Setup"), None) => {
            if command.position != 0
                || body["options"] != export.options
                || body["seats"].as_u64() != Some(u64::from(export.seat_count))
            {
                return Err(
                    "the set-up is not the first command with the game's options and seats".into(),
                );
            }
            game.setup(&export.options, export.seat_count, ctx)
                .map_err(|e| e.to_string())
        }
        (Some("DeadlinePassed"), None) => Ok(game.on_deadline(state, ctx)),
        // The rules index their seats: a seat the game does not have is no command of it.
        (_, Some(seat)) if seat >= export.seat_count => Err(format!(
            "seat {seat} is not one of the game's {} seats",
            export.seat_count
        )),
        (_, Some(seat)) => game
            .decide(state, seat, body, ctx)
            .map_err(|e| e.to_string()),
        (_, None) => {
            Err("a command without a seat that is neither `Setup` nor `DeadlinePassed`".into())
        }
    }
}
