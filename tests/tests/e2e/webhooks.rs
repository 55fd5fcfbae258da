//! Webhooks (issue 11): registered per account, queued in the append's transaction, signed,
//! retried with backoff, delivered at least once even when the process that committed dies.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baumeister_api::config::Config;
use baumeister_api::live::resolve::{Lookup, Resolve, Resolver};
use baumeister_api::live::sign;
use baumeister_api::live::worker::PER_ACCOUNT;
use baumeister_tests::receiver::{Answer, Received, Receiver};
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Reply, TestServer};

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
    let r = s.add_webhook(token, url, kinds).await;
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
    let r = s
        .pass_turn_to_seat_1(id, &tokens, game.body["to_act"].clone())
        .await;
    expected += 1;
    let received = receiver.accepted(expected, WAIT).await;
    let turn = received[expected - 1].json();
    assert_eq!(turn["kind"], "your_turn");
    assert_eq!(turn["game"]["version"], r["version"]);
    assert_eq!(turn["game"]["to_act"], json!([1]));
    verify(&received[expected - 1], &secret);
    assert_ne!(turn["id"], first["id"], "one id per delivery");
    // Nobody registered for ada: she gets nothing, and bea got exactly two.
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.received().len(), expected);
    receiver.stop().await;
    s.finish().await;
}

