//! What a live stream sends after a notice: the events its subscriber has not seen yet, and the
//! game's status, all judged by ONE snapshot (see `snapshot.rs`): the events are redacted by
//! the state of the version the status names, exactly as `/events` would answer at that version.

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::Result;
use crate::live::hub::{AccountWatch, GameWatch};
use crate::reads::Reader;
use crate::types::LoggedEvent;
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
    pub moves: Option<Vec<serde_json::Value>>,
}

/// Events per batch: a subscriber far behind gets several batches, each one snapshot.
const BATCH: i64 = 500;

impl Store {
    /// Wakes on every change to the game in any server process (see [`crate::live::hub`]).
    pub fn watch_game(&self, game_id: i64) -> GameWatch {
        self.hub.watch_game(game_id)
    }

    /// Wakes on every change to any game `account` sits at.
    pub fn watch_account(&self, account_id: i64) -> AccountWatch {
        self.hub.watch_account(account_id)
    }

    /// The events after `after` (at most one batch) as `reader` may see them, and the status
    /// at the version that judged them; `status.version` is where the next batch starts, and
    /// it is below the game's version when more batches follow.
    pub async fn stream_batch(
        &self,
        game_id: i64,
        reader: Reader,
        after: i64,
    ) -> Result<(StreamBatch, bool)> {
        let client = self.pool.get().await?;
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        let viewer = snapshot.viewer(reader);
        let rows = snapshot.log(&client, after, BATCH).await?;
        let take_backs = snapshot.take_backs(&client).await?;
        drop(client);
        let status = snapshot.game().status(&snapshot.aggregate.state);
        let reached = rows.last().map_or(snapshot.version(), |e| e.version);
        let more = reached < snapshot.version();
        let mut events = Vec::with_capacity(rows.len());
        for e in rows {
            if let Some(event) = snapshot.redact(&e, viewer)? {
                events.push(LoggedEvent {
                    version: e.version,
                    seat: e.seat,
                    recorded_at: rfc3339(e.recorded_ms),
                    event,
                    taken_back: take_backs.iter().any(|t| t.covers(e.version)),
                });
            }
        }
        let moves = match snapshot.head.seat {
            // Before the set-up (version 0) nobody has anything to do.
            Some(_) if !more && snapshot.version() == 0 => Some(Vec::new()),
            Some(seat) if !more => Some(
                snapshot
                    .game()
                    .legal_commands(&snapshot.aggregate.state, seat),
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
}
