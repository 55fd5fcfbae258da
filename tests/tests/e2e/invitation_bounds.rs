//! Bounds on invitations by name (issue 41, finding 4): a stranger (an account never seated
//! with the invitee at a game that started) cannot flood anybody's mailbox or phone. The
//! recipient hears by mail and push of a few invitations from strangers a day, the rest only
//! listed; a sender invites a bounded number of strangers a day; an account may refuse
//! strangers' invitations. Players who played together are bounded by none of it.

use std::time::Duration;

use baumeister_storage::InvitationBounds;
use baumeister_tests::push::Device;
use baumeister_tests::receiver::Receiver;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{Reply, TestServer};

const WAIT: Duration = Duration::from_secs(20);

/// A server with the shipped limits (but registrations: a test registers up to eight accounts
/// from one address) that pushes to loopback (the tests' push service); webhooks off.
async fn server(bounds: InvitationBounds) -> TestServer {
    TestServer::start_with(move |c| {
        c.limits.registrations = None;
        c.live.allow_private = true;
        c.live.deliver = false;
        c.notices.invitations = bounds;
    })
    .await
}

async fn put(s: &TestServer, path: &str, token: &str, body: &Value) -> Reply {
    let request = s
        .request("PUT", path, Some(token))
        .insert_header(("Content-Type", "application/json"));
    s.send(request, Some(body.to_string().into_bytes())).await
}

/// A private game of `token`'s, waiting for a second player.
async fn private_game(s: &TestServer, token: &str) -> i64 {
    s.create_game(
        token,
        &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
    )
    .await
}

async fn invite(s: &TestServer, token: &str, game: i64, player: &str) -> Reply {
    s.post(
        &format!("/v1/games/{game}/invitations"),
        Some(token),
        &json!({ "player": player }),
    )
    .await
}

async fn my_invitations(s: &TestServer, token: &str) -> usize {
    let r = s.get("/v1/me/invitations", Some(token)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["invitations"].as_array().unwrap().len()
}

/// `name`'s invitation notices queued, by mail and by push.
async fn queued_notices(s: &TestServer, name: &str) -> (i64, i64) {
    let row = s
        .db()
        .await
        .query_one(
            "SELECT count(*) FILTER (WHERE channel = 'email'), count(*) FILTER (WHERE channel = 'push')
             FROM notice_deliveries d JOIN accounts a ON a.id = d.account_id
             WHERE a.name = $1 AND d.kind = 'invitation'",
            &[&name],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1))
}

