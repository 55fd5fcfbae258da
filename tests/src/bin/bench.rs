//! The benchmark: N concurrent clients (1, 8, 32, 128 by default) play games of every kind by
//! following `/moves`; then, in the same run and database, N connections do one INSERT per
//! transaction, PostgreSQL's own ceiling for a durable command. Prints one table row per N.
//!
//! `cargo run --release -p baumeister-tests --bin bench [-- SECONDS [CLIENTS,…] [GAMES_PER_CLIENT]]`
//!
//! Without `BENCH_URL` it starts a server in this process on a fresh database (from
//! `DATABASE_URL`, like the tests); with `BENCH_URL` it drives that server (limits off there:
//! `LIMIT_COMMANDS=off LIMIT_REGISTRATIONS=off LIMIT_LOGINS=off LIMIT_NAME_ATTEMPTS=off`) and
//! measures the ceiling on `DATABASE_URL`.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use baumeister_tests::{database_url, Pick, TestServer};
use serde_json::{json, Value};
use tokio_postgres::NoTls;

/// Every kind, with a seat count it allows.
const KINDS: [(&str, usize); 5] = [
    ("burgbaumeister", 2),
    ("wettstreit", 3),
    ("space-builder", 2),
    ("mauerbauer", 2),
    ("carcassonne", 2),
];

/// At most this many connections measure the ceiling.
const CEILING_CONNECTIONS: usize = 48;

struct Http {
    base: String,
    client: awc::Client,
}

impl Http {
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let method = awc::http::Method::from_bytes(method.as_bytes()).unwrap();
        let request = self
            .client
            .request(method, format!("{}{}", self.base, path))
            .insert_header(("Authorization", format!("Bearer {token}")));
        let response = match body {
            Some(b) => request.send_json(b).await,
            None => request.send().await,
        };
        let Ok(mut response) = response else {
            return (0, Value::Null);
        };
        let bytes = response.body().limit(16 << 20).await.unwrap_or_default();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (response.status().as_u16(), body)
    }
}

#[derive(Default)]
struct Tally {
    commands: Vec<u64>,
    views: Vec<u64>,
    refused: u64,
    failed: u64,
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

async fn new_game(http: &Http, tokens: &[String], kind: &str, seats: usize) -> i64 {
    let (status, body) = http
        .call(
            "POST",
            "/v1/games",
            &tokens[0],
            Some(&json!({"kind": kind, "seats": seats, "options": {}})),
        )
        .await;
    assert_eq!(status, 201, "create {kind}: {body}");
    let id = body["id"].as_i64().unwrap();
    for token in &tokens[1..seats] {
        let (status, body) = http
            .call(
                "POST",
                &format!("/v1/games/{id}/join"),
                token,
                Some(&json!({})),
            )
            .await;
        assert_eq!(status, 200, "join: {body}");
    }
    id
}

/// One client: round-robins over its games, reads the board (timed), lists the moves of a seat
/// whose turn it is and sends one of them (timed), starting a new game where one has ended.
async fn client(
    http: Rc<Http>,
    tokens: Rc<Vec<String>>,
    games: usize,
    seed: u64,
    until: Instant,
    tally: Rc<RefCell<Tally>>,
) {
    let mut pick = Pick::new(seed);
    let mut mine = Vec::new();
    for i in 0..games {
        let (kind, seats) = KINDS[(seed as usize + i) % KINDS.len()];
        mine.push((new_game(&http, &tokens, kind, seats).await, kind, seats));
    }
    let mut i = 0;
    while Instant::now() < until {
        i = (i + 1) % mine.len();
        let (id, kind, seats) = mine[i];
        let started = Instant::now();
        let (status, game) = http
            .call("GET", &format!("/v1/games/{id}"), &tokens[0], None)
            .await;
        if status != 200 {
            tally.borrow_mut().failed += 1;
            continue;
        }
        tally
            .borrow_mut()
            .views
            .push(started.elapsed().as_micros() as u64);
        let to_act: Vec<usize> = game["to_act"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_u64)
                    .map(|s| s as usize)
                    .collect()
            })
            .unwrap_or_default();
        if game["status"] == "finished" || to_act.is_empty() {
            mine[i].0 = new_game(&http, &tokens, kind, seats).await;
            continue;
        }
        let seat = to_act[pick.below(to_act.len())];
        let (status, moves) = http
            .call("GET", &format!("/v1/games/{id}/moves"), &tokens[seat], None)
            .await;
        let moves = moves["moves"].as_array().cloned().unwrap_or_default();
        if status != 200 || moves.is_empty() {
            continue;
        }
        let chosen = &moves[pick.below(moves.len())];
        let started = Instant::now();
        let (status, _) = http
            .call(
                "POST",
                &format!("/v1/games/{id}/commands"),
                &tokens[seat],
                Some(chosen),
            )
            .await;
        let micros = started.elapsed().as_micros() as u64;
        let mut t = tally.borrow_mut();
        match status {
            200 => t.commands.push(micros),
            409 | 422 => t.refused += 1,
            _ => t.failed += 1,
        }
    }
}

