//! The benchmark: N concurrent clients play games of every kind by following `/moves`; then,
//! in the same run and database, N connections commit one single-row INSERT per transaction,
//! PostgreSQL's own ceiling for a durable command. Prints one table row per combination of
//! client count and live games.
//!
//! `cargo run --release -p baumeister-tests --bin bench [-- [--cycle=three|one|both] [--streams=N] [--kinds=KIND,…] SECONDS [CLIENTS,…] [GAMES_PER_CLIENT,…]]`
//!
//! `--kinds=burgbaumeister` plays only the kinds named (every kind by default), so that each
//! kind's cost per command can be read on its own.
//!
//! Two cycles, each a row of its own (`--cycle`, by default both): `three`, the board, the
//! moves and the command per move; `one`, the command alone with `Prefer:
//! return=representation`, choosing the next command from the moves in its answer, and reading
//! `/moves` only where the answer cannot tell (another seat moved since this seat's answer),
//! with `min_version` the newest version it knows, as a client following the stream would.
//!
//! `--streams=N` opens N live streams (spectators' `GET /v1/games/{id}/stream`, spread over the
//! games being played) before each row and keeps them reading while it runs; the row then
//! reports how many stayed open, the delay from each event's `recorded_at` to its arrival on a
//! stream (p50 / p99: an upper bound of commit-to-arrival, see `baumeister_tests::watchers`),
//! and the events delivered per second; the CPU columns include the streams' cost (compare with
//! a run without them). A server given by `BENCH_URL` needs `STREAMS_PER_ADDRESS` above N.
//!
//! Without `BENCH_URL` it builds and starts the release server (`baumeister`) as a process of
//! its own on a fresh database (on the PostgreSQL of `DATABASE_URL`, like the tests), configured
//! as it ships except for the limits, and stops it at the end (`BENCH_SERVER=PATH` starts that
//! binary instead of building the tree: a copy of the build before a change, for before/after
//! pairs run one right after the other); with `BENCH_URL` it drives that
//! server (start it with `LIMIT_COMMANDS=off LIMIT_REGISTRATIONS=off LIMIT_LOGINS=off
//! LIMIT_NAME_ATTEMPTS=off`) and measures the ceiling on `DATABASE_URL`. `BENCH_NO_CEILING=1`
//! skips the ceiling. The client parses only what it needs (whose turn, the list of moves, sent
//! back as it came), so that the load generator takes as little of the CPU it measures as it can.

use std::cell::RefCell;
use std::process::{Child, Command};
use std::rc::Rc;
use std::time::{Duration, Instant};

use baumeister_tests::ceiling::{commit_ceiling, cpu_ms, Ceiling};
use baumeister_tests::{database_url, Pick};
use serde::Deserialize;
use serde_json::value::RawValue;
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

/// The kinds played (`--kinds=a,b`, every kind by default), set once at the start.
static PLAYED: std::sync::OnceLock<Vec<(&'static str, usize)>> = std::sync::OnceLock::new();

/// The kinds `--kinds=a,b` (anywhere among the arguments) selects; every kind by default.
fn kinds(args: &[String]) -> Vec<(&'static str, usize)> {
    match args.iter().find_map(|a| a.strip_prefix("--kinds=")) {
        None => KINDS.to_vec(),
        Some(list) => list
            .split(',')
            .map(|name| {
                *KINDS
                    .iter()
                    .find(|(kind, _)| *kind == name)
                    .unwrap_or_else(|| panic!("--kinds: {name} is not one of {KINDS:?}"))
            })
            .collect(),
    }
}

/// At most this many connections measure the ceiling (`max_connections` is shared with the
/// server's pool).
const CEILING_CONNECTIONS: usize = 48;

/// Games created at once while setting up.
const CREATING_AT_ONCE: usize = 16;

struct Http {
    base: String,
    client: awc::Client,
}

/// What the client reads of a board.
#[derive(Deserialize)]
struct Board {
    status: String,
    #[serde(default)]
    version: i64,
    #[serde(default)]
    to_act: Vec<usize>,
}

/// What the client reads of `/moves`: each move as it came, to be sent back unchanged.
#[derive(Deserialize)]
struct Moves<'a> {
    #[serde(default)]
    version: i64,
    #[serde(borrow)]
    moves: Vec<&'a RawValue>,
}

