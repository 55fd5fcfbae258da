//! Checking an export without the server: the commitment, every seed, every decision, the hash
//! chain and the signed head. Pure (no database, no network): `baumeister verify FILE` runs it,
//! an import runs it before loading anything, and the audit runs it on the game as stored.

use std::fmt;

use baumeister_domain::fairness::{commitment, derive_key, from_hex, to_hex, valid_client_seed};
use baumeister_domain::take_back::{self, CommandTakenBack, LastCommand};
use baumeister_domain::{registry, Ctx, DomainError, DynGame, GameState};
use serde_json::Value;

use crate::audit::chain::{Chain, GENESIS};
use crate::audit::export::{Export, ExportCommand, EXPORT_FORMAT, EXPORT_FORMAT_1};
use crate::audit::trust::{uid_bytes, verify_head};
use crate::command::append::event_type;
use crate::types::Lifecycle;

/// The first thing an export gets wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Which check: `format`, `commitment`, `seed`, `position`, `chain`, `decision`, `result`,
    /// `head` or `signature`.
    pub part: &'static str,
    pub message: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.part, self.message)
    }
}

/// What a verified export proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub game: String,
    pub kind: String,
    pub commands: usize,
    pub version: i64,
    /// The public key that signed the head.
    pub key: String,
}

impl fmt::Display for Verified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "verified: {} game {}, {} commands decided again, {} events chained, head signed by {}",
            self.kind, self.game, self.commands, self.version, self.key
        )
    }
}

/// Checks everything an export claims; the first difference found, in the order a game was
/// played (a changed event is reported at its version, a changed seed at its command).
pub fn verify_export(export: &Export) -> Result<Verified, Difference> {
    let secret = from_hex(&export.secret).unwrap_or_default();
    let options = Checks {
        chain: Chain::of_format(export.chain, uid_bytes(&export.game), &secret),
        fair: true,
        signature: true,
        limit: 1,
    };
    match check(export, &options).into_iter().next() {
        Some(difference) => Err(difference),
        None => Ok(Verified {
            game: export.game.clone(),
            kind: export.kind.clone(),
            commands: export.commands.len(),
            version: export.head.version,
            key: export.head.key.clone(),
        }),
    }
}

/// How to check.
pub(crate) struct Checks {
    /// What the hash chain covers, and how.
    pub chain: Chain,
    /// Commit-and-reveal randomness; `false` for games older than it, whose `seed`s are the
    /// server's 8-byte draws.
    pub fair: bool,
    pub signature: bool,
    /// Stop after this many differences.
    pub limit: usize,
}

fn differ(part: &'static str, message: impl Into<String>) -> Difference {
    Difference {
        part,
        message: message.into(),
    }
}

/// Differences found, stopping at a limit.
pub(crate) struct Found {
    pub differences: Vec<Difference>,
    limit: usize,
}

impl Found {
    pub fn new(limit: usize) -> Self {
        Found {
            differences: Vec::new(),
            limit,
        }
    }

    /// Records `d`; whether the limit is now reached (checking stops).
    fn report(&mut self, d: Difference) -> bool {
        self.differences.push(d);
        self.full()
    }

    pub fn full(&self) -> bool {
        self.differences.len() >= self.limit
    }
}

/// What every command's randomness is derived from (see `baumeister_domain::fairness`).
pub struct Randomness {
    secret: Vec<u8>,
    client_seeds: Vec<String>,
}

/// Where a run of commands starts: before `commands[command]`, with the state, the version
/// and the hash of that version's event.
pub(crate) struct Start {
    pub command: usize,
    pub state: GameState,
    pub version: i64,
    pub previous: Vec<u8>,
}

impl Start {
    /// The beginning of every game.
    pub fn first(game: &dyn DynGame) -> Self {
        Start {
            command: 0,
            state: game.initial(),
            version: 0,
            previous: GENESIS.to_vec(),
        }
    }
}

/// Every difference (up to `limit`), in the order of the game.
pub(crate) fn check(export: &Export, checks: &Checks) -> Vec<Difference> {
    let mut found = Found::new(checks.limit);
    let Some((game, randomness)) = check_prelude(export, checks, &mut found) else {
        return found.differences;
    };
    let end = export.commands.len();
    let start = Start::first(game);
    if let Some(reached) = check_commands(
        game,
        export,
        checks,
        &randomness,
        start,
        end,
        &mut found,
        |_, _| {},
    ) {
        check_end(game, export, checks, &reached, &mut found);
    }
    found.differences
}

