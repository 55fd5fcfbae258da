//! A commit whose answer is lost: the database did the command, but the connection broke
//! before it said so (a primary that dies right after a commit: docs/failover.md). The client
//! must not get a 2xx it cannot trust, nor a 500: it gets 503 with `Retry-After`. Sent again
//! with its `Idempotency-Key`, the command gets the stored answer and nothing is applied twice;
//! without a key, the game the client reads again is the one the database has.

use std::time::{Duration, Instant};

use baumeister_storage::pause::APPEND_SENDING;
use baumeister_tests::given::ada_and_bea_behind_a_proxy;
use baumeister_tests::proxy::Proxy;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Reply, TestServer};

async fn command(s: &TestServer, id: i64, token: &str, key: Option<&str>, body: &Value) -> Reply {
    let mut request = s
        .request("POST", &format!("/v1/games/{id}/commands"), Some(token))
        .insert_header(("Content-Type", "application/json"));
    if let Some(key) = key {
        request = request.insert_header(("Idempotency-Key", key));
    }
    s.send(request, Some(serde_json::to_vec(body).unwrap()))
        .await
}

/// Sends the first listed move of the seat the game waits for, with the database's answer to
/// its statement lost; returns the version before, the move and the client's answer.
async fn with_the_answer_lost(
    s: &TestServer,
    proxy: &Proxy,
    id: i64,
    tokens: &[String],
    key: Option<&str>,
) -> (i64, usize, Value, Reply) {
    let board = s.get(&format!("/v1/games/{id}"), None).await;
    let before = board.body["version"].as_i64().unwrap();
    let seat = board.body["to_act"][0].as_u64().unwrap() as usize;
    let moves = s.moves(id, &tokens[seat]).await;
    let body = moves.body["moves"][0].clone();
    let mut paused = s.store.pause_at(APPEND_SENDING);
    let sent = command(s, id, &tokens[seat], key, &body);
    let lose = async {
        tokio::time::timeout(Duration::from_secs(30), paused.reached())
            .await
            .expect("the append reaches its statement");
        proxy.lose_answers();
        paused.resume();
    };
    let (answer, ()) = tokio::join!(sent, lose);
    proxy.restore();
    (before, seat, body, answer)
}

/// A read sent again while the server's pool makes new connections (503 until then).
async fn get_again(s: &TestServer, path: &str, token: Option<&str>) -> Reply {
    let started = Instant::now();
    loop {
        let r = s.get(path, token).await;
        if r.status != 503 || started.elapsed() > Duration::from_secs(10) {
            return r;
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn a_command_whose_commit_answer_is_lost_gets_503_and_its_retry_the_stored_answer() {
    let (proxy, s, tokens) = ada_and_bea_behind_a_proxy().await;
    let db = s.db().await;

    // With a key.
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let (before, seat, body, lost) =
        with_the_answer_lost(&s, &proxy, id, &tokens, Some("lost-answer")).await;
    assert_eq!(
        lost.status, 503,
        "never a 2xx it cannot trust: {}",
        lost.body
    );
    assert_eq!(lost.code(), "database_unavailable");
    assert!(lost.header("retry-after").is_some());
    let stored: Value = db
        .query_one(
            "SELECT response FROM commands WHERE game_id = $1 AND idempotency_key = 'lost-answer'",
            &[&id],
        )
        .await
        .expect("the command committed before its answer was lost")
        .get(0);
    get_again(&s, &format!("/v1/games/{id}"), None).await;
    let again = command(&s, id, &tokens[seat], Some("lost-answer"), &body).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.body, stored, "the answer it was stored with");
    assert!(again.body["version"].as_i64().unwrap() > before);
    let board = get_again(&s, &format!("/v1/games/{id}"), None).await;
    assert_eq!(
        board.body["version"], again.body["version"],
        "nothing applied twice"
    );
    s.log_is_whole(id, 1).await;

    // Without a key (appended in a batch): the client reads the game again and finds its
    // command done.
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let (before, seat, _, lost) = with_the_answer_lost(&s, &proxy, id, &tokens, None).await;
    assert_eq!(lost.status, 503, "{}", lost.body);
    assert!(lost.header("retry-after").is_some());
    let board = get_again(&s, &format!("/v1/games/{id}"), None).await;
    assert_eq!(board.status, 200, "{}", board.body);
    let now = board.body["version"].as_i64().unwrap();
    assert!(now > before, "the read shows the committed command");
    let stored: i64 = db
        .query_one("SELECT max(version) FROM events WHERE game_id = $1", &[&id])
        .await
        .unwrap()
        .get(0);
    assert_eq!(now, stored, "the version the database has");
    let moves = get_again(&s, &format!("/v1/games/{id}/moves"), Some(&tokens[seat])).await;
    assert_eq!(moves.status, 200, "{}", moves.body);
    assert_eq!(moves.body["version"].as_i64(), Some(now));
    s.log_is_whole(id, 1).await;
    s.finish().await;
}
