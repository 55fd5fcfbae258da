//! Announcing a committed append to those who follow its game, in this process and in the
//! others.
//!
//! Why the append does not NOTIFY inside its own transaction: PostgreSQL serializes the commits of notifying transactions. A transaction that
//! queued a notice takes one lock for the whole database cluster before its commit record and
//! keeps it until the commit has ended, WAL flush included, so two appends that notify can never
//! share a flush. Measured with the benchmark (Burgbaumeister, 8 clients, one-request cycle),
//! the same build with the NOTIFY taken out of the append played 3,686–4,080 commands/s against
//! 2,844–3,167, at 0.24–0.26 ms of PostgreSQL's CPU per command against 0.31–0.34 ms; with the
//! process's LISTEN connection closed instead (nobody to wake) nothing changed, so the cost is the
//! serialized commit, not the listeners.
//!
//! So the append returns its notice ([`crate::command::append::Written`]), and once its transaction has
//! committed the process that wrote it calls [`Store::announce`]: its own subscribers, bots and
//! workers are woken in memory at once (sooner than the round trip through PostgreSQL that woke
//! them before), and the notice is queued for the other processes. One sender task per process
//! ([`Store::send_announcements`]) sends whatever is queued as ONE statement, outside any writing
//! transaction (it writes no WAL, so the lock is held for microseconds), every notice prefixed
//! with this process's tag so that its own listener skips what it already delivered.
//!
//! What this gives up: a process that dies after a commit and before its next batch (a few
//! milliseconds at most) leaves the other processes unwoken for that append. They learn of it
//! with the game's next notice (a subscriber reads everything after the version it sent), the
//! bots' fallback sweep and the webhook and notice workers' own timers; and a process tells every
//! other to resync when its listener first connects, so a restarted process heals what it
//! dropped. Chat, invitations, rematches and seats taken still NOTIFY inside their
//! transactions: they are rare.

use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::live::channels::CHANNEL;
use crate::live::hub::{listener_name, tagged, Heard, Notice, LISTENER_PREFIX};
use crate::Store;

/// How long the sender waits after the first queued notice for more, so that a busy process
/// sends one statement for many appends: the delay another process's streams see at most
/// beyond the statement's own round trip.
const GATHER: Duration = Duration::from_millis(2);

/// At most this many notices per statement (PostgreSQL's queue takes 8,000 bytes per notice;
/// one statement's notices are queued in one go).
const BATCH: usize = 1_000;

/// How long a look-up of the other processes' listeners holds.
pub(crate) const PEERS_HOLD: Duration = Duration::from_secs(1);

/// A batch that could not be sent is tried again after this pause, a few times, then dropped
/// (the receivers' fallbacks above cover it).
const RETRY: Duration = Duration::from_millis(200);
const ATTEMPTS: u32 = 5;

impl Store {
    /// Tells everybody who follows the game of a committed append: this process's subscribers
    /// at once, the other processes with the sender's next batch. Call it only after the
    /// transaction that wrote `notice` has committed, and after the aggregate it wrote is
    /// cached (the woken subscribers read it from there instead of folding the log again).
    pub(crate) fn announce(&self, notice: Notice) {
        self.heard(Heard::Game(notice));
        self.hub.queue_outgoing(notice.payload());
    }

    /// Sends the queued notices to the other processes, forever: one statement per batch.
    /// Spawn it once per server process, beside [`Store::listen`]; from this call on, the
    /// process's notices are queued for it.
    pub fn send_announcements(self) -> impl std::future::Future<Output = ()> {
        self.hub.sending.store(true, Ordering::Relaxed);
        async move { self.send_forever().await }
    }

    async fn send_forever(self) {
        loop {
            self.hub.outgoing_ready.notified().await;
            tokio::time::sleep(GATHER).await;
            loop {
                let batch = self.hub.take_outgoing(BATCH);
                if batch.is_empty() {
                    break;
                }
                if !self.others_listen().await {
                    continue;
                }
                let payloads: Vec<String> =
                    batch.iter().map(|n| tagged(&self.hub.tag, n)).collect();
                self.send(&payloads).await;
            }
        }
    }

    /// Whether another process listens on this database: looked up at most once a second
    /// (their listening connections are named after them), and known at once when one starts
    /// (its resync notice). A process alone sends nothing: most servers run as one process, and
    /// each NOTIFY wakes the process's own listener for nothing. When the look-up fails,
    /// notices are sent.
    async fn others_listen(&self) -> bool {
        if let Some((others, at)) = *self.hub.peers.lock().unwrap() {
            if at.elapsed() < PEERS_HOLD {
                return others;
            }
        }
        let began = std::time::Instant::now();
        let looked_up = async {
            let client = self.pool.get().await?;
            let row = client
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM pg_stat_activity
                                     WHERE datname = current_database()
                                       AND starts_with(application_name, $1) AND application_name <> $2)",
                    &[&LISTENER_PREFIX, &listener_name(&self.hub.tag)],
                )
                .await?;
            crate::Result::Ok(row.get::<_, bool>(0))
        };
        let others = looked_up.await.unwrap_or(true);
        // Dated when the look-up began, and kept only if nothing newer was learnt meanwhile:
        // a process's `resync` heard during the look-up must not be overwritten by a look-up
        // that began before that process connected.
        let mut peers = self.hub.peers.lock().unwrap();
        match *peers {
            Some((known, at)) if at > began => known,
            _ => {
                *peers = Some((others, began));
                others
            }
        }
    }

    async fn send(&self, payloads: &[String]) {
        for attempt in 1..=ATTEMPTS {
            let sent = async {
                let client = self.pool.get().await?;
                client
                    .execute(
                        &format!("SELECT pg_notify('{CHANNEL}', p) FROM unnest($1::text[]) AS p"),
                        &[&payloads],
                    )
                    .await?;
                crate::Result::Ok(())
            };
            match sent.await {
                Ok(()) => return,
                Err(e) if attempt == ATTEMPTS => {
                    tracing::warn!(error = %e, notices = payloads.len(), "live notices not sent to the other processes");
                }
                Err(_) => tokio::time::sleep(RETRY).await,
            }
        }
    }
}
