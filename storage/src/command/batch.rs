//! Group commit in the server: the common appends of several games in one statement.
//!
//! An append is one statement and one transaction, and most of what PostgreSQL spends on it
//! is not the rows but the statement and the transaction around them: executor start-up,
//! opening the tables and their indexes, the commit and its WAL flush. Measured with `pgbench`
//! on two cores (an UPDATE of a game row, a command and an event per append, eight clients),
//! one append per statement cost 0.077–0.094 ms of CPU, four appends of four games in one
//! statement 0.040–0.044 ms each. So while a thread's appends wait for one another, those
//! waiting go together: the first append finds no batch running and starts one at once (no
//! waiting for company: a lone command is not delayed), and whatever queued meanwhile goes as
//! the next batch when a running one is done, at most [`IN_FLIGHT`] running per thread.
//!
//! Only the common append is batched: a person's command without `Idempotency-Key` to a game
//! known to have no turn clock and no listeners, that does not finish the game (a finish may
//! rate the players), outside a transaction of its caller (see `Store::batched`). Each game's row still guards its own append
//! (`version` and `NOT listeners`, as the quiet statement does), so a refused game writes
//! nothing while the others of its batch commit; the caller then tries the full statement,
//! as after a refused quiet one. If the statement fails as a whole, nothing of it is written
//! and every append of the batch is tried alone, so that an error is only its own append's;
//! when the database could not be reached at all, each gets that answer (503) at once.
//!
//! A batch holds at most one append per game (a second waits for the next batch) and no game
//! of another running batch: the same row is never locked by two batches of one process. The
//! rows are updated in the order of their ids, so that batches of two processes take their
//! locks in one order; a deadlock PostgreSQL still finds fails that batch, whose appends are
//! then tried alone.
//!
//! The batches run in a task of their own, on connections of their own (`Store::batches`): a
//! request that goes away while its batch runs (its client hung up) cancels nothing of the
//! batch, and a command waiting for its batch holds no pooled connection
//! (`Store::decide_and_append_held`; it takes its turn at the pool before deciding, and gives
//! the connection back at once). When it held one, the pool (eight connections per thread by
//! default) bounded a batch to eight appends: at 32 clients a pool of 64 gave 9,515 commands/s
//! against 6,094 with 16.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use serde_json::Value;
use tokio::sync::oneshot;
use tokio_postgres::types::Json;

use crate::error::StoreError;
use crate::pools::{this_thread, Pools};
use crate::Store;

/// Batches that one thread runs at once, each on a connection of its own.
pub(crate) const IN_FLIGHT: usize = 2;

/// Appends in one batch at most.
const MOST: usize = 64;

/// The appends of a batch, by game: the quiet, unclocked append (`append.rs`) over arrays.
const BATCH: &str = "WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::jsonb[], $6::bigint[],
                         $7::bigint[], $8::bigint[], $9::bigint[], $10::smallint[], $11::jsonb[], $12::bigint[],
                         $13::boolean[], $14::text[])
      AS i(id, version, status, to_act, progress, now_ms, base, deadline_ms, account_id, seat, body, seed,
           reveals, bot_level)),
  upd AS (
    UPDATE games g SET version = i.version, status = i.status, to_act = i.to_act::smallint[], progress = i.progress,
           updated_at = to_timestamp(i.now_ms / 1000.0::float8), rule_deadline_ms = i.deadline_ms,
           deadline_ms = i.deadline_ms
    FROM input i
    WHERE g.id = i.id AND g.version = i.base AND NOT g.listeners
    RETURNING g.id, g.undo, g.listeners, g.bot_seats IS NOT NULL AS bots, g.options ->> 'move_minutes' IS NOT NULL AS clocked),
  cmd AS (
    INSERT INTO commands (game_id, account_id, seat, idempotency_key, body, seed, now_ms, response, position, reveals,
                          bot_level)
    SELECT i.id, i.account_id, i.seat, NULL, i.body, i.seed, i.now_ms, NULL, i.base, i.reveals, i.bot_level
    FROM upd JOIN input i ON i.id = upd.id RETURNING id, game_id),
  ev AS (
    INSERT INTO events (game_id, version, type, payload, command_id, account_id, seat, recorded_at, hash)
    SELECT e.g, e.v, e.t, e.p, cmd.id, i.account_id, i.seat, to_timestamp(i.now_ms / 1000.0::float8), e.h
    FROM unnest($15::bigint[], $16::bigint[], $17::text[], $18::jsonb[], $19::bytea[]) AS e(g, v, t, p, h)
    JOIN cmd ON cmd.game_id = e.g JOIN input i ON i.id = e.g)