/// `connections` connections, each committing one single-row INSERT per transaction.
async fn ceiling(url: &str, connections: usize, seconds: u64) -> (f64, Vec<u64>) {
    let (admin, conn) = tokio_postgres::connect(url, NoTls)
        .await
        .expect("DATABASE_URL answers");
    tokio::spawn(conn);
    admin
        .batch_execute("CREATE TABLE IF NOT EXISTS bench_ceiling (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, game_id bigint NOT NULL, payload jsonb NOT NULL)")
        .await
        .unwrap();
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for n in 0..connections {
        let url = url.to_string();
        tasks.push(tokio::spawn(async move {
            let (client, conn) = tokio_postgres::connect(&url, NoTls).await.unwrap();
            tokio::spawn(conn);
            let insert = client
                .prepare("INSERT INTO bench_ceiling (game_id, payload) VALUES ($1, $2)")
                .await
                .unwrap();
            let payload = json!({"type": "CardPlaced", "seat": 1, "slot": 7});
            let mut latencies = Vec::new();
            while Instant::now() < until {
                let started = Instant::now();
                client
                    .execute(&insert, &[&(n as i64), &payload])
                    .await
                    .unwrap();
                latencies.push(started.elapsed().as_micros() as u64);
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.sort_unstable();
    (all.len() as f64 / seconds as f64, all)
}

async fn register(http: &Http, name: &str) -> String {
    let body = json!({"name": name, "password": "benchmark password 1"});
    let (status, reply) = http.call("POST", "/v1/accounts", "", Some(&body)).await;
    assert!(
        status == 201 || status == 200 || status == 409,
        "register: {status} {reply}"
    );
    let (status, reply) = http.call("POST", "/v1/tokens", "", Some(&body)).await;
    assert_eq!(status, 200, "login: {reply}");
    reply["token"].as_str().unwrap().to_string()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let counts: Vec<usize> = args
        .get(1)
        .map(|s| s.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 8, 32, 128]);
    let games_per_client: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    actix_web::rt::System::new().block_on(async move {
        let (server, base, db_url) = match std::env::var("BENCH_URL") {
            Ok(url) => (None, url, std::env::var("DATABASE_URL").unwrap_or_else(|_| database_url("baumeister"))),
            Err(_) => {
                let s = TestServer::start_with(|c| {
                    c.limits = baumeister_api::config::Limits {
                        commands: None,
                        logins: None,
                        registrations: None,
                        name_attempts: None,
                        expensive_reads: None,
                    };
                    c.pool_size = 16;
                })
                .await;
                let base = s.base.clone();
                let url = database_url(&s.db);
                (Some(s), base, url)
            }
        };
        let http = Rc::new(Http {
            base,
            client: awc::Client::builder().timeout(Duration::from_secs(30)).connector(awc::Connector::new().limit(512)).finish(),
        });
        let run = std::process::id();
        let mut tokens = Vec::new();
        for n in 0..3 {
            tokens.push(register(&http, &format!("bench-{run}-{n}")).await);
        }
        let tokens = Rc::new(tokens);
        println!("{seconds} s per row, {games_per_client} live games per client, every kind; release build");
        println!();
        println!("| clients | live games | commands/s | POST p50 / p99 / p99.9 ms | GET view p50 / p99 ms | 1-insert tps | insert p50 / p99 ms | ratio | refused (409/422) | failed |");
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for &n in &counts {
            let tally = Rc::new(RefCell::new(Tally::default()));
            // Set-up (creating the games) is not measured: the clock starts after it.
            let until = Instant::now() + Duration::from_secs(seconds) + Duration::from_millis(200 * (n * games_per_client) as u64 / 10 + 500);
            let mut handles = Vec::new();
            for c in 0..n {
                handles.push(actix_web::rt::spawn(client(http.clone(), tokens.clone(), games_per_client, (c * 7919 + n) as u64, until, tally.clone())));
            }
            // Measure only the last `seconds` before `until`.
            let measure_from = until - Duration::from_secs(seconds);
            actix_web::rt::time::sleep_until(measure_from.into()).await;
            tally.replace(Tally::default());
            for h in handles {
                let _ = h.await;
            }
            let mut t = tally.take();
            t.commands.sort_unstable();
            t.views.sort_unstable();
            let cps = t.commands.len() as f64 / seconds as f64;
            // PostgreSQL's max_connections (100 by default) is shared with the server and others.
            let (tps, inserts) = if std::env::var_os("BENCH_NO_CEILING").is_some() {
                (f64::NAN, Vec::new())
            } else {
                ceiling(&db_url, n.min(CEILING_CONNECTIONS), seconds).await
            };
            println!(
                "| {n} | {} | {cps:.0} | {:.1} / {:.1} / {:.1} | {:.2} / {:.2} | {tps:.0} | {:.1} / {:.1} | {:.2} | {} | {} |",
                n * games_per_client,
                percentile(&t.commands, 0.5),
                percentile(&t.commands, 0.99),
                percentile(&t.commands, 0.999),
                percentile(&t.views, 0.5),
                percentile(&t.views, 0.99),
                percentile(&inserts, 0.5),
                percentile(&inserts, 0.99),
                cps / tps,
                t.refused,
                t.failed,
            );
        }
        if let Some(s) = server {
            s.finish().await;
        }
    });
}
