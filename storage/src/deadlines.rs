//! Deadlines: a game that stops waiting by itself (a round's time is up). Due deadlines are
//! applied in the background, and before a command or a read of that game, so nobody sees a
//! board that should have moved on. Each is recorded like a command (no account, no seat), with
//! its seed and clock, so an audit can re-run it.

use std::time::Duration;

use serde_json::json;

use crate::append::{fold, AppendAt, NewCommand};
use crate::error::{Result, StoreError};
use crate::{now_ms, Store};

impl Store {
    /// Applies the game's deadline if it has passed by `now`. Returns whether anything happened.
    pub async fn apply_deadline(&self, game_id: i64, now: i64) -> Result<bool> {
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
        let head = self.head_for_update(&tx, game_id, None).await?;
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
        if !due {
            return Ok(false);
        }
        let keys = self.trust.keys(&tx, game_id).await?;
        let (mut ctx, seed) = keys.ctx(head.version, now);
        let events = head.game.on_deadline(&aggregate.state, &mut ctx);
        if events.is_empty() {
            return Ok(false);
        }
        let appended = fold(&aggregate, &keys.chain_id, events, None, now)?;
        let body = json!({ "type": "DeadlinePassed" });
        let command = NewCommand {
            account_id: None,
            seat: None,
            idempotency_key: None,
            body: &body,
            seed,
            now_ms: now,
        };
        let response = json!({ "deadline": true, "version": appended.aggregate.version });
        let at = AppendAt {
            game_id,
            seat_count: head.seat_count,
            base_version: head.version,
        };
        self.write(&tx, at, &appended, command, &response).await?;
        tx.commit().await?;
        tracing::info!(
            game = game_id,
            version = appended.aggregate.version,
            "deadline applied"
        );
        self.cache
            .put(game_id, std::sync::Arc::new(appended.aggregate));
        Ok(true)
    }

    /// Applies a due deadline of this game, if the lobby row says one is due.
    pub(crate) async fn settle(&self, game_id: i64, deadline_ms: Option<i64>) -> Result<bool> {
        let now = now_ms();
        match deadline_ms {
            Some(deadline) if deadline <= now => self.apply_deadline(game_id, now).await,
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
        let now = now_ms();
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
