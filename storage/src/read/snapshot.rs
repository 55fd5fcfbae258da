//! One snapshot per response. A read judges the log by a game's state (what a viewer may see of
//! an event depends on the round, the phase, whether the game ended): the rows it reads and the
//! state that judges them must be of the same version. So every read of the log goes through
//! [`read_log`], whose upper bound is not optional, and the reads that serve a viewer start
//! from a [`Snapshot`]: the head (kind, status, version, the reader's seat) read in one
//! statement, and the aggregate at exactly that version. A command committed meanwhile is simply
//! not in the response. The log is append-only, so the rows up to a version are the same
//! whenever they are read: no transaction is needed, and a stream can send one snapshot after
//! another, each with the events up to its version.

use std::sync::Arc;

use baumeister_domain::take_back::{self, CommandTakenBack};
use baumeister_domain::{registry, DynGame, Viewer};
use deadpool_postgres::GenericClient;
use serde_json::Value;
use tokio_postgres::types::{FromSql, Type};

use crate::audit::trust::SignedHead;
use crate::command::lock::{read_locked, LockFor};
use crate::error::{Result, StoreError};
use crate::pause::READ_HEAD;
use crate::people::watch::Watching;
use crate::read::cache::Aggregate;
use crate::reader::Reader;
use crate::Refusal;
use crate::Store;

/// The game's kind, version and the reader's seat, read in one statement.
pub(crate) struct GameHead {
    pub game: &'static dyn DynGame,
    pub status: String,
    pub version: i64,
    pub seat_count: u8,
    pub seat: Option<u8>,
    pub deadline_ms: Option<i64>,
    /// The game is private: only those who may watch it learn that it exists.
    pub private: bool,
}

/// One stored event.
pub(crate) struct StoredEvent {
    pub version: i64,
    pub seat: Option<u8>,
    pub recorded_ms: i64,
    pub kind: String,
    /// The payload as JSON text: folds read it straight into the game's event
    /// ([`DynGame::evolve_json`]); [`StoredEvent::value`] for the rest.
    pub payload: String,
    pub hash: Vec<u8>,
    pub command_id: i64,
}

impl StoredEvent {
    /// The payload as a JSON value (to redact, hash or export it).
    pub fn value(&self) -> Result<Value> {
        serde_json::from_str(&self.payload)
            .map_err(|e| StoreError::Corrupt(format!("event {} does not parse: {e}", self.version)))
    }
}

/// A `jsonb` (or `json`) column as the JSON text PostgreSQL sends, not parsed into a `Value`:
/// jsonb's binary form is a version byte and the text.
pub(crate) struct JsonText(pub String);

impl<'a> FromSql<'a> for JsonText {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let text = if *ty == Type::JSONB {
            match raw.split_first() {
                Some((1, text)) => text,
                _ => return Err("a jsonb version this server does not know".into()),
            }
        } else {
            raw
        };
        Ok(JsonText(std::str::from_utf8(text)?.to_owned()))
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::JSONB || *ty == Type::JSON
    }
}

/// The events of versions `after + 1 ..= upto` (at most `limit`), in order: the only way the
/// store reads a game's log. `upto` is the version of the state that will judge the rows.
pub(crate) async fn read_log(
    client: &impl GenericClient,
    game_id: i64,
    after: i64,
    upto: i64,
    limit: Option<i64>,
) -> Result<Vec<StoredEvent>> {
    if after >= upto {
        return Ok(Vec::new());
    }
    let statement = client
        .prepare_cached(
            "SELECT version, seat, (extract(epoch FROM recorded_at) * 1000)::bigint, type, payload, hash, command_id
             FROM events WHERE game_id = $1 AND version > $2 AND version <= $3
             ORDER BY version LIMIT $4",
        )
        .await?;
    let rows = client
        .query(&statement, &[&game_id, &after, &upto, &limit])
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| StoredEvent {
            version: row.get(0),
            seat: row.get::<_, Option<i16>>(1).map(|s| s as u8),
            recorded_ms: row.get(2),
            kind: row.get(3),
            payload: row.get::<_, JsonText>(4).0,
            hash: row.get(5),
            command_id: row.get(6),
        })
        .collect())
}

/// A game as one response sees it (see the module's documentation).
pub(crate) struct Snapshot {
    pub game_id: i64,
    pub head: GameHead,
    pub aggregate: Arc<Aggregate>,
}

impl Snapshot {
    pub fn version(&self) -> i64 {
        self.head.version
    }

    pub fn game(&self) -> &'static dyn DynGame {
        self.head.game
    }

    /// Whom the rules of hidden information treat the reader as, at this version.
    pub fn viewer(&self, reader: Reader) -> Viewer {
        self.game()
            .effective_viewer(&self.aggregate.state, reader.viewer(self.head.seat))
    }

    /// The log after `after`, up to this snapshot's version, at most `limit` events.
    pub async fn log(
        &self,
        client: &impl GenericClient,
        after: i64,
        limit: i64,
    ) -> Result<Vec<StoredEvent>> {
        read_log(client, self.game_id, after, self.version(), Some(limit)).await
    }

    /// The take-backs up to this snapshot's version (a partial index finds them; usually
    /// none): what the log marks as taken back, judged at this version.
    pub async fn take_backs(&self, client: &impl GenericClient) -> Result<Vec<CommandTakenBack>> {
        let statement = client
            .prepare_cached(
                "SELECT payload::text FROM events
                 WHERE game_id = $1 AND type = 'CommandTakenBack' AND version <= $2",
            )
            .await?;
        let rows = client
            .query(&statement, &[&self.game_id, &self.version()])
            .await?;
        let mut found = Vec::with_capacity(rows.len());
        for row in rows {
            let payload: String = row.get(0);
            found.extend(CommandTakenBack::of_json(take_back::EVENT, &payload)?);
        }
        Ok(found)
    }

    /// The game's head at this snapshot's version, signed by the server.
    pub async fn head(&self, store: &Store, client: &impl GenericClient) -> Result<SignedHead> {
        let keys = store.trust.keys(client, self.game_id).await?;
        Ok(store
            .trust
            .head_of(&keys, self.version(), &self.aggregate.last_hash))
    }

    /// An event as `viewer` may see it, judged by this snapshot's state.
    pub fn redact(&self, event: &StoredEvent, viewer: Viewer) -> Result<Option<Value>> {
        Ok(self
            .game()
            .redact(&self.aggregate.state, &event.value()?, viewer))
    }
}

