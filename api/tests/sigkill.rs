//! A server killed with SIGKILL in the middle of a load, then started again (issue 10): every
//! command it acknowledged is in the log, the versions have no gap, the lobby equals a rebuild
//! from the events, and a client that retries with its `Idempotency-Key` gets its first
//! response (or, for a command the kill swallowed before it committed, has it applied once).

use std::process::{Child, Command};
use std::rc::Rc;
use std::time::Duration;

use baumeister_tests::plain_http::{Answer, Http};
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{database, database_url, drop_database, fresh_database, Pick};

mod support;
use baumeister_tests::process::SECRET;
use support::{baumeister, free_port};

/// Registers `name` and logs it in; its token.
async fn token(http: &Http, name: &str) -> String {
    let body = json!({"name": name, "password": "a password of the sigkill test"});
    let r = http
        .call("POST", "/v1/accounts", None, None, Some(&body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = http
        .call("POST", "/v1/tokens", None, None, Some(&body))
        .await;
    r.body["token"].as_str().unwrap().to_string()
}

/// A command sent with its key, and what came back.
struct Sent {
    game: i64,
    token: String,
    key: String,
    body: Value,
    answer: Answer,
}

/// Plays game `id` (both seats) until a request gets no answer (the server died); returns
/// every command sent.
async fn client(http: Rc<Http>, id: i64, tokens: Rc<[String; 2]>, n: usize) -> Vec<Sent> {
    let mut pick = Pick::new(n as u64);
    let mut sent = Vec::new();
    loop {
        let game = http
            .call("GET", &format!("/v1/games/{id}"), None, None, None)
            .await;
        let Some(seat) = game.body["to_act"][0].as_u64() else {
            return sent;
        };
        let token = &tokens[seat as usize];
        let moves = http
            .call(
                "GET",
                &format!("/v1/games/{id}/moves"),
                Some(token),
                None,
                None,
            )
            .await;
        let Some(listed) = moves.body["moves"].as_array().filter(|m| !m.is_empty()) else {
            return sent;
        };
        let body = json!({"command": listed[pick.below(listed.len())]["command"]});
        let key = format!("client-{n}-command-{}", sent.len());
        let answer = http
            .call(
                "POST",
                &format!("/v1/games/{id}/commands"),
                Some(token),
                Some(&key),
                Some(&body),
            )
            .await;
        let died = answer.status == 0;
        assert!(
            died || answer.status == 200,
            "{}: {}",
            answer.status,
            answer.body
        );
        sent.push(Sent {
            game: id,
            token: token.clone(),
            key,
            body,
            answer,
        });
        if died {
            return sent;
        }
    }
}

/// The lobby row of each game and every board it serves, as one comparable value.
async fn projections(http: &Http, games: &[i64], tokens: &[String; 2], db: &str) -> Value {
    let db = database(db).await;
    let mut all = Vec::new();
    for &id in games {
        let row = db
            .query_one(
                "SELECT row_to_json(g)::text FROM (SELECT version, status, to_act, progress, deadline_ms FROM games WHERE id = $1) g",
                &[&id],
            )
            .await
            .unwrap();
        let mut boards = Vec::new();
        for token in [None, Some(tokens[0].as_str()), Some(tokens[1].as_str())] {
            let r = http
                .call("GET", &format!("/v1/games/{id}"), token, None, None)
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            boards.push(r.body["view"].clone());
        }
        all.push(json!({"lobby": row.get::<_, String>(0), "boards": boards}));
    }
    Value::Array(all)
}

/// Sixteen Burgbaumeister games of Ada and Bea, started.
async fn started_games(http: &Http, tokens: &[String; 2]) -> Vec<i64> {
    let mut games = Vec::new();
    for _ in 0..16 {
        let r = http
            .call(
                "POST",
                "/v1/games",
                Some(&tokens[0]),
                None,
                Some(&json!({"kind": "burgbaumeister", "seats": 2})),
            )
            .await;
        let id = r.body["id"].as_i64().unwrap();
        let r = http
            .call(
                "POST",
                &format!("/v1/games/{id}/join"),
                Some(&tokens[1]),
                None,
                None,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        games.push(id);
    }
    games
}

/// Load on every game, then SIGKILL in the middle of it, and the server started again on the
/// same database (on another port, so that no socket of the dead one is in the way); again in
/// the rare case that the kill found no command under way. Answers what was sent and the
/// running server with its client.
async fn killed_mid_load(
    db: &str,
    mut server: Child,
    mut http: Rc<Http>,
    games: &[i64],
    tokens: &Rc<[String; 2]>,
) -> (Vec<Sent>, Child, Rc<Http>) {
    let mut sent = Vec::new();
    for round in 0..5 {
        let clients: Vec<_> = games
            .iter()
            .enumerate()
            .map(|(n, &id)| {
                let n = round * games.len() + n;
                actix_web::rt::spawn(client(http.clone(), id, tokens.clone(), n))
            })
            .collect();
        actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
        server.kill().expect("SIGKILL");
        server.wait().unwrap();
        for c in clients {
            sent.extend(c.await.unwrap());
        }
        let port = free_port();
        server = baumeister(db, port, &"11".repeat(32));
        http = Rc::new(Http::local(port));
        http.ready().await;
        if sent.iter().any(|s| s.answer.status == 0) {
            break;
        }
    }
    (sent, server, http)
}

/// Every acknowledged command is stored with the response it was given, and every game has
/// its versions 1 to the last, none missing.
async fn assert_nothing_acknowledged_lost(
    conn: &tokio_postgres::Client,
    sent: &[Sent],
    games: &[i64],
) {
    for s in sent.iter().filter(|s| s.answer.status == 200) {
        let row = conn
            .query_one(
                "SELECT response FROM commands WHERE game_id = $1 AND idempotency_key = $2",
                &[&s.game, &s.key],
            )
            .await
            .unwrap_or_else(|_| panic!("acknowledged command {} is stored", s.key));
        assert_eq!(row.get::<_, Value>(0), s.answer.body);
    }
    for &id in games {
        let row = conn
            .query_one(
                "SELECT count(*), coalesce(max(version), 0) FROM events WHERE game_id = $1",
                &[&id],
            )
            .await
            .unwrap();
        assert_eq!(row.get::<_, i64>(0), row.get::<_, i64>(1), "game {id}");
    }
}

/// Retries with the same key: an acknowledged command gets its first response and appends
/// nothing; one the kill swallowed is answered with what it committed, or is applied now, once.
async fn assert_retries_get_their_answer(
    http: &Http,
    conn: &tokio_postgres::Client,
    sent: &[Sent],
) {
    let version = |game: i64| async move {
        conn.query_one("SELECT version FROM games WHERE id = $1", &[&game])
            .await
            .unwrap()
            .get::<_, i64>(0)
    };
    for s in sent {
        let version_before = version(s.game).await;
        let again = http
            .call(
                "POST",
                &format!("/v1/games/{}/commands", s.game),
                Some(&s.token),
                Some(&s.key),
                Some(&s.body),
            )
            .await;
        assert_eq!(again.status, 200, "retry of {}: {}", s.key, again.body);
        let stored: Value = conn
            .query_one(
                "SELECT response FROM commands WHERE game_id = $1 AND idempotency_key = $2",
                &[&s.game, &s.key],
            )
            .await
            .unwrap()
            .get(0);
        assert_eq!(again.body, stored, "{}", s.key);
        if s.answer.status == 200 {
            assert!(again.replayed, "{}: the first response, replayed", s.key);
            assert_eq!(again.body, s.answer.body);
            assert_eq!(
                version(s.game).await,
                version_before,
                "{}: nothing appended",
                s.key
            );
        }
    }
}

#[actix_web::test]
async fn a_server_killed_mid_load_loses_no_acknowledged_command_and_retries_get_their_answer() {
    let db = fresh_database().await;
    let port = free_port();
    let server = baumeister(&db, port, &"11".repeat(32));
    let http = Rc::new(Http::local(port));
    http.ready().await;
    let tokens: Rc<[String; 2]> = Rc::new([token(&http, "ada").await, token(&http, "bea").await]);
    // Many clients at once, so that the kill finds commands under way.
    let games = started_games(&http, &tokens).await;

    let (sent, mut server, http) = killed_mid_load(&db, server, http, &games, &tokens).await;
    let acknowledged = sent.iter().filter(|s| s.answer.status == 200).count();
    let swallowed = sent.iter().filter(|s| s.answer.status == 0).count();
    eprintln!("{acknowledged} commands acknowledged, {swallowed} swallowed by the kill");
    assert!(acknowledged > 20, "a load: {acknowledged} commands");
    assert!(swallowed > 0, "the kill came mid-load");
    let conn = database(&db).await;
    assert_nothing_acknowledged_lost(&conn, &sent, &games).await;

    // The lobby and every board equal a rebuild from the events alone.
    let before = projections(&http, &games, &tokens, &db).await;
    let rebuilt = Command::new(env!("CARGO_BIN_EXE_baumeister"))
        .arg("rebuild-projections")
        .env("DATABASE_URL", database_url(&db))
        .env("JWT_SECRET", SECRET)
        .env("RUST_LOG", "error")
        .status()
        .unwrap();
    assert!(rebuilt.success());
    assert_eq!(projections(&http, &games, &tokens, &db).await, before);

    assert_retries_get_their_answer(&http, &conn, &sent).await;
    server.kill().unwrap();
    server.wait().unwrap();
    drop_database(&db).await;
}
