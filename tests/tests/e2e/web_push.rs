//! Notices by Web Push (issue 22): subscriptions per account, pushes queued in the command's
//! own statement, encrypted to the device (RFC 8291) and signed with the server's VAPID key
//! (RFC 8292); a local push service that the device's keys decrypt every delivery from,
//! retries, subscriptions dropped when the push service says they are gone, and a process
//! that dies between the commit and the send.

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use baumeister_tests::push::Device;
use baumeister_tests::receiver::{Answer, Received, Receiver};
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::TestServer;

const WAIT: Duration = Duration::from_secs(20);

/// A server that pushes to loopback (the tests' push service) and retries after 100 ms, 200
/// ms, …; webhooks off.
async fn server(deliver: bool) -> TestServer {
    TestServer::start_with(move |c| {
        c.limits.commands = None;
        c.live.allow_private = true;
        c.live.deliver = false;
        c.notices.retry_base = Duration::from_millis(100);
        c.notices.deliver = deliver;
    })
    .await
}

async fn subscribe(s: &TestServer, token: &str, device: &Device, endpoint: &str) -> i64 {
    let r = s
        .post(
            "/v1/me/push-subscriptions",
            Some(token),
            &device.subscription(endpoint),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["endpoint"], endpoint);
    r.body["id"].as_i64().unwrap()
}

/// Checks a delivery's headers and VAPID token, and returns what it says, decrypted.
fn open(s: &TestServer, device: &Device, received: &Received, public_key: &str) -> Value {
    assert_eq!(received.header("Content-Encoding"), Some("aes128gcm"));
    assert_eq!(received.header("TTL"), Some("86400"));
    let authorization = received.header("Authorization").expect("a VAPID token");
    let (token, key) = authorization
        .strip_prefix("vapid t=")
        .unwrap()
        .split_once(", k=")
        .unwrap();
    assert_eq!(key, public_key);
    let point = URL_SAFE_NO_PAD.decode(key).unwrap();
    let decoding = jsonwebtoken::DecodingKey::from_ec_components(
        &URL_SAFE_NO_PAD.encode(&point[1..33]),
        &URL_SAFE_NO_PAD.encode(&point[33..]),
    )
    .unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    let origin = received_origin(s, received);
    validation.set_audience(&[origin.as_str()]);
    let claims = jsonwebtoken::decode::<Value>(token, &decoding, &validation)
        .expect("a valid VAPID token for the push service's origin")
        .claims;
    assert!(claims["sub"].as_str().unwrap().starts_with("mailto:"));
    serde_json::from_slice(&device.decrypt(&received.body)).expect("a JSON message")
}

/// The push service's origin, as the request's `Host` names it.
fn received_origin(_: &TestServer, received: &Received) -> String {
    format!("http://{}", received.header("Host").unwrap())
}

async fn public_key(s: &TestServer) -> String {
    let r = s.get("/v1/push/key", None).await;
    assert_eq!(r.status, 200);
    r.body["public_key"].as_str().unwrap().to_string()
}

