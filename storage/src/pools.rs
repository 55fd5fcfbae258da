//! The connection pool, split by thread.
//!
//! A tokio-postgres connection is a task on the runtime of the thread that opened it, and
//! actix-web runs one single-threaded runtime per worker thread. With one pool shared by every
//! worker, a connection opened by one worker and taken by another crossed threads twice per
//! statement: the taker handed the statement to the owner's thread (waking it to write to the
//! socket), and the owner handed the answer back (waking the taker). Each thread now takes its
//! connections from a pool of its own, so a connection is written and read on the thread that
//! uses it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use deadpool_postgres::{Object, Pool, PoolError};

/// Pools that threads take their connections from, each thread always the same one.
#[derive(Clone)]
pub(crate) struct Pools(Arc<[Pool]>);

/// Threads are numbered in the order they first take a connection; thread `n` uses pool
/// `n % pools`. In the server, the main thread (background work) comes first and then the
/// workers, one pool each; any thread beyond shares a pool, which is only slower.
static NEXT_THREAD: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static THREAD: usize = NEXT_THREAD.fetch_add(1, Ordering::Relaxed);
}

impl Pools {
    pub fn new(pools: Vec<Pool>) -> Pools {
        assert!(!pools.is_empty(), "at least one pool");
        Pools(pools.into())
    }

    /// A connection from this thread's pool.
    pub async fn get(&self) -> Result<Object, PoolError> {
        // Time spent waiting for a connection (a full pool shows here before anywhere else).
        let started = std::time::Instant::now();
        let connection = self.of_this_thread().get().await;
        metrics::histogram!("baumeister_pool_wait_seconds").record(started.elapsed());
        connection
    }

    fn of_this_thread(&self) -> &Pool {
        &self.0[this_thread() % self.0.len()]
    }

    /// How many pools there are (a thread's is [`this_thread`] modulo this).
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// This thread's number (see [`NEXT_THREAD`]).
pub(crate) fn this_thread() -> usize {
    THREAD.with(|n| *n)
}

/// How many pools, and how many connections each, for `threads` threads sharing `max_size`
/// connections: one pool per thread, the connections split evenly (at least two each, so that
/// a transaction and a read beside it never wait for each other on one thread).
pub(crate) fn split(max_size: usize, threads: usize) -> (usize, usize) {
    let pools = threads.max(1);
    (pools, max_size.div_ceil(pools).max(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pools make no connection until one is asked for, so none is needed here.
    fn three_pools() -> Pools {
        let url = "postgres://postgres@127.0.0.1:5432/never_connected";
        Pools::new((0..3).map(|_| crate::db::pool(url, 2).unwrap()).collect())
    }

    fn index(pools: &Pools) -> usize {
        let mine = pools.of_this_thread() as *const Pool;
        pools.0.iter().position(|p| std::ptr::eq(p, mine)).unwrap()
    }

    #[test]
    fn a_thread_always_takes_its_connections_from_the_same_pool() {
        let pools = three_pools();
        let here = index(&pools);
        assert!((0..100).all(|_| index(&pools) == here));
        let other = pools.clone();
        let there = std::thread::spawn(move || {
            let first = index(&other);
            (0..100).all(|_| index(&other) == first)
        });
        assert!(there.join().unwrap());
    }

    #[test]
    fn the_connections_are_split_evenly_and_never_below_two() {
        assert_eq!(split(16, 3), (3, 6));
        assert_eq!(split(16, 1), (1, 16));
        assert_eq!(split(2, 4), (4, 2));
        assert_eq!(split(16, 0), (1, 16));
    }
}
