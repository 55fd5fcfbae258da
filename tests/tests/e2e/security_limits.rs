//! Abuse limits: floods of logins, registrations, commands and expensive reads get 429 with
//! `Retry-After`; a caller without a seat is refused without waiting for a game's lock; the
//! Idempotency-Key follows the spec's pattern.

use std::time::Duration;

use baumeister_api::config::Limits;
use baumeister_api::limits::Rate;
use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::json;
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{Reply, TestServer};

fn assert_rate_limited(r: &Reply) {
    assert_refused(r, 429, "rate_limited");
    assert_eq!(r.header("content-type"), Some("application/problem+json"));
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "Retry-After: {wait}");
}

/// The limit's burst went through, plus at most what refilled meanwhile.
fn assert_burst(through: usize, rate: Option<Rate>) {
    let burst = rate.expect("a default limit").burst as usize;
    assert!(
        (burst..=burst + burst / 2).contains(&through),
        "{through} let through for a burst of {burst}"
    );
}

/// Sends `attempt` until it is refused; returns how many were let through and the refusal.
async fn until_refused<F, Fut>(most: usize, mut attempt: F) -> (usize, Reply)
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = Reply>,
{
    for i in 0..most {
        let r = attempt(i).await;
        if r.status == 429 {
            return (i, r);
        }
    }
    panic!("{most} attempts and no 429");
}

#[actix_web::test]
async fn a_flood_of_wrong_passwords_for_one_name_gets_429() {
    let s = TestServer::start_as_shipped().await;
    s.player("anna").await;
    let defaults = Limits::default();
    let (through, refused) = until_refused(50, |_| s.login("anna", "guess-guess")).await;
    assert_rate_limited(&refused);
    // Registering and the first login took two of the name's attempts.
    assert_burst(through + 2, defaults.name_attempts);
    let r = s.login("anna", "password-of-anna").await;
    assert_eq!(r.status, 429, "the right password waits too");
    s.finish().await;
}

#[actix_web::test]
async fn a_flood_of_logins_over_many_names_from_one_address_gets_429() {
    let s = TestServer::start_as_shipped().await;
    let (through, refused) =
        until_refused(100, |i| s.login(&format!("name{i}"), "guess-guess")).await;
    assert_rate_limited(&refused);
    assert_burst(through, Limits::default().logins);
    s.finish().await;
}

#[actix_web::test]
async fn a_flood_of_registrations_from_one_address_gets_429() {
    let s = TestServer::start_as_shipped().await;
    let (through, refused) = until_refused(100, |i| {
        s.register(&format!("player{i}x"), "a fine password")
    })
    .await;
    assert_rate_limited(&refused);
    assert_eq!(
        through,
        Limits::default().registrations.unwrap().burst as usize
    );
    s.finish().await;
}

#[actix_web::test]
async fn an_account_flooding_commands_gets_429() {
    let s = TestServer::start_as_shipped().await;
    let anna = s.player("anna").await;
    let bob = s.player("bob").await;
    // Creating games is cheap for the server and counts like any command.
    let (through, refused) = until_refused(500, |_| {
        s.post(
            "/v1/games",
            Some(&anna),
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
    })
    .await;
    assert_rate_limited(&refused);
    assert_burst(through, Limits::default().commands);
    let r = s
        .post(
            "/v1/games",
            Some(&bob),
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
        .await;
    assert_eq!(r.status, 201, "other accounts are not held back");
    s.finish().await;
}

#[actix_web::test]
async fn a_flood_of_replays_and_audits_from_one_address_gets_429() {
    let s = TestServer::start_as_shipped().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let (through, refused) = until_refused(500, |i| {
        if i % 2 == 0 {
            s.get(&format!("/v1/games/{id}/replay?at=1"), None)
        } else {
            s.get(&format!("/v1/games/{id}/audit"), None)
        }
    })
    .await;
    assert_rate_limited(&refused);
    assert_burst(through, Limits::default().expensive_reads);
    s.finish().await;
}

#[actix_web::test]
async fn a_caller_without_a_seat_is_refused_without_waiting_for_the_games_lock() {
    let s = TestServer::start_as_shipped().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let outsider = s.player("carla").await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let mut db = s.db().await;
    let lock = db.transaction().await.unwrap();
    lock.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&id])
        .await
        .unwrap();
    let r = tokio::time::timeout(
        Duration::from_secs(5),
        s.post(
            &format!("/v1/games/{id}/commands"),
            Some(&outsider),
            &json!({"command": {"type": "Pass"}}),
        ),
    )
    .await
    .expect("answered while a player holds the game's lock");
    assert_refused(&r, 403, "not_seated");
    lock.rollback().await.unwrap();
    s.finish().await;
}

