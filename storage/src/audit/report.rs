//! The audit: proves a game's log is what its commands produced. It builds the game's export
//! from the database (see `export.rs`) and checks it exactly as `baumeister verify` would:
//! the secret against its commitment, every command's seed derived again, every command decided
//! again with that seed and its stored clock (the events must come out byte for byte), and the
//! hash chain over every stored event. Stored snapshots are its starting points, never trusted
//! blindly (see `starting_points.rs`). The report names versions and positions only, never
//! payloads or seeds, so anybody may ask for it, even while the game runs.

use serde::Serialize;
use utoipa::ToSchema;

use crate::audit::verify::Checks;
use crate::error::{Result, StoreError};
use crate::read::starting_points;
use crate::reader::Reader;
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
    /// Every event's hash covers the previous one, the game's uid and the event, and versions
    /// run 1..=version.
    pub chain_intact: bool,
    /// Deciding every command again with its derived seed and stored clock gave exactly the
    /// stored events, ending in the stored result.
    pub decisions_reproduced: bool,
    /// The secret matches the commitment shown from the start and every seed is derived from it
    /// and the client seeds (false for games older than provable fairness).
    pub randomness_committed: bool,
    /// How many stored snapshots were compared with the fold from event 1.
    pub snapshots: usize,
    /// Every stored snapshot is the state the events give at its version, signed by this server.
    pub snapshots_match: bool,
    /// Where the audit began deciding commands again: event 1, and each stored snapshot it
    /// started from after checking its signature and hash (runs between them are checked at
    /// once). Each of those snapshots is compared with the state the run before it reached;
    /// when one differs, the audit goes back to event 1 and this is 1.
    pub starting_points: usize,
    /// What did not match (the first 20 findings).
    pub problems: Vec<String>,
}

impl Store {
    /// Audits the game as of its current version. Checking is CPU work and runs on the blocking
    /// pool, not on the server's async workers.
    /// A private game is audited for those who may watch it only (others: not found).
    pub async fn audit(&self, game_id: i64, reader: Reader) -> Result<AuditReport> {
        {
            let client = self.pool.get().await?;
            let head = self.head(&client, game_id, reader.account()).await?;
            self.must_watch(&client, game_id, head.watching(), reader)
                .await?;
        }
        let loaded = self.load_for_check(game_id, None).await?;
        let snapshots = self.stored_snapshots(game_id).await?;
        let trust = self.trust.clone();
        tokio::task::spawn_blocking(move || {
            let export = &loaded.export;
            let checks = Checks {
                chain: loaded.chain.clone(),
                fair: loaded.fair,
                signature: false,
                limit: 20,
            };
            let outcome = starting_points::audit(export, &checks, &snapshots, &trust);
            let found = &outcome.differences;
            let any = |parts: &[&str]| found.iter().any(|d| parts.contains(&d.part));
            let mut problems = loaded.stray.clone();
            problems.extend(found.iter().map(ToString::to_string));
            problems.extend(outcome.snapshot_problems.iter().cloned());
            problems.truncate(20);
            AuditReport {
                game_id,
                version: export.head.version,
                commands: export.commands.len(),
                events: export.commands.iter().map(|c| c.events.len()).sum(),
                chain_intact: loaded.stray.is_empty() && !any(&["chain", "position", "head"]),
                decisions_reproduced: loaded.stray.is_empty()
                    && !any(&["decision", "seed", "result", "format"]),
                randomness_committed: loaded.fair && !any(&["commitment", "seed", "format"]),
                snapshots: snapshots.len(),
                snapshots_match: outcome.snapshot_problems.is_empty(),
                starting_points: outcome.starting_points,
                problems,
            }
        })
        .await
        .map_err(|e| StoreError::Corrupt(format!("audit: {e}")))
    }
}
