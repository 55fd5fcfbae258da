//! Reads shared by the live streams of a game: after a notice, a process reads each
//! game once, however many streams follow it, and frames each viewer's messages once.
//!
//! A stream woken by a notice sees its game's wake number `n` (never given twice in a process,
//! see `baumeister_storage::Hub`) and asks for the read of `(game, n, after)`, `after` being the
//! version it has sent everything up to. The first to ask reads; the others wait for that read
//! and take it: it began after the notice that set `n`, so it holds every change they were woken
//! for, as a read of their own would. Each stream is then judged on its own
//! ([`Store::seen_by`]: may it still watch, and as whom) and is sent the frames made for its
//! [`Seen`] (the viewer its events are redacted for and its seat, whose moves the status
//! carries): bytes made for one viewer never reach a stream of another.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use actix_web::web::Bytes;
use baumeister_storage::Refusal;
use baumeister_storage::{GameRead, Reader, Seen, Store, StoreError};
use tokio::sync::OnceCell;

use crate::live::sse;
use crate::live::status::StreamStatus;

/// The reads being shared, by game, wake number and `after`; an entry lives as long as a
/// stream holds it (while reading, or waiting for the read).
#[derive(Default)]
pub struct SharedReads {
    reads: Mutex<HashMap<ReadKey, Weak<Shared>>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ReadKey {
    game_id: i64,
    wake: u64,
    after: i64,
}

/// One read and the frames made of it so far, per viewer.
#[derive(Default)]
struct Shared {
    read: OnceCell<Result<Arc<GameRead>, StoreError>>,
    frames: Mutex<HashMap<Seen, Arc<Frames>>>,
}

/// A batch's messages for one viewer, framed once and sent as one write (`Bytes` are shared
/// by the streams, not copied).
pub struct Frames {
    /// One `event` message per event the viewer may see, one after the other.
    pub events: Bytes,
    /// The same followed by the `status` message; `None` while more batches follow.
    pub with_status: Option<Bytes>,
    /// Every event up to this version has been judged (the status's version).
    pub version: i64,
}

impl Frames {
    /// The messages `seen` is sent of `read`.
    pub fn of(read: &GameRead, seen: Seen) -> Result<Frames, StoreError> {
        let (batch, more) = read.batch(seen)?;
        let mut buffer = Vec::new();
        for e in &batch.events {
            sse::append(&mut buffer, "event", Some(e.version), e);
        }
        let version = batch.status.version;
        let events = Bytes::from(buffer.clone());
        let with_status = (!more).then(|| {
            let status = StreamStatus {
                version,
                to_act: batch.status.to_act,
                finished: batch.status.finished,
                moves: batch
                    .moves
                    .map(|m| crate::routes::play::ready_to_send(m, version)),
            };
            sse::append(&mut buffer, "status", Some(version), &status);
            Bytes::from(buffer)
        });
        Ok(Frames {
            events,
            with_status,
            version,
        })
    }

    /// Whether more batches follow before the snapshot's version is reached.
    pub fn more(&self) -> bool {
        self.with_status.is_none()
    }
}

impl SharedReads {
    /// What `reader`'s stream of `game_id` is sent after its wake number `wake`, having sent
    /// everything up to `after`: the read is shared with every stream asking for the same
    /// three, the frames with those that also see it alike.
    pub async fn frames(
        &self,
        store: &Store,
        game_id: i64,
        wake: u64,
        after: i64,
        reader: Reader,
    ) -> Result<Arc<Frames>, StoreError> {
        let shared = self.shared(ReadKey {
            game_id,
            wake,
            after,
        });
        // The streams that share a read were admitted when they opened; each is judged again
        // below, by `seen_by`.
        let read = shared
            .read
            .get_or_init(|| async { store.game_read(game_id, after, None).await.map(Arc::new) })
            .await;
        let read = match read {
            Ok(read) => read.clone(),
            Err(e) => return Err(again(e)),
        };
        let seen = store.seen_by(&read, reader).await?;
        if let Some(frames) = shared.frames.lock().unwrap().get(&seen) {
            return Ok(frames.clone());
        }
        // Made outside the lock: streams of other viewers are not held up meanwhile (two of
        // the same viewer may both make them; one is kept).
        let frames = Arc::new(Frames::of(&read, seen)?);
        let kept = shared
            .frames
            .lock()
            .unwrap()
            .entry(seen)
            .or_insert(frames)
            .clone();
        Ok(kept)
    }

    /// The shared read of `key`: the one under way or done, or a new one (also in place of one
    /// that failed: a stream asking again after a pause shares a new read).
    fn shared(&self, key: ReadKey) -> Arc<Shared> {
        let mut reads = self.reads.lock().unwrap();
        if let Some(shared) = reads.get(&key).and_then(Weak::upgrade) {
            if !matches!(shared.read.get(), Some(Err(_))) {
                return shared;
            }
        }
        reads.retain(|_, shared| shared.strong_count() > 0);
        let shared = Arc::new(Shared::default());
        reads.insert(key, Arc::downgrade(&shared));
        shared
    }

    /// How many reads are held (by the streams reading or waiting for them).
    #[cfg(test)]
    fn held(&self) -> usize {
        let reads = self.reads.lock().unwrap();
        reads.values().filter(|r| r.strong_count() > 0).count()
    }
}

/// A shared read's failure, for each stream that shared it: a database that is away stays
/// away (the stream waits for it, see `GameStream::patiently`), a game not found stays not
/// found, and anything else ends the stream as an internal error.
fn again(e: &StoreError) -> StoreError {
    match e {
        StoreError::Unavailable(m) | StoreError::Pool(m) => StoreError::Unavailable(m.clone()),
        StoreError::Refused(Refusal::GameNotFound(id)) => {
            StoreError::Refused(Refusal::GameNotFound(*id))
        }
        other => StoreError::Corrupt(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_shares_one_read_while_it_is_held_and_a_failed_read_is_not_shared_again() {
        let reads = SharedReads::default();
        let key = ReadKey {
            game_id: 7,
            wake: 3,
            after: 10,
        };
        let first = reads.shared(key);
        assert!(Arc::ptr_eq(&first, &reads.shared(key)), "the same read");
        for other in [
            ReadKey { wake: 4, ..key },
            ReadKey { after: 11, ..key },
            ReadKey { game_id: 8, ..key },
        ] {
            assert!(!Arc::ptr_eq(&first, &reads.shared(other)), "{other:?}");
        }
        assert_eq!(reads.held(), 1, "the others were dropped at once");
        first
            .read
            .set(Err(StoreError::Unavailable("gone".into())))
            .ok()
            .unwrap();
        let retried = reads.shared(key);
        assert!(
            !Arc::ptr_eq(&first, &retried),
            "a failed read is read again"
        );
        drop((first, retried));
        assert_eq!(
            reads.held(),
            0,
            "nothing is held once the streams have their read"
        );
    }

    #[test]
    fn a_shared_failure_keeps_what_the_stream_does_about_it() {
        assert!(matches!(
            again(&StoreError::Unavailable("x".into())),
            StoreError::Unavailable(_)
        ));
        assert!(matches!(
            again(&StoreError::Pool("x".into())),
            StoreError::Unavailable(_)
        ));
        assert!(matches!(
            again(&StoreError::Refused(Refusal::GameNotFound(5))),
            StoreError::Refused(Refusal::GameNotFound(5))
        ));
        assert!(matches!(
            again(&StoreError::Corrupt("x".into())),
            StoreError::Corrupt(_)
        ));
    }
}
