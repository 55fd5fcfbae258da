//! Bots a person can beat, measured: a client that builds Space Builder's plan exactly at a
//! person's pace (a card every `SECONDS` seconds, from when it sees the round or its previous
//! card) plays whole games against one bot of each level, all games at once; prints its share
//! of games won per level with a 95 % (Wilson) interval.
//!
//! `cargo run -p baumeister-tests --bin bots-pace [-- GAMES [SECONDS [TIMING [AT_ONCE]]]]`
//! (defaults 10 games per level, 3 seconds a card, `arrival` timing, the one-click form's, and
//! 6 games at a time: with many more the bots' moves queue for the server's two thinkers and
//! come late, which flatters the person).
//!
//! The server runs in this process (the tests' harness, on a fresh database on the PostgreSQL
//! of `DATABASE_URL`), configured as it ships except for the limits on commands, registrations and logins; every
//! game has its own person (account), as if each were a different visitor. The client reads
//! its game every 200 ms, so it sees a new round up to that late: a person's eyes are slower.

use std::rc::Rc;
use std::time::{Duration, Instant};

use baumeister_tests::person_builder::{next_command, send};
use baumeister_tests::serde_json::json;
use baumeister_tests::TestServer;

const LEVELS: [&str; 3] = ["random", "greedy", "strong"];

/// One game of a person against a bot of `level`: whether the person won, and the rounds.
async fn game(
    s: &TestServer,
    token: &str,
    level: &str,
    per_card: Duration,
    timing: &str,
) -> (bool, u64) {
    let r = s
        .post(
            "/v1/games",
            Some(token),
            &json!({"kind": "space-builder", "seats": 2, "options": {"timing": timing},
                    "bots": [{"seat": 1, "level": level}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    // When the person last acted, or first saw the round being built.
    let mut last_act = Instant::now();
    let mut round = 0;
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(3_600),
            "game {id} did not end"
        );
        let game = s.get(&format!("/v1/games/{id}"), Some(token)).await.body;
        if game["status"] == "finished" {
            let won = game["winners"]
                .as_array()
                .is_some_and(|w| w.contains(&json!(0)));
            return (won, game["view"]["round"].as_u64().unwrap_or(0));
        }
        let view = &game["view"];
        if view["round"] != round && view["phase"] == "building" {
            round = view["round"].as_u64().unwrap_or(0);
            last_act = Instant::now();
        }
        let Some((command, card)) = next_command(view, 0) else {
            actix_web::rt::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        if card {
            let due = last_act + per_card;
            if Instant::now() < due {
                actix_web::rt::time::sleep(due - Instant::now()).await;
            }
        }
        // A refusal (the round ended meanwhile) is read again on the next turn of the loop.
        send(s, id, token, &command).await;
        last_act = Instant::now();
    }
}

/// Share `k` of `n` with its 95 % Wilson interval, in percent.
fn wilson(k: usize, n: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 100.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (
        100.0 * p,
        100.0 * (centre - half).max(0.0),
        100.0 * (centre + half).min(1.0),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args
        .first()
        .map_or(10, |a| a.parse().expect("GAMES: a whole number"));
    let seconds: f64 = args
        .get(1)
        .map_or(3.0, |a| a.parse().expect("SECONDS: a number"));
    let timing = args.get(2).cloned().unwrap_or_else(|| "arrival".into());
    let at_once: usize = args
        .get(3)
        .map_or(6, |a| a.parse().expect("AT_ONCE: a whole number"));
    let per_card = Duration::from_secs_f64(seconds);
    actix_web::rt::System::new().block_on(async move {
        let s = Rc::new(
            TestServer::start_with(|c| {
                c.limits.commands = None;
                c.limits.registrations = None;
                c.limits.logins = None;
                c.limits.name_attempts = None;
            })
            .await,
        );
        println!("Space Builder, {timing} timing: a person who builds the plan exactly at {seconds} s a card, {games} games against each level, {at_once} at a time");
        let turns = Rc::new(tokio::sync::Semaphore::new(at_once.max(1)));
        let started = Instant::now();
        // The accounts first, one after another (signing up is deliberately slow).
        let mut people = Vec::new();
        // Levels interleaved, so that each level's games share the server alike.
        for n in 0..games {
            for level in LEVELS {
                people.push((level, s.player(&format!("person-{level}-{n}")).await));
            }
        }
        let tasks: Vec<_> = people
            .into_iter()
            .map(|(level, token)| {
                let (s, timing, turns) = (s.clone(), timing.clone(), turns.clone());
                (level, actix_web::rt::spawn(async move {
                    let _turn = turns.acquire().await.expect("never closed");
                    game(&s, &token, level, per_card, &timing).await
                }))
            })
            .collect();
        let mut results: Vec<(&str, bool, u64)> = Vec::new();
        for (level, task) in tasks {
            let (won, rounds) = task.await.expect("a game's task ends");
            results.push((level, won, rounds));
        }
        println!("level   games  won  share   95 % interval   rounds per game  ({:.0} s in all)", started.elapsed().as_secs_f64());
        for level in LEVELS {
            let mine: Vec<_> = results.iter().filter(|r| r.0 == level).collect();
            let won = mine.iter().filter(|r| r.1).count();
            let rounds: u64 = mine.iter().map(|r| r.2).sum();
            let (p, low, high) = wilson(won, mine.len());
            println!(
                "{level:<7} {:>5} {won:>4}  {p:>5.1} %  {low:>5.1}–{high:>5.1} %   {:>6.1}",
                mine.len(),
                rounds as f64 / mine.len().max(1) as f64
            );
        }
        Rc::try_unwrap(s).ok().expect("every game ended").finish().await;
    });
}