impl Store {
    /// The snapshot every read that serves a viewer starts from: the head after applying a
    /// deadline that has passed, and the aggregate at its version.
    pub(crate) async fn snapshot(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        reader: Reader,
    ) -> Result<Snapshot> {
        Ok(self
            .snapshot_reading(client, game_id, reader, HEAD)
            .await?
            .0)
    }

    /// [`Store::snapshot`], with the head read by `sql` (whose first columns are the head's, see
    /// [`GameHead::from_row`]; `$1` the game, `$2` the reader's account), and that row: a read
    /// that needs more of the game at the head's version takes it from the same statement.
    pub(crate) async fn snapshot_reading(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        reader: Reader,
        sql: &str,
    ) -> Result<(Snapshot, tokio_postgres::Row)> {
        let (head, row) = self.settled_head(client, game_id, reader, sql).await?;
        if let (Some(account), Some(seat)) = (reader.account(), head.seat) {
            self.cache.remember_seat(game_id, account, seat);
        }
        self.pauses.reach(READ_HEAD).await;
        let aggregate = self
            .aggregate(client, game_id, head.game, head.version)
            .await?;
        Ok((
            Snapshot {
                game_id,
                head,
                aggregate,
            },
            row,
        ))
    }

    pub(crate) async fn head(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        account: Option<i64>,
    ) -> Result<GameHead> {
        GameHead::from_row(&head_row(client, game_id, account, HEAD).await?)
    }

    /// The head, with the game's row locked until the transaction ends and read once the lock
    /// is held (`lock.rs`): the server's own writers (deadlines, the clock's bot, a rebuild)
    /// decide on it, queued behind every other writer of the game.
    pub(crate) async fn head_for_update(
        &self,
        client: &impl GenericClient,
        game_id: i64,
    ) -> Result<GameHead> {
        let account: Option<i64> = None;
        let row = read_locked(
            client,
            game_id,
            LockFor::Anyone,
            HEAD,
            &[&game_id, &account],
        )
        .await?
        .ok_or(Refusal::GameNotFound(game_id))?;
        GameHead::from_row(&row)
    }
}

/// The head and the reader's seat (see [`GameHead::from_row`]).
const HEAD: &str = "SELECT g.kind, g.status, g.version, g.seat_count, s.seat, g.deadline_ms,
            g.visibility = 'private'
     FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.account_id = $2
     WHERE g.id = $1";

/// The game's row as `sql` reads it (`$1` the game, `$2` the reader's account).
async fn head_row(
    client: &impl GenericClient,
    game_id: i64,
    account: Option<i64>,
    sql: &str,
) -> Result<tokio_postgres::Row> {
    let statement = client.prepare_cached(sql).await?;
    client
        .query_opt(&statement, &[&game_id, &account])
        .await?
        .ok_or(StoreError::Refused(Refusal::GameNotFound(game_id)))
}

impl GameHead {
    /// What the gate judges of the reader who read this head (see `watch.rs`).
    pub(crate) fn watching(&self) -> Watching {
        Watching {
            private: self.private,
            seat: self.seat,
        }
    }

    /// A row whose first columns are `g.kind, g.status, g.version, g.seat_count, s.seat,
    /// g.deadline_ms, g.visibility = 'private'`.
    pub(crate) fn from_row(row: &tokio_postgres::Row) -> Result<GameHead> {
        let kind: String = row.get(0);
        Ok(GameHead {
            game: registry::find(&kind)
                .ok_or_else(|| StoreError::Corrupt(format!("unknown kind {kind}")))?,
            status: row.get(1),
            version: row.get(2),
            seat_count: row.get::<_, i16>(3) as u8,
            seat: row.get::<_, Option<i16>>(4).map(|s| s as u8),
            deadline_ms: row.get(5),
            private: row.get(6),
        })
    }
}

impl Store {
    /// The head read by `sql` (see [`Store::snapshot_reading`]), with its row, after applying a
    /// deadline that has passed; a private game the reader may not watch is not found (judged
    /// first: nothing is done for such a request).
    async fn settled_head(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        reader: Reader,
        sql: &str,
    ) -> Result<(GameHead, tokio_postgres::Row)> {
        let account = reader.account();
        let row = head_row(client, game_id, account, sql).await?;
        let head = GameHead::from_row(&row)?;
        self.must_watch(client, game_id, head.watching(), reader)
            .await?;
        if self.settle(game_id, head.deadline_ms).await? {
            let row = head_row(client, game_id, account, sql).await?;
            return Ok((GameHead::from_row(&row)?, row));
        }
        Ok((head, row))
    }
}