/// What the one-request cycle reads of a command's answer (the board itself is skipped).
#[derive(Deserialize)]
struct Answer<'a> {
    version: i64,
    to_act: Vec<usize>,
    finished: bool,
    #[serde(borrow)]
    board: AnswerBoard<'a>,
}

#[derive(Deserialize)]
struct AnswerBoard<'a> {
    version: i64,
    #[serde(borrow)]
    moves: Vec<&'a RawValue>,
}

/// How a client plays a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cycle {
    /// `GET` the board, `GET` the moves, `POST` the command.
    Three,
    /// `POST` the command with `Prefer: return=representation`; the next move comes from the
    /// answer's moves while this seat's answer is the newest version.
    One,
}

impl Cycle {
    fn name(self) -> &'static str {
        match self {
            Cycle::Three => "three",
            Cycle::One => "one",
        }
    }
}

impl Http {
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<Vec<u8>>,
    ) -> (u16, actix_web::web::Bytes) {
        self.call_with(method, path, token, body, None).await
    }

    /// A call with a `Prefer` header.
    async fn call_with(
        &self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<Vec<u8>>,
        prefer: Option<&str>,
    ) -> (u16, actix_web::web::Bytes) {
        let method = awc::http::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self
            .client
            .request(method, format!("{}{}", self.base, path))
            .insert_header(("Authorization", format!("Bearer {token}")));
        if let Some(prefer) = prefer {
            request = request.insert_header(("Prefer", prefer));
        }
        let response = match body {
            Some(b) => {
                request
                    .insert_header(("Content-Type", "application/json"))
                    .send_body(b)
                    .await
            }
            None => request.send().await,
        };
        let Ok(mut response) = response else {
            return (0, Default::default());
        };
        let bytes = response.body().limit(16 << 20).await.unwrap_or_default();
        (response.status().as_u16(), bytes)
    }

    async fn json(&self, method: &str, path: &str, token: &str, body: &Value) -> (u16, Value) {
        let (status, bytes) = self
            .call(method, path, token, Some(serde_json::to_vec(body).unwrap()))
            .await;
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }
}