/// A webhook registered while the game runs is told of it from then on: the append queues
/// deliveries only for games whose row says that a seat's account may listen
/// (`migrations/V21__append_without_checks_and_lookups.sql`), and the registration says so.
#[actix_web::test]
async fn a_webhook_registered_while_the_game_runs_hears_of_it_from_then_on() {
    let s = server(true).await;
    let receiver = Receiver::start(0);
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    register(&s, &tokens[1], &receiver.url, json!(["your_turn"])).await;
    // Play until the turn passes from ada to bea.
    let to_act = s.get(&format!("/v1/games/{id}"), None).await.body["to_act"].clone();
    let r = s.pass_turn_to_seat_1(id, &tokens, to_act).await;
    let received = receiver.accepted(1, WAIT).await;
    let turn = received[0].json();
    assert_eq!(turn["kind"], "your_turn");
    assert_eq!(turn["game"]["id"], id);
    assert_eq!(turn["game"]["version"], r["version"]);
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
    assert_eq!(list.body["webhooks"][0]["last_error"], "status 500");
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

/// Every form of a loopback, private or special address the system's resolver would accept,
/// and every name for this machine.
const LOCAL_URLS: [&str; 22] = [
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://0/",
    "http://localhost./",
    "http://LOCALHOST/",
    "http://foo.localhost./",
    "http://169.254.43518/",
    "http://192.0.0.170/",
    "http://198.18.0.1/",
    "http://[::]/",
    "http://[::127.0.0.1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:0:127.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[64:ff9b:1::a00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[2001::1]/",
    "http://[fec0::1]/",
    "http://[100::1]/",
];

/// A server where ada and bea have accounts; the server and their tokens.
async fn ada_and_bea() -> (TestServer, Vec<String>) {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    (s, tokens)
}

/// Asks to register the webhook `body` describes for `token`; the reply, unchecked.
async fn post_webhook(s: &TestServer, token: &str, body: Value) -> Reply {
    s.post("/v1/me/webhooks", Some(token), &body).await
}

#[actix_web::test]
async fn bad_urls_and_kinds_are_refused_and_nothing_refused_is_stored() {
    let (s, tokens) = ada_and_bea().await;
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
        // A host that ends in a number is an IPv4 address or nothing.
        (
            "http://1.2.3.999/",
            json!(["your_turn"]),
            400,
            "invalid_webhook",
        ),
        (
            "http://%31%32%37.0.0.1/",
            json!(["your_turn"]),
            400,
            "invalid_webhook",
        ),
    ] {
        let r = post_webhook(&s, &tokens[0], json!({"url": url, "kinds": kinds})).await;
        assert_eq!((r.status, r.code()), (status, code), "{url}: {}", r.body);
    }
    for url in LOCAL_URLS {
        let r = post_webhook(&s, &tokens[0], json!({"url": url, "kinds": ["your_turn"]})).await;
        assert_eq!(
            (r.status, r.code()),
            (422, "webhook_url_not_allowed"),
            "{url}: {}",
            r.body
        );
    }
    let mine = s.get("/v1/me/webhooks", Some(&tokens[0])).await;
    assert_eq!(
        mine.body["webhooks"],
        json!([]),
        "nothing refused is stored"
    );
    let r = post_webhook(
        &s,
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
    s.finish().await;
}

#[actix_web::test]
async fn webhooks_are_the_accounts_own_and_ten_are_the_most() {
    let (s, tokens) = ada_and_bea().await;
    let r = post_webhook(
        &s,
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
        let r = post_webhook(
            &s,
            &tokens[0],
            json!({"url": format!("https://example.com/{i}"), "kinds": ["your_turn"]}),
        )
        .await;
        assert_eq!(r.status, 201);
    }
    let r = post_webhook(
        &s,
        &tokens[0],
        json!({"url": "https://example.com/11", "kinds": ["your_turn"]}),
    )
    .await;
    assert_eq!((r.status, r.code()), (409, "too_many_webhooks"));
    s.finish().await;
}

/// A resolver for the tests: names to addresses, as told; other names do not resolve, and
/// `stalls.example` never answers. Counts its lookups.
#[derive(Debug, Default)]
struct Names {
    names: Mutex<HashMap<String, Vec<IpAddr>>>,
    /// What a name resolves to from its second lookup on (the rebinding test).
    then: Mutex<HashMap<String, Vec<IpAddr>>>,
    lookups: AtomicUsize,
}

impl Names {
    fn new(names: &[(&str, &str)]) -> Arc<Names> {
        let names = names
            .iter()
            .map(|(n, ip)| (n.to_string(), vec![ip.parse().unwrap()]))
            .collect();
        Arc::new(Names {
            names: Mutex::new(names),
            ..Default::default()
        })
    }

    /// From the next lookup on, `name` resolves to `ip` instead.
    fn rebind(&self, name: &str, ip: &str) {
        self.then
            .lock()
            .unwrap()
            .insert(name.into(), vec![ip.parse().unwrap()]);
    }

    fn lookups(&self) -> usize {
        self.lookups.load(Ordering::SeqCst)
    }
}

#[derive(Debug)]
struct Shared(Arc<Names>);

impl Resolve for Shared {
    fn lookup(&self, host: &str, port: u16) -> Lookup {
        let names = &self.0;
        names.lookups.fetch_add(1, Ordering::SeqCst);
        if host == "stalls.example" {
            return Box::pin(std::future::pending());
        }
        let found = names.names.lock().unwrap().get(host).cloned();
        // A rebinding name answers its first lookup as registered, and then as rebound.
        if let Some(rebound) = names.then.lock().unwrap().remove(host) {
            names.names.lock().unwrap().insert(host.into(), rebound);
        }
        Box::pin(async move {
            match found {
                Some(ips) => Ok(ips
                    .into_iter()
                    .map(|ip| SocketAddr::new(ip, port))
                    .collect()),
                None => Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such name",
                )),
            }
        })
    }
}

/// A server whose webhook hosts resolve through `names`.
async fn server_resolving(names: &Arc<Names>, adjust: impl FnOnce(&mut Config)) -> TestServer {
    let resolver = Resolver::new(Shared(names.clone()));
    TestServer::start_with(move |c| {
        c.limits.commands = None;
        c.live.resolver = resolver;
        c.live.retry_base = Duration::from_secs(600);
        adjust(c);
    })
    .await
}

