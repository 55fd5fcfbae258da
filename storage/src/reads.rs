//! Reads: aggregates (from the cache plus the events after it), each caller's view, legal
//! moves, the log and replays, all with the same rules of hidden information, each response
//! from one snapshot of its game (see `snapshot.rs`).

use std::sync::Arc;

use baumeister_domain::{registry, DynGame, Viewer};
use deadpool_postgres::GenericClient;
use serde_json::{json, Value};

use crate::append::SPECTATOR;
use crate::cache::Aggregate;
use crate::chain::GENESIS;
use crate::error::{Result, StoreError};
use crate::lobby::{summary_from_row, SUMMARY_COLUMNS};
use crate::snapshot::read_log;
use crate::types::{EventPage, GameDetail, LoggedEvent};
use crate::{rfc3339, Store};

/// Who is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// No token: the public view.
    Anonymous,
    Account {
        id: i64,
        auditor: bool,
    },
}

impl Reader {
    pub(crate) fn account(self) -> Option<i64> {
        match self {
            Reader::Anonymous => None,
            Reader::Account { id, .. } => Some(id),
        }
    }

    /// An auditor who sits at the game sees it as that seat: playing with an auditor's
    /// token must not show the player the others' secrets.
    pub(crate) fn viewer(self, seat: Option<u8>) -> Viewer {
        match (self, seat) {
            (_, Some(seat)) => Viewer::Seat(seat),
            (Reader::Account { auditor: true, .. }, None) => Viewer::Everyone,
            _ => Viewer::Spectator,
        }
    }
}

impl Store {
    /// The game at exactly `version` (a snapshot's, or the locked head's): the cached aggregate
    /// when it is not newer, brought up to `version` with the events after it.
    pub(crate) async fn aggregate(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        game: &'static dyn DynGame,
        version: i64,
    ) -> Result<Arc<Aggregate>> {
        let cached = self.cache.get(game_id).filter(|a| a.version <= version);
        if let Some(a) = &cached {
            if a.version == version {
                return Ok(a.clone());
            }
        }
        let mut aggregate = match cached {
            Some(a) => (*a).clone(),
            None => Aggregate {
                game,
                version: 0,
                state: game.initial(),
                last_hash: GENESIS.to_vec(),
            },
        };
        for event in read_log(client, game_id, aggregate.version, version, None).await? {
            game.evolve(&mut aggregate.state, &event.payload)?;
            aggregate.version = event.version;
            aggregate.last_hash = event.hash;
        }
        if aggregate.version != version {
            return Err(StoreError::Corrupt(format!(
                "game {game_id} has events up to {} but claims {version}",
                aggregate.version
            )));
        }
        let aggregate = Arc::new(aggregate);
        self.cache.put(game_id, aggregate.clone());
        Ok(aggregate)
    }

    /// The game with the board as the reader may see it: one statement for players and
    /// spectators (the lobby row and the projection, written in one transaction, read in one
    /// snapshot); auditors get the full board from the aggregate at the row's version.
    pub async fn game(&self, game_id: i64, reader: Reader) -> Result<GameDetail> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, me.seat, v.view, g.deadline_ms
             FROM games g
             LEFT JOIN seats me ON me.game_id = g.id AND me.account_id = $2
             LEFT JOIN views v ON v.game_id = g.id AND v.viewer = coalesce(me.seat, {SPECTATOR})
             WHERE g.id = $1"
        );
        let statement = client.prepare_cached(&sql).await?;
        let read = || async {
            client
                .query_opt(&statement, &[&game_id, &reader.account()])
                .await?
                .ok_or(StoreError::GameNotFound(game_id))
        };
        let mut row = read().await?;
        // One query in the common case; a second only when a deadline had to be applied.
        if self.settle(game_id, row.get(13)).await? {
            row = read().await?;
        }
        let summary = summary_from_row(&row, self.now_ms())?;
        let your_seat = row.get::<_, Option<i16>>(11).map(|s| s as u8);
        let mut view: Option<Value> = row.get(12);
        if reader.viewer(your_seat) == Viewer::Everyone && summary.version > 0 {
            let game = registry::find(&summary.kind)
                .ok_or_else(|| StoreError::Corrupt(summary.kind.clone()))?;
            let aggregate = self
                .aggregate(&client, game_id, game, summary.version)
                .await?;
            view = Some(game.view(&aggregate.state, Viewer::Everyone));
        }
        Ok(GameDetail {
            summary,
            your_seat,
            view,
        })
    }

    /// The reader's legal commands now, each a body ready for `POST …/commands`.
    pub async fn moves(
        &self,
        game_id: i64,
        reader: Reader,
    ) -> Result<(i64, Option<u8>, Vec<Value>)> {
        let client = self.pool.get().await?;
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        let version = snapshot.version();
        let Some(seat) = snapshot.head.seat else {
            return Ok((version, None, Vec::new()));
        };
        if version == 0 {
            return Ok((0, Some(seat), Vec::new()));
        }
        let moves = snapshot
            .game()
            .legal_commands(&snapshot.aggregate.state, seat)
            .into_iter()
            .map(|command| json!({ "command": command, "expected_version": version }))
            .collect();
        Ok((version, Some(seat), moves))
    }

    /// The log after version `after`, at most `limit` entries, as the reader may see it at the
    /// version the page names.
    pub async fn events(
        &self,
        game_id: i64,
        reader: Reader,
        after: i64,
        limit: i64,
    ) -> Result<EventPage> {
        let client = self.pool.get().await?;
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        let viewer = snapshot.viewer(reader);
        let rows = snapshot.log(&client, after, limit).await?;
        let last = rows.last().map(|e| e.version);
        let events = rows
            .into_iter()
            .filter_map(|e| {
                snapshot
                    .redact(&e.payload, viewer)
                    .map(|event| LoggedEvent {
                        version: e.version,
                        seat: e.seat,
                        recorded_at: rfc3339(e.recorded_ms),
                        event,
                    })
            })
            .collect();
        let version = snapshot.version();
        Ok(EventPage {
            game_id,
            version,
            events,
            next_after: last.filter(|v| *v < version),
        })
    }

    /// The board as the reader may see it as of version `at` (1..=current). Once the game has
    /// ended, every past board is public too. Folding a long log is CPU work: it runs on the
    /// blocking pool, not on the server's async workers.
    pub async fn replay(&self, game_id: i64, reader: Reader, at: i64) -> Result<(i64, Value)> {
        let client = self.pool.get().await?;
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        let payloads = snapshot.log_until(&client, at).await?;
        drop(client);
        // Judged by the snapshot: a game that has ended shows every past board whole.
        let viewer = snapshot.viewer(reader);
        let game = snapshot.game();
        let view = tokio::task::spawn_blocking(move || -> Result<Value> {
            let past = game.replay(&payloads)?;
            let viewer = game.effective_viewer(&past, viewer);
            Ok(game.view(&past, viewer))
        })
        .await
        .map_err(|e| StoreError::Corrupt(format!("replay: {e}")))??;
        Ok((snapshot.version(), view))
    }
}
