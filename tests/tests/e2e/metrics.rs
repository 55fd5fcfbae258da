//! `GET /metrics` (docs/operations.md, "Metrics"): after moves, a refused command, an open
//! stream, a turn-clock move and a bot's move, the scrape parses with an independent reader of
//! Prometheus's text format (the `prometheus-parse` crate) and holds every series the operator
//! is promised, with sane values; routes are labelled by pattern, never by a game's id. Only the
//! bearer of `METRICS_TOKEN` reads it, and a process without one answers as for an unknown
//! route. The recorder is one per process, shared by the tests running beside this one: counts
//! are checked as lower bounds.

use std::time::{Duration, Instant};

use baumeister_tests::serde_json::json;
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{Pick, TestServer};
use prometheus_parse::{Sample, Scrape, Value};

const TOKEN: &str = "a metrics token of the metrics test";

async fn scrape(s: &TestServer) -> Scrape {
    let request = s
        .client
        .get(format!("{}/metrics", s.base))
        .insert_header(("Authorization", format!("Bearer {TOKEN}")));
    let mut response = request.send().await.expect("the server answers");
    assert_eq!(response.status().as_u16(), 200);
    let content_type = response.headers().get("content-type").unwrap();
    assert!(content_type.to_str().unwrap().starts_with("text/plain"));
    let body = response.body().limit(1 << 24).await.unwrap();
    let text = String::from_utf8(body.to_vec()).expect("UTF-8");
    Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).expect("the text format parses")
}

/// The samples of `metric` whose labels include every `(name, value)` of `labels`.
fn samples<'a>(scrape: &'a Scrape, metric: &str, labels: &[(&str, &str)]) -> Vec<&'a Sample> {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == metric)
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .collect()
}

fn number(sample: &Sample) -> f64 {
    match &sample.value {
        Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => *v,
        other => panic!("{} is not a number: {other:?}", sample.metric),
    }
}

/// The sum of the samples of `metric` with `labels`.
fn total(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    samples(scrape, metric, labels)
        .into_iter()
        .map(number)
        .sum()
}

/// The series of the commands route that answered 200.
const COMMANDS_200: [(&str, &str); 3] = [
    ("route", "/v1/games/:id/commands"),
    ("method", "POST"),
    ("status", "200"),
];

/// A server's scrape after moves in a game with a turn clock (and how many were accepted), a
/// refused command, an open stream, the turn clock's default move, a request for an unknown
/// route, and a bot's move; the server is gone when it is returned.
async fn given_a_scrape_after_play() -> (Scrape, usize) {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.operations.metrics_token = Some(TOKEN.into());
    })
    .await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s
        .game("burgbaumeister", json!({"move_minutes": 1}), &tokens)
        .await;
    // A stream stays open while the metrics are read.
    let stream = s
        .stream(&format!("/v1/games/{id}/stream"), None, None)
        .await;
    assert_eq!(stream.status, 200);

    let mut pick = Pick::new(3);
    let mut accepted = 0;
    for _ in 0..6 {
        let game = s.get(&format!("/v1/games/{id}"), None).await.body;
        let Some(seat) = game["to_act"][0].as_u64() else {
            break;
        };
        let r = s
            .random_move(id, &tokens[seat as usize], &mut pick)
            .await
            .expect("the seat to act has a move");
        assert_eq!(r.status, 200, "{}", r.body);
        accepted += 1;
    }
    assert!(accepted >= 3);
    let refused = s
        .command(
            id,
            &tokens[0],
            &json!({"command": {"type": "NoSuchCommand"}}),
        )
        .await;
    assert_refused(&refused, 400, "unknown_command");
    // Nobody acts for a minute: the turn clock makes the default move.
    let before = s.get(&format!("/v1/games/{id}"), None).await.version();
    s.store.advance_clock(61_000);
    let after = s.get(&format!("/v1/games/{id}"), None).await.version();
    assert!(after > before, "the default move was made");
    assert_eq!(s.get("/nothing-here", None).await.status, 404);

    let m = scrape_once_a_bot_thought(&s, &mut pick).await;
    drop(stream);
    s.finish().await;
    (m, accepted)
}

/// A bot plays against a person until it has thought at least once: the scrape then.
async fn scrape_once_a_bot_thought(s: &TestServer, pick: &mut Pick) -> Scrape {
    let anna = s.player("anna").await;
    let with_bot = s
        .create_game(
            &anna,
            &json!({"kind": "burgbaumeister", "seats": 2, "bots": [{"seat": 1, "level": "random"}]}),
        )
        .await;
    let started = Instant::now();
    let mut m = scrape(s).await;
    while total(
        &m,
        "baumeister_bot_think_seconds_count",
        &[("level", "random")],
    ) < 1.0
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no bot thought within a minute"
        );
        let _ = s.random_move(with_bot, &anna, pick).await;
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        m = scrape(s).await;
    }
    m
}

#[actix_web::test]
async fn http_requests_are_timed_in_one_histogram_per_route_pattern_method_and_status() {
    let (m, accepted) = given_a_scrape_after_play().await;
    let commands = samples(
        &m,
        "baumeister_http_request_duration_seconds",
        &COMMANDS_200,
    );
    assert_eq!(commands.len(), 1, "one series per pattern");
    let Value::Histogram(buckets) = &commands[0].value else {
        panic!("a histogram: {:?}", commands[0].value)
    };
    assert!(buckets.len() >= 5, "{buckets:?}");
    assert!(buckets
        .windows(2)
        .all(|b| b[0].count <= b[1].count && b[0].less_than < b[1].less_than));
    let count = total(
        &m,
        "baumeister_http_request_duration_seconds_count",
        &COMMANDS_200,
    );
    assert!(count >= accepted as f64, "{count}");
    assert_eq!(
        buckets.last().unwrap().count,
        count,
        "the +Inf bucket holds them all"
    );
    let sum = total(
        &m,
        "baumeister_http_request_duration_seconds_sum",
        &COMMANDS_200,
    );
    assert!(sum > 0.0 && sum < count * 10.0, "{sum} s for {count}");
}

