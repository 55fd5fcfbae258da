//! Rebuilding the lobby projection from the events alone: it is derived data, so an operator
//! can throw it away or repair it and get exactly what the live path writes. (Each viewer's
//! board is not stored: it is computed from the aggregate at the version a read names.)

use std::sync::Arc;

use crate::audit::chain::GENESIS;
use crate::command::append::LobbyColumns;
use crate::error::{Result, StoreError};
use crate::read::cache::Aggregate;
use crate::read::snapshot::read_log;
use crate::read::snapshots::fold_keeping;
use crate::Store;

impl Store {
    /// Rebuilds one game's projections from its events. Returns its version.
    pub async fn rebuild_projections(&self, game_id: i64) -> Result<i64> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let head = self.head_for_update(&tx, game_id).await?;
        if head.version == 0 {
            return Ok(0);
        }
        let rows = read_log(&tx, game_id, 0, head.version, None).await?;
        let initial = Aggregate {
            game: head.game,
            version: 0,
            state: head.game.initial(),
            last_hash: GENESIS.to_vec(),
        };
        let (aggregate, _) = fold_keeping(head.game, initial, &rows, i64::MAX)?
            .map_err(|v| StoreError::Corrupt(format!("a take-back reaches back to {v}")))?;
        if aggregate.version != rows.len() as i64 {
            return Err(StoreError::Corrupt(format!(
                "game {game_id}: a gap in the log"
            )));
        }
        let status = head.game.status(&aggregate.state);
        let lobby = LobbyColumns::of(&aggregate, &status);
        tx.execute(
            "UPDATE games SET version = $2, status = $3, to_act = $4, progress = $5, rule_deadline_ms = $6,
                    deadline_ms = earliest_deadline($6, turn_deadlines) WHERE id = $1",
            &[&game_id, &aggregate.version, &lobby.status, &lobby.to_act, &lobby.progress, &lobby.rule_deadline_ms],
        )
        .await?;
        tx.commit().await?;
        let version = aggregate.version;
        self.cache.put(game_id, Arc::new(aggregate));
        Ok(version)
    }

    /// Rebuilds every started game's projections; returns how many games.
    pub async fn rebuild_all_projections(&self) -> Result<usize> {
        let ids: Vec<i64> = {
            let client = self.pool.get().await?;
            client
                .query("SELECT id FROM games WHERE version > 0 ORDER BY id", &[])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect()
        };
        for id in &ids {
            self.rebuild_projections(*id).await?;
        }
        Ok(ids.len())
    }
}
