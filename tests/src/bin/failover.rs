//! The failover check (`tests/failover/run` starts the cluster and the server, then this):
//! clients play games of every kind against a server whose `DATABASE_URL` names the two nodes
//! of a pg_auto_failover cluster (`scripts/failover-cluster`), while the primary is killed, the
//! lost node comes back as standby, and then the standby is killed. Every answer is recorded;
//! at the end every command answered 2xx must be in the surviving primary's event log (the
//! stored hash at the answered version is the answer's signed head's, so the whole history up
//! to it is the one answered), every version of every game stored once and without a gap, every
//! game's `/audit` sound, every signed head valid under the server's key, every command whose
//! answer was lost (503 or none) answered correctly when sent again with its `Idempotency-Key`,
//! and play, bots and webhook deliveries included, going on after each loss, the live listener
//! connected to the primary that is left. Never a 5xx other than 503, and every 503
//! with `Retry-After`.
//!
//! It measures: the time from each kill to the first command acknowledged after it, the
//! commands refused with 503 meanwhile, and throughput and p99 of commands at the same clients
//! with the synchronous standby and without it (after its loss), in the same run; and, with
//! the clients paused, PostgreSQL's own ceiling (one-row INSERT per commit, as `bench` measures
//! it) both ways, which is what bounds a release server.
//!
//! `failover BASE_URL DATABASE_URL CLUSTER_SCRIPT [CLIENTS] [SECONDS_PER_WINDOW]`

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::time::{Duration, Instant};

use baumeister_storage::trust::{verify_head, SignedHead};
use baumeister_tests::ceiling::commit_ceiling;
use baumeister_tests::plain_http::{Answer, Http};
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

/// How long a client waits before trying again after a 503 (shorter than the `Retry-After` the
/// server sends, so that the moment play resumes is measured closely).
const AGAIN: Duration = Duration::from_millis(200);

/// A command answered 2xx.
struct Acked {
    game: i64,
    head: SignedHead,
    key: Option<String>,
    token: String,
    command: Value,
    answer: Value,
    sent: Instant,
    done: Instant,
}

/// A command sent with a key whose answer was lost (503 or none).
struct Lost {
    game: i64,
    key: String,
    token: String,
    command: Value,
}

#[derive(Default)]
struct Record {
    acked: Vec<Acked>,
    lost: Vec<Lost>,
    /// (answered at, status) of every command sent.
    commands: Vec<(Instant, u16, Duration)>,
    /// Requests answered neither 2xx, nor 503 with Retry-After, nor a refusal of the move
    /// (409/422): each a failure of the check.
    wrong: Vec<String>,
    /// When a read or a game's set-up was answered 503 (each is sent again).
    reads_refused: Vec<Instant>,
    games: BTreeMap<i64, &'static str>,
    bot_games: Vec<i64>,
    stop: bool,
    /// The clients wait while PostgreSQL's own ceiling is measured.
    paused: bool,
}

type Shared = Rc<RefCell<Record>>;