/// The checks before the first command: the format, the kind, the secret against its
/// commitment, the seats. The game and the randomness, unless checking stops here.
pub(crate) fn check_prelude(
    export: &Export,
    checks: &Checks,
    found: &mut Found,
) -> Option<(&'static dyn DynGame, Randomness)> {
    macro_rules! report {
        ($d:expr) => {{
            if found.report($d) {
                return None;
            }
        }};
    }
    let chains = match export.format.as_str() {
        EXPORT_FORMAT => &[1, 2][..],
        EXPORT_FORMAT_1 => &[1][..],
        _ => &[][..],
    };
    if chains.is_empty() {
        report!(differ(
            "format",
            format!("`format` is `{}`, not `{EXPORT_FORMAT}`", export.format)
        ));
    } else if !chains.contains(&export.chain) || export.chain != checks.chain.format() {
        report!(differ(
            "format",
            format!(
                "chain format {} is not one that `{}` has",
                export.chain, export.format
            )
        ));
    }
    // The kind, the options and the seats exactly as game creation takes them: the options in
    // full (as the set-up used them), the kind's own, for a seat count it allows.
    let game = match registry::validate_new_game(&export.kind, export.seat_count, &export.options) {
        Ok((game, full)) => {
            if full != export.options {
                report!(differ(
                    "format",
                    "`options` are not in full (as the set-up used them)"
                ));
            }
            game
        }
        Err(DomainError::UnknownKind(_)) => {
            found.report(differ("format", format!("no game kind `{}`", export.kind)));
            return None;
        }
        Err(e) => {
            found.report(differ(
                "format",
                format!("the options or the seat count cannot make a game: {e}"),
            ));
            return None;
        }
    };

    // The secret, shown at the end, is the one committed to at the start.
    let mut secret = Vec::new();
    let client_seeds: Vec<String> = export.seats.iter().map(|s| s.client_seed.clone()).collect();
    if checks.fair {
        match from_hex(&export.secret).filter(|s| s.len() == 32) {
            Some(s) => secret = s,
            None => report!(differ(
                "commitment",
                "the secret is not 32 bytes of hexadecimal"
            )),
        }
        if to_hex(&commitment(&secret)) != export.commitment.to_ascii_lowercase() {
            report!(differ(
                "commitment",
                "SHA-256 of the secret is not the commitment: the secret was changed"
            ));
        }
        let seats_in_order = export
            .seats
            .iter()
            .enumerate()
            .all(|(i, s)| s.seat as usize == i && valid_client_seed(&s.client_seed));
        if export.seats.len() != export.seat_count as usize || !seats_in_order {
            report!(differ(
                "format",
                "`seats` must list every seat in order, each with a client seed of 1–64 of A–Z a–z 0–9 _ . -"
            ));
        }
    }
    Some((
        game,
        Randomness {
            secret,
            client_seeds,
        },
    ))
}

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

