//! Reads: aggregates (from the cache plus the events after it), each caller's view, legal
//! moves, the log and replays, all with the same rules of hidden information.

use std::sync::Arc;

use baumeister_domain::{registry, DynGame, Viewer};
use deadpool_postgres::GenericClient;
use serde_json::{json, Value};

use crate::append::SPECTATOR;
use crate::cache::Aggregate;
use crate::chain::GENESIS;
use crate::error::{Result, StoreError};
use crate::lobby::{summary_from_row, SUMMARY_COLUMNS};
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
    fn account(self) -> Option<i64> {
        match self {
            Reader::Anonymous => None,
            Reader::Account { id, .. } => Some(id),
        }
    }

    /// An auditor who sits at the game sees it as that seat: playing with an auditor's
    /// token must not show the player the others' secrets.
    fn viewer(self, seat: Option<u8>) -> Viewer {
        match (self, seat) {
            (_, Some(seat)) => Viewer::Seat(seat),
            (Reader::Account { auditor: true, .. }, None) => Viewer::Everyone,
            _ => Viewer::Spectator,
        }
    }
}

/// The game's kind, version and the reader's seat, read in one query.
pub(crate) struct GameHead {
    pub game: &'static dyn DynGame,
    pub status: String,
    pub version: i64,
    pub seat_count: u8,
    pub seat: Option<u8>,
    pub deadline_ms: Option<i64>,
}

impl Store {
    pub(crate) async fn head(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        account: Option<i64>,
    ) -> Result<GameHead> {
        self.read_head(client, game_id, account, "").await
    }

    /// The head, with the game's row locked until the transaction ends: every writer of a game
    /// takes this lock first, so concurrent commands queue in the database instead of deciding
    /// on a version that is already gone and retrying (the (game, version) key still judges).
    pub(crate) async fn head_for_update(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        account: Option<i64>,
    ) -> Result<GameHead> {
        self.read_head(client, game_id, account, "FOR UPDATE OF g")
            .await
    }

    async fn read_head(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        account: Option<i64>,
        lock: &str,
    ) -> Result<GameHead> {
        let sql = format!(
            "SELECT g.kind, g.status, g.version, g.seat_count,
                    (SELECT s.seat FROM seats s WHERE s.game_id = g.id AND s.account_id = $2),
                    g.deadline_ms
             FROM games g WHERE g.id = $1 {lock}"
        );
        let row = client
            .query_opt(&sql, &[&game_id, &account])
            .await?
            .ok_or(StoreError::GameNotFound(game_id))?;
        let kind: String = row.get(0);
        Ok(GameHead {
            game: registry::find(&kind)
                .ok_or_else(|| StoreError::Corrupt(format!("unknown kind {kind}")))?,
            status: row.get(1),
            version: row.get(2),
            seat_count: row.get::<_, i16>(3) as u8,
            seat: row.get::<_, Option<i16>>(4).map(|s| s as u8),
            deadline_ms: row.get(5),
        })
    }

    /// The head, after applying a deadline that has passed.
    pub(crate) async fn settled_head(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        account: Option<i64>,
    ) -> Result<GameHead> {
        let head = self.head(client, game_id, account).await?;
        if self.settle(game_id, head.deadline_ms).await? {
            return self.head(client, game_id, account).await;
        }
        Ok(head)
    }