/// A request answered 503 is sent again after a pause, until it gets another answer; a 503
/// without `Retry-After`, or any other 5xx, is recorded as wrong.
async fn persist(
    http: &Http,
    rec: &Shared,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Option<Answer> {
    loop {
        let a = http.call(method, path, token, None, body).await;
        if a.status == 503 && a.retry_after {
            rec.borrow_mut().reads_refused.push(Instant::now());
            if rec.borrow().stop {
                return None;
            }
            actix_web::rt::time::sleep(AGAIN).await;
            continue;
        }
        if a.status >= 500 || a.status == 0 {
            rec.borrow_mut()
                .wrong
                .push(format!("{method} {path}: {} {}", a.status, a.body));
            return None;
        }
        return Some(a);
    }
}

async fn register(http: &Http, name: &str) -> String {
    let body = json!({"name": name, "password": "failover check password 1"});
    let r = http
        .call("POST", "/v1/accounts", None, None, Some(&body))
        .await;
    assert!(r.status == 201 || r.status == 409, "register: {}", r.body);
    let r = http
        .call("POST", "/v1/tokens", None, None, Some(&body))
        .await;
    assert_eq!(r.status, 200, "login: {}", r.body);
    r.body["token"].as_str().unwrap().to_string()
}

/// A new game of `kind`, the client's accounts seated (or a bot at seat 1): its id.
async fn new_game(
    http: &Http,
    rec: &Shared,
    tokens: &[String],
    kind: &'static str,
    seats: usize,
    bot: bool,
) -> Option<i64> {
    let created = persist(
        http,
        rec,
        "POST",
        "/v1/games",
        Some(&tokens[0]),
        Some(&json!({"kind": kind, "seats": seats})),
    )
    .await?;
    if created.status != 201 {
        rec.borrow_mut().wrong.push(format!(
            "create {kind}: {} {}",
            created.status, created.body
        ));
        return None;
    }
    let id = created.body["id"].as_i64().unwrap();
    for seat in 1..seats {
        let r = if bot && seat == 1 {
            persist(
                http,
                rec,
                "POST",
                &format!("/v1/games/{id}/bots"),
                Some(&tokens[0]),
                Some(&json!({"seat": 1, "level": "random"})),
            )
            .await?
        } else {
            persist(
                http,
                rec,
                "POST",
                &format!("/v1/games/{id}/join"),
                Some(&tokens[seat]),
                Some(&json!({})),
            )
            .await?
        };
        // A join whose first answer was lost took the seat already.
        let fine = r.status == 200 || r.body["code"] == "already_seated";
        if !fine {
            rec.borrow_mut()
                .wrong
                .push(format!("seat {seat} of {id}: {} {}", r.status, r.body));
            return None;
        }
    }
    let mut rec = rec.borrow_mut();
    rec.games.insert(id, kind);
    if bot {
        rec.bot_games.push(id);
    }
    Some(id)
}

/// A command as a client sent it.
struct Sent {
    game: i64,
    key: Option<String>,
    token: String,
    command: Value,
    started: Instant,
}

/// Files a command's answer: acknowledged (with its signed head), lost with its key (503 with
/// `Retry-After`), a refusal of the move (correct), or wrong.
fn record(rec: &Shared, sent: Sent, a: Answer, done: Instant) {
    let Sent {
        game,
        key,
        token,
        command,
        started,
    } = sent;
    let mut r = rec.borrow_mut();
    r.commands.push((done, a.status, done - started));
    match a.status {
        200 | 201 => match serde_json::from_value::<SignedHead>(a.body["head"].clone()) {
            Ok(head) => r.acked.push(Acked {
                game,
                head,
                key,
                token,
                command,
                answer: a.body,
                sent: started,
                done,
            }),
            Err(e) => r
                .wrong
                .push(format!("2xx without a signed head ({e}): {}", a.body)),
        },
        503 if a.retry_after => {
            if let Some(key) = key {
                r.lost.push(Lost {
                    game,
                    key,
                    token,
                    command,
                });
            }
        }
        // The move is refused (the state moved on since it was listed: a bot, or another seat
        // of a game where several act at once): a correct answer.
        409 | 422 => {}
        _ => r
            .wrong
            .push(format!("command to {game}: {} {}", a.status, a.body)),
    }
}

/// One client: plays its games (every kind in turn, one at a time) by random legal moves of a
/// seat whose turn it is, every other command with an `Idempotency-Key`, until told to stop.
async fn client(http: Rc<Http>, rec: Shared, n: usize, tokens: Vec<String>) {
    let mut pick = baumeister_tests::Pick::new(n as u64 + 1);
    let bot = n % 4 == 3;
    let mut round = n;
    let mut game: Option<(i64, usize)> = None;
    let mut sent = 0usize;
    while !rec.borrow().stop {
        if rec.borrow().paused {
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let (id, _seats) = match game {
            Some(g) => g,
            None => {
                let (kind, seats) = KINDS[round % KINDS.len()];
                round += 1;
                match new_game(&http, &rec, &tokens, kind, seats, bot).await {
                    Some(id) => {
                        game = Some((id, seats));
                        (id, seats)
                    }
                    None => return,
                }
            }
        };
        let Some(board) = persist(
            &http,
            &rec,
            "GET",
            &format!("/v1/games/{id}"),
            Some(&tokens[0]),
            None,
        )
        .await
        else {
            return;
        };
        if board.body["status"] == "finished" {
            game = None;
            continue;
        }
        let to_act: Vec<usize> = board.body["to_act"]
            .as_array()
            .map(|a| a.iter().filter_map(|s| s.as_u64()).map(|s| s as usize))
            .into_iter()
            .flatten()
            .filter(|&s| !(bot && s == 1))
            .collect();
        if to_act.is_empty() {
            // The bot's turn.
            actix_web::rt::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let seat = to_act[pick.below(to_act.len())];
        let Some(moves) = persist(
            &http,
            &rec,
            "GET",
            &format!("/v1/games/{id}/moves"),
            Some(&tokens[seat]),
            None,
        )
        .await
        else {
            return;
        };
        let listed = moves.body["moves"].as_array().cloned().unwrap_or_default();
        if listed.is_empty() {
            continue;
        }
        let command = listed[pick.below(listed.len())].clone();
        sent += 1;
        let key = sent
            .is_multiple_of(2)
            .then(|| format!("failover-{n}-{sent}"));
        let started = Instant::now();
        let a = http
            .call(
                "POST",
                &format!("/v1/games/{id}/commands"),
                Some(&tokens[seat]),
                key.as_deref(),
                Some(&command),
            )
            .await;
        let done = Instant::now();
        let refused = a.status == 503;
        let sent = Sent {
            game: id,
            key,
            token: tokens[seat].clone(),
            command,
            started,
        };
        record(&rec, sent, a, done);
        if refused {
            actix_web::rt::time::sleep(AGAIN).await;
        }
    }
}

/// PostgreSQL's own ceiling for a durable command (`baumeister_tests::ceiling`): commits per
/// second and p99 in ms.
async fn ceiling(url: &str, connections: usize, seconds: u64) -> (f64, f64) {
    let measured = commit_ceiling(url, "failover_ceiling", connections, seconds).await;
    let p99 = measured
        .latencies
        .get(measured.latencies.len() * 99 / 100)
        .map_or(f64::NAN, |us| *us as f64 / 1000.0);
    (measured.tps, p99)
}

/// The ceiling with the clients paused.
async fn paused_ceiling(rec: &Shared, url: &str, connections: usize, seconds: u64) -> (f64, f64) {
    rec.borrow_mut().paused = true;
    // The commands under way end first.
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    let measured = ceiling(url, connections, seconds).await;
    rec.borrow_mut().paused = false;
    measured
}

/// Runs `scripts/failover-cluster ARGS` off the runtime; its output goes to ours.
async fn cluster(script: &str, args: &[&str]) -> bool {
    let script = script.to_string();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    actix_web::rt::task::spawn_blocking(move || {
        std::process::Command::new(&script)
            .args(&args)
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    })
    .await
    .unwrap()
}

/// Throughput and p99 of the commands answered 2xx in `[from, to)`.
fn window(rec: &Record, from: Instant, to: Instant) -> (f64, f64, usize) {
    let mut times: Vec<Duration> = rec
        .commands
        .iter()
        .filter(|(at, status, _)| *at >= from && *at < to && (*status == 200 || *status == 201))
        .map(|(_, _, took)| *took)
        .collect();
    times.sort();
    let p99 = times
        .get(((times.len() as f64) * 0.99).ceil() as usize)
        .or(times.last())
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(f64::NAN);
    let seconds = (to - from).as_secs_f64();
    (times.len() as f64 / seconds, p99, times.len())
}

/// After the kill at `killed`: seconds to the first command acknowledged that was sent after
/// it, the commands answered 503 in between, and the other requests answered 503.
fn outage(rec: &Record, killed: Instant) -> Option<(f64, usize, usize)> {
    let first = rec
        .acked
        .iter()
        .filter(|a| a.sent >= killed)
        .map(|a| a.done)
        .min()?;
    let refused = rec
        .commands
        .iter()
        .filter(|(at, status, _)| *at >= killed && *at <= first && *status == 503)
        .count();
    let reads = rec
        .reads_refused
        .iter()
        .filter(|at| **at >= killed && **at <= first)
        .count();
    Some(((first - killed).as_secs_f64(), refused, reads))
}

async fn wait_for_first_ack(rec: &Shared, killed: Instant, within: Duration) -> bool {
    while killed.elapsed() < within {
        if rec.borrow().acked.iter().any(|a| a.sent >= killed) {
            return true;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

async fn primary(url: &str) -> tokio_postgres::Client {
    for _ in 0..120 {
        if let Ok((client, connection)) = tokio_postgres::connect(url, NoTls).await {
            actix_web::rt::spawn(connection);
            return client;
        }
        actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    }
    panic!("no primary answers on {url}");
}

/// Waits until the primary no longer waits for a standby's acknowledgement.
async fn until_asynchronous(url: &str, within: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if let Ok((client, connection)) = tokio_postgres::connect(url, NoTls).await {
            actix_web::rt::spawn(connection);
            if let Ok(row) = client
                .query_one("SELECT current_setting('synchronous_standby_names')", &[])
                .await
            {
                if row.get::<_, String>(0).is_empty() {
                    return true;
                }
            }
        }
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
    false
}

/// What the check found wrong, and the lines of its report.
#[derive(Default)]
struct Findings {
    failures: Vec<String>,
    report: Vec<String>,
}

/// Registers each client's three accounts and starts it; the first client's second account
/// gets a webhook, whose deliveries must go on after each loss. Answers the clients' tasks and
/// the hooked account's token.
async fn start_clients(
    http: &Rc<Http>,
    rec: &Shared,
    clients: usize,
    receiver: &baumeister_tests::receiver::Receiver,
) -> (Vec<actix_web::rt::task::JoinHandle<()>>, String) {
    let run = std::process::id();
    let mut tasks = Vec::new();
    let mut hooked = String::new();
    for n in 0..clients {
        let mut tokens = Vec::new();
        for seat in 0..3 {
            tokens.push(register(http, &format!("fo{run}-{n}-{seat}")).await);
        }
        if n == 0 {
            hooked = tokens[1].clone();
            let r = http
                .call(
                    "POST",
                    "/v1/me/webhooks",
                    Some(&hooked),
                    None,
                    Some(&json!({"url": receiver.url, "kinds": ["your_turn"]})),
                )
                .await;
            assert_eq!(r.status, 201, "webhook: {}", r.body);
        }
        tasks.push(actix_web::rt::spawn(client(
            http.clone(),
            rec.clone(),
            n,
            tokens,
        )));
    }
    (tasks, hooked)
}

/// Kills the primary under load and waits for play to resume. Answers when (in ms since the
/// epoch) and how many webhook deliveries the receiver had by then.
async fn lose_primary(
    script: &str,
    rec: &Shared,
    receiver: &baumeister_tests::receiver::Receiver,
    found: &mut Findings,
) -> (i64, usize) {
    println!("failover: killing the primary under load");
    assert!(cluster(script, &["kill-primary"]).await, "kill-primary");
    let killed = Instant::now();
    let delivered_before = receiver.received().len();
    let killed_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    if !wait_for_first_ack(rec, killed, Duration::from_secs(120)).await {
        found
            .failures
            .push("no command was acknowledged within 120 s of the primary's loss".into());
    }
    actix_web::rt::time::sleep(Duration::from_secs(3)).await;
    found.report.push(match outage(&rec.borrow(), killed) {
        Some((s, n, reads)) => format!("primary killed: first command acknowledged after {s:.1} s; meanwhile {n} commands and {reads} reads answered 503"),
        None => "primary killed: no command acknowledged since".into(),
    });
    (killed_ms, delivered_before)
}

/// Starts the lost node again (under load) and waits until it is a synchronous standby.
async fn revive(script: &str, found: &mut Findings) {
    println!("failover: starting the lost node again; it rejoins as standby");
    let back = Instant::now();
    cluster(script, &["revive"]).await;
    if !cluster(script, &["wait", "primary", "secondary"]).await {
        found
            .failures
            .push("the lost node did not come back as a synchronous standby".into());
    }
    found.report.push(format!(
        "the lost node is a synchronous standby again after {:.1} s (under load)",
        back.elapsed().as_secs_f64()
    ));
}

/// Kills the standby under load: the primary must stop waiting for it. Answers when.
async fn lose_standby(script: &str, db_url: &str, rec: &Shared, found: &mut Findings) -> Instant {
    println!("failover: killing the standby under load");
    assert!(cluster(script, &["kill-standby"]).await, "kill-standby");
    let standby_killed = Instant::now();
    if !wait_for_first_ack(rec, standby_killed, Duration::from_secs(120)).await {
        found
            .failures
            .push("no command was acknowledged within 120 s of the standby's loss".into());
    }
    if !until_asynchronous(db_url, Duration::from_secs(60)).await {
        found
            .failures
            .push("the primary still waits for the lost standby after 60 s".into());
    }
    let standby_lost = outage(&rec.borrow(), standby_killed);
    let stalled = {
        let r = rec.borrow();
        r.commands
            .iter()
            .filter(|(at, _, _)| *at >= standby_killed)
            .map(|(_, _, took)| *took)
            .max()
            .unwrap_or_default()
    };
    found.report.push(match standby_lost {
        Some((s, n, reads)) => format!("standby killed: first command acknowledged after {s:.1} s; meanwhile {n} commands and {reads} reads answered 503; the slowest command since took {:.1} s", stalled.as_secs_f64()),
        None => "standby killed: no command acknowledged since".into(),
    });
    standby_killed
}

/// Every 2xx is in the log, under a head signed by the server's key, each game's versions whole.
async fn check_log(
    db: &tokio_postgres::Client,
    http: &Http,
    acked: &[Acked],
    games: &BTreeMap<i64, &'static str>,
    failures: &mut Vec<String>,
) {
    let mut stored: HashMap<i64, HashMap<i64, String>> = HashMap::new();
    for &id in games.keys() {
        let rows = db
            .query(
                "SELECT version, encode(hash, 'hex') FROM events WHERE game_id = $1",
                &[&id],
            )
            .await
            .unwrap();
        let versions: HashMap<i64, String> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        let max = versions.keys().max().copied().unwrap_or(0);
        if versions.len() as i64 != max {
            failures.push(format!(
                "game {id}: {} events up to version {max}",
                versions.len()
            ));
        }
        stored.insert(id, versions);
    }
    let key = http.call("GET", "/v1/keys", None, None, None).await.body["keys"][0]["key"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    for a in acked {
        if let Err(e) = verify_head(&a.head) {
            failures.push(format!(
                "game {} version {}: head {e}",
                a.game, a.head.version
            ));
        }
        if a.head.key != key {
            failures.push(format!(
                "game {}: head signed by {}, not {key}",
                a.game, a.head.key
            ));
        }
        match stored[&a.game].get(&a.head.version) {
            Some(hash) if *hash == a.head.hash => {}
            found => failures.push(format!(
                "game {} version {} was acknowledged with hash {} but the log has {found:?}",
                a.game, a.head.version, a.head.hash
            )),
        }
    }
}

/// Commands sent again with their keys: those acknowledged get their first answer back (a
/// sample), those whose answer was lost get the stored one when they committed, else are
/// decided now. Answers how many were sent again and how many of the lost had committed.
async fn check_retries(
    db: &tokio_postgres::Client,
    http: &Http,
    acked: &[Acked],
    lost: &[Lost],
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let mut replayed = 0;
    for a in acked.iter().filter(|a| a.key.is_some()).step_by(25) {
        let again = http
            .call(
                "POST",
                &format!("/v1/games/{}/commands", a.game),
                Some(&a.token),
                a.key.as_deref(),
                Some(&a.command),
            )
            .await;
        if !(again.status == 200 && again.replayed && again.body == a.answer) {
            failures.push(format!(
                "acknowledged {:?} sent again: {} {}",
                a.key, again.status, again.body
            ));
        }
        replayed += 1;
    }
    let mut committed_anyway = 0;
    for l in lost {
        let stored: Option<Value> = db
            .query_opt(
                "SELECT response FROM commands WHERE game_id = $1 AND idempotency_key = $2",
                &[&l.game, &l.key],
            )
            .await
            .unwrap()
            .map(|r| r.get(0));
        let again = http
            .call(
                "POST",
                &format!("/v1/games/{}/commands", l.game),
                Some(&l.token),
                Some(&l.key),
                Some(&l.command),
            )
            .await;
        match stored {
            Some(response) => {
                committed_anyway += 1;
                if !(again.status == 200 && again.replayed && again.body == response) {
                    failures.push(format!(
                        "{} committed though answered 503; sent again: {} {}",
                        l.key, again.status, again.body
                    ));
                }
            }
            None => {
                if again.status >= 500 || again.status == 0 || again.replayed {
                    failures.push(format!(
                        "{} (not committed) sent again: {} {}",
                        l.key, again.status, again.body
                    ));
                }
            }
        }
    }
    (replayed, committed_anyway)
}

/// Every game's audit is sound.
async fn check_audits(
    http: &Http,
    games: &BTreeMap<i64, &'static str>,
    failures: &mut Vec<String>,
) {
    for &id in games.keys() {
        let audit = http
            .call("GET", &format!("/v1/games/{id}/audit"), None, None, None)
            .await;
        let sound = audit.status == 200
            && audit.body["chain_intact"] == true
            && audit.body["decisions_reproduced"] == true
            && audit.body["problems"]
                .as_array()
                .is_some_and(|p| p.is_empty());
        if !sound {
            failures.push(format!(
                "audit of game {id}: {} {}",
                audit.status, audit.body
            ));
        }
    }
}

/// The bots played on after the primary's loss (answers their moves since), the webhook worker
/// delivered after it and delivers everything in the end (answers the deliveries), and the
/// server's live listener is connected to the primary that is left.
async fn check_workers(
    db: &tokio_postgres::Client,
    http: &Http,
    (bot_games, killed_ms): (&[i64], i64),
    (receiver, hooked, delivered_before): (&baumeister_tests::receiver::Receiver, &str, usize),
    failures: &mut Vec<String>,
) -> (i64, usize) {
    let bot_moves: i64 = db
        .query_one(
            "SELECT count(*) FROM commands WHERE game_id = ANY($1) AND bot_level IS NOT NULL AND now_ms > $2",
            &[&bot_games, &killed_ms],
        )
        .await
        .unwrap()
        .get(0);
    if !bot_games.is_empty() && bot_moves == 0 {
        failures.push("no bot moved after the primary's loss".into());
    }
    let mut pending = Value::Null;
    for _ in 0..300 {
        let list = http
            .call("GET", "/v1/me/webhooks", Some(hooked), None, None)
            .await;
        pending = list.body["webhooks"][0]["pending"].clone();
        if pending == 0 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    let delivered = receiver.received().len();
    if delivered <= delivered_before || pending != 0 {
        failures.push(format!("webhook: {delivered_before} deliveries before the primary's loss, {delivered} in all, {pending} pending"));
    }
    let listening: i64 = db
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'baumeister-live-%'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    if listening == 0 {
        failures.push("the live listener did not reconnect to the new primary".into());
    }
    (bot_moves, delivered)
}

/// The rates measured in each window: commands per second, p99 in ms, how many.
struct Rates {
    sync_before: (f64, f64, usize),
    sync_after: (f64, f64, usize),
    alone: (f64, f64, usize),
    ceiling_sync: (f64, f64),
    ceiling_alone: (f64, f64),
}

fn print_rates(rates: &Rates, clients: usize, seconds: u64) {
    let row = |name: &str, (rate, p99, n): (f64, f64, usize)| {
        println!("{name:<48} {rate:>8.1} commands/s  p99 {p99:>7.1} ms  ({n} in {seconds} s)")
    };
    row("synchronous standby (node 1 primary)", rates.sync_before);
    row("synchronous standby (node 2 primary)", rates.sync_after);
    row("standby lost: primary alone (asynchronous)", rates.alone);
    for (name, (tps, p99)) in [
        (
            "PostgreSQL's ceiling, synchronous standby",
            rates.ceiling_sync,
        ),
        ("PostgreSQL's ceiling, primary alone", rates.ceiling_alone),
    ] {
        println!("{name:<48} {tps:>8.1} commits/s   p99 {p99:>7.1} ms  ({clients} connections, one-row INSERT per commit)");
    }
}

/// Plays under load through the loss of the primary, its return as standby and the loss of the
/// standby, measuring each phase; then checks what was acknowledged. Answers the failures.
async fn run(
    base: String,
    db_url: String,
    script: String,
    clients: usize,
    seconds: u64,
) -> Vec<String> {
    let measure = Duration::from_secs(seconds);
    let sleep = actix_web::rt::time::sleep;
    let http = Rc::new(Http::new(base, Duration::from_secs(60)));
    let rec: Shared = Rc::default();
    let receiver = baumeister_tests::receiver::Receiver::start(0);
    let (tasks, hooked) = start_clients(&http, &rec, clients, &receiver).await;
    let mut found = Findings::default();

    // 1. Synchronous replication, both nodes up.
    sleep(Duration::from_secs(2)).await;
    let w1 = Instant::now();
    sleep(measure).await;
    let sync_before = window(&rec.borrow(), w1, Instant::now());
    // 2. The primary lost.
    let (killed_ms, delivered_before) = lose_primary(&script, &rec, &receiver, &mut found).await;
    // 3. The lost node back, as standby (under load).
    revive(&script, &mut found).await;
    sleep(Duration::from_secs(1)).await;
    let w2 = Instant::now();
    sleep(measure).await;
    let sync_after = window(&rec.borrow(), w2, Instant::now());
    let ceiling_sync = paused_ceiling(&rec, &db_url, clients, seconds).await;
    // 4. The standby lost.
    let standby_killed = lose_standby(&script, &db_url, &rec, &mut found).await;
    sleep(Duration::from_secs(1)).await;
    let w3 = Instant::now();
    sleep(measure).await;
    let alone = window(&rec.borrow(), w3, Instant::now());
    let ceiling_alone = paused_ceiling(&rec, &db_url, clients, seconds).await;

    rec.borrow_mut().stop = true;
    for t in tasks {
        let _ = t.await;
    }
    println!("failover: checking what was acknowledged against the primary's log");
    let db = primary(&db_url).await;
    let (acked, lost, games, bot_games) = {
        let mut r = rec.borrow_mut();
        found.failures.append(&mut r.wrong);
        (
            std::mem::take(&mut r.acked),
            std::mem::take(&mut r.lost),
            r.games.clone(),
            r.bot_games.clone(),
        )
    };
    let failures = &mut found.failures;
    check_log(&db, &http, &acked, &games, failures).await;
    let (replayed, committed_anyway) = check_retries(&db, &http, &acked, &lost, failures).await;
    check_audits(&http, &games, failures).await;
    let (bot_moves, delivered) = check_workers(
        &db,
        &http,
        (&bot_games, killed_ms),
        (&receiver, &hooked, delivered_before),
        failures,
    )
    .await;
    // Play goes on after all of it.
    if !acked.iter().any(|a| a.sent >= standby_killed) {
        failures.push("no command was acknowledged after the standby's loss".into());
    }

    let per_kind = games
        .values()
        .fold(BTreeMap::<&str, usize>::new(), |mut m, k| {
            *m.entry(k).or_default() += 1;
            m
        });
    println!();
    println!("{clients} clients, {} games ({per_kind:?}), {} commands acknowledged ({} with a key), {} answered 503 with a key ({committed_anyway} of them had committed), {bot_moves} bot moves after the primary's loss, {delivered} webhook deliveries ({delivered_before} before it), {replayed} acknowledged commands sent again", games.len(), acked.len(), acked.iter().filter(|a| a.key.is_some()).count(), lost.len());
    for line in &found.report {
        println!("{line}");
    }
    let rates = Rates {
        sync_before,
        sync_after,
        alone,
        ceiling_sync,
        ceiling_alone,
    };
    print_rates(&rates, clients, seconds);
    found.failures
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, db_url, script] = [0, 1, 2].map(|i| {
        args.get(i)
            .cloned()
            .expect("failover BASE_URL DATABASE_URL CLUSTER_SCRIPT [CLIENTS] [SECONDS]")
    });
    let clients: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(8);
    let seconds: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(8);
    let failures =
        actix_web::rt::System::new().block_on(run(base, db_url, script, clients, seconds));
    if failures.is_empty() {
        println!("failover: every acknowledged command is in the log, every audit sound");
    } else {
        for f in failures.iter().take(50) {
            eprintln!("FAILED: {f}");
        }
        eprintln!("failover: {} failures", failures.len());
        std::process::exit(1);
    }
}
