//! A server process that stops while a bot is to act, and a new process started on the same
//! database, makes the bot's move (issue 23: "a server restart resumes bots that are to act").
//! The in-process test servers cannot stop their background tasks, so this runs the binary
//! itself, as `sigkill.rs` does: the first process is killed right after the answer that left
//! the bot to act (the strong bot thinks up to a second, far longer than the kill takes), and
//! nothing but the second process's start-up sweep can then move it.

use std::time::{Duration, Instant};

use baumeister_tests::plain_http::Http;
use baumeister_tests::serde_json::json;
use baumeister_tests::{database, drop_database, fresh_database};

mod support;
use support::{baumeister, free_port};

/// The game's version and the seats it waits for, as stored.
async fn stored(db: &tokio_postgres::Client, id: i64) -> (i64, Vec<i16>) {
    let row = db
        .query_one("SELECT version, to_act FROM games WHERE id = $1", &[&id])
        .await
        .unwrap();
    (row.get(0), row.get(1))
}

#[actix_web::test]
async fn a_new_process_makes_the_move_of_a_bot_whose_server_stopped_while_it_was_to_act() {
    let db_name = fresh_database().await;
    let db = database(&db_name).await;
    let port = free_port();
    let mut first = baumeister(&db_name, port, &"22".repeat(32));
    let http = Http::local(port);
    http.ready().await;
    let account = json!({"name": "anna", "password": "a password of the restart test"});
    let r = http
        .call("POST", "/v1/accounts", None, None, Some(&account))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = http
        .call("POST", "/v1/tokens", None, None, Some(&account))
        .await;
    let anna = r.body["token"].as_str().unwrap().to_string();
    let r = http
        .call(
            "POST",
            "/v1/games",
            Some(&anna),
            None,
            Some(&json!({"kind": "mauerbauer", "seats": 2,
                         "bots": [{"seat": 1, "level": "strong"}]})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let game = r.body;
    let id = game["id"].as_i64().unwrap();

    // Anna moves until an answer leaves the bot to act; the process dies right after it.
    let mut answer = game;
    while !answer["to_act"].as_array().unwrap().contains(&json!(1)) {
        let moves = http
            .call(
                "GET",
                &format!("/v1/games/{id}/moves"),
                Some(&anna),
                None,
                None,
            )
            .await
            .body;
        let chosen = moves["moves"][0].clone();
        let r = http
            .call(
                "POST",
                &format!("/v1/games/{id}/commands"),
                Some(&anna),
                None,
                Some(&chosen),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        answer = r.body;
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let (version, to_act) = stored(&db, id).await;
    assert_eq!(
        to_act,
        vec![1],
        "the process stopped while the bot was to act (it had not moved yet)"
    );

    // Nobody sends anything: the new process's bots' sweep finds the bot and moves it.
    let port = free_port();
    let mut second = baumeister(&db_name, port, &"22".repeat(32));
    Http::local(port).ready().await;
    let started = Instant::now();
    while stored(&db, id).await.0 == version {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the new process never moved the bot"
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    let row = db
        .query_one(
            "SELECT c.seat, c.bot_level, a.name FROM commands c JOIN accounts a ON a.id = c.account_id
             WHERE c.game_id = $1 AND c.position = $2",
            &[&id, &version],
        )
        .await
        .unwrap();
    assert_eq!(
        (
            row.get::<_, i16>(0),
            row.get::<_, Option<String>>(1),
            row.get::<_, String>(2)
        ),
        (1, Some("strong".to_string()), "bot-strong".to_string()),
        "the bot's command, recorded with its level"
    );
    second.kill().unwrap();
    second.wait().unwrap();
    drop(db);
    drop_database(&db_name).await;
}
