//! The audit: proves a game's log is what its commands produced. The hash chain is recomputed
//! over every stored event, and every stored command (the set-up, players' commands, deadlines)
//! is decided again with its stored seed and clock: the events must come out byte for byte.
//! The report names versions and commands only, never payloads, so anybody may ask for it.

use baumeister_domain::{Ctx, DynGame};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::append::event_type;
use crate::chain::{event_hash, GENESIS};
use crate::error::{Result, StoreError};
use crate::snapshot::{read_log, StoredEvent};
use crate::Store;

/// The outcome of auditing one game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AuditReport {
    pub game_id: i64,
    pub version: i64,
    /// How many stored commands were decided again.
    pub commands: usize,
    /// How many stored events were checked.
    pub events: usize,
    /// Every event's hash covers the previous one and the event, and versions run 1..=version.
    pub chain_intact: bool,
    /// Deciding every command again with its stored seed and clock gave exactly the stored events.
    pub decisions_reproduced: bool,
    /// What did not match (the first 20 findings).
    pub problems: Vec<String>,
}

impl Store {
    /// Audits the game as of its current version. The log and the commands are read up to that
    /// version (a command committed meanwhile is not half in the report); checking them is CPU
    /// work and runs on the blocking pool, not on the server's async workers.
    pub async fn audit(&self, game_id: i64) -> Result<AuditReport> {
        let client = self.pool.get().await?;
        let head = self.head(&client, game_id, None).await?;
        let events = read_log(&client, game_id, 0, head.version, None).await?;
        // Commands are numbered in the order they were appended (writers of a game hold its
        // row lock), so the command of the last event bounds them.
        let commands = client
            .query(
                "SELECT id, seat, body, seed, now_ms FROM commands
                 WHERE game_id = $1 AND id <= coalesce(
                     (SELECT command_id FROM events WHERE game_id = $1 AND version = $2), -1)
                 ORDER BY id",
                &[&game_id, &head.version],
            )
            .await?;
        drop(client);
        let commands: Vec<StoredCommand> = commands
            .iter()
            .map(|row| StoredCommand {
                id: row.get(0),
                seat: row.get(1),
                body: row.get(2),
                seed: row.get::<_, i64>(3) as u64,
                now_ms: row.get(4),
            })
            .collect();
        let game = head.game;
        let version = head.version;
        tokio::task::spawn_blocking(move || check(game, game_id, version, &commands, &events))
            .await
            .map_err(|e| StoreError::Corrupt(format!("audit: {e}")))
    }
}

struct StoredCommand {
    id: i64,
    seat: Option<i16>,
    body: Value,
    seed: u64,
    now_ms: i64,
}

fn check(
    game: &'static dyn DynGame,
    game_id: i64,
    version: i64,
    commands: &[StoredCommand],
    events: &[StoredEvent],
) -> AuditReport {
    let mut problems = Vec::new();

    let mut chain_intact = events.len() as i64 == version;
    if !chain_intact {
        problems.push(format!(
            "{} events stored for version {version}",
            events.len()
        ));
    }
    let mut previous = GENESIS.to_vec();
    for (i, e) in events.iter().enumerate() {
        if e.version != i as i64 + 1 {
            chain_intact = false;
            problems.push(format!("version {} missing", i + 1));
        }
        if e.kind != event_type(&e.payload)
            || e.hash != event_hash(&previous, game_id, e.version, &e.kind, &e.payload)
        {
            chain_intact = false;
            problems.push(format!(
                "version {}: the stored hash does not match the event",
                e.version
            ));
        }
        previous = e.hash.clone();
    }

    let mut decisions_reproduced = true;
    let mut state = game.initial();
    let mut cursor = 0;
    for command in commands {
        let id = command.id;
        let body = &command.body;
        let mut ctx = Ctx::new(command.seed, command.now_ms);
        let produced = match (body.get("type").and_then(Value::as_str), command.seat) {
            (Some("Setup"), _) => game.setup(
                &body["options"],
                body["seats"].as_u64().unwrap_or(0) as u8,
                &mut ctx,
            ),
            (Some("DeadlinePassed"), _) => Ok(game.on_deadline(&state, &mut ctx)),
            (_, Some(seat)) => game.decide(&state, seat as u8, body, &mut ctx),
            (_, None) => Ok(Vec::new()),
        };
        let stored: Vec<&Value> = events[cursor..]
            .iter()
            .take_while(|e| e.command_id == id)
            .map(|e| &e.payload)
            .collect();
        let first = cursor + 1;
        cursor += stored.len();
        match produced {
            Ok(produced) if produced.iter().eq(stored.iter().copied()) => {}
            Ok(_) => {
                decisions_reproduced = false;
                problems.push(format!(
                    "command {id}: deciding it again does not give the stored events (versions {first}..={cursor})"
                ));
            }
            Err(e) => {
                decisions_reproduced = false;
                problems.push(format!("command {id}: deciding it again is refused ({e})"));
            }
        }
        for event in stored {
            if let Err(e) = game.evolve(&mut state, event) {
                decisions_reproduced = false;
                problems.push(format!("command {id}: a stored event does not apply ({e})"));
            }
        }
    }
    if cursor != events.len() {
        decisions_reproduced = false;
        problems.push(format!(
            "versions {}..={} belong to no stored command in order",
            cursor + 1,
            events.len()
        ));
    }
    problems.truncate(20);
    AuditReport {
        game_id,
        version,
        commands: commands.len(),
        events: events.len(),
        chain_intact,
        decisions_reproduced,
        problems,
    }
}
