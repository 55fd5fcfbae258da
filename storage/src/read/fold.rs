//! Folding a game's whole stored log from nothing: what the aggregate cache does on a cold
//! start, measured by the replay benchmark (`tests/src/bin/replay-bench.rs`).

use crate::error::{Result, StoreError};
use crate::read::snapshot::read_log;
use crate::Store;

impl Store {
    /// Reads every event of the game from PostgreSQL and folds it from the initial state, as a
    /// cold cache would; returns the number of events. Nothing is cached.
    pub async fn fold_stored(&self, game_id: i64) -> Result<i64> {
        let client = self.pool.get().await?;
        let head = self.head(&client, game_id, None).await?;
        let events = read_log(&client, game_id, 0, head.version, None).await?;
        let initial = crate::read::cache::Aggregate {
            game: head.game,
            version: 0,
            state: head.game.initial(),
            last_hash: crate::audit::chain::GENESIS.to_vec(),
        };
        crate::read::snapshots::fold_keeping(head.game, initial, &events, i64::MAX)?
            .map_err(|v| StoreError::Corrupt(format!("a take-back reaches back to {v}")))?;
        if events.len() as i64 != head.version {
            return Err(StoreError::Corrupt(format!(
                "game {game_id} has {} events for version {}",
                events.len(),
                head.version
            )));
        }
        Ok(head.version)
    }
}
