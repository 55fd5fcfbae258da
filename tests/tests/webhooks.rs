//! Webhooks (issue 11): registered per account, queued in the append's transaction, signed,
//! retried with backoff, delivered at least once even when the process that committed dies.

use std::time::Duration;

use baumeister_api::live::sign;
use baumeister_tests::receiver::{Received, Receiver};
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::TestServer;

const WAIT: Duration = Duration::from_secs(20);

/// A test server that may deliver to loopback receivers, retrying after 100 ms, 200 ms, …
async fn server(deliver: bool) -> TestServer {
    TestServer::start_with(|c| {
        c.limits.commands = None;
        c.live.allow_private = true;
        c.live.retry_base = Duration::from_millis(100);
        c.live.deliver = deliver;
    })
    .await
}

async fn register(s: &TestServer, token: &str, url: &str, kinds: Value) -> (i64, String) {
    let r = s
        .post(
            "/v1/me/webhooks",
            Some(token),
            &json!({"url": url, "kinds": kinds}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    (
        r.body["id"].as_i64().unwrap(),
        r.body["secret"].as_str().unwrap().to_string(),
    )
}

/// Checks the signature headers of a received delivery against the webhook's secret.
fn verify(received: &Received, secret: &str) {
    let header = received.header("Baumeister-Signature").expect("signed");
    let (t, v1) = header.split_once(',').unwrap();
    let t: u64 = t.strip_prefix("t=").unwrap().parse().unwrap();
    let v1 = v1.strip_prefix("v1=").unwrap();
    let mut signed = format!("{t}.").into_bytes();
    signed.extend_from_slice(&received.body);
    assert_eq!(
        v1,
        sign::hex(&sign::hmac_sha256(secret.as_bytes(), &signed))
    );
    assert_eq!(header, sign::signature(secret, t, &received.body));
    let wrong = sign::hex(&sign::hmac_sha256(b"another secret", &signed));
    assert_ne!(v1, wrong);
}

#[actix_web::test]
async fn deliveries_are_signed_and_say_what_happened_in_which_game() {
    let s = server(true).await;
    let receiver = Receiver::start(0);
    let tokens = s.players(&["ada", "bea"]).await;
    let (_, secret) = register(
        &s,
        &tokens[1],
        &receiver.url,
        json!(["your_turn", "game_started", "game_finished"]),
    )
    .await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    // Bea's game started, and when it begins with her seat, it is her turn too.
    let mut expected = if game.body["to_act"] == json!([1]) {
        2
    } else {
        1
    };
    let received = receiver.accepted(expected, WAIT).await;
    // Deliveries queued by one append are sent at once: they may arrive in either order.
    let started = received
        .iter()
        .position(|r| r.json()["kind"] == "game_started")
        .expect("game_started delivered");
    let first = received[started].json();
    assert_eq!(first["game"]["id"], id);
    assert_eq!(first["game"]["kind"], "burgbaumeister");
    assert_eq!(first["seat"], 1);
    assert_eq!(
        received[started].header("Baumeister-Event"),
        Some("game_started")
    );
    assert_eq!(
        received[started].header("Baumeister-Delivery"),
        first["id"].as_str()
    );
    assert_eq!(
        received[started].header("Content-Type"),
        Some("application/json")
    );
    verify(&received[started], &secret);

    // Play until the turn passes from ada to bea: one `your_turn` more.
    let mut to_act = game.body["to_act"].clone();
    loop {
        let seat = to_act[0].as_u64().unwrap() as usize;
        let moves = s
            .get(&format!("/v1/games/{id}/moves"), Some(&tokens[seat]))
            .await;
        let command = moves.body["moves"][0]["command"].clone();
        let r = s
            .post(
                &format!("/v1/games/{id}/commands"),
                Some(&tokens[seat]),
                &json!({ "command": command }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let before = std::mem::replace(&mut to_act, r.body["to_act"].clone());
        if to_act == json!([1]) && before == json!([0]) {
            expected += 1;
            let received = receiver.accepted(expected, WAIT).await;
            let turn = received[expected - 1].json();
            assert_eq!(turn["kind"], "your_turn");
            assert_eq!(turn["game"]["version"], r.body["version"]);
            assert_eq!(turn["game"]["to_act"], json!([1]));
            verify(&received[expected - 1], &secret);
            assert_ne!(turn["id"], first["id"], "one id per delivery");
            break;
        }
    }
    // Nobody registered for ada: she gets nothing, and bea got exactly two.
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.received().len(), expected);
    receiver.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_receiver_that_fails_twice_gets_the_third_attempt_of_the_same_delivery() {
    let s = server(true).await;
    let receiver = Receiver::start(2);
    let tokens = s.players(&["ada", "bea"]).await;
    let (webhook, secret) = register(&s, &tokens[1], &receiver.url, json!(["game_started"])).await;
    s.game("burgbaumeister", json!({}), &tokens).await;
    let received = receiver.accepted(1, WAIT).await;
    assert_eq!(received.len(), 3, "{received:?}");
    assert_eq!(
        received.iter().map(|r| r.accepted).collect::<Vec<_>>(),
        [false, false, true]
    );
    let ids: Vec<_> = received
        .iter()
        .map(|r| r.header("Baumeister-Delivery").unwrap().to_string())
        .collect();
    assert!(
        ids.iter().all(|i| *i == ids[0]),
        "the same delivery id: {ids:?}"
    );
    assert_eq!(
        received
            .iter()
            .map(|r| r.header("Baumeister-Attempt").unwrap())
            .collect::<Vec<_>>(),
        ["1", "2", "3"]
    );
    for r in &received {
        verify(r, &secret);
        assert_eq!(r.body, received[0].body, "the same body on every attempt");
    }
    // The worker records the success just after the receiver answered.
    let mut list = s.get("/v1/me/webhooks", Some(&tokens[1])).await;
    for _ in 0..100 {
        if list.body["webhooks"][0]["pending"] == 0 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        list = s.get("/v1/me/webhooks", Some(&tokens[1])).await;
    }
    assert_eq!(list.body["webhooks"][0]["id"], webhook);
    assert_eq!(list.body["webhooks"][0]["pending"], 0);
    assert_eq!(list.body["webhooks"][0]["failed"], 0);
    assert_eq!(
        list.body["webhooks"][0]["last_error"],
        "the receiver answered 500"
    );
    assert!(
        list.body["webhooks"][0].get("secret").is_none(),
        "shown once"
    );
    receiver.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_process_that_dies_between_the_commit_and_the_send_loses_no_delivery() {
    // The first process commits the command (and its delivery) but never sends: it dies.
    let a = server(false).await;
    let receiver = Receiver::start(0);
    let tokens = a.players(&["ada", "bea"]).await;
    register(
        &a,
        &tokens[1],
        &receiver.url,
        json!(["game_started", "your_turn"]),
    )
    .await;
    let id = a.game("burgbaumeister", json!({}), &tokens).await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert!(
        receiver.received().is_empty(),
        "nothing sent by the dead process"
    );
    a.stop().await;
    // Another process on the same database finds the outbox and delivers.
    let b = a
        .another(|c| {
            c.live.allow_private = true;
            c.live.retry_base = Duration::from_millis(100);
        })
        .await;
    // `game_started`, and `your_turn` when the game begins with bea's seat.
    let game = b.get(&format!("/v1/games/{id}"), None).await;
    let expected = if game.body["to_act"] == json!([1]) {
        2
    } else {
        1
    };
    let received = receiver.accepted(expected, WAIT).await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    let received_now = receiver.received();
    assert_eq!(received_now.len(), expected, "each once: {received:?}");
    let mut kinds: Vec<Value> = received.iter().map(|r| r.json()["kind"].clone()).collect();
    kinds.sort_by_key(|k| k.to_string());
    assert_eq!(kinds[0], "game_started");
    if expected == 2 {
        assert_eq!(kinds[1], "your_turn");
    }
    assert!(received.iter().all(|r| r.json()["game"]["id"] == id));
    receiver.stop().await;
    b.finish().await;
    a.finish().await;
}

#[actix_web::test]
async fn deadline_soon_is_sent_once_to_the_seats_the_game_waits_for() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.live.allow_private = true;
        c.live.deadline_soon = Duration::from_secs(120);
    })
    .await;
    let receiver = Receiver::start(0);
    let tokens = s.players(&["ada", "bea"]).await;
    let (_, secret) = register(&s, &tokens[1], &receiver.url, json!(["deadline_soon"])).await;
    // A game with a deadline a minute away (within the two minutes' warning).
    let id = s
        .game("space-builder", json!({"deadline_minutes": 1}), &tokens)
        .await;
    let game = s.get("/v1/me/games", Some(&tokens[1])).await;
    let deadline = game.body["games"][0]["deadline"].clone();
    assert!(deadline.is_string(), "{}", game.body);
    let received = receiver.accepted(1, WAIT).await;
    let body = received[0].json();
    assert_eq!(body["kind"], "deadline_soon");
    assert_eq!(body["game"]["id"], id);
    assert_eq!(body["seat"], 1);
    assert_eq!(body["deadline"], deadline);
    verify(&received[0], &secret);
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(receiver.received().len(), 1, "once per deadline");
    receiver.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn webhooks_are_the_accounts_own_and_bad_urls_are_refused() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let post = |token: &str, body: Value| {
        let token = token.to_string();
        let s = &s;
        async move { s.post("/v1/me/webhooks", Some(&token), &body).await }
    };
    for (url, kinds, status, code) in [
        (
            "ftp://example.com/x",
            json!(["your_turn"]),
            400,
            "invalid_webhook",
        ),
        (
            "https://user:pw@example.com/",
            json!(["your_turn"]),
            400,
            "invalid_webhook",
        ),
        ("not a url", json!(["your_turn"]), 400, "invalid_webhook"),
        ("https://example.com/", json!([]), 400, "invalid_webhook"),
        // As shipped, the operator's own network is off limits.
        (
            "http://127.0.0.1:9/x",
            json!(["your_turn"]),
            422,
            "webhook_url_not_allowed",
        ),
        (
            "http://169.254.169.254/",
            json!(["your_turn"]),
            422,
            "webhook_url_not_allowed",
        ),
        (
            "http://localhost/",
            json!(["your_turn"]),
            422,
            "webhook_url_not_allowed",
        ),
    ] {
        let r = post(&tokens[0], json!({"url": url, "kinds": kinds})).await;
        assert_eq!((r.status, r.code()), (status, code), "{url}: {}", r.body);
    }
    let r = post(
        &tokens[0],
        json!({"url": "https://example.com/", "kinds": ["your_move"]}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = s
        .post(
            "/v1/me/webhooks",
            None,
            &json!({"url": "https://example.com/", "kinds": ["your_turn"]}),
        )
        .await;
    assert_eq!(r.status, 401);

    let r = post(
        &tokens[0],
        json!({"url": "https://hooks.example.com/ada", "kinds": ["your_turn", "your_turn", "game_finished"]}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert!(r.body["secret"].as_str().unwrap().starts_with("whsec_"));
    assert_eq!(r.body["kinds"], json!(["your_turn", "game_finished"]));
    let id = r.body["id"].as_i64().unwrap();
    let mine = s.get("/v1/me/webhooks", Some(&tokens[0])).await;
    assert_eq!(mine.body["webhooks"].as_array().unwrap().len(), 1);
    let theirs = s.get("/v1/me/webhooks", Some(&tokens[1])).await;
    assert_eq!(theirs.body["webhooks"], json!([]));
    let path = format!("/v1/me/webhooks/{id}");
    let r = s
        .send(s.request("DELETE", &path, Some(&tokens[1])), None)
        .await;
    assert_eq!((r.status, r.code()), (404, "webhook_not_found"));
    let r = s
        .send(s.request("DELETE", &path, Some(&tokens[0])), None)
        .await;
    assert_eq!(r.status, 204);
    let r = s
        .send(s.request("DELETE", &path, Some(&tokens[0])), None)
        .await;
    assert_eq!((r.status, r.code()), (404, "webhook_not_found"));
    for i in 0..10 {
        let r = post(
            &tokens[0],
            json!({"url": format!("https://example.com/{i}"), "kinds": ["your_turn"]}),
        )
        .await;
        assert_eq!(r.status, 201);
    }
    let r = post(
        &tokens[0],
        json!({"url": "https://example.com/11", "kinds": ["your_turn"]}),
    )
    .await;
    assert_eq!((r.status, r.code()), (409, "too_many_webhooks"));
    s.finish().await;
}