#[derive(Default)]
struct Tally {
    commands: Vec<u64>,
    views: Vec<u64>,
    /// Every request of the cycle (reads and commands, not the set-up of new games).
    requests: u64,
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

/// The CPU time each of these processes has used so far.
fn cpu_each(pids: &[u32]) -> Vec<(u32, f64)> {
    pids.iter()
        .filter_map(|p| cpu_ms(*p).map(|ms| (*p, ms)))
        .collect()
}

/// What the processes of `now` used since `before` (one that started since counts whole).
fn cpu_since(before: &[(u32, f64)], now: &[(u32, f64)]) -> f64 {
    now.iter()
        .map(|(pid, ms)| {
            let earlier = before
                .iter()
                .find(|(p, _)| p == pid)
                .map_or(0.0, |(_, b)| *b);
            ms - earlier
        })
        .sum()
}

/// The PostgreSQL backends serving `database` (on this machine: else their CPU is not seen).
async fn backends(admin: &tokio_postgres::Client, database: &str) -> Vec<u32> {
    admin
        .query(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            &[&database],
        )
        .await
        .map(|rows| rows.iter().map(|r| r.get::<_, i32>(0) as u32).collect())
        .unwrap_or_default()
}

async fn new_game(http: &Http, tokens: &[String], kind: &str, seats: usize) -> i64 {
    let (status, body) = http
        .json(
            "POST",
            "/v1/games",
            &tokens[0],
            &json!({"kind": kind, "seats": seats, "options": {}}),
        )
        .await;
    assert_eq!(status, 201, "create {kind}: {body}");
    let id = body["id"].as_i64().unwrap();
    for token in &tokens[1..seats] {
        let (status, body) = http
            .json("POST", &format!("/v1/games/{id}/join"), token, &json!({}))
            .await;
        assert_eq!(status, 200, "join: {body}");
    }
    id
}

/// A game a client plays: its id, kind and seat count.
type Live = (i64, &'static str, usize);

/// `count` new games, every kind in turn from `first`, created a few at a time.
async fn new_games(
    http: &Rc<Http>,
    tokens: &Rc<Vec<String>>,
    first: usize,
    count: usize,
) -> Vec<Live> {
    let mut games = Vec::with_capacity(count);
    for start in (0..count).step_by(CREATING_AT_ONCE) {
        let handles: Vec<_> = (start..count.min(start + CREATING_AT_ONCE))
            .map(|i| {
                let played = PLAYED.get().expect("set in main");
                let (kind, seats) = played[(first + i) % played.len()];
                let (http, tokens) = (http.clone(), tokens.clone());
                actix_web::rt::spawn(async move {
                    (new_game(&http, &tokens, kind, seats).await, kind, seats)
                })
            })
            .collect();
        for handle in handles {
            games.push(handle.await.expect("a game is created"));
        }
    }
    games
}

/// One client: round-robins over its games, reads the board (timed), lists the moves of a seat
/// whose turn it is and sends one of them (timed), starting a new game where one has ended.
async fn client(
    http: Rc<Http>,
    tokens: Rc<Vec<String>>,
    mut mine: Vec<Live>,
    seed: u64,
    until: Instant,
    tally: Rc<RefCell<Tally>>,
) {
    let mut pick = Pick::new(seed);
    let mut i = 0;
    while Instant::now() < until {
        i = (i + 1) % mine.len();
        let (id, kind, seats) = mine[i];
        let started = Instant::now();
        let (status, body) = http
            .call("GET", &format!("/v1/games/{id}"), &tokens[0], None)
            .await;
        tally.borrow_mut().requests += 1;
        let board = match serde_json::from_slice::<Board>(&body) {
            Ok(board) if status == 200 => board,
            _ => {
                tally.borrow_mut().failed += 1;
                continue;
            }
        };
        tally
            .borrow_mut()
            .views
            .push(started.elapsed().as_micros() as u64);
        if board.status == "finished" || board.to_act.is_empty() {
            mine[i].0 = new_game(&http, &tokens, kind, seats).await;
            continue;
        }
        let seat = board.to_act[pick.below(board.to_act.len())];
        let (status, body) = http
            .call("GET", &format!("/v1/games/{id}/moves"), &tokens[seat], None)
            .await;
        tally.borrow_mut().requests += 1;
        let Ok(moves) = serde_json::from_slice::<Moves>(&body) else {
            tally.borrow_mut().failed += 1;
            continue;
        };
        if status != 200 || moves.moves.is_empty() {
            continue;
        }
        let chosen = moves.moves[pick.below(moves.moves.len())]
            .get()
            .as_bytes()
            .to_vec();
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
        t.requests += 1;
        match status {
            200 => t.commands.push(micros),
            409 | 422 => t.refused += 1,
            _ => t.failed += 1,
        }
    }
}

/// What the one-request cycle knows of a game: the newest version and whose turn (from the
/// newest answer), and each seat's moves with the version they are at.
struct Known {
    live: Live,
    /// `None` until read (a new game): its board is read once.
    version: Option<i64>,
    to_act: Vec<usize>,
    finished: bool,
    moves: Vec<(i64, Vec<Box<RawValue>>)>,
}

impl Known {
    fn new(live: Live) -> Self {
        Known {
            live,
            version: None,
            to_act: Vec::new(),
            finished: false,
            moves: vec![(-1, Vec::new()); live.2],
        }
    }
}

/// One client of the one-request cycle: round-robins over its games and sends a command of a
/// seat whose turn it is with `Prefer: return=representation` (timed), chosen from that seat's
/// moves in its last answer. It reads (timed as GETs) only what no answer tells: a new game's
/// board once, and a seat's moves when another seat moved since its answer.
async fn client_one(
    http: Rc<Http>,
    tokens: Rc<Vec<String>>,
    mine: Vec<Live>,
    seed: u64,
    until: Instant,
    tally: Rc<RefCell<Tally>>,
) {
    let mut pick = Pick::new(seed);
    let mut games: Vec<Known> = mine.into_iter().map(Known::new).collect();
    let mut i = 0;
    while Instant::now() < until {
        i = (i + 1) % games.len();
        let game = &mut games[i];
        let (id, kind, seats) = game.live;
        if game.version.is_none() {
            let started = Instant::now();
            let (status, body) = http
                .call("GET", &format!("/v1/games/{id}"), &tokens[0], None)
                .await;
            tally.borrow_mut().requests += 1;
            match serde_json::from_slice::<Board>(&body) {
                Ok(board) if status == 200 => {
                    game.finished = board.status == "finished";
                    game.to_act = board.to_act;
                    game.version = Some(board.version);
                }
                _ => {
                    tally.borrow_mut().failed += 1;
                    continue;
                }
            }
            tally
                .borrow_mut()
                .views
                .push(started.elapsed().as_micros() as u64);
        }
        if game.finished || game.to_act.is_empty() {
            *game = Known::new((new_game(&http, &tokens, kind, seats).await, kind, seats));
            continue;
        }
        let seat = game.to_act[pick.below(game.to_act.len())];
        let version = game.version.unwrap_or_default();
        if game.moves[seat].0 != version || game.moves[seat].1.is_empty() {
            let started = Instant::now();
            let (status, body) = http
                .call(
                    "GET",
                    &format!("/v1/games/{id}/moves?min_version={version}"),
                    &tokens[seat],
                    None,
                )
                .await;
            tally.borrow_mut().requests += 1;
            let Ok(moves) = serde_json::from_slice::<Moves>(&body) else {
                tally.borrow_mut().failed += 1;
                continue;
            };
            tally
                .borrow_mut()
                .views
                .push(started.elapsed().as_micros() as u64);
            if status != 200 || moves.moves.is_empty() {
                continue;
            }
            game.version = Some(moves.version);
            game.moves[seat] = (
                moves.version,
                moves.moves.iter().map(|m| (*m).to_owned()).collect(),
            );
        }
        let moves = &game.moves[seat].1;
        let chosen = moves[pick.below(moves.len())].get().as_bytes().to_vec();
        let started = Instant::now();
        let (status, body) = http
            .call_with(
                "POST",
                &format!("/v1/games/{id}/commands"),
                &tokens[seat],
                Some(chosen),
                Some("return=representation"),
            )
            .await;
        let micros = started.elapsed().as_micros() as u64;
        let mut t = tally.borrow_mut();
        t.requests += 1;
        match status {
            200 => match serde_json::from_slice::<Answer>(&body) {
                Ok(answer) => {
                    t.commands.push(micros);
                    game.version = Some(answer.version);
                    game.to_act = answer.to_act;
                    game.finished = answer.finished;
                    game.moves[seat] = (
                        answer.board.version,
                        answer.board.moves.iter().map(|m| (*m).to_owned()).collect(),
                    );
                }
                Err(_) => t.failed += 1,
            },
            409 | 422 => {
                t.refused += 1;
                // Read the game again next time.
                game.version = None;
            }
            _ => t.failed += 1,
        }
    }
}

async fn register(http: &Http, name: &str) -> String {
    let body = json!({"name": name, "password": "benchmark password 1"});
    let (status, reply) = http.json("POST", "/v1/accounts", "", &body).await;
    assert!(
        status == 201 || status == 200 || status == 409,
        "register: {status} {reply}"
    );
    let (status, reply) = http.json("POST", "/v1/tokens", "", &body).await;
    assert_eq!(status, 200, "login: {reply}");
    reply["token"].as_str().unwrap().to_string()
}

/// The release server in a process of its own, on a fresh database, killed when dropped.
struct Server {
    child: Child,
    base: String,
    database_url: String,
}

impl Server {
    fn start(streams: usize) -> Server {
        // `BENCH_SERVER=PATH` runs that binary as it is (a copy of an earlier build, for
        // before/after pairs run one right after the other); otherwise the tree is built.
        let binary = match std::env::var_os("BENCH_SERVER") {
            Some(path) => std::path::PathBuf::from(path),
            None => {
                let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
                let built = Command::new(cargo)
                    .args([
                        "build",
                        "--release",
                        "-p",
                        "baumeister-api",
                        "--bin",
                        "baumeister",
                    ])
                    .status()
                    .expect("cargo runs");
                assert!(built.success(), "the release server builds");
                std::env::current_exe()
                    .unwrap()
                    .with_file_name("baumeister")
            }
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let database_url = database_url(&format!("bm_bench_{}", std::process::id()));
        let child = Command::new(binary)
            .env("DATABASE_URL", &database_url)
            .env("BIND", format!("127.0.0.1:{port}"))
            .env("JWT_SECRET", "the benchmark's secret, 32 bytes or more")
            .env("RUST_LOG", "warn")
            .env("LIMIT_COMMANDS", "off")
            .env("LIMIT_LOGINS", "off")
            .env("LIMIT_REGISTRATIONS", "off")
            .env("LIMIT_NAME_ATTEMPTS", "off")
            .env("LIMIT_EXPENSIVE_READS", "off")
            .env("STREAMS_PER_ADDRESS", (streams + 64).to_string())
            .spawn()
            .expect("the server starts");
        Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
            database_url,
        }
    }

    async fn ready(&self, http: &Http) {
        for _ in 0..300 {
            if http.call("GET", "/healthz", "", None).await.0 == 200 {
                return;
            }
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the server did not answer /healthz within 30 s");
    }

    async fn drop_database(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let name = database_name(&self.database_url);
        if let Ok((admin, conn)) = tokio_postgres::connect(&database_url("postgres"), NoTls).await {
            actix_web::rt::spawn(conn);
            let _ = admin
                .batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                .await;
        }
    }
}

/// The database a `postgres://` URL names: the last segment of its path, before any query
/// (`?host=/var/run/postgresql` names the Unix socket's directory, with slashes of its own).
fn database_name(url: &str) -> String {
    let path = url.split_once('?').map_or(url, |(path, _)| path);
    path.rsplit('/').next().unwrap_or_default().to_string()
}

fn numbers(arg: Option<&String>, default: &[usize]) -> Vec<usize> {
    arg.map(|s| s.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

/// What a row measures: how many clients, each with how many live games, for how long.
struct Setting {
    clients: usize,
    per_client: usize,
    seconds: u64,
    /// The server's process, when this benchmark started it (its CPU time is read).
    server_pid: Option<u32>,
    /// Live streams watching the games while they are played (0: none).
    streams: usize,
}

/// Plays `cycle` with the setting's clients for its time; the games are created first (not
/// timed). CPU time is read from /proc for the server (when this benchmark started it), the
/// database's backends (when PostgreSQL runs on this machine) and this client.
async fn run_cycle(
    cycle: Cycle,
    setting: &Setting,
    http: &Rc<Http>,
    tokens: &Rc<Vec<String>>,
    admin: &tokio_postgres::Client,
    database: &str,
) -> Row {
    let Setting {
        clients: n,
        per_client,
        seconds,
        server_pid,
        streams,
    } = *setting;
    let used = || {
        (
            server_pid.and_then(cpu_ms).unwrap_or(f64::NAN),
            cpu_ms(std::process::id()).unwrap_or(f64::NAN),
        )
    };
    let mut games = Vec::with_capacity(n);
    for c in 0..n {
        games.push(new_games(http, tokens, c, per_client.max(1)).await);
    }
    let watchers = if streams > 0 {
        let ids: Vec<i64> = games.iter().flatten().map(|g| g.0).collect();
        let client = awc::Client::builder()
            .timeout(Duration::from_secs(3600))
            .connector(awc::Connector::new().limit(streams + 16))
            .finish();
        Some(baumeister_tests::watchers::watch(&client, &http.base, &ids, streams).await)
    } else {
        None
    };
    let tally = Rc::new(RefCell::new(Tally::default()));
    let pg_before = cpu_each(&backends(admin, database).await);
    let (server_before, client_before) = used();
    let until = Instant::now() + Duration::from_secs(seconds);
    let handles: Vec<_> = games
        .into_iter()
        .enumerate()
        .map(|(c, mine)| {
            let (http, tokens, tally) = (http.clone(), tokens.clone(), tally.clone());
            let seed = (c * 7919 + n) as u64;
            actix_web::rt::spawn(async move {
                match cycle {
                    Cycle::Three => client(http, tokens, mine, seed, until, tally).await,
                    Cycle::One => client_one(http, tokens, mine, seed, until, tally).await,
                }
            })
        })
        .collect();
    for h in handles {
        let _ = h.await;
    }
    // The last commands' events get a moment to arrive; the CPU is read after it.
    let watched = match watchers {
        Some(w) => Some(w.finish(Duration::from_millis(250)).await),
        None => None,
    };
    let pg_used = cpu_since(&pg_before, &cpu_each(&backends(admin, database).await));
    let (server_after, client_after) = used();
    let mut t = tally.take();
    t.commands.sort_unstable();
    t.views.sort_unstable();
    let done = t.commands.len().max(1) as f64;
    let per_command = |a: f64, b: f64| (b - a) / done;
    let cps = t.commands.len() as f64 / seconds as f64;
    Row {
        cps,
        measured: format!(
            "| {} | {n} | {} | {cps:.0} | {:.2} | {:.1} / {:.1} / {:.1} | {:.2} / {:.2} |",
            cycle.name(),
            n * per_client,
            t.requests as f64 / done,
            percentile(&t.commands, 0.5),
            percentile(&t.commands, 0.99),
            percentile(&t.commands, 0.999),
            percentile(&t.views, 0.5),
            percentile(&t.views, 0.99),
        ),
        cpu: format!(
            "{:.3} / {:.3} / {:.3}",
            per_command(server_before, server_after),
            pg_used / done,
            per_command(client_before, client_after),
        ),
        outcomes: format!("{} | {} |", t.refused, t.failed),
        streams: watched.map(|mut w| {
            w.delays_us.sort_unstable();
            format!(
                " {} of {streams} | {:.0} / {:.0} | {:.0} |",
                w.open.saturating_sub(w.ended),
                percentile(&w.delays_us, 0.5),
                percentile(&w.delays_us, 0.99),
                w.delays_us.len() as f64 / seconds as f64,
            )
        }),
    }
}

/// One cycle's row, printed once the ceiling beside it is measured.
struct Row {
    cps: f64,
    /// The columns up to the GETs' latencies.
    measured: String,
    /// CPU per command: server / PostgreSQL / client.
    cpu: String,
    /// Refused and failed commands.
    outcomes: String,
    /// With `--streams`: streams open, delay p50 / p99, events delivered per second.
    streams: Option<String>,
}

/// The cycles `--cycle=three|one|both` (anywhere among the arguments) selects; both by default.
fn cycles(args: &[String]) -> Vec<Cycle> {
    match args.iter().find_map(|a| a.strip_prefix("--cycle=")) {
        None | Some("both") => vec![Cycle::Three, Cycle::One],
        Some("three") => vec![Cycle::Three],
        Some("one") => vec![Cycle::One],
        Some(other) => panic!("--cycle is three, one or both, not {other}"),
    }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let cycles = cycles(&all);
    let played = kinds(&all);
    let played_names: Vec<&str> = played.iter().map(|(kind, _)| *kind).collect();
    let played_names = if played.len() == KINDS.len() {
        "every kind".to_string()
    } else {
        played_names.join(", ")
    };
    PLAYED.set(played).expect("set once");
    let streams: usize = all
        .iter()
        .find_map(|a| a.strip_prefix("--streams="))
        .map(|n| n.parse().expect("--streams=N takes a number"))
        .unwrap_or(0);
    let args: Vec<String> = all
        .into_iter()
        .filter(|a| {
            !a.starts_with("--cycle=") && !a.starts_with("--streams=") && !a.starts_with("--kinds=")
        })
        .collect();
    let seconds: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let counts = numbers(args.get(1), &[1, 8, 32, 128]);
    let games_per_client = numbers(args.get(2), &[5]);
    // The server may still count a row's streams as open (it notices a closed one when it
    // next writes to it) while the next row opens its own: room for every row's.
    let rows = cycles.len() * counts.len() * games_per_client.len();
    actix_web::rt::System::new().block_on(async move {
        let mut server = match std::env::var("BENCH_URL") {
            Ok(_) => None,
            Err(_) => Some(Server::start(streams * rows)),
        };
        let (base, db_url) = match &server {
            Some(s) => (s.base.clone(), s.database_url.clone()),
            None => (
                std::env::var("BENCH_URL").unwrap(),
                std::env::var("DATABASE_URL").unwrap_or_else(|_| database_url("baumeister")),
            ),
        };
        let http = Rc::new(Http {
            base,
            client: awc::Client::builder()
                .timeout(Duration::from_secs(30))
                .connector(awc::Connector::new().limit(1024))
                .finish(),
        });
        if let Some(s) = &server {
            s.ready(&http).await;
        }
        let run = std::process::id();
        let mut tokens = Vec::new();
        for n in 0..3 {
            tokens.push(register(&http, &format!("bench-{run}-{n}")).await);
        }
        let tokens = Rc::new(tokens);
        println!("{seconds} s per row, {played_names}; release build");
        println!("cycle three: GET the board, GET the moves, POST the command");
        println!("cycle one: POST with Prefer: return=representation, the next move from its answer; GET /moves?min_version=(the newest version known) only when another seat moved since");
        println!();
        let server_pid = server.as_ref().map(|s| s.child.id());
        let database = database_name(&db_url);
        let (admin, conn) = tokio_postgres::connect(&db_url, NoTls)
            .await
            .expect("DATABASE_URL answers");
        actix_web::rt::spawn(conn);
        let (stream_columns, stream_rule) = if streams > 0 {
            (" streams open | stream delay p50 / p99 ms | events delivered/s |", "---|---|---|")
        } else {
            ("", "")
        };
        println!("| cycle | clients | live games | commands/s | requests per command | POST p50 / p99 / p99.9 ms | GET p50 / p99 ms | 1-insert tps | insert p50 / p99 ms | ratio | CPU ms per command: server / PostgreSQL / client | PostgreSQL CPU ms per insert | refused (409/422) | failed |{stream_columns}");
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|{stream_rule}");
        for &per_client in &games_per_client {
            for &n in &counts {
                // The ceiling is measured once for the rows of all cycles.
                let mut rows = Vec::new();
                for &cycle in &cycles {
                    let setting = Setting {
                        clients: n,
                        per_client,
                        seconds,
                        server_pid,
                        streams,
                    };
                    rows.push(run_cycle(cycle, &setting, &http, &tokens, &admin, &database).await);
                }
                let ceiling = if std::env::var_os("BENCH_NO_CEILING").is_some() {
                    Ceiling {
                        tps: f64::NAN,
                        latencies: Vec::new(),
                        cpu_ms: f64::NAN,
                    }
                } else {
                    commit_ceiling(&db_url, "bench_ceiling", n.min(CEILING_CONNECTIONS), seconds).await
                };
                for row in rows {
                    println!(
                        "{} {:.0} | {:.1} / {:.1} | {:.2} | {} | {:.3} | {}{}",
                        row.measured,
                        ceiling.tps,
                        percentile(&ceiling.latencies, 0.5),
                        percentile(&ceiling.latencies, 0.99),
                        row.cps / ceiling.tps,
                        row.cpu,
                        ceiling.cpu_ms,
                        row.outcomes,
                        row.streams.unwrap_or_default(),
                    );
                }
            }
        }
        if let Some(s) = &mut server {
            s.drop_database().await;
        }
    });
}
