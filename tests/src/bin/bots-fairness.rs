//! Fair bots, measured: one account plays many Carcassonne games against strong bots (the
//! backlog), another account plays one game against each level of bot (the victim); prints how
//! long the victim's bots take to answer, per level: from the answer to the victim's command
//! that handed the turn to the bot, to the first read that shows the turn back at the victim's
//! seat (read every 10 ms).
//!
//! `cargo run -p baumeister-tests --bin bots-fairness [-- SECONDS [GAMES [BOTS_PER_GAME]]]`
//! (defaults 60, 30 and 4; a debug build unless `--release` is given).
//!
//! The server runs in this process (the tests' harness, on a fresh database on the PostgreSQL
//! of `DATABASE_URL`), configured as it ships except for the per-account command limit, with
//! `BOT_THINKERS` and `BOT_THINKERS_PER_ACCOUNT` read from the environment like the server's.
//! The backlog's account reads each of its games' moves in turn and plays one at random where
//! it is to act, as fast as it can; the victim does the same in its three games (one against a
//! random bot, one against a greedy bot, one against a strong one, two seats each), and starts
//! a new game when one ends.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use baumeister_api::config::Bots;
use baumeister_tests::{Pick, TestServer};
use serde_json::{json, Value};

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}: a whole number"))
        })
        .unwrap_or(default)
}

async fn new_game(s: &TestServer, token: &str, bots: &[Value]) -> i64 {
    s.create_game(
        token,
        &json!({"kind": "carcassonne", "seats": bots.len() + 1, "bots": bots}),
    )
    .await
}

/// Plays the backlog's games, one random move wherever its seat is to act, until `until`.
/// Returns the commands it sent.
async fn backlog(
    s: &TestServer,
    token: &str,
    games: &mut [i64],
    bots: usize,
    until: Instant,
) -> usize {
    let mut pick = Pick::new(7);
    let strong: Vec<Value> = (1..=bots)
        .map(|seat| json!({"seat": seat, "level": "strong"}))
        .collect();
    let mut sent = 0;
    while Instant::now() < until {
        for id in games.iter_mut() {
            let game = s.get(&format!("/v1/games/{id}"), Some(token)).await;
            if game.body["status"] == "finished" {
                *id = new_game(s, token, &strong).await;
                continue;
            }
            if game.body["to_act"] == json!([0]) {
                if let Some(r) = s.random_move(*id, token, &mut pick).await {
                    if r.status == 200 {
                        sent += 1;
                    }
                }
            }
        }
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    sent
}

/// Plays one game against a bot of `level` after another until `until`; each wait for the bot
/// recorded in `waits`.
async fn victim(
    s: &TestServer,
    token: &str,
    level: &str,
    seed: u64,
    until: Instant,
    waits: Rc<RefCell<Vec<Duration>>>,
) {
    let mut pick = Pick::new(seed);
    let bots = [json!({"seat": 1, "level": level})];
    let mut id = new_game(s, token, &bots).await;
    while Instant::now() < until {
        let game = s.get(&format!("/v1/games/{id}"), Some(token)).await;
        if game.body["status"] == "finished" {
            id = new_game(s, token, &bots).await;
            continue;
        }
        if game.body["to_act"] != json!([0]) {
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
            continue;
        }
        let Some(r) = s.random_move(id, token, &mut pick).await else {
            continue;
        };
        if r.status != 200 || r.body["to_act"] == json!([0]) {
            continue;
        }
        // The bot is to act from this answer on.
        let handed = Instant::now();
        loop {
            let game = s.get(&format!("/v1/games/{id}"), Some(token)).await;
            if game.body["to_act"] == json!([0]) || game.body["status"] == "finished" {
                break;
            }
            if Instant::now() > until + Duration::from_secs(60) {
                return;
            }
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        }
        waits.borrow_mut().push(handed.elapsed());
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: usize| {
        args.get(i)
            .map(|a| a.parse().expect("whole numbers"))
            .unwrap_or(default)
    };
    let (run_for, games, bots) = (arg(0, 60), arg(1, 30), arg(2, 4));
    let defaults = Bots::default();
    let config = Bots {
        thinkers: env_number("BOT_THINKERS", defaults.thinkers),
        per_account: env_number("BOT_THINKERS_PER_ACCOUNT", defaults.per_account),
    };
    actix_web::rt::System::new().block_on(async move {
        let s = TestServer::start_with(|c| {
            c.limits.commands = None;
            c.bots = config;
        })
        .await;
        let mallory = s.player("mallory").await;
        let victor = s.player("victor").await;
        let strong: Vec<Value> = (1..=bots)
            .map(|seat| json!({"seat": seat, "level": "strong"}))
            .collect();
        let mut backlog_games = Vec::new();
        for _ in 0..games {
            backlog_games.push(new_game(&s, &mallory, &strong).await);
        }
        println!(
            "{games} games of one account against {bots} strong bots each; \
             BOT_THINKERS={} BOT_THINKERS_PER_ACCOUNT={}; {run_for} s",
            config.thinkers, config.per_account
        );
        let until = Instant::now() + Duration::from_secs(run_for as u64);
        let levels: [&'static str; 3] = ["random", "greedy", "strong"];
        let waits: Vec<Rc<RefCell<Vec<Duration>>>> = levels.iter().map(|_| Rc::default()).collect();
        let s = Rc::new(s);
        let victims: Vec<_> = levels
            .iter()
            .zip(&waits)
            .enumerate()
            .map(|(i, (level, w))| {
                let (s, token, w, level) = (s.clone(), victor.clone(), w.clone(), *level);
                actix_web::rt::spawn(async move {
                    victim(&s, &token, level, i as u64 + 1, until, w).await
                })
            })
            .collect();
        let sent = backlog(&s, &mallory, &mut backlog_games, bots, until).await;
        for v in victims {
            v.await.expect("a victim's task ends");
        }
        let bot_moves: i64 = s
            .db()
            .await
            .query_one(
                "SELECT count(*) FROM commands WHERE bot_level = 'strong'",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        println!("backlog: {sent} commands of its account, {bot_moves} strong bot moves in all");
        println!("level   answers  median  p90    max   (seconds)");
        for (level, w) in levels.iter().zip(&waits) {
            let mut w = w.borrow().clone();
            w.sort();
            if w.is_empty() {
                println!("{level:<7} 0");
                continue;
            }
            let at = |q: f64| w[((w.len() - 1) as f64 * q).round() as usize];
            println!(
                "{level:<7} {:>7}  {:>6} {:>6} {:>6}",
                w.len(),
                seconds(at(0.5)),
                seconds(at(0.9)),
                seconds(*w.last().unwrap())
            );
        }
        Rc::try_unwrap(s)
            .unwrap_or_else(|_| panic!("every task ended"))
            .finish()
            .await;
    });
}
