//! Checking an export without the server: the commitment, every seed, every decision, the hash
//! chain and the signed head. Pure (no database, no network): `baumeister verify FILE` runs it,
//! an import runs it before loading anything, and the audit runs it on the game as stored.

use std::fmt;

use baumeister_domain::fairness::{from_hex, to_hex};
use baumeister_domain::{DynGame, GameState};

use crate::audit::chain::{Chain, GENESIS};
use crate::audit::export::Export;
use crate::audit::trust::{uid_bytes, verify_head};
use crate::audit::verify_commands::check_commands;
use crate::audit::verify_prelude::check_prelude;
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

pub(crate) fn differ(part: &'static str, message: impl Into<String>) -> Difference {
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
    pub fn report(&mut self, d: Difference) -> bool {
        self.differences.push(d);
        self.full()
    }

    pub fn full(&self) -> bool {
        self.differences.len() >= self.limit
    }
}

/// What every command's randomness is derived from (see `baumeister_domain::fairness`).
pub struct Randomness {
    pub(crate) secret: Vec<u8>,
    pub(crate) client_seeds: Vec<String>,
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

#[cfg(test)]
mod tests {
    use baumeister_domain::registry;
    use serde_json::Value;

    use super::*;
    use crate::audit::offline::random_export;
    use crate::audit::trust::Signer;
    use crate::command::append::event_type;

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