/// The checks after the last command: the status and result the export states, the head and
/// its signature.
pub(crate) fn check_end(
    game: &'static dyn DynGame,
    export: &Export,
    checks: &Checks,
    reached: &Start,
    found: &mut Found,
) {
    let Start {
        state,
        version,
        previous,
        ..
    } = reached;
    let version = *version;
    let status = game.status(state);
    let lifecycle = match (version, status.finished) {
        (0, _) => Lifecycle::Open,
        (_, false) => Lifecycle::Active,
        (_, true) => Lifecycle::Finished,
    };
    // A game with no events is open, with no result: an export may not claim more.
    let status = if version == 0 {
        baumeister_domain::Status::default()
    } else {
        status
    };
    if (status != export.result || lifecycle != export.status)
        && found.report(differ(
            "result",
            "the events do not end in the `status` and `result` the export states",
        ))
    {
        return;
    }
    let head = &export.head;
    if (head.version != version
        || head.hash.to_ascii_lowercase() != to_hex(previous)
        || head.game != export.game)
        && found.report(differ(
            "head",
            format!(
                "the signed head (version {}) is not the last event's hash (version {version}) of game {}",
                head.version, export.game
            ),
        ))
    {
        return;
    }
    if checks.signature {
        if let Err(e) = verify_head(head) {
            found.report(differ("signature", e));
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
fn judge_take_back(
    command: &crate::audit::export::ExportCommand,
    last: Option<&Judged>,
) -> Result<Vec<Value>, String> {
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
    command: &crate::audit::export::ExportCommand,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::offline::random_export;
    use crate::audit::trust::Signer;

    fn export() -> Export {
        let signer = Signer::from_seed(&[5; 32]);
        let game = registry::all()[0].info();
        random_export(game.kind, game.max_seats, 11, 60, &signer).unwrap()
    }

    /// Changes one character of a hexadecimal string (`0` ↔ `1`, else to `0`).
    fn flip(hex: &mut String, at: usize) {
        let c = hex.as_bytes()[at];
        let to = if c == b'0' { "1" } else { "0" };
        hex.replace_range(at..at + 1, to);
    }

    /// The first number in `value`, changed by one in its last digit.
    fn nudge_a_number(value: &mut Value) -> bool {
        match value {
            Value::Number(n) if n.is_u64() => {
                *value = Value::from(n.as_u64().unwrap() ^ 1);
                true
            }
            Value::Array(items) => items.iter_mut().any(nudge_a_number),
            Value::Object(map) => map.values_mut().any(nudge_a_number),
            _ => false,
        }
    }

    #[test]
    fn a_faithful_export_verifies() {
        let export = export();
        let verified = verify_export(&export).unwrap();
        assert_eq!(verified.version, export.head.version);
        assert!(verified.to_string().starts_with("verified: "));
    }

    #[test]
    fn one_byte_changed_is_refused_where_it_was_changed() {
        let original = export();
        let mut tries = 0;
        // An event: the chain breaks at its version (and deciding again would disagree too).
        for (c, command) in original.commands.iter().enumerate().skip(1) {
            for (e, _) in command.events.iter().enumerate() {
                let mut changed = original.clone();
                if !nudge_a_number(&mut changed.commands[c].events[e].payload) {
                    continue;
                }
                tries += 1;
                let d = verify_export(&changed).unwrap_err();
                assert_eq!(d.part, "chain", "{d}");
                let version = command.events[e].version;
                assert!(d.message.contains(&format!("version {version} ")), "{d}");
            }
        }
        assert!(tries > 0, "some event has a number");
        // A seed: refused at its command.
        let mut changed = original.clone();
        flip(&mut changed.commands[2].seed, 10);
        let d = verify_export(&changed).unwrap_err();
        assert_eq!(d.part, "seed", "{d}");
        let position = original.commands[2].position;
        assert!(d.message.contains(&format!("position {position} ")), "{d}");
        // The secret: it no longer matches the commitment.
        let mut changed = original.clone();
        flip(&mut changed.secret, 63);
        assert_eq!(verify_export(&changed).unwrap_err().part, "commitment");
        // The commitment itself.
        let mut changed = original.clone();
        flip(&mut changed.commitment, 0);
        assert_eq!(verify_export(&changed).unwrap_err().part, "commitment");
        // The signature.
        let mut changed = original.clone();
        flip(&mut changed.head.signature, 20);
        assert_eq!(verify_export(&changed).unwrap_err().part, "signature");
        // The head's hash (a signature over another history).
        let mut changed = original.clone();
        flip(&mut changed.head.hash, 5);
        assert_eq!(verify_export(&changed).unwrap_err().part, "head");
        // A command left out: the next one is not at its position.
        let mut changed = original.clone();
        changed.commands.remove(3);
        assert_eq!(verify_export(&changed).unwrap_err().part, "position");
    }

    #[test]
    fn a_history_rewritten_with_its_chain_recomputed_is_still_refused() {
        // Whoever rewrites an event and recomputes every hash after it still cannot make the
        // rules decide it, nor sign the new head with the server's key.
        let original = export();
        let mut changed = original.clone();
        let c = (1..changed.commands.len())
            .find(|&c| {
                changed.commands[c]
                    .events
                    .first()
                    .is_some_and(|e| e.payload.to_string().chars().any(|ch| ch.is_ascii_digit()))
            })
            .unwrap();
        assert!(nudge_a_number(&mut changed.commands[c].events[0].payload));
        let chain = Chain::salted(uid_bytes(&changed.game), from_hex(&changed.secret).unwrap());
        let mut previous = GENESIS.to_vec();
        for command in &mut changed.commands {
            for event in &mut command.events {
                previous = chain.event_hash(
                    &previous,
                    event.version,
                    event_type(&event.payload),
                    &event.payload,
                );
                event.hash = to_hex(&previous);
            }
        }
        let d = verify_export(&changed).unwrap_err();
        assert_eq!(d.part, "decision", "{d}");
        changed.head.hash = to_hex(&previous);
        changed.commands[c].events[0] = original.commands[c].events[0].clone();
        let checks = Checks {
            chain,
            fair: true,
            signature: true,
            limit: 100,
        };
        assert!(check(&changed, &checks)
            .iter()
            .any(|d| d.part == "signature"));
    }
}

#[cfg(test)]
#[path = "verify_claims_tests.rs"]
mod claims_tests;
