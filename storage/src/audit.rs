//! The audit: proves a game's log is what its commands produced. The hash chain is recomputed
//! over every stored event, and every stored command (the set-up, players' commands, deadlines)
//! is decided again with its stored seed and clock: the events must come out byte for byte.
//! The report names versions and commands only, never payloads, so anybody may ask for it.

use baumeister_domain::Ctx;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::append::event_type;
use crate::chain::{event_hash, GENESIS};
use crate::error::Result;
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
    pub async fn audit(&self, game_id: i64) -> Result<AuditReport> {
        let client = self.pool.get().await?;
        let head = self.head(&client, game_id, None).await?;
        let commands = client
            .query(
                "SELECT id, seat, body, seed, now_ms FROM commands WHERE game_id = $1 ORDER BY id",
                &[&game_id],
            )
            .await?;
        let events = client
            .query(
                "SELECT version, type, payload, hash, command_id FROM events WHERE game_id = $1 ORDER BY version",
                &[&game_id],
            )
            .await?;
        let mut problems = Vec::new();

        let mut chain_intact = events.len() as i64 == head.version;
        if !chain_intact {
            problems.push(format!(
                "{} events stored for version {}",
                events.len(),
                head.version
            ));
        }
        let mut previous = GENESIS.to_vec();
        for (i, row) in events.iter().enumerate() {
            let version: i64 = row.get(0);
            let kind: &str = row.get(1);
            let payload: Value = row.get(2);
            let hash: Vec<u8> = row.get(3);
            if version != i as i64 + 1 {
                chain_intact = false;
                problems.push(format!("version {} missing", i + 1));
            }
            if kind != event_type(&payload)
                || hash != event_hash(&previous, game_id, version, kind, &payload)
            {
                chain_intact = false;
                problems.push(format!(
                    "version {version}: the stored hash does not match the event"
                ));
            }
            previous = hash;
        }

        let game = head.game;
        let mut decisions_reproduced = true;
        let mut state = game.initial();
        let mut cursor = 0;
        for row in &commands {
            let id: i64 = row.get(0);
            let seat: Option<i16> = row.get(1);
            let body: Value = row.get(2);
            let mut ctx = Ctx::new(row.get::<_, i64>(3) as u64, row.get(4));
            let produced = match (body.get("type").and_then(Value::as_str), seat) {
                (Some("Setup"), _) => game.setup(
                    &body["options"],
                    body["seats"].as_u64().unwrap_or(0) as u8,
                    &mut ctx,
                ),
                (Some("DeadlinePassed"), _) => Ok(game.on_deadline(&state, &mut ctx)),
                (_, Some(seat)) => game.decide(&state, seat as u8, &body, &mut ctx),
                (_, None) => Ok(Vec::new()),
            };
            let stored: Vec<Value> = events[cursor..]
                .iter()
                .take_while(|e| e.get::<_, i64>(4) == id)
                .map(|e| e.get(2))
                .collect();
            let first = cursor + 1;
            cursor += stored.len();
            match produced {
                Ok(produced) if produced == stored => {}
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
            for event in &stored {
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
        Ok(AuditReport {
            game_id,
            version: head.version,
            commands: commands.len(),
            events: events.len(),
            chain_intact,
            decisions_reproduced,
            problems,
        })
    }
}
