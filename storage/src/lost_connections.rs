//! Forgetting the connections to a database node that went away.
//!
//! With a replicated database (docs/failover.md), `DATABASE_URL` names several hosts and
//! `target_session_attrs=read-write`: a new connection goes to whichever node takes writes now.
//! When the primary is lost, every pooled connection was made to it. Those whose socket closed
//! are dropped by the pool's own check (`RecyclingMethod::Fast`), but a machine that vanished
//! closes nothing: each idle connection would be found dead only when a request used it and
//! waited for the TCP timeout, one request per connection. And a node that was demoted while
//! up answers `read_only_sql_transaction` on a socket that stays open.
//!
//! So the first statement that finds its connection lost marks the moment, and the pools drop
//! every connection made before it when it is next taken (a `pre_recycle` hook): one request
//! pays for the discovery, the others get a connection to the new primary. A connection lost
//! for another reason (a backend terminated by hand) costs the pool its connections once, which
//! it makes again within milliseconds.
//!
//! The mark is one per process, not per pool: a server process has one database, and an error
//! does not say which pool its connection came from. Where one process runs many servers on
//! many databases (the end-to-end tests), a loss in one makes the others' pools reconnect once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use deadpool_postgres::{Hook, HookError, Metrics};

/// Nanoseconds after [`origin`] of the last loss, 0 for none.
static LAST_LOSS: AtomicU64 = AtomicU64::new(0);

fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

fn since_origin(at: Instant) -> u64 {
    // 1 at least, so that a loss at the origin itself still counts.
    (at.saturating_duration_since(origin()).as_nanos() as u64).max(1)
}

/// A statement found its connection lost (closed, broken, or to a node that takes no writes):
/// the connections made until now are not to be used again.
pub(crate) fn connection_lost() {
    // Fixed before the moment it is compared with, so that no connection predates it.
    origin();
    LAST_LOSS.fetch_max(since_origin(Instant::now()), Ordering::Relaxed);
}

/// Whether a connection made at `created` was made before the last loss.
fn made_before_last_loss(created: Instant) -> bool {
    let lost = LAST_LOSS.load(Ordering::Relaxed);
    lost != 0 && since_origin(created) <= lost
}

/// The pools' hook that refuses, when it is taken again, a connection made before the last loss.
pub(crate) fn drop_older_than_last_loss() -> Hook {
    Hook::sync_fn(|_client, metrics: &Metrics| {
        if made_before_last_loss(metrics.created) {
            Err(HookError::message(
                "made before a connection was lost: maybe to a node that is gone",
            ))
        } else {
            Ok(())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_made_before_a_loss_are_dropped_and_later_ones_kept() {
        let before = Instant::now();
        connection_lost();
        let after = Instant::now() + std::time::Duration::from_millis(1);
        assert!(made_before_last_loss(before));
        assert!(!made_before_last_loss(after));
        // A later loss takes the later connection too.
        std::thread::sleep(std::time::Duration::from_millis(2));
        connection_lost();
        assert!(made_before_last_loss(after));
    }
}