/// The webhook's `last_error`, once an attempt failed (at most `WAIT`).
async fn last_error(s: &TestServer, token: &str, webhook: i64) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let list = s.get("/v1/me/webhooks", Some(token)).await;
        let hook = list.body["webhooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["id"] == webhook)
            .cloned()
            .expect("the webhook is listed");
        if let Some(error) = hook["last_error"].as_str() {
            return error.to_string();
        }
        assert!(Instant::now() < deadline, "no attempt failed: {hook}");
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The port of a receiver's URL.
fn port(url: &str) -> u16 {
    let authority = url.trim_start_matches("http://").split('/').next().unwrap();
    authority.rsplit(':').next().unwrap().parse().unwrap()
}

#[actix_web::test]
async fn a_name_that_rebinds_to_loopback_after_registration_reaches_nothing() {
    // Public when the URL is registered, 127.0.0.1 from then on: the attempt resolves once,
    // sees loopback, and connects nowhere.
    let receiver = Receiver::start(0);
    let names = Names::new(&[("rebind.example", "93.184.215.14")]);
    names.rebind("rebind.example", "127.0.0.1");
    let s = server_resolving(&names, |_| {}).await;
    let tokens = s.players(&["ada", "bea"]).await;
    let url = format!("http://rebind.example:{}/hook", port(&receiver.url));
    let (webhook, _) = register(&s, &tokens[1], &url, json!(["game_started"])).await;
    assert_eq!(names.lookups(), 1, "registration looked the name up");
    s.game("burgbaumeister", json!({}), &tokens).await;
    assert_eq!(
        last_error(&s, &tokens[1], webhook).await,
        "not_public_address"
    );
    assert_eq!(names.lookups(), 2, "one lookup per attempt");
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert!(receiver.received().is_empty(), "{:?}", receiver.received());
    receiver.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_delivery_connects_to_the_address_it_checked_and_names_the_host() {
    // The name exists only for the server's resolver: a delivery arrives only if the worker
    // connected to the address that resolver gave (nobody else can resolve it), once per attempt.
    let receiver = Receiver::start(0);
    let names = Names::new(&[("receiver.example", "127.0.0.1")]);
    let s = server_resolving(&names, |c| c.live.allow_private = true).await;
    let tokens = s.players(&["ada", "bea"]).await;
    let host = format!("receiver.example:{}", port(&receiver.url));
    let (_, secret) = register(
        &s,
        &tokens[1],
        &format!("http://{host}/hook"),
        json!(["game_started"]),
    )
    .await;
    s.game("burgbaumeister", json!({}), &tokens).await;
    let received = receiver.accepted(1, WAIT).await;
    assert_eq!(received[0].header("Host"), Some(host.as_str()));
    verify(&received[0], &secret);
    assert_eq!(names.lookups(), 1, "one lookup, for the one attempt");
    receiver.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn the_owner_learns_why_an_attempt_failed_but_not_what_the_network_said() {
    let unavailable = Receiver::answering(Answer::Status(503, None));
    let elsewhere = Receiver::start(0);
    let redirecting = Receiver::answering(Answer::Status(302, Some(elsewhere.url.clone())));
    let stalling = Receiver::answering(Answer::Stall);
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let names = Names::new(&[("receiver.example", "127.0.0.1")]);
    let s = server_resolving(&names, |c| {
        c.live.allow_private = true;
        c.live.timeout = Duration::from_secs(2);
    })
    .await;
    let tokens = s.players(&["ada", "bea"]).await;
    let mut expected = Vec::new();
    for (url, error) in [
        (unavailable.url.clone(), "status 503"),
        (redirecting.url.clone(), "status 302"),
        (format!("http://127.0.0.1:{closed}/hook"), "refused"),
        ("http://nowhere.example/hook".to_string(), "dns"),
        ("http://stalls.example/hook".to_string(), "timeout"),
        (stalling.url.clone(), "timeout"),
        (unavailable.url.replace("http://", "https://"), "tls"),
    ] {
        let (webhook, _) = register(&s, &tokens[1], &url, json!(["game_started"])).await;
        expected.push((webhook, url, error));
    }
    let started = Instant::now();
    s.game("burgbaumeister", json!({}), &tokens).await;
    for (webhook, url, error) in expected {
        assert_eq!(last_error(&s, &tokens[1], webhook).await, error, "{url}");
    }
    // The lookup that never answers and the receiver that never answers are both cut off by
    // the attempt's two seconds.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // The redirect was not followed.
    assert_eq!(redirecting.received().len(), 1);
    assert!(elsewhere.received().is_empty());
    for r in [unavailable, elsewhere, redirecting, stalling] {
        r.stop().await;
    }
    s.finish().await;
}

#[actix_web::test]
async fn accounts_with_stalling_receivers_do_not_hold_up_anyone_elses_deliveries() {
    // Attempts to the stalling receiver last until their 20 s timeout: far longer than the
    // honest account may wait.
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.live.allow_private = true;
        c.live.timeout = Duration::from_secs(20);
        c.live.retry_base = Duration::from_millis(100);
    })
    .await;
    let stalling = Receiver::answering(Answer::Stall);
    let honest = Receiver::start(0);
    let tokens = s.players(&["mallory", "trudy", "partner", "ada"]).await;
    for attacker in &tokens[..2] {
        for i in 0..10 {
            let url = format!("{}/{i}", stalling.url);
            register(&s, attacker, &url, json!(["game_started"])).await;
        }
    }
    register(&s, &tokens[3], &honest.url, json!(["game_started"])).await;
    for attacker in &tokens[..2] {
        let seats = [attacker.clone(), tokens[2].clone()];
        s.game("burgbaumeister", json!({}), &seats).await;
    }
    // Twenty deliveries are due; each attacker gets its share of attempts, and they stall.
    let deadline = Instant::now() + WAIT;
    while stalling.received().len() < 2 * PER_ACCOUNT {
        assert!(Instant::now() < deadline, "{:?}", stalling.received());
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    let started = Instant::now();
    s.game(
        "burgbaumeister",
        json!({}),
        &[tokens[3].clone(), tokens[2].clone()],
    )
    .await;
    honest.accepted(1, Duration::from_secs(3)).await;
    let waited = started.elapsed();
    eprintln!("the honest delivery arrived after {waited:?}");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    // And the attackers still hold no more than their share of the worker's slots.
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(stalling.received().len(), 2 * PER_ACCOUNT);
    stalling.stop().await;
    honest.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn thirty_concurrent_registrations_store_ten_webhooks() {
    let s = TestServer::start().await;
    let token = s.player("ada").await;
    let sent: Vec<_> = (0..30)
        .map(|i| {
            let request = s
                .request("POST", "/v1/me/webhooks", Some(&token))
                .insert_header(("Content-Type", "application/json"));
            let body = json!({"url": format!("https://93.184.215.14/{i}"), "kinds": ["your_turn"]});
            actix_web::rt::spawn(async move {
                let mut response = request.send_json(&body).await.expect("an answer");
                let body: Value = response.json().await.expect("a JSON body");
                (response.status().as_u16(), body)
            })
        })
        .collect();
    let mut created = 0;
    for reply in sent {
        let (status, body) = reply.await.unwrap();
        match status {
            201 => created += 1,
            _ => assert_eq!(
                (status, body["code"].as_str()),
                (409, Some("too_many_webhooks")),
                "{body}"
            ),
        }
    }
    assert_eq!(created, 10);
    let stored: i64 = s
        .db()
        .await
        .query_one("SELECT count(*) FROM webhooks", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, 10);
    let list = s.get("/v1/me/webhooks", Some(&token)).await;
    assert_eq!(list.body["webhooks"].as_array().unwrap().len(), 10);
    s.finish().await;
}