#[actix_web::test]
async fn a_strangers_flood_is_listed_whole_but_mailed_and_pushed_at_most_three_times_a_day() {
    let s = server(InvitationBounds::default()).await;
    let service = Receiver::start(0);
    let tokens = s
        .players(&["mallory", "bea", "ada", "s1", "s2", "s3", "s4", "s5"])
        .await;
    let (mallory, bea, ada) = (&tokens[0], &tokens[1], &tokens[2]);
    let strangers = [
        &tokens[0], &tokens[3], &tokens[4], &tokens[5], &tokens[6], &tokens[7],
    ];
    let device = Device::new();
    let r = s
        .post(
            "/v1/me/push-subscriptions",
            Some(bea),
            &device.subscription(&service.url),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = put(
        &s,
        "/v1/me/notices",
        bea,
        &json!({"push_kinds": ["invitation"]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Bea has a confirmed address too (this server sends no mail, so what is queued stays).
    s.db()
        .await
        .execute(
            "UPDATE notice_settings SET email = 'bea@example.org', email_confirmed_at = now(),
                    email_kinds = ARRAY['invitation']
             WHERE account_id = (SELECT id FROM accounts WHERE name = 'bea')",
            &[],
        )
        .await
        .unwrap();

    // Six strangers at once: the count is taken under a lock on bea's settings, so they cannot
    // all pass on one count. Then mallory six times more, one by one.
    let mut games = Vec::new();
    for token in strangers {
        games.push(private_game(&s, token).await);
    }
    let at_once = tokio::join!(
        invite(&s, strangers[0], games[0], "bea"),
        invite(&s, strangers[1], games[1], "bea"),
        invite(&s, strangers[2], games[2], "bea"),
        invite(&s, strangers[3], games[3], "bea"),
        invite(&s, strangers[4], games[4], "bea"),
        invite(&s, strangers[5], games[5], "bea"),
    );
    for r in [
        at_once.0, at_once.1, at_once.2, at_once.3, at_once.4, at_once.5,
    ] {
        assert_eq!(r.status, 201, "{}", r.body);
    }
    for _ in 0..6 {
        let game = private_game(&s, mallory).await;
        let r = invite(&s, mallory, game, "bea").await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    assert_eq!(my_invitations(&s, bea).await, 12, "every one is listed");
    service.accepted(3, WAIT).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(service.received().len(), 3, "three pushes, not twelve");
    assert_eq!(queued_notices(&s, "bea").await, (3, 3));

    // Ada played with bea: her invitations are all announced.
    s.game("burgbaumeister", json!({}), &[ada.clone(), bea.clone()])
        .await;
    for _ in 0..4 {
        let game = private_game(&s, ada).await;
        assert_eq!(invite(&s, ada, game, "bea").await.status, 201);
    }
    service.accepted(7, WAIT).await;
    assert_eq!(queued_notices(&s, "bea").await, (7, 7));
    assert_eq!(my_invitations(&s, bea).await, 16);
    service.stop().await;
    s.finish().await;
}

#[actix_web::test]
async fn one_account_invites_at_most_n_strangers_a_day_and_players_it_knows_freely() {
    let s = server(InvitationBounds {
        strangers_per_sender: 3,
        ..Default::default()
    })
    .await;
    let tokens = s.players(&["mallory", "p1", "p2", "p3", "p4", "ada"]).await;
    let mallory = &tokens[0];
    s.game(
        "burgbaumeister",
        json!({}),
        &[mallory.clone(), tokens[5].clone()],
    )
    .await;
    for name in ["p1", "p2", "p3"] {
        let game = private_game(&s, mallory).await;
        assert_eq!(invite(&s, mallory, game, name).await.status, 201);
    }
    let game = private_game(&s, mallory).await;
    let r = invite(&s, mallory, game, "p4").await;
    assert_refused(&r, 429, "too_many_invitations");
    let wait: u64 = r.header("Retry-After").unwrap().parse().unwrap();
    assert!((86_000..=86_400).contains(&wait), "{wait}");
    assert_eq!(my_invitations(&s, &tokens[4]).await, 0, "nothing created");
    // One of the three again, and a player mallory played with, do not count.
    assert_eq!(invite(&s, mallory, game, "p1").await.status, 201);
    assert_eq!(invite(&s, mallory, game, "ada").await.status, 201);
    s.finish().await;
}

#[actix_web::test]
async fn an_account_that_refuses_strangers_is_invited_only_by_players_it_played_with() {
    let s = server(InvitationBounds::default()).await;
    let tokens = s.players(&["mallory", "bea", "ada"]).await;
    let (mallory, bea, ada) = (&tokens[0], &tokens[1], &tokens[2]);
    let r = put(
        &s,
        "/v1/me/notices",
        bea,
        &json!({"refuse_stranger_invitations": true}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["refuse_stranger_invitations"], true);
    assert_eq!(
        s.get("/v1/me/notices", Some(bea)).await.body["refuse_stranger_invitations"],
        true
    );
    s.game("burgbaumeister", json!({}), &[ada.clone(), bea.clone()])
        .await;
    // Seated together at a game that has not started proves nothing.
    let open = s.open_game(mallory, "burgbaumeister", 3).await;
    s.joined(open, bea).await;

    let game = private_game(&s, mallory).await;
    let r = invite(&s, mallory, game, "bea").await;
    assert_refused(&r, 403, "invitation_refused");
    assert_eq!(my_invitations(&s, bea).await, 0);
    let listed = s
        .get(&format!("/v1/games/{game}/invitations"), Some(mallory))
        .await;
    assert_eq!(listed.body["invitations"], json!([]), "nothing created");

    let game = private_game(&s, ada).await;
    assert_eq!(invite(&s, ada, game, "bea").await.status, 201);
    assert_eq!(my_invitations(&s, bea).await, 1);

    let r = put(
        &s,
        "/v1/me/notices",
        bea,
        &json!({"refuse_stranger_invitations": false}),
    )
    .await;
    assert_eq!(r.body["refuse_stranger_invitations"], false);
    let game = private_game(&s, mallory).await;
    assert_eq!(invite(&s, mallory, game, "bea").await.status, 201);
    s.finish().await;
}