#[actix_web::test]
async fn an_idempotency_key_is_visible_ascii_without_spaces() {
    let s = TestServer::start_as_shipped().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    for key in ["two words", "tab\there", &"x".repeat(201)] {
        let request = s
            .request(
                "POST",
                &format!("/v1/games/{id}/commands"),
                Some(&tokens[0]),
            )
            .insert_header(("Content-Type", "application/json"))
            .insert_header(("Idempotency-Key", key));
        let body = json!({"command": {"type": "Pass"}})
            .to_string()
            .into_bytes();
        let r = s.send(request, Some(body)).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "invalid_idempotency_key"),
            "{key:?}"
        );
    }
    s.finish().await;
}

#[actix_web::test]
async fn twelve_wrong_passwords_in_a_row_cost_at_most_the_names_burst_of_hashes() {
    let s = TestServer::start_as_shipped().await;
    s.player("anna").await;
    let burst = Limits::default().name_attempts.unwrap().burst as usize;
    let mut refused = 0;
    let mut wrong = 0;
    for _ in 0..12 {
        let r = s.login("anna", "guess-guess").await;
        match r.status {
            401 => {
                assert_eq!(refused, 0, "once refused, every attempt is refused");
                wrong += 1;
            }
            429 => {
                assert_rate_limited(&r);
                refused += 1;
            }
            other => panic!("{other}: {}", r.body),
        }
    }
    // Registering and the first login took two of the name's attempts; a refused attempt
    // costs no hash, so the twelve cost at most what is left of the burst.
    assert!(wrong <= burst - 2, "{wrong} wrong passwords were checked");
    assert_eq!(refused, 12 - wrong);
    s.finish().await;
}

