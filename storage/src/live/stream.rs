//! What a live stream sends after a notice: the events its subscriber has not seen yet, and the
//! game's status, all judged by ONE snapshot (see `snapshot.rs`): the events are redacted by
//! the state of the version the status names, exactly as `/events` would answer at that version.
//!
//! The read is split in two so that a process reads a game once per notice however many streams
//! follow it: [`Store::game_read`] reads what every reader's batch is made of (the head with
//! every seat's account, the aggregate, the log, the take-backs: three statements), and
//! [`Store::seen_by`] and [`GameRead::batch`] judge it for one reader, in memory (a private
//! game's outsider alone costs a statement, the check that it may still watch). The streams
//! that share a read are the API's business (`api/src/live/shared.rs`).

use baumeister_domain::take_back::CommandTakenBack;
use baumeister_domain::Viewer;
use deadpool_postgres::GenericClient;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::Result;
use crate::live::hub::{AccountWatch, GameWatch};
use crate::pause::READ_HEAD;
use crate::people::watch::Watching;
use crate::read::snapshot::{GameHead, Snapshot, StoredEvent};
use crate::reader::Reader;
use crate::types::LoggedEvent;
use crate::Refusal;
use crate::{rfc3339, Store};

/// The `status` message of a stream.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StreamStatus {
    /// The game's version: every event up to it has been sent (those the reader may see).
    pub version: i64,
    /// The seats whose command the game waits for.
    pub to_act: Vec<u8>,
    pub finished: bool,
}

/// The events after a version, as the reader may see them, with the status they are judged by.
pub struct StreamBatch {
    pub events: Vec<LoggedEvent>,
    pub status: StreamStatus,
    /// A seated reader's legal commands at `status.version` (what `/moves` would answer then),
    /// judged on the same snapshot; `None` for spectators and while more batches follow. A
    /// client that follows the stream thus needs no request to learn its moves when its turn
    /// comes: one request per move of its own.
    pub moves: Option<Vec<Box<serde_json::value::RawValue>>>,
}

/// Events per batch: a subscriber far behind gets several batches, each one snapshot.
const BATCH: i64 = 500;

/// One snapshot of a game and its log after a version, for every reader alike: it holds what
/// any viewer's batch is made of and judges nothing by itself (see [`Store::seen_by`]).
pub struct GameRead {
    snapshot: Snapshot,
    /// `(account, seat)` of every seat taken, read in the head's statement (so of its version).
    seats: Vec<(i64, u8)>,
    /// The log after the version the read began at, up to the snapshot's version, at most a
    /// batch.
    rows: Vec<StoredEvent>,
    take_backs: Vec<CommandTakenBack>,
}

/// As whom a reader sees a [`GameRead`]: the viewer its events are redacted for, and its seat
/// (whose moves its status carries). Two readers with the same `Seen` are sent the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seen {
    pub viewer: Viewer,
    pub seat: Option<u8>,
}

impl GameRead {
    pub fn game_id(&self) -> i64 {
        self.snapshot.game_id
    }

    /// The batch `seen` is sent, and whether more follow (the log read stopped at a batch's
    /// size below the snapshot's version): `status.version` is where the next one starts.
    pub fn batch(&self, seen: Seen) -> Result<(StreamBatch, bool)> {
        let snapshot = &self.snapshot;
        let status = snapshot.game().status(&snapshot.aggregate.state);
        let reached = self.rows.last().map_or(snapshot.version(), |e| e.version);
        let more = reached < snapshot.version();
        let mut events = Vec::with_capacity(self.rows.len());
        for e in &self.rows {
            if let Some(event) = snapshot.redact(e, seen.viewer)? {
                events.push(LoggedEvent {
                    version: e.version,
                    seat: e.seat,
                    recorded_at: rfc3339(e.recorded_ms),
                    event,
                    taken_back: self.take_backs.iter().any(|t| t.covers(e.version)),
                });
            }
        }
        let moves = match seen.seat {
            // Before the set-up (version 0) nobody has anything to do.
            Some(_) if !more && snapshot.version() == 0 => Some(Vec::new()),
            Some(seat) if !more => Some(
                snapshot
                    .game()
                    .legal_commands_json(&snapshot.aggregate.state, seat),
            ),
            _ => None,
        };
        let status = if more {
            // Not at the snapshot's version yet: no status until the last batch.
            StreamStatus {
                version: reached,
                to_act: Vec::new(),
                finished: false,
            }
        } else {
            StreamStatus {
                version: snapshot.version(),
                to_act: if snapshot.version() == 0 {
                    Vec::new()
                } else {
                    status.to_act
                },
                finished: status.finished,
            }
        };
        Ok((
            StreamBatch {
                events,
                status,
                moves,
            },
            more,
        ))
    }