SELECT upd.id, upd.bots, upd.undo, upd.clocked, upd.listeners FROM upd";

/// One game's append, owned (it waits in a queue): what the quiet, unclocked statement binds.
pub(crate) struct Row {
    pub game_id: i64,
    pub version: i64,
    pub status: &'static str,
    pub to_act: Vec<i16>,
    pub progress: Value,
    pub now_ms: i64,
    /// The version it was decided on: the guard.
    pub base: i64,
    pub deadline_ms: Option<i64>,
    pub account_id: Option<i64>,
    pub seat: Option<i16>,
    pub body: Value,
    pub seed: i64,
    pub reveals: Option<bool>,
    pub bot_level: Option<String>,
    /// Version, type, payload and hash of each event.
    pub events: Vec<(i64, String, Value, Vec<u8>)>,
}

/// What the statement read of a game whose append it wrote (see `append.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Landed {
    /// Webhook deliveries and notices queued (none in a batch: its games have no listeners).
    pub queued: i64,
    pub bots: bool,
    pub undo: bool,
    pub clocked: bool,
    pub listeners: bool,
}

/// How a batched append ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Landed(Landed),
    /// The game's row refused it (moved on by another append, or it has listeners): nothing of
    /// it was written.
    Refused,
    /// Its batch failed as a whole, and nothing of it was written: to be appended alone.
    Alone,
    /// The database could not be reached for its batch, and nothing of it was written: trying
    /// alone would only wait out another timeout.
    Unavailable(String),
}

struct Waiting {
    row: Row,
    reply: oneshot::Sender<Outcome>,
}

/// One thread's appends waiting for a batch, and its running batches.
#[derive(Default)]
struct Queue {
    waiting: Vec<Waiting>,
    running: usize,
    /// The games of the running batches.
    games: HashSet<i64>,
}

impl Queue {
    /// The next batch of a task that has just run `done` (empty at its start): `done`'s games
    /// are no longer running, and the batch is [`Queue::take`]'s. When none may be taken (none
    /// waiting, or only games of the other running batch, whose task takes them next), the
    /// task gives its place back here, under the same lock as the look: an append queued after
    /// it finds the place free.
    fn next(&mut self, done: &[Waiting]) -> Vec<Waiting> {
        for w in done {
            self.games.remove(&w.row.game_id);
        }
        let batch = self.take();
        if batch.is_empty() {
            self.running -= 1;
        }
        batch
    }

    /// The waiting appends in order, each game once and none of a running batch; marked as
    /// running.
    fn take(&mut self) -> Vec<Waiting> {
        let mut batch = Vec::new();
        let mut i = 0;
        while i < self.waiting.len() && batch.len() < MOST {
            if self.games.insert(self.waiting[i].row.game_id) {
                batch.push(self.waiting.remove(i));
            } else {
                i += 1;
            }
        }
        batch
    }
}

/// The batches of every thread (numbered as `pools.rs` numbers them) and their connections.
pub(crate) struct Batches {
    pools: Pools,
    queues: Box<[Mutex<Queue>]>,
}

impl Batches {
    /// `pools` has one pool per thread of at least [`IN_FLIGHT`] connections.
    pub fn new(pools: Pools) -> Batches {
        let queues = (0..pools.len()).map(|_| Mutex::default()).collect();
        Batches { pools, queues }
    }
}

impl Store {
    /// Appends `row` in this thread's next batch.
    pub(crate) async fn append_in_batch(&self, row: Row) -> Outcome {
        let (reply, answer) = oneshot::channel();
        let n = this_thread() % self.batches.queues.len();
        let lead = {
            let mut queue = self.batches.queues[n].lock().unwrap();
            queue.waiting.push(Waiting { row, reply });
            let lead = queue.running < IN_FLIGHT;
            if lead {
                queue.running += 1;
            }
            lead
        };
        if lead {
            tokio::spawn(self.clone().lead(n));
        }
        // A batch task gone without answering (its runtime shut down) wrote nothing it did not
        // commit; the append is tried alone, where its guard judges it.
        answer.await.unwrap_or(Outcome::Alone)
    }