/// A JSON document of `size` bytes: `{"name": "xxx…"}`.
fn json_of(size: usize) -> Vec<u8> {
    let mut body = br#"{"name": ""#.to_vec();
    body.extend(std::iter::repeat_n(b'x', size - body.len() - 2));
    body.extend(br#""}"#);
    assert_eq!(body.len(), size);
    body
}

fn assert_too_large(r: &Reply, what: &str) {
    assert_eq!(
        (r.status, r.code()),
        (413, "payload_too_large"),
        "{what}: {}",
        r.body
    );
    assert_eq!(
        r.header("content-type"),
        Some("application/problem+json"),
        "{what}"
    );
}

#[actix_web::test]
async fn every_body_over_its_limit_gets_413_as_the_spec_says() {
    let s = TestServer::start().await;
    let token = s.player("anna").await;
    let id = s.open_game(&token, "burgbaumeister", 2).await;
    let limit = baumeister_api::BODY_LIMIT;
    let routes = [
        ("POST", "/v1/accounts".to_string()),
        ("POST", "/v1/tokens".to_string()),
        ("PUT", "/v1/me/vacation".to_string()),
        ("POST", "/v1/games".to_string()),
        ("POST", format!("/v1/games/{id}/join")),
        ("POST", format!("/v1/games/{id}/commands")),
        ("POST", "/v1/me/webhooks".to_string()),
    ];
    for (method, path) in &routes {
        let what = format!("{method} {path}");
        let r = s
            .send(
                s.request(method, path, Some(&token))
                    .insert_header(("Content-Type", "application/json")),
                Some(json_of(limit + 1)),
            )
            .await;
        assert_too_large(&r, &what);
        assert!(
            r.body["detail"].as_str().unwrap().contains("64 KiB"),
            "{}",
            r.body
        );
        let (status, ct) = send_json(&s, method, path, &token, limit + 1, true).await;
        assert_eq!(
            (status, ct.as_deref()),
            (413, Some("application/problem+json")),
            "{what}, chunked"
        );
        // At the limit, the size is not what is refused.
        let (status, _) = send_json(&s, method, path, &token, limit, false).await;
        assert_ne!(status, 413, "{what} at the limit");
    }
    // Only an auditor's import is read at all (see tests/tests/e2e/inflation_bombs.rs).
    let auditor = s.auditor("ines").await;
    let import = baumeister_api::IMPORT_BODY_LIMIT;
    let r = s
        .send(
            s.request("POST", "/v1/games/import", Some(&auditor))
                .insert_header(("Content-Type", "application/json")),
            Some(json_of(import + 1)),
        )
        .await;
    assert_too_large(&r, "import");
    assert!(
        r.body["detail"].as_str().unwrap().contains("32 MiB"),
        "{}",
        r.body
    );
    let r = s
        .send(
            s.request("POST", "/v1/games/import", Some(&auditor))
                .insert_header(("Content-Type", "application/json")),
            Some(json_of(limit + 1)),
        )
        .await;
    assert_ne!(r.status, 413, "an import may be larger than other bodies");
    s.finish().await;
}

/// Sends a JSON body of `size` bytes, with its length or `chunked` without; status and type.
async fn send_json(
    s: &TestServer,
    method: &str,
    path: &str,
    token: &str,
    size: usize,
    chunked: bool,
) -> (u16, Option<String>) {
    let request = s
        .request(method, path, Some(token))
        .insert_header(("Content-Type", "application/json"));
    if chunked {
        let response = request
            .send_stream(futures_stream(json_of(size)))
            .await
            .expect("answered");
        let ct = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        (response.status().as_u16(), ct)
    } else {
        let r = s.send(request, Some(json_of(size))).await;
        (r.status, r.header("content-type").map(String::from))
    }
}

/// A body sent in chunks, without a Content-Length.
fn futures_stream(
    body: Vec<u8>,
) -> impl futures_core::Stream<Item = Result<actix_web::web::Bytes, actix_web::Error>> {
    struct Chunks(Vec<u8>);
    impl futures_core::Stream for Chunks {
        type Item = Result<actix_web::web::Bytes, actix_web::Error>;
        fn poll_next(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Self::Item>> {
            let n = self.0.len().min(8192);
            std::task::Poll::Ready(if n == 0 {
                None
            } else {
                Some(Ok(self.0.drain(..n).collect::<Vec<u8>>().into()))
            })
        }
    }
    Chunks(body)
}

#[actix_web::test]
async fn page_sizes_beyond_their_maximum_are_refused_and_the_default_is_as_the_spec_says() {
    let (s, tokens, id) = ada_and_bea_playing("burgbaumeister", json!({})).await;
    for _ in 0..20 {
        let r = s
            .post(
                "/v1/games",
                Some(&tokens[0]),
                &json!({"kind": "burgbaumeister", "seats": 2}),
            )
            .await;
        assert_eq!(r.status, 201);
    }
    for (path, max) in [
        ("/v1/games?".to_string(), 100),
        ("/v1/me/games?".to_string(), 100),
        (format!("/v1/games/{id}/events?"), 1000),
    ] {
        for limit in [0, max + 1, i64::MAX] {
            let r = s
                .get(&format!("{path}limit={limit}"), Some(&tokens[0]))
                .await;
            assert_eq!(
                (r.status, r.code()),
                (400, "invalid_query"),
                "{path}limit={limit}"
            );
        }
        let r = s.get(&format!("{path}limit={max}"), Some(&tokens[0])).await;
        assert_eq!(r.status, 200, "{path}limit={max}: {}", r.body);
    }
    // 21 games: the default page holds 20.
    for path in ["/v1/games", "/v1/me/games"] {
        let r = s.get(path, Some(&tokens[0])).await;
        assert_eq!(r.body["games"].as_array().unwrap().len(), 20, "{path}");
        assert_eq!(r.body["next_offset"], 20, "{path}");
    }
    s.finish().await;
}

#[actix_web::test]
async fn an_offset_beyond_every_row_is_an_empty_last_page() {
    let (s, tokens, _) = ada_and_bea_playing("burgbaumeister", json!({})).await;
    let far = i64::MAX - 1;
    for (path, list) in [
        ("/v1/games", "games"),
        ("/v1/me/games", "games"),
        ("/v1/kinds/burgbaumeister/leaderboard", "players"),
    ] {
        let r = s
            .get(&format!("{path}?limit=20&offset={far}"), Some(&tokens[0]))
            .await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.body[list], json!([]), "{path}");
        assert!(r.body["next_offset"].is_null(), "{path}: {}", r.body);
    }
    s.finish().await;
}

/// `body` compressed as `Content-Encoding` `encoding` says.
fn compressed(encoding: &str, body: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let level = flate2::Compression::default();
    match encoding {
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
            e.write_all(body).unwrap();
            e.finish().unwrap()
        }
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
            e.write_all(body).unwrap();
            e.finish().unwrap()
        }
        other => panic!("{other}"),
    }
}