    /// What the gate found for the reader `seen` was judged for (by [`Store::seen_by`]).
    pub fn watching(&self, seen: Seen) -> Watching {
        Watching {
            private: self.snapshot.head.private,
            seat: seen.seat,
        }
    }

    fn seat_of(&self, reader: Reader) -> Option<u8> {
        seat_in(&self.seats, reader)
    }
}

impl Store {
    /// Wakes on every change to the game in any server process (see [`crate::live::hub`]).
    pub fn watch_game(&self, game_id: i64) -> GameWatch {
        self.hub.watch_game(game_id)
    }

    /// Wakes on every change to any game `account` sits at.
    pub fn watch_account(&self, account_id: i64) -> AccountWatch {
        self.hub.watch_account(account_id)
    }

    /// One snapshot of the game and its log after `after` (at most a batch), for any reader
    /// (judge each with [`Store::seen_by`]). With `admit`, that reader is judged before a
    /// passed deadline is applied, as every request is (one that may not watch a private game
    /// does nothing to it); streams already admitted read without.
    pub async fn game_read(
        &self,
        game_id: i64,
        after: i64,
        admit: Option<Reader>,
    ) -> Result<GameRead> {
        let client = self.pool.get().await?;
        let (mut head, mut seats) = stream_head(&client, game_id).await?;
        if let Some(reader) = admit {
            let seat = seat_in(&seats, reader);
            let seen = Watching {
                private: head.private,
                seat,
            };
            self.must_watch(&client, game_id, seen, reader).await?;
        }
        if self.settle(game_id, head.deadline_ms).await? {
            (head, seats) = stream_head(&client, game_id).await?;
        }
        self.pauses.reach(READ_HEAD).await;
        let aggregate = self
            .aggregate(&client, game_id, head.game, head.version)
            .await?;
        let snapshot = Snapshot {
            game_id,
            head,
            aggregate,
        };
        let rows = snapshot.log(&client, after, BATCH).await?;
        let take_backs = snapshot.take_backs(&client).await?;
        Ok(GameRead {
            snapshot,
            seats,
            rows,
            take_backs,
        })
    }

    /// As whom `reader` sees `read`, or `GameNotFound` when it may not watch the game (a
    /// private game it neither sits at nor is invited to: the one case that costs a statement).
    pub async fn seen_by(&self, read: &GameRead, reader: Reader) -> Result<Seen> {
        let game_id = read.game_id();
        let head = &read.snapshot.head;
        let seat = read.seat_of(reader);
        let auditor = matches!(reader, Reader::Account { auditor: true, .. });
        if head.private && seat.is_none() && !auditor {
            let client = self.pool.get().await?;
            let seen = Watching {
                private: true,
                seat: None,
            };
            self.must_watch(&client, game_id, seen, reader).await?;
        }
        if let (Some(account), Some(seat)) = (reader.account(), seat) {
            self.cache.remember_seat(game_id, account, seat);
        }
        let viewer = head
            .game
            .effective_viewer(&read.snapshot.aggregate.state, reader.viewer(seat));
        Ok(Seen { viewer, seat })
    }
}

fn seat_in(seats: &[(i64, u8)], reader: Reader) -> Option<u8> {
    let account = reader.account()?;
    seats
        .iter()
        .find(|(a, _)| *a == account)
        .map(|(_, seat)| *seat)
}

/// The head (as [`GameHead::from_row`] reads it, without a reader's seat) and every seat's
/// account, in one statement: the seats are those of the head's version.
async fn stream_head(
    client: &impl GenericClient,
    game_id: i64,
) -> Result<(GameHead, Vec<(i64, u8)>)> {
    let statement = client
        .prepare_cached(
            "SELECT g.kind, g.status, g.version, g.seat_count, NULL::smallint, g.deadline_ms,
                    g.visibility = 'private',
                    ARRAY(SELECT s.account_id FROM seats s WHERE s.game_id = g.id ORDER BY s.seat),
                    ARRAY(SELECT s.seat FROM seats s WHERE s.game_id = g.id ORDER BY s.seat)
             FROM games g WHERE g.id = $1",
        )
        .await?;
    let row = client
        .query_opt(&statement, &[&game_id])
        .await?
        .ok_or(Refusal::GameNotFound(game_id))?;
    let head = GameHead::from_row(&row)?;
    let accounts: Vec<i64> = row.get(7);
    let seats: Vec<i16> = row.get(8);
    Ok((
        head,
        accounts
            .into_iter()
            .zip(seats.into_iter().map(|s| s as u8))
            .collect(),
    ))
}
