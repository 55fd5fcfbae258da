//! Reads: aggregates (from the cache plus the events after it), each caller's view, legal
//! moves, the log and replays, all with the same rules of hidden information, each response
//! from one snapshot of its game (see `snapshot.rs`).

use std::sync::Arc;

use baumeister_domain::{registry, take_back, DynGame};
use deadpool_postgres::GenericClient;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::audit::chain::GENESIS;
use crate::audit::trust::SignedHead;
use crate::command::undo::{may_undo, HEAD_AND_LAST_COMMAND};
use crate::error::{Result, StoreError};
use crate::people::lobby::{summary_from_row, SUMMARY_COLUMNS, SUMMARY_WIDTH, VISIBILITY_COLUMN};
use crate::people::watch::Watching;
use crate::read::cache::Aggregate;
use crate::read::snapshot::read_log;
use crate::read::snapshots::fold_keeping;
use crate::reader::Reader;
use crate::types::{EventPage, Fairness, GameDetail, LoggedEvent, Visibility};
use crate::Refusal;
use crate::{rfc3339, Store};

/// Which events `/events` lists (as the reader sees them).
#[derive(Clone, Debug, Default)]
pub struct EventFilter {
    /// Only these event types (empty: all).
    pub types: Vec<String>,
    /// Only events caused by this seat's commands.
    pub seat: Option<u8>,
}

impl EventFilter {
    fn is_empty(&self) -> bool {
        self.types.is_empty() && self.seat.is_none()
    }

    fn admits(&self, event: &Value, seat: Option<u8>) -> bool {
        let kind = event.get("type").and_then(Value::as_str).unwrap_or("");
        (self.types.is_empty() || self.types.iter().any(|t| t == kind))
            && (self.seat.is_none() || self.seat == seat)
    }
}

/// The legal commands of a reader (see [`Store::moves`]).
pub struct Moves {
    pub version: i64,
    /// The reader's seat (spectators have none, and no moves).
    pub seat: Option<u8>,
    /// Every command the reader may send now, as JSON.
    pub commands: Vec<Box<serde_json::value::RawValue>>,
    /// Whether the reader may take back their last command now (`POST …/undo`).
    pub can_undo: bool,
    pub head: SignedHead,
}