async fn send_encoded(
    s: &TestServer,
    path: &str,
    token: Option<&str>,
    encoding: &str,
    body: Vec<u8>,
) -> Reply {
    let request = s
        .request("POST", path, token)
        .insert_header(("Content-Type", "application/json"))
        .insert_header(("Content-Encoding", encoding));
    s.send(request, Some(body)).await
}

#[actix_web::test]
async fn compressed_bodies_are_read_and_nesting_is_bounded() {
    let s = TestServer::start().await;
    let account = json!({"name": "zoe", "password": "password-of-zoe"}).to_string();
    let r = send_encoded(
        &s,
        "/v1/accounts",
        None,
        "gzip",
        compressed("gzip", account.as_bytes()),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = send_encoded(
        &s,
        "/v1/tokens",
        None,
        "deflate",
        compressed("deflate", account.as_bytes()),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let token = r.body["token"].as_str().unwrap().to_string();

    let gzip = compressed("gzip", account.as_bytes());
    for (encoding, body, expected) in [
        ("br", gzip.clone(), (415, "unsupported_content_encoding")),
        (
            "gzip, gzip",
            gzip.clone(),
            (415, "unsupported_content_encoding"),
        ),
        (
            "gzip",
            gzip[..gzip.len() - 4].to_vec(),
            (400, "malformed_request"),
        ),
        (
            "gzip",
            account.clone().into_bytes(),
            (400, "malformed_request"),
        ),
    ] {
        let r = send_encoded(&s, "/v1/tokens", None, encoding, body).await;
        assert_eq!((r.status, r.code()), expected, "{encoding}: {}", r.body);
    }

    let tokens = [token, s.player("yan").await];
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let nested = |depth: usize| {
        let mut value = json!(1);
        for _ in 0..depth - 2 {
            value = json!([value]);
        }
        json!({"command": {"type": "Pass", "x": value}})
    };
    let path = format!("/v1/games/{id}/commands");
    let r = s.post(&path, Some(&tokens[0]), &nested(64)).await;
    assert_ne!(r.code(), "too_deeply_nested", "64 levels: {}", r.body);
    let r = s.post(&path, Some(&tokens[0]), &nested(65)).await;
    assert_refused(&r, 400, "too_deeply_nested");
    let deep = format!("{}{}", "[".repeat(30_000), "]".repeat(30_000));
    let r = s
        .send(
            s.request("POST", "/v1/accounts", None)
                .insert_header(("Content-Type", "application/json")),
            Some(deep.into_bytes()),
        )
        .await;
    assert_refused(&r, 400, "too_deeply_nested");
    s.finish().await;
}

#[actix_web::test]
async fn a_join_takes_no_body_an_empty_one_null_or_an_empty_object() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem", "dov", "eli"]).await;
    let id = s.open_game(&tokens[0], "burgbaumeister", 3).await;
    let path = format!("/v1/games/{id}/join");
    let r = s
        .send(s.request("POST", &path, Some(&tokens[1])), None)
        .await;
    assert_eq!(r.status, 200, "no body: {}", r.body);
    let r = s
        .send(s.request("POST", &path, Some(&tokens[2])), Some(Vec::new()))
        .await;
    assert_eq!(r.status, 200, "empty: {}", r.body);
    let id = s.open_game(&tokens[0], "burgbaumeister", 3).await;
    let path = format!("/v1/games/{id}/join");
    let r = s.post(&path, Some(&tokens[3]), &json!(null)).await;
    assert_eq!(r.status, 200, "null: {}", r.body);
    let r = s.post(&path, Some(&tokens[4]), &json!({})).await;
    assert_eq!(r.status, 200, "{{}}: {}", r.body);
    s.finish().await;
}

/// Opens a live stream of game `id` from `Last-Event-ID` `from`, and closes it at once.
async fn open_stream(s: &TestServer, id: i64, from: i64) -> Reply {
    let stream = s
        .stream(&format!("/v1/games/{id}/stream"), None, Some(from))
        .await;
    Reply {
        status: stream.status,
        headers: Default::default(),
        body: stream.problem.clone(),
    }
}

#[actix_web::test]
async fn filtered_pages_of_events_and_streams_from_the_start_count_as_expensive_reads() {
    // The shipped burst, refilled so slowly that no token comes back while the test runs: one
    // came back every 167 ms as shipped, and on a busy machine the two requests between the
    // burst's refusal and the stream that must be refused too could take longer.
    let expensive = Limits::default().expensive_reads;
    let slow = Some(Rate::per(expensive.expect("a default limit").burst, 3600));
    // Many streams may be open at once here: only the expensive reads are counted.
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.expensive_reads = slow;
        c.live.streams_per_address = 1000;
    })
    .await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;

    let (through, refused) = until_refused(500, |i| {
        if i % 2 == 0 {
            s.get(&format!("/v1/games/{id}/events?type=GameStarted"), None)
        } else {
            s.get(&format!("/v1/games/{id}/events?seat=0"), None)
        }
    })
    .await;
    assert_eq!(refused.code(), "rate_limited", "{}", refused.body);
    assert!(refused.header("retry-after").is_some());
    assert_burst(through, expensive);
    // The log unfiltered is a page like any other read, and so is a stream resumed from
    // where its client is.
    let r = s.get(&format!("/v1/games/{id}/events"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let version = r.body["events"].as_array().unwrap().len() as i64;
    assert!(version > 0);
    assert_eq!(open_stream(&s, id, version).await.status, 200);
    let r = open_stream(&s, id, 0).await;
    assert_eq!(
        (r.status, r.body["code"].as_str()),
        (429, Some("rate_limited")),
        "{}",
        r.body
    );

    // A stream from the start of the log, on a fresh budget.
    let s2 = s
        .another(|c| {
            c.limits.commands = None;
            c.limits.expensive_reads = slow;
            c.live.streams_per_address = 1000;
        })
        .await;
    let mut through = 0;
    loop {
        let r = open_stream(&s2, id, 0).await;
        if r.status == 429 {
            assert_eq!(r.body["code"], "rate_limited", "{}", r.body);
            break;
        }
        assert_eq!(r.status, 200, "{}", r.body);
        through += 1;
        assert!(through < 500, "{through} streams from the start and no 429");
    }
    assert_burst(through, expensive);
    s2.stop().await;
    s.finish().await;
}