    /// The game at `version` (the database's current one): the cached aggregate, brought up to
    /// date with the events after it.
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
        let rows = client
            .query(
                "SELECT version, payload, hash FROM events WHERE game_id = $1 AND version > $2 AND version <= $3 ORDER BY version",
                &[&game_id, &aggregate.version, &version],
            )
            .await?;
        for row in rows {
            let payload: Value = row.get(1);
            game.evolve(&mut aggregate.state, &payload)?;
            aggregate.version = row.get(0);
            aggregate.last_hash = row.get(2);
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

    /// The game with the board as the reader may see it: one query for players and spectators
    /// (the projection); auditors get the full board from the aggregate.
    pub async fn game(&self, game_id: i64, reader: Reader) -> Result<GameDetail> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, me.seat, v.view, g.deadline_ms
             FROM games g
             LEFT JOIN seats me ON me.game_id = g.id AND me.account_id = $2
             LEFT JOIN views v ON v.game_id = g.id AND v.viewer = coalesce(me.seat, {SPECTATOR})
             WHERE g.id = $1"
        );
        let read = || async {
            client
                .query_opt(&sql, &[&game_id, &reader.account()])
                .await?
                .ok_or(StoreError::GameNotFound(game_id))
        };
        let mut row = read().await?;
        // One query in the common case; a second only when a deadline had to be applied.
        if self.settle(game_id, row.get(13)).await? {
            row = read().await?;
        }
        let summary = summary_from_row(&row)?;
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
        let head = self
            .settled_head(&client, game_id, reader.account())
            .await?;
        let Some(seat) = head.seat else {
            return Ok((head.version, None, Vec::new()));
        };
        if head.version == 0 {
            return Ok((0, Some(seat), Vec::new()));
        }
        let aggregate = self
            .aggregate(&client, game_id, head.game, head.version)
            .await?;
        let moves = head
            .game
            .legal_commands(&aggregate.state, seat)
            .into_iter()
            .map(|command| json!({ "command": command, "expected_version": head.version }))
            .collect();
        Ok((head.version, Some(seat), moves))
    }

    /// The log after version `after`, at most `limit` entries, as the reader may see it.
    pub async fn events(
        &self,
        game_id: i64,
        reader: Reader,
        after: i64,
        limit: i64,
    ) -> Result<EventPage> {
        let client = self.pool.get().await?;
        let head = self
            .settled_head(&client, game_id, reader.account())
            .await?;
        self.pauses.reach(crate::pause::READ_HEAD).await;
        let rows = client
            .query(
                "SELECT version, seat, (extract(epoch FROM recorded_at) * 1000)::bigint, payload
                 FROM events WHERE game_id = $1 AND version > $2 ORDER BY version LIMIT $3",
                &[&game_id, &after, &limit],
            )
            .await?;
        let aggregate = self
            .aggregate(&client, game_id, head.game, head.version)
            .await?;
        let viewer = head
            .game
            .effective_viewer(&aggregate.state, reader.viewer(head.seat));
        let last = rows.last().map(|r| r.get::<_, i64>(0));
        let events = rows
            .iter()
            .filter_map(|row| {
                let payload: Value = row.get(3);
                head.game
                    .redact(&aggregate.state, &payload, viewer)
                    .map(|event| LoggedEvent {
                        version: row.get(0),
                        seat: row.get::<_, Option<i16>>(1).map(|s| s as u8),
                        recorded_at: rfc3339(row.get(2)),
                        event,
                    })
            })
            .collect();
        let next_after = last.filter(|v| *v < head.version);
        Ok(EventPage {
            game_id,
            version: head.version,
            events,
            next_after,
        })
    }

    /// The board as the reader may see it as of version `at` (1..=current). Once the game has
    /// ended, every past board is public too.
    pub async fn replay(&self, game_id: i64, reader: Reader, at: i64) -> Result<(i64, Value)> {
        let client = self.pool.get().await?;
        let head = self
            .settled_head(&client, game_id, reader.account())
            .await?;
        if at < 1 || at > head.version {
            return Err(StoreError::VersionOutOfRange(at));
        }
        let rows = client
            .query(
                "SELECT payload FROM events WHERE game_id = $1 AND version <= $2 ORDER BY version",
                &[&game_id, &at],
            )
            .await?;
        let payloads: Vec<Value> = rows.iter().map(|r| r.get(0)).collect();
        let past = head.game.replay(&payloads)?;
        let finished_now = head.status == "finished";
        let viewer = if finished_now {
            Viewer::Everyone
        } else {
            reader.viewer(head.seat)
        };
        let viewer = head.game.effective_viewer(&past, viewer);
        Ok((head.version, head.game.view(&past, viewer)))
    }
}