    /// Runs batches of thread `n`'s queue until none is waiting that may run.
    async fn lead(self, n: usize) {
        let queue = &self.batches.queues[n];
        let mut batch = queue.lock().unwrap().next(&[]);
        while !batch.is_empty() {
            batch.sort_by_key(|w| w.row.game_id);
            let outcomes = self.run(&batch).await;
            let next = queue.lock().unwrap().next(&batch);
            for (w, outcome) in batch.into_iter().zip(outcomes) {
                let _ = w.reply.send(outcome);
            }
            batch = next;
        }
    }

    /// One batch's statement: an outcome per append, in order.
    async fn run(&self, batch: &[Waiting]) -> Vec<Outcome> {
        // How many appends share a statement and its commit: the group commit's whole point.
        metrics::histogram!("baumeister_append_batch_size").record(batch.len() as f64);
        let landed = match self.run_statement(batch).await {
            Ok(landed) => landed,
            Err(StoreError::Unavailable(e)) => {
                return batch
                    .iter()
                    .map(|_| Outcome::Unavailable(e.clone()))
                    .collect();
            }
            Err(e) => {
                tracing::debug!(error = %e, appends = batch.len(), "a batch failed: each append alone");
                return batch.iter().map(|_| Outcome::Alone).collect();
            }
        };
        batch
            .iter()
            .map(|w| match landed.get(&w.row.game_id) {
                Some(l) => Outcome::Landed(*l),
                None => Outcome::Refused,
            })
            .collect()
    }

    async fn run_statement(&self, batch: &[Waiting]) -> crate::Result<HashMap<i64, Landed>> {
        let rows: Vec<&Row> = batch.iter().map(|w| &w.row).collect();
        let column = |f: fn(&Row) -> i64| rows.iter().map(|r| f(r)).collect::<Vec<_>>();
        let ids = column(|r| r.game_id);
        let versions = column(|r| r.version);
        let statuses: Vec<&str> = rows.iter().map(|r| r.status).collect();
        let to_act: Vec<String> = rows.iter().map(|r| smallint_array(&r.to_act)).collect();
        let progress: Vec<Json<&Value>> = rows.iter().map(|r| Json(&r.progress)).collect();
        let now = column(|r| r.now_ms);
        let bases = column(|r| r.base);
        let deadlines: Vec<Option<i64>> = rows.iter().map(|r| r.deadline_ms).collect();
        let accounts: Vec<Option<i64>> = rows.iter().map(|r| r.account_id).collect();
        let seats: Vec<Option<i16>> = rows.iter().map(|r| r.seat).collect();
        let bodies: Vec<Json<&Value>> = rows.iter().map(|r| Json(&r.body)).collect();
        let seeds = column(|r| r.seed);
        let reveals: Vec<Option<bool>> = rows.iter().map(|r| r.reveals).collect();
        let levels: Vec<Option<&str>> = rows.iter().map(|r| r.bot_level.as_deref()).collect();
        let events = rows
            .iter()
            .flat_map(|r| r.events.iter().map(|e| (r.game_id, e)));
        let (mut games, mut event_versions, mut types, mut payloads, mut hashes) =
            (vec![], vec![], vec![], vec![], vec![]);
        for (game, (version, kind, payload, hash)) in events {
            games.push(game);
            event_versions.push(*version);
            types.push(kind.as_str());
            payloads.push(Json(payload));
            hashes.push(hash.as_slice());
        }
        let client = self.batches.pools.get().await?;
        let statement = client.prepare_cached(BATCH).await?;
        self.pauses.reach(crate::pause::APPEND_SENDING).await;
        let answered = client
            .query(
                &statement,
                &[
                    &ids,
                    &versions,
                    &statuses,
                    &to_act,
                    &progress,
                    &now,
                    &bases,
                    &deadlines,
                    &accounts,
                    &seats,
                    &bodies,
                    &seeds,
                    &reveals,
                    &levels,
                    &games,
                    &event_versions,
                    &types,
                    &payloads,
                    &hashes,
                ],
            )
            .await?;
        Ok(answered
            .iter()
            .map(|row| {
                let landed = Landed {
                    queued: 0,
                    bots: row.get(1),
                    undo: row.get(2),
                    clocked: row.get(3),
                    listeners: row.get(4),
                };
                (row.get(0), landed)
            })
            .collect())
    }
}