#[actix_web::test]
async fn refused_and_unmatched_requests_are_counted_under_their_status() {
    let (m, _) = given_a_scrape_after_play().await;
    assert!(
        total(
            &m,
            "baumeister_http_request_duration_seconds_count",
            &[("route", "/v1/games/:id/commands"), ("status", "400")]
        ) >= 1.0
    );
    assert!(
        total(
            &m,
            "baumeister_http_request_duration_seconds_count",
            &[("route", "unmatched"), ("status", "404")]
        ) >= 1.0
    );
}

#[actix_web::test]
async fn a_route_label_is_a_pattern_never_a_raw_path() {
    let (m, _) = given_a_scrape_after_play().await;
    // No route label has a segment that is a number (a game's id).
    for sample in samples(&m, "baumeister_http_request_duration_seconds_count", &[]) {
        let route = sample
            .labels
            .get("route")
            .expect("every request has a route");
        assert!(
            route == "unmatched"
                || route
                    .split('/')
                    .all(|seg| seg.is_empty() || !seg.bytes().all(|b| b.is_ascii_digit())),
            "a raw path as a label: {route}"
        );
    }
}

#[actix_web::test]
async fn commands_are_counted_by_kind_and_result() {
    let (m, accepted) = given_a_scrape_after_play().await;
    assert!(
        total(
            &m,
            "baumeister_commands_total",
            &[("kind", "burgbaumeister"), ("result", "accepted")]
        ) >= accepted as f64
    );
    assert!(
        total(
            &m,
            "baumeister_commands_total",
            &[("kind", "burgbaumeister"), ("result", "unknown_command")]
        ) >= 1.0
    );
    assert!(
        m.docs.contains_key("baumeister_commands_total"),
        "HELP lines"
    );
}

#[actix_web::test]
async fn group_commits_and_pool_waits_are_measured() {
    let (m, accepted) = given_a_scrape_after_play().await;
    let batched = total(&m, "baumeister_append_batch_size_count", &[]);
    assert!(batched >= 1.0, "{batched}");
    let batch_sum = total(&m, "baumeister_append_batch_size_sum", &[]);
    assert!(batch_sum >= batched, "at least one append per batch");
    assert!(total(&m, "baumeister_pool_wait_seconds_count", &[]) >= accepted as f64);
}

#[actix_web::test]
async fn open_streams_and_the_turn_clocks_default_moves_are_counted() {
    let (m, _) = given_a_scrape_after_play().await;
    assert!(total(&m, "baumeister_live_streams_open", &[]) >= 1.0);
    assert!(
        total(
            &m,
            "baumeister_turn_clock_actions_total",
            &[("action", "default_move")]
        ) >= 1.0
    );
}

#[actix_web::test]
async fn bot_moves_and_the_outboxes_are_gauged() {
    let (m, _) = given_a_scrape_after_play().await;
    assert_eq!(samples(&m, "baumeister_bot_moves_running", &[]).len(), 1);
    assert_eq!(samples(&m, "baumeister_bot_moves_waiting", &[]).len(), 1);
    assert!(total(&m, "baumeister_bot_moves_waiting", &[]) >= 0.0);
    for outbox in ["webhooks", "notices"] {
        let pending = samples(&m, "baumeister_outbox_pending", &[("outbox", outbox)]);
        assert_eq!(pending.len(), 1, "{outbox}");
        assert!(number(pending[0]) >= 0.0);
        let oldest = samples(
            &m,
            "baumeister_outbox_oldest_age_seconds",
            &[("outbox", outbox)],
        );
        assert_eq!(oldest.len(), 1, "{outbox}");
        assert!(number(oldest[0]) >= 0.0);
    }
}

#[actix_web::test]
async fn metrics_want_the_token_and_without_one_configured_look_like_an_unknown_route() {
    let s = TestServer::start_with(|c| c.operations.metrics_token = Some(TOKEN.into())).await;
    let none = s.get("/metrics", None).await;
    assert_eq!((none.status, none.code()), (401, "invalid_metrics_token"));
    assert_eq!(none.header("www-authenticate"), Some("Bearer"));
    let wrong = s
        .send(
            s.request("GET", "/metrics", Some("not the metrics token at all")),
            None,
        )
        .await;
    assert_eq!((wrong.status, wrong.code()), (401, "invalid_metrics_token"));
    // A player's token is not the metrics token either.
    let player = s.player("ada").await;
    assert_eq!(s.get("/metrics", Some(&player)).await.status, 401);

    // Another process on the same database, with no token configured.
    let closed = s.another(|_| {}).await;
    let unknown = closed.get("/nothing-here", None).await;
    for token in [None, Some(TOKEN)] {
        let r = closed.get("/metrics", token).await;
        assert_eq!(r.status, 404, "{}", r.body);
        assert_eq!(r.code(), unknown.code());
        assert_eq!(r.body["title"], unknown.body["title"]);
        assert!(r.header("www-authenticate").is_none());
    }
    closed.stop().await;
    s.finish().await;
}
