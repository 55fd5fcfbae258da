//! The command path: one transaction per attempt. Lock the game's row (writers of one game
//! queue in PostgreSQL instead of deciding on a version that is already gone), decide on the
//! current state, append with the version the decision was based on; the unique
//! (game, version) key still judges, and a lost race is decided again (or 409 when pinned).

use baumeister_domain::{Ctx, Viewer};
use serde_json::Value;

use crate::append::{fold, AppendAt, NewCommand};
use crate::error::{Result, StoreError};
use crate::types::CommandAccepted;
use crate::{fresh_seed, Store};

/// How often a command without `expected_version` is decided again after losing a race.
const ATTEMPTS: usize = 8;

/// A player's command.
pub struct CommandRequest<'a> {
    pub game_id: i64,
    pub account_id: i64,
    /// The game's command, a JSON object tagged by `type`.
    pub command: &'a Value,
    /// When set, the command is refused with a conflict unless the game is at this version.
    pub expected_version: Option<i64>,
    pub idempotency_key: Option<&'a str>,
}

impl Store {
    /// Validates and appends a command. Returns the response and whether it is the stored
    /// response of an earlier request with the same Idempotency-Key.
    pub async fn execute(&self, request: &CommandRequest<'_>) -> Result<(Value, bool)> {
        for _ in 0..ATTEMPTS {
            match self.attempt(request).await {
                Err(StoreError::Contention) => match request.expected_version {
                    // The client pinned a version and lost the race: tell it.
                    Some(expected) => {
                        let summary = self.summary(request.game_id).await?;
                        return Err(StoreError::VersionConflict {
                            expected,
                            actual: summary.version,
                        });
                    }
                    None => continue,
                },
                other => return other,
            }
        }
        Err(StoreError::Contention)
    }

    async fn attempt(&self, request: &CommandRequest<'_>) -> Result<(Value, bool)> {
        let game_id = request.game_id;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // Locked first, so that a request repeating a key waits for the first to commit and
        // then finds its response; a caller without a seat is refused before the lock.
        let head = self
            .seated_head_for_update(&tx, game_id, request.account_id)
            .await?;
        if let Some(key) = request.idempotency_key {
            let earlier = tx
                .query_opt(
                    "SELECT body, response FROM commands WHERE game_id = $1 AND account_id = $2 AND idempotency_key = $3",
                    &[&game_id, &request.account_id, &key],
                )
                .await?;
            if let Some(row) = earlier {
                let body: Value = row.get(0);
                if &body != request.command {
                    return Err(StoreError::IdempotencyKeyReused);
                }
                return Ok((row.get(1), true));
            }
        }
        let seat = head.seat.ok_or(StoreError::NotSeated)?;
        if head.version == 0 {
            return Err(StoreError::NotStarted);
        }
        if let Some(expected) = request.expected_version {
            if expected != head.version {
                return Err(StoreError::VersionConflict {
                    expected,
                    actual: head.version,
                });
            }
        }
        let aggregate = self
            .aggregate(&tx, game_id, head.game, head.version)
            .await?;
        let seed = fresh_seed();
        let now = self.now_ms();
        let mut ctx = Ctx::new(seed, now);
        let events = head
            .game
            .decide(&aggregate.state, seat, request.command, &mut ctx)?;
        let appended = fold(&aggregate, game_id, events, Some(seat), now)?;
        let response = serde_json::to_value(CommandAccepted {
            game_id,
            version: appended.aggregate.version,
            events: appended.logged_for(Viewer::Seat(seat)),
            to_act: appended.status.to_act.clone(),
            finished: appended.status.finished,
        })
        .expect("responses serialize");
        let command = NewCommand {
            account_id: Some(request.account_id),
            seat: Some(seat),
            idempotency_key: request.idempotency_key,
            body: request.command,
            seed,
            now_ms: now,
        };
        let at = AppendAt {
            game_id,
            seat_count: head.seat_count,
            base_version: head.version,
        };
        self.write(&tx, at, &appended, command, &response).await?;
        tx.commit().await.map_err(|e| {
            if crate::error::is_retryable(&e) {
                StoreError::Contention
            } else {
                e.into()
            }
        })?;
        self.cache
            .put(game_id, std::sync::Arc::new(appended.aggregate));
        Ok((response, false))
    }
}
