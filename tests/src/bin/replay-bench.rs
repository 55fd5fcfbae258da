//! Replay speed, per game kind: folding events in memory, and reading them from PostgreSQL and
//! folding them (a cold cache). Run it optimized:
//!
//! ```sh
//! cargo run --release -p baumeister-tests --bin replay-bench [-- KIND …]
//! ```
//!
//! Games are played offline by random legal moves (`baumeister_storage::offline`), imported
//! into a scratch database `bm_replay_bench` (dropped first), then folded.

use std::time::Instant;

use baumeister_domain::{registry, DynGame};
use baumeister_storage::offline::random_export;
use baumeister_storage::{Export, Reader, Signer, Store};
use serde_json::Value;

/// Events folded in memory per kind (whole games, played again and again).
const IN_MEMORY_EVENTS: usize = 200_000;
/// Events stored and read back per kind.
const STORED_EVENTS: usize = 50_000;
/// The length of game whose every version is replayed (in the kinds whose random games reach
/// it: Space Builder's do; more seeds are played until one does, at most `LONG_GAME_TRIES`).
const LONG_GAME: usize = 10_000;
const LONG_GAME_TRIES: u64 = 400;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let url = baumeister_tests::database_url("bm_replay_bench");
    let admin = baumeister_tests::database_url("postgres");
    let (client, connection) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL answers at DATABASE_URL");
    tokio::spawn(connection);
    client
        .batch_execute("DROP DATABASE IF EXISTS bm_replay_bench WITH (FORCE)")
        .await
        .unwrap();
    // The games are signed offline by a key of the benchmark's own, which the store trusts.
    let signer = Signer::random();
    let store = Store::connect(&url, 4, 1)
        .await
        .expect("the scratch database")
        .with_trusted_keys(vec![signer.public_key()]);
    let auditor = store
        .create_account("bench", "not a password hash")
        .await
        .unwrap();
    let reader = Reader::Account {
        id: auditor,
        auditor: true,
    };

    println!("| kind | events/game | folded in memory | read from PostgreSQL and folded | longest game (events) | replay of each of its versions (median / p99 / max) |");
    println!("|---|---|---|---|---|---|");
    // `replay-bench carcassonne space-builder`: only these kinds.
    let only: Vec<String> = std::env::args().skip(1).collect();
    for (index, game) in registry::all().iter().enumerate() {
        let info = game.info();
        if !only.is_empty() && !only.iter().any(|k| k == info.kind) {
            continue;
        }
        let (games, exports, total) = played(info.kind, info.max_seats, index, &signer);
        let per_game = total / games.len();

        let in_memory = folded_in_memory(*game, &games);

        // From PostgreSQL: every finished game imported, then read and folded one by one.
        let mut ids = Vec::new();
        for export in exports {
            let summary = store.import(export, reader).await.unwrap();
            ids.push((summary.id, summary.version));
        }
        let started = Instant::now();
        let mut read = 0;
        for (id, _) in &ids {
            read += store.fold_stored(*id).await.unwrap();
        }
        let stored = read as f64 / started.elapsed().as_secs_f64();

        let longest = ids.iter().max_by_key(|(_, version)| *version).copied();
        let mut latencies = match longest {
            Some(game) => replay_every_version(&store, game).await,
            None => Vec::new(),
        };
        latencies.sort_by(f64::total_cmp);
        let median = latencies.get(latencies.len() / 2).copied().unwrap_or(0.0);
        let p99 = latencies
            .get(latencies.len() * 99 / 100)
            .copied()
            .unwrap_or(0.0);
        let max = latencies.last().copied().unwrap_or(0.0);
        println!(
            "| `{}` | {per_game} | {:.0} events/s | {:.0} events/s | {} | {median:.2} / {p99:.2} / {max:.2} ms |",
            info.kind,
            in_memory,
            stored,
            longest.map_or(0, |(_, version)| version)
        );
    }
    drop(store);
    client
        .batch_execute("DROP DATABASE IF EXISTS bm_replay_bench WITH (FORCE)")
        .await
        .unwrap();
}

/// Games of `kind` played offline by random legal moves, each as its log of payloads, until
/// `STORED_EVENTS` events (and, where random games reach it, a game of `LONG_GAME` events):
/// the logs, the finished games' exports, and how many events the logs hold.
fn played(
    kind: &str,
    max_seats: u8,
    index: usize,
    signer: &Signer,
) -> (Vec<Vec<Value>>, Vec<Export>, usize) {
    let mut games: Vec<Vec<Value>> = Vec::new();
    let mut exports = Vec::new();
    let mut total = 0;
    // Seeds (and so uids) of their own per kind.
    let first_seed = (index as u64 + 1) << 32;
    let mut seed = first_seed;
    let mut long_found = 0;
    let long_reachable = kind == "space-builder";
    let searching = |long_found: usize, seed: u64| {
        long_found < LONG_GAME && seed < first_seed + LONG_GAME_TRIES
    };
    while total < STORED_EVENTS || (long_reachable && searching(long_found, seed)) {
        let export = random_export(kind, max_seats, seed, 100_000, signer).unwrap();
        seed += 1;
        let finished = export.status == baumeister_storage::Lifecycle::Finished;
        let events: usize = export.commands.iter().map(|c| c.events.len()).sum();
        // Past the events measured, only a game longer than any yet is kept (to replay).
        if total >= STORED_EVENTS && !(finished && events > long_found) {
            continue;
        }
        let payloads: Vec<Value> = export
            .commands
            .iter()
            .flat_map(|c| c.events.iter().map(|e| e.payload.clone()))
            .collect();
        total += payloads.len();
        games.push(payloads);
        if finished {
            long_found = long_found.max(events);
            exports.push(export);
        }
    }
    (games, exports, total)
}

/// Events folded per second in memory: every game from the initial state, again and again,
/// until `IN_MEMORY_EVENTS` were folded.
fn folded_in_memory(game: &dyn DynGame, games: &[Vec<Value>]) -> f64 {
    let mut folded = 0;
    let started = Instant::now();
    while folded < IN_MEMORY_EVENTS {
        for payloads in games {
            let state = game.replay(payloads).unwrap();
            std::hint::black_box(&state);
            folded += payloads.len();
        }
    }
    folded as f64 / started.elapsed().as_secs_f64()
}

/// `GET …/replay?at=N` of game `id`, every version up to `version`: once to write the snapshots
/// (every 100 events; a replay writes those its fold passed), then timed with every snapshot in
/// place (the nearest snapshot plus at most 99 events). The timed latencies in ms.
async fn replay_every_version(store: &Store, (id, version): (i64, i64)) -> Vec<f64> {
    let mut latencies = Vec::new();
    for pass in 0..2 {
        for at in 1..=version {
            let started = Instant::now();
            store.replay(id, Reader::Anonymous, at).await.unwrap();
            if pass == 1 {
                latencies.push(started.elapsed().as_secs_f64() * 1000.0);
            }
        }
    }
    latencies
}