/// What a game's signed head names: its uid, or its local id for games older than the uid.
pub(crate) fn head_name(game_id: i64, fairness: Option<&Fairness>) -> String {
    match fairness {
        Some(f) => f.uid.clone(),
        None => crate::audit::trust::GameKeys::legacy(game_id).name,
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
        let base = match cached {
            Some(a) => (*a).clone(),
            // A cold start folds from the nearest trustworthy snapshot (see `snapshots.rs`).
            None => self.snapshot_base(client, game_id, game, version).await?,
        };
        let (aggregate, _) = self.fold_to(client, game_id, game, base, version).await?;
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

    /// The game with the board as the reader may see it: one statement reads the lobby row, the
    /// reader's seat and the head's hash; the board is the view of the aggregate at exactly that
    /// version (the cached one in the common case), so what a response shows and the version it
    /// names are one snapshot, in any process.
    pub async fn game(&self, game_id: i64, reader: Reader) -> Result<GameDetail> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, me.seat, g.deadline_ms,
                    (SELECT e.hash FROM events e WHERE e.game_id = g.id AND e.version = g.version)
             FROM games g
             LEFT JOIN seats me ON me.game_id = g.id AND me.account_id = $2
             WHERE g.id = $1"
        );
        let statement = client.prepare_cached(&sql).await?;
        let read = || async {
            client
                .query_opt(&statement, &[&game_id, &reader.account()])
                .await?
                .ok_or(StoreError::Refused(Refusal::GameNotFound(game_id)))
        };
        let mut row = read().await?;
        // A private game is not there for those who may not watch it (judged before anything,
        // a passed deadline included, is done for the request).
        let your_seat = row.get::<_, Option<i16>>(SUMMARY_WIDTH).map(|s| s as u8);
        let private = row.get::<_, String>(VISIBILITY_COLUMN) == Visibility::Private.as_str();
        let seen = Watching {
            private,
            seat: your_seat,
        };
        self.must_watch(&client, game_id, seen, reader).await?;
        // One query in the common case; a second only when a deadline had to be applied.
        if self.settle(game_id, row.get(SUMMARY_WIDTH + 1)).await? {
            row = read().await?;
        }
        let summary = summary_from_row(&row, self.now_ms())?;
        let hash: Option<Vec<u8>> = row.get(SUMMARY_WIDTH + 2);
        let hash = hash.as_deref().unwrap_or(&GENESIS);
        // Before the set-up the keys are not final (seats are still being taken); after it they
        // are remembered, so this costs no query in the common case.
        let head = if summary.version > 0 {
            let keys = self.trust.keys(&client, game_id).await?;
            self.trust.head_of(&keys, summary.version, hash)
        } else {
            let name = head_name(game_id, summary.fairness.as_ref());
            self.trust.head(&name, summary.version, hash)
        };
        // No board before the set-up (the last seat taken) has dealt one.
        let view = if summary.version > 0 {
            let game = registry::find(&summary.kind)
                .ok_or_else(|| StoreError::Corrupt(summary.kind.clone()))?;
            let aggregate = self
                .aggregate(&client, game_id, game, summary.version)
                .await?;
            let viewer = game.effective_viewer(&aggregate.state, reader.viewer(your_seat));
            Some(game.view_json(&aggregate.state, viewer))
        } else {
            None
        };
        Ok(GameDetail {
            summary,
            your_seat,
            view,
            head,
        })
    }

    /// The reader's legal commands at the version returned (the seat's; none for spectators),
    /// with the game's signed head at that version: the game's newest version, or with
    /// `min_version` any version from that one on (see [`Store::moves_held`]).
    pub async fn moves(
        &self,
        game_id: i64,
        reader: Reader,
        min_version: Option<i64>,
    ) -> Result<Moves> {
        if let (Some(min_version), Reader::Account { id, .. }) = (min_version, reader) {
            if let Some(moves) = self.moves_held(game_id, id, min_version) {
                return Ok(moves);
            }
        }
        let client = self.pool.get().await?;
        // `can_undo` is judged on the game's last command at the version read. Where this
        // process appended that command (the common case: a player's `/moves` after the other
        // seat's command), it knows the command and the game's `undo` option, and the head
        // alone is read: half of PostgreSQL's work for the statement that also reads the last
        // command (`scripts/pg-instructions-per-append`'s way, counted by hand). Otherwise one
        // statement reads both, at the same version.
        let known = match reader.account() {
            Some(_) => self
                .cache
                .fixed_options(game_id)
                .zip(self.cache.last_command(game_id)),
            None => None,
        };
        let (snapshot, row) = match known {
            Some(_) => (self.snapshot(&client, game_id, reader).await?, None),
            None => {
                let (snapshot, row) = self
                    .snapshot_reading(&client, game_id, reader, &HEAD_AND_LAST_COMMAND)
                    .await?;
                (snapshot, Some(row))
            }
        };
        let version = snapshot.version();
        let head = snapshot.head(self, &client).await?;
        let commands = match snapshot.head.seat {
            Some(seat) if version > 0 => snapshot
                .game()
                .legal_commands_json(&snapshot.aggregate.state, seat),
            _ => Vec::new(),
        };
        let can_undo = match (reader.account(), snapshot.head.seat, known, &row) {
            (Some(_), Some(_), _, Some(row)) if version > 0 => may_undo(row)?,
            (Some(_), Some(seat), Some((options, (at, last))), _) if at == version => {
                take_back::judge(options.undo, seat, last, false).is_ok()
            }
            // Moved on since this process's append (a take-back, or another process): the last
            // command is read after all, and what was remembered is forgotten, so that the
            // next reads take the one statement until this process appends again.
            (Some(account), Some(_), Some(_), _) if version > 0 => {
                self.cache.forget_last_command(game_id);
                self.can_undo(&client, game_id, account, version).await?
            }
            _ => false,
        };
        Ok(Moves {
            version,
            seat: snapshot.head.seat,
            commands,
            can_undo,
            head,
        })
    }

    /// The moves of a seated reader who asked for them at `min_version` or later, from what
    /// this process holds, without a statement: `None` unless it holds all of it at one
    /// committed version from `min_version` on. A client that names the newest version it
    /// knows (its own command's answer, the stream's notice) cannot be shown an older game
    /// than it has seen, which is all that reading the database bought it: an answer without
    /// `min_version` is at the newest version, which across processes only the database knows.
    ///
    /// What it takes, each held only once committed (see `Cache`): the aggregate (at a version
    /// from `min_version` on), the reader's seat (seats never change hands), the game's fixed
    /// options and its last command at that same version (for `can_undo`, as the full read
    /// judges it), and the game's keys (for the head). Left to the database: a game with the
    /// turn clock (its deadlines are computed there) and one whose own deadline has passed (a
    /// read applies it first, see `Store::settle`). The reader is seated, so a private game
    /// is theirs to watch.
    pub(crate) fn moves_held(&self, game_id: i64, account: i64, min_version: i64) -> Option<Moves> {
        let aggregate = self
            .cache
            .get(game_id)
            .filter(|a| a.version > 0 && a.version >= min_version)?;
        let seat = self.cache.seat(game_id, account)?;
        let options = self.cache.fixed_options(game_id).filter(|o| !o.clocked)?;
        let (at, last) = self
            .cache
            .last_command(game_id)
            .filter(|(at, _)| *at == aggregate.version)?;
        let game = aggregate.game;
        if game
            .deadline(&aggregate.state)
            .is_some_and(|deadline| deadline <= self.now_ms())
        {
            return None;
        }
        let keys = self.trust.held_keys(game_id)?;
        Some(Moves {
            version: at,
            seat: Some(seat),
            commands: game.legal_commands_json(&aggregate.state, seat),
            can_undo: take_back::judge(options.undo, seat, last, false).is_ok(),
            head: self
                .trust
                .head_of(&keys, aggregate.version, &aggregate.last_hash),
        })
    }

    /// The log after version `after`, at most `limit` entries, as the reader may see it at the
    /// version the page names.
    pub async fn events(
        &self,
        game_id: i64,
        reader: Reader,
        after: i64,
        limit: i64,
        filter: &EventFilter,
    ) -> Result<EventPage> {
        let client = self.pool.get().await?;
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        let viewer = snapshot.viewer(reader);
        let version = snapshot.version();
        let take_backs = snapshot.take_backs(&client).await?;
        let mut events = Vec::new();
        let mut scanned = after;
        // Filters judge each event as the reader sees it (its redacted type), never the stored
        // one, so a filter cannot tell more than the unfiltered log. Without a filter this is
        // one read; with one, reads continue until the page is full or the log ends.
        while (events.len() as i64) < limit && scanned < version {
            let chunk = if filter.is_empty() {
                limit
            } else {
                limit.max(500)
            };
            let rows = snapshot.log(&client, scanned, chunk).await?;
            if rows.is_empty() {
                break;
            }
            for e in rows {
                scanned = e.version;
                let Some(event) = snapshot.redact(&e, viewer)? else {
                    continue;
                };
                if !filter.admits(&event, e.seat) {
                    continue;
                }
                events.push(LoggedEvent {
                    version: e.version,
                    seat: e.seat,
                    recorded_at: rfc3339(e.recorded_ms),
                    event,
                    taken_back: take_backs.iter().any(|t| t.covers(e.version)),
                });
                if events.len() as i64 == limit {
                    break;
                }
            }
            if filter.is_empty() {
                break;
            }
        }
        Ok(EventPage {
            game_id,
            version,
            events,
            next_after: Some(scanned).filter(|v| *v < version && *v > after),
            head: snapshot.head(self, &client).await?,
        })
    }

    /// The board as the reader may see it as of version `at` (1..=current), with the game's
    /// version and signed head when it was judged. Once the game has ended, every past board is
    /// public too. Folding a long log is CPU work: it runs on the
    /// blocking pool, not on the server's async workers.
    pub async fn replay(
        &self,
        game_id: i64,
        reader: Reader,
        at: i64,
    ) -> Result<(i64, Box<RawValue>, SignedHead)> {
        let client = self.pool.get().await?;
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        if at < 1 || at > snapshot.version() {
            return Err(StoreError::Refused(Refusal::VersionOutOfRange(at)));
        }
        let game = snapshot.game();
        // From the nearest trustworthy state snapshot at or before `at`: at most
        // `SNAPSHOT_EVERY` events are read and folded.
        let mut base = self.snapshot_base(&client, game_id, game, at).await?;
        // Judged by the snapshot: a game that has ended shows every past board whole.
        let viewer = snapshot.viewer(reader);
        let every = self.snapshot_every();
        let (view, kept) = loop {
            let events = read_log(&client, game_id, base.version, at, None).await?;
            let folded = tokio::task::spawn_blocking(move || -> Result<_> {
                Ok(match fold_keeping(game, base, &events, every)? {
                    Ok((past, kept)) => {
                        let viewer = game.effective_viewer(&past.state, viewer);
                        Ok((game.view_json(&past.state, viewer), kept))
                    }
                    Err(back_to) => Err(back_to),
                })
            })
            .await
            .map_err(|e| StoreError::Corrupt(format!("replay: {e}")))??;
            match folded {
                Ok(done) => break done,
                // A take-back reaches back before the snapshot: from an earlier one.
                Err(back_to) => base = self.snapshot_base(&client, game_id, game, back_to).await?,
            }
        };
        // The snapshots this fold passed, for the next replay (a lost write costs nothing).
        if let Err(e) = self.save_snapshots(&client, game_id, &kept).await {
            tracing::warn!(game = game_id, error = %e, "snapshots not saved");
        }
        Ok((
            snapshot.version(),
            view,
            snapshot.head(self, &client).await?,
        ))
    }
}
