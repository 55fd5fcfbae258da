//! Abuse limits: floods of logins, registrations, commands and expensive reads get 429 with
//! `Retry-After`; a caller without a seat is refused without waiting for a game's lock; the
//! Idempotency-Key follows the spec's pattern.

use std::time::Duration;

use baumeister_api::config::Limits;
use baumeister_api::limits::Rate;
use baumeister_tests::serde_json::json;
use baumeister_tests::{Reply, TestServer};

fn assert_rate_limited(r: &Reply) {
    assert_eq!((r.status, r.code()), (429, "rate_limited"), "{}", r.body);
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
    assert_eq!((r.status, r.code()), (403, "not_seated"), "{}", r.body);
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