#[actix_web::test]
async fn pushes_decrypt_with_the_devices_keys_and_open_the_game() {
    let s = server(true).await;
    let service = Receiver::start(0);
    let key = public_key(&s).await;
    assert_eq!(URL_SAFE_NO_PAD.decode(&key).unwrap().len(), 65);
    let tokens = s.players(&["ada", "bea"]).await;
    let device = Device::new();
    subscribe(&s, &tokens[1], &device, &service.url).await;
    let r = s
        .send(
            s.request("PUT", "/v1/me/notices", Some(&tokens[1]))
                .insert_header(("Content-Type", "application/json")),
            Some(br#"{"language": "de"}"#.to_vec()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["push_subscriptions"], 1);
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let expected = if game.body["to_act"] == json!([1]) {
        2
    } else {
        1
    };
    let received = service.accepted(expected, WAIT).await;
    let messages: Vec<Value> = received
        .iter()
        .map(|r| open(&s, &device, r, &key))
        .collect();
    let started = messages
        .iter()
        .find(|m| m["kind"] == "game_started")
        .expect("game_started pushed");
    assert_eq!(started["url"], format!("{}/#/game/{id}", s.base));
    assert_eq!(started["tag"], format!("game-{id}"));
    assert_eq!(started["title"], format!("Partie #{id} hat begonnen"));
    assert!(started["body"].as_str().unwrap().contains("burgbaumeister"));
    assert_eq!(
        received[0].header("Topic"),
        Some(format!("game-{id}").as_str())
    );
    // Another device of somebody else, and a device that is not subscribed, get nothing.
    let other = Device::new();
    for r in &received {
        assert!(
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| other.decrypt(&r.body)))
                .is_err()
        );
    }
    let list = s.get("/v1/me/push-subscriptions", Some(&tokens[1])).await;
    assert_eq!(list.body["subscriptions"].as_array().unwrap().len(), 1);
    assert_eq!(
        s.get("/v1/me/push-subscriptions", Some(&tokens[0]))
            .await
            .body["subscriptions"],
        json!([])
    );
    service.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_push_service_that_fails_twice_gets_the_third_try() {
    let s = server(true).await;
    let service = Receiver::start(2);
    let key = public_key(&s).await;
    let tokens = s.players(&["ada", "bea"]).await;
    let device = Device::new();
    let r = s
        .send(
            s.request("PUT", "/v1/me/notices", Some(&tokens[1]))
                .insert_header(("Content-Type", "application/json")),
            Some(br#"{"push_kinds": ["game_started"]}"#.to_vec()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    subscribe(&s, &tokens[1], &device, &service.url).await;
    s.game("burgbaumeister", json!({}), &tokens).await;
    let received = service.accepted(1, WAIT).await;
    assert_eq!(
        received.iter().map(|r| r.accepted).collect::<Vec<_>>(),
        [false, false, true]
    );
    let messages: Vec<Value> = received
        .iter()
        .map(|r| open(&s, &device, r, &key))
        .collect();
    assert!(
        messages.iter().all(|m| *m == messages[0]),
        "the same notice each time"
    );
    assert_ne!(
        received[0].body, received[2].body,
        "encrypted afresh each time"
    );
    // The worker records the success just after the push service answered.
    let db = s.db().await;
    let mut row = (0, false);
    for _ in 0..100 {
        let r = db
            .query_one(
                "SELECT attempts, delivered_at IS NOT NULL FROM notice_deliveries WHERE channel = 'push'",
                &[],
            )
            .await
            .unwrap();
        row = (r.get::<_, i32>(0), r.get::<_, bool>(1));
        if row.1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(row, (3, true));
    service.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_subscription_the_push_service_says_is_gone_is_dropped() {
    let s = server(true).await;
    let service = Receiver::answering(Answer::Status(410, None));
    let tokens = s.players(&["ada", "bea"]).await;
    let device = Device::new();
    subscribe(&s, &tokens[1], &device, &service.url).await;
    s.game("burgbaumeister", json!({}), &tokens).await;
    let mut list = Value::Null;
    for _ in 0..200 {
        list = s
            .get("/v1/me/push-subscriptions", Some(&tokens[1]))
            .await
            .body;
        if list["subscriptions"] == json!([]) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(list["subscriptions"], json!([]));
    assert!(!service.received().is_empty());
    service.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_process_that_dies_between_the_commit_and_the_send_loses_no_push() {
    let a = server(false).await;
    let service = Receiver::start(0);
    let key = public_key(&a).await;
    let tokens = a.players(&["ada", "bea"]).await;
    let device = Device::new();
    subscribe(&a, &tokens[1], &device, &service.url).await;
    let id = a.game("burgbaumeister", json!({}), &tokens).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        service.received().is_empty(),
        "nothing sent by the dead process"
    );
    a.stop().await;
    let vapid = a.config.notices.vapid.clone();
    let b = a
        .another(move |c| {
            c.live.allow_private = true;
            c.live.deliver = false;
            c.notices.vapid = vapid;
        })
        .await;
    let received = service.accepted(1, WAIT).await;
    let message = open(&b, &device, &received[0], &key);
    assert_eq!(message["url"], format!("{}/#/game/{id}", b.base));
    service.stop().await;
    b.finish().await;
}

#[actix_web::test]
async fn bad_subscriptions_are_refused_and_change_nothing() {
    let s = server(false).await;
    let token = s.player("ada").await;
    let device = Device::new();
    let good = device.subscription("https://push.example.net/send/abc");
    let mut short_auth = good.clone();
    short_auth["keys"]["auth"] = json!("AAAA");
    let mut bad_point = good.clone();
    bad_point["keys"]["p256dh"] = json!(URL_SAFE_NO_PAD.encode([4u8; 65]));
    let mut not_base64 = good.clone();
    not_base64["keys"]["p256dh"] = json!("!!!");
    for (body, code) in [
        (short_auth, "invalid_push_subscription"),
        (bad_point, "invalid_push_subscription"),
        (not_base64, "invalid_push_subscription"),
        (
            json!({"endpoint": "not a url", "keys": good["keys"].clone()}),
            "invalid_push_subscription",
        ),
        (
            json!({"endpoint": "ftp://push.example.net/x", "keys": good["keys"].clone()}),
            "invalid_push_subscription",
        ),
        (json!({"endpoint": "https://push.example.net/x"}), ""),
        (json!({"endpoint": 7, "keys": good["keys"].clone()}), ""),
    ] {
        let r = s
            .post("/v1/me/push-subscriptions", Some(&token), &body)
            .await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        if !code.is_empty() {
            assert_eq!(r.code(), code, "{body}");
        }
    }
    let r = s.post("/v1/me/push-subscriptions", None, &good).await;
    assert_eq!(r.status, 401);
    let r = s
        .send(
            s.request("DELETE", "/v1/me/push-subscriptions/99", Some(&token)),
            None,
        )
        .await;
    assert_eq!((r.status, r.code()), (404, "push_subscription_not_found"));
    let r = s
        .send(
            s.request("DELETE", "/v1/me/push-subscriptions/x", Some(&token)),
            None,
        )
        .await;
    assert_eq!((r.status, r.code()), (404, "push_subscription_not_found"));
    assert_eq!(
        s.get("/v1/me/push-subscriptions", Some(&token)).await.body["subscriptions"],
        json!([])
    );
    s.finish().await;
}

#[actix_web::test]
async fn an_invitation_is_pushed_in_the_invitations_own_transaction() {
    let s = server(true).await;
    let service = Receiver::start(0);
    let key = public_key(&s).await;
    let tokens = s.players(&["ada", "bea"]).await;
    let device = Device::new();
    subscribe(&s, &tokens[1], &device, &service.url).await;
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/v1/games/{id}/invitations"),
            Some(&tokens[0]),
            &json!({"player": "bea"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let received = service.accepted(1, WAIT).await;
    let message = open(&s, &device, &received[0], &key);
    assert_eq!(message["kind"], "invitation");
    assert_eq!(message["title"], "ada invites you to a game");
    assert_eq!(message["url"], format!("{}/#/game/{id}", s.base));
    // Ada, who invited, is told nothing.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(service.received().len(), 1);
    service.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_slow_push_service_gets_one_your_turn_per_game_and_window_on_each_device() {
    let s = server(true).await;
    // Every push takes the push service 3 s: the turn comes back meanwhile.
    let service = Receiver::answering(Answer::Late(Duration::from_secs(3)));
    let key = public_key(&s).await;
    let tokens = s.players(&["ada", "bea"]).await;
    let r = s
        .send(
            s.request("PUT", "/v1/me/notices", Some(&tokens[1]))
                .insert_header(("Content-Type", "application/json")),
            Some(br#"{"push_kinds": ["your_turn"]}"#.to_vec()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let phone = Device::new();
    let laptop = Device::new();
    subscribe(&s, &tokens[1], &phone, &format!("{}/phone", service.url)).await;
    subscribe(&s, &tokens[1], &laptop, &format!("{}/laptop", service.url)).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let mut to_act = s.get(&format!("/v1/games/{id}"), None).await.body["to_act"].clone();
    for _ in 0..3 {
        to_act = s.pass_turn_to_seat_1(id, &tokens, to_act).await["to_act"].clone();
        // Long enough for the worker to take the new `your_turn` while bea is to act.
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    s.notices_settled("push").await;
    let received = service.received();
    for (path, device) in [("/hook/phone", &phone), ("/hook/laptop", &laptop)] {
        let pushed: Vec<Value> = received
            .iter()
            .filter(|r| r.path == path)
            .map(|r| open(&s, device, r, &key))
            .collect();
        assert_eq!(pushed.len(), 1, "one push to {path}: {pushed:#?}");
        assert_eq!(pushed[0]["kind"], "your_turn");
        assert_eq!(pushed[0]["url"], format!("{}/#/game/{id}", s.base));
    }
    let skipped = s.skipped_your_turn_notices().await;
    assert!(
        skipped >= 4,
        "the later turns' pushes are left out: {skipped}"
    );
    service.stop().await;
    s.finish().await;
}
