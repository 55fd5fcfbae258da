//! Deadlines: a game that stops waiting by itself (a round's time is up, or the turn clock of a
//! seat ran out: see `turn_clock.rs`). Due deadlines are applied in the background, and before a
//! command or a read of that game, so nobody sees a board that should have moved on. Each is
//! recorded like a command with no account (a round's deadline with no seat, a default move with
//! the seat it was made for), with its seed and clock, so an audit can re-run it.

use std::time::Duration;

use serde_json::json;

use crate::command::append::{fold, AppendAt, Batching, NewCommand};
use crate::command::turn_clock::ClockStep;
use crate::error::{Result, StoreError};
use crate::Store;

impl Store {
    /// Applies the game's deadlines that have passed by `now` (the game's own, then every seat's
    /// turn clock, one step per transaction). Returns whether anything happened.
    pub async fn apply_deadline(&self, game_id: i64, now: i64) -> Result<bool> {
        let mut moved = false;
        // Every step restarts the clocks it touches at `now`, so the steps due by `now` run out;
        // the bound only guards against a game whose own deadline would not move on.
        for _ in 0..64 {
            if !self.deadline_step(game_id, now).await? {
                break;
            }
            moved = true;
        }
        Ok(moved)
    }

    async fn deadline_step(&self, game_id: i64, now: i64) -> Result<bool> {
        for _ in 0..4 {
            match self.try_deadline(game_id, now).await {
                Err(StoreError::Contention) => continue,
                other => return other,
            }
        }
        Err(StoreError::Contention)
    }

    async fn try_deadline(&self, game_id: i64, now: i64) -> Result<bool> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let head = self.head_for_update(&tx, game_id).await?;
        if head.status != "active" {
            return Ok(false);
        }
        let aggregate = self
            .aggregate(&tx, game_id, head.game, head.version)
            .await?;
        let due = head
            .game
            .deadline(&aggregate.state)
            .is_some_and(|deadline| deadline <= now);
        // Default moves and deadlines draw their randomness like commands: see docs/fairness.md.
        let keys = self.trust.keys(&tx, game_id).await?;
        let own = if due {
            let (mut ctx, seed) = keys.ctx(head.version, now);
            let events = head.game.on_deadline(&aggregate.state, &mut ctx);
            (!events.is_empty()).then(|| (None, json!({ "type": "DeadlinePassed" }), seed, events))
        } else {
            None
        };
        let (seat, body, seed, events) = match own {
            Some(step) => step,
            None => match self
                .turn_clock_step(&tx, game_id, &head, &aggregate, &keys, now)
                .await?
            {
                ClockStep::Nothing => return Ok(false),
                step @ (ClockStep::Dropped | ClockStep::Handed) => {
                    tx.commit().await?;
                    let action = match step {
                        ClockStep::Handed => "handed_to_bot",
                        _ => "deadline_dropped",
                    };
                    metrics::counter!("baumeister_turn_clock_actions_total", "action" => action)
                        .increment(1);
                    return Ok(true);
                }
                ClockStep::Move {
                    seat,
                    body,
                    seed,
                    events,
                } => (Some(seat), body, seed, events),
            },
        };
        let appended = fold(&aggregate, &keys.chain, events, seat, now)?;
        let command = NewCommand::servers(seat, &body, seed, now);
        let response = match seat {
            None => json!({ "deadline": true, "version": appended.aggregate.version }),
            Some(seat) => {
                json!({ "turn_clock": true, "seat": seat, "version": appended.aggregate.version })
            }
        };
        let at = AppendAt {
            game_id,
            base: &aggregate,
            batch: Batching::No,
        };
        let written = self.write(&tx, at, &appended, command, &response).await?;
        tx.commit().await?;
        let action = match seat {
            None => "round_deadline",
            Some(_) => "default_move",
        };
        metrics::counter!("baumeister_turn_clock_actions_total", "action" => action).increment(1);
        tracing::info!(
            game = game_id,
            version = appended.aggregate.version,
            seat,
            "deadline applied"
        );
        self.cache
            .put(game_id, std::sync::Arc::new(appended.aggregate));
        self.announce(written.notice);
        Ok(true)
    }

    /// Applies a due deadline of this game, if the lobby row says one is due. Returns whether
    /// the row the caller read may be stale: also when the sweep (or another reader) applied it
    /// first, while this call waited for the game's lock.
    pub(crate) async fn settle(&self, game_id: i64, deadline_ms: Option<i64>) -> Result<bool> {
        let now = self.now_ms();
        match deadline_ms {
            Some(deadline) if deadline <= now => {
                self.apply_deadline(game_id, now).await?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Applies every due deadline, forever, checking every `every`. Spawn it once per server.
    pub async fn sweep_deadlines(self, every: Duration) {
        loop {
            if let Err(e) = self.sweep_once().await {
                tracing::warn!(error = %e, "deadline sweep failed; trying again later");
            }
            tokio::time::sleep(every).await;
        }
    }

    /// Applies the deadlines due now; returns how many games moved on.
    pub async fn sweep_once(&self) -> Result<usize> {
        let now = self.now_ms();
        // A deleted account's turns are due at once (`account_care.rs`); a failure there leaves
        // the other deadlines due.
        if let Err(e) = self.departed_turns(now).await {
            tracing::warn!(error = %e, "a deleted account's turns wait for the next sweep");
        }
        let due: Vec<i64> = {
            let client = self.pool.get().await?;
            client
                .query(
                    "SELECT id FROM games WHERE status = 'active' AND deadline_ms <= $1 ORDER BY deadline_ms LIMIT 100",
                    &[&now],
                )
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect()
        };
        let mut moved = 0;
        for game_id in due {
            if self.apply_deadline(game_id, now).await? {
                moved += 1;
            }
        }
        Ok(moved)
    }
}