/// `values` as PostgreSQL's text of a `smallint[]` (`{1,2}`): an array of arrays of different
/// lengths cannot be bound, so each game's seats go as text, cast in the statement.
fn smallint_array(values: &[i16]) -> String {
    let inner: Vec<String> = values.iter().map(i16::to_string).collect();
    format!("{{{}}}", inner.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game_id: i64) -> Row {
        Row {
            game_id,
            version: 2,
            status: "active",
            to_act: vec![1],
            progress: Value::Null,
            now_ms: 0,
            base: 1,
            deadline_ms: None,
            account_id: Some(1),
            seat: Some(0),
            body: Value::Null,
            seed: 0,
            reveals: Some(false),
            bot_level: None,
            events: vec![],
        }
    }

    fn waiting(queue: &mut Queue, game_id: i64) -> oneshot::Receiver<Outcome> {
        let (reply, answer) = oneshot::channel();
        queue.waiting.push(Waiting {
            row: row(game_id),
            reply,
        });
        answer
    }

    fn games(batch: &[Waiting]) -> Vec<i64> {
        batch.iter().map(|w| w.row.game_id).collect()
    }

    /// A batch takes each game once, in the order they came, and leaves a game of a running
    /// batch waiting until that batch is done.
    #[test]
    fn a_batch_holds_a_game_once_and_none_of_a_running_batch() {
        let mut queue = Queue::default();
        let _answers: Vec<_> = [1, 2, 1, 3, 2].map(|g| waiting(&mut queue, g)).into();
        let first = queue.take();
        assert_eq!(games(&first), [1, 2, 3]);
        assert_eq!(games(&queue.waiting), [1, 2]);
        let _more = waiting(&mut queue, 4);
        assert_eq!(games(&queue.take()), [4], "1 and 2 are running");
        for w in &first {
            queue.games.remove(&w.row.game_id);
        }
        assert_eq!(games(&queue.take()), [1, 2]);
        assert!(queue.waiting.is_empty());
    }

    /// A task's next batch frees the games it ran; with nothing to take, the task gives its
    /// place back, also when what waits is a game of the other running batch.
    #[test]
    fn a_task_goes_on_while_it_may_and_gives_its_place_back() {
        let mut queue = Queue {
            running: 2,
            ..Queue::default()
        };
        let _answers: Vec<_> = [1, 2].map(|g| waiting(&mut queue, g)).into();
        let first = queue.next(&[]);
        assert_eq!(games(&first), [1, 2]);
        let _again: Vec<_> = [1, 3].map(|g| waiting(&mut queue, g)).into();
        let other = queue.next(&[]);
        assert_eq!(games(&other), [3], "1 runs in the first batch");
        assert_eq!(queue.running, 2);
        assert!(
            queue.next(&other).is_empty(),
            "only game 1 waits, and it runs"
        );
        assert_eq!(queue.running, 1);
        assert_eq!(games(&queue.next(&first)), [1]);
        assert!(queue.next(&first).is_empty());
        assert_eq!(queue.running, 0);
    }

    #[test]
    fn a_batch_is_bounded() {
        let mut queue = Queue::default();
        let _answers: Vec<_> = (0..MOST as i64 + 5)
            .map(|g| waiting(&mut queue, g))
            .collect();
        assert_eq!(queue.take().len(), MOST);
        assert_eq!(queue.take().len(), 5);
    }

    #[test]
    fn seats_are_written_as_an_array_literal() {
        assert_eq!(smallint_array(&[]), "{}");
        assert_eq!(smallint_array(&[0]), "{0}");
        assert_eq!(smallint_array(&[1, 3, 4]), "{1,3,4}");
    }
}
