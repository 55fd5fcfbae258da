//! Faults (issue 10): the database going away under load, and a crowd racing on the same
//! games. (A server killed with SIGKILL mid-load is `api/tests/sigkill.rs`: it needs the real
//! binary.)

use std::time::{Duration, Instant};

use baumeister_tests::given::ada_and_bea_behind_a_proxy;
use baumeister_tests::serde_json::json;
use baumeister_tests::{all_at_once, Pick, Reply, TestServer};

/// How long any request may take while the database is gone.
const FAIL_FAST: Duration = Duration::from_secs(5);

/// Plays up to `commands` commands of game `id` (first listed move of a seat it waits for);
/// returns the responses.
async fn play(s: &TestServer, id: i64, tokens: &[String], commands: usize) -> Vec<Reply> {
    let mut replies = Vec::new();
    for _ in 0..commands {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        assert_eq!(game.status, 200, "{}", game.body);
        let Some(seat) = game.body["to_act"][0].as_u64() else {
            break;
        };
        let moves = s.moves(id, &tokens[seat as usize]).await;
        let command = moves.body["moves"][0].clone();
        let r = s.commanded(id, &tokens[seat as usize], &command).await;
        replies.push(r);
    }
    replies
}

#[actix_web::test]
async fn with_the_database_gone_requests_fail_fast_with_503_and_the_server_recovers_by_itself() {
    let (proxy, s, tokens) = ada_and_bea_behind_a_proxy().await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let mut accepted = play(&s, id, &tokens, 10).await.len();
    let mut stream = s
        .stream(&format!("/v1/games/{id}/stream"), None, None)
        .await;
    // A command the game would accept now: only the database can take it. (One that no game
    // of the kind knows is refused with 400 without it: nothing about it needs the database.)
    let board = s.get(&format!("/v1/games/{id}"), None).await;
    let mover = board.body["to_act"][0].as_u64().unwrap() as usize;
    let listed = s.moves(id, &tokens[mover]).await;
    let command = json!({"command": listed.body["moves"][0]["command"].clone()});

    proxy.cut();
    let gone = Instant::now();
    let mut refused = 0;
    while gone.elapsed() < Duration::from_secs(3) {
        for (method, path, token) in [
            ("GET", format!("/v1/games/{id}"), Some(&tokens[0])),
            ("GET", format!("/v1/games/{id}/moves"), Some(&tokens[0])),
            ("GET", format!("/v1/games/{id}/events"), None),
            ("GET", "/v1/games".to_string(), None),
            (
                "POST",
                format!("/v1/games/{id}/commands"),
                Some(&tokens[mover]),
            ),
        ] {
            let asked = Instant::now();
            let request = s.request(method, &path, token.map(String::as_str));
            let body = (method == "POST").then(|| serde_json::to_vec(&command).unwrap());
            let request = if body.is_some() {
                request.insert_header(("Content-Type", "application/json"))
            } else {
                request
            };
            let r = s.send(request, body).await;
            assert!(
                asked.elapsed() < FAIL_FAST,
                "{method} {path} took {:?}",
                asked.elapsed()
            );
            assert_eq!(r.status, 503, "{method} {path}: {}", r.body);
            assert_eq!(r.code(), "database_unavailable", "{method} {path}");
            assert!(r.header("retry-after").is_some(), "{method} {path}");
            refused += 1;
        }
        // Not ready, yet alive: a probe restarts nothing for a database outage.
        let ready = s.get("/readyz", None).await;
        assert_eq!(ready.status, 503, "{}", ready.body);
        assert_eq!(ready.body["database"], "unreachable");
        assert_eq!(s.get("/healthz", None).await.status, 200);
        // What needs no database is still served.
        assert_eq!(s.get("/v1/kinds", None).await.status, 200);
    }
    assert!(refused >= 5);

    proxy.restore();
    let back = Instant::now();
    while s.get("/readyz", None).await.status != 200 {
        assert!(
            back.elapsed() < Duration::from_secs(10),
            "not back by itself"
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    // Commands are accepted again, and the live stream (whose process lost its listening
    // connection meanwhile) carries them.
    let replies = play(&s, id, &tokens, 10).await;
    accepted += replies.len();
    let last = replies.last().unwrap().body["version"].as_i64().unwrap();
    // (`until_version` panics when no status of that version comes.)
    stream.until_version(last, Duration::from_secs(10)).await;
    s.log_is_whole(id, accepted).await;
    s.finish().await;
}

/// One of the crowd: acts for `seat` whenever the game lists it moves, pinning the version it
/// listed them at on every other try; returns every answer to its commands.
async fn racer(
    s: &TestServer,
    id: i64,
    token: &str,
    seat: u8,
    seed: u64,
) -> Vec<(u8, Option<i64>, Reply)> {
    let mut pick = Pick::new(seed);
    let mut answers = Vec::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(8) {
        let moves = s.moves(id, token).await;
        assert_eq!(moves.status, 200, "{}", moves.body);
        let listed = moves.body["moves"].as_array().unwrap();
        if listed.is_empty() {
            let game = s.get(&format!("/v1/games/{id}"), None).await;
            if game.body["status"] == "finished" {
                break;
            }
            actix_web::rt::time::sleep(Duration::from_millis(1)).await;
            continue;
        }
        let chosen = &listed[pick.below(listed.len())];
        let pinned = (pick.below(2) == 0).then(|| chosen["expected_version"].as_i64().unwrap());
        let body = match pinned {
            Some(version) => json!({"command": chosen["command"], "expected_version": version}),
            None => json!({"command": chosen["command"]}),
        };
        let key = format!("racer-{seed}-{}", answers.len());
        let request = s
            .request("POST", &format!("/v1/games/{id}/commands"), Some(token))
            .insert_header(("Content-Type", "application/json"))
            .insert_header(("Idempotency-Key", key));
        let r = s
            .send(request, Some(serde_json::to_vec(&body).unwrap()))
            .await;
        answers.push((seat, pinned, r));
    }
    answers
}

#[actix_web::test]
async fn sixty_four_clients_racing_on_four_games_lose_nothing_and_double_nothing() {
    // Sixteen accounts from one address: more registrations and logins than it may make.
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.registrations = None;
        c.limits.logins = None;
    })
    .await;
    let names: Vec<String> = (0..16).map(|n| format!("racer{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tokens = s.players(&names).await;
    let mut games = Vec::new();
    for g in 0..4 {
        let seated = &tokens[g * 4..g * 4 + 4];
        games.push((s.game("burgbaumeister", json!({}), seated).await, g));
    }
    // Four clients per seat: 16 per game, 64 in all, each acting as soon as its seat may.
    let crowd = (0..64).map(|c| {
        let (id, g) = games[c % 4];
        let seat = (c / 4 % 4) as u8;
        racer(&s, id, &tokens[g * 4 + seat as usize], seat, c as u64)
    });
    let answers = all_at_once(crowd).await;
    for &(id, _) in &games {
        let truth = s.truth(id).await;
        let mut accepted = 0;
        for (seat, _, r) in answers
            .iter()
            .flatten()
            .filter(|(_, _, r)| r.status == 200 && r.body["game_id"].as_i64() == Some(id))
        {
            accepted += 1;
            truth.holds_answer(&r.body, *seat);
        }
        s.log_is_whole(id, accepted).await;
    }
    // Every loser was told so: a pinned version that lost gets 409, an unpinned command is
    // decided again (200, or 422 when the new state no longer allows it); never a 5xx.
    for (_, pinned, r) in answers.iter().flatten() {
        match (r.status, pinned) {
            (200, _) => {}
            (409, Some(_)) => assert_eq!(r.code(), "version_conflict", "{}", r.body),
            (422, _) => {}
            (status, _) => panic!("{status} (pinned: {pinned:?}): {}", r.body),
        }
    }
    let count = |status| {
        answers
            .iter()
            .flatten()
            .filter(|(_, _, r)| r.status == status)
            .count()
    };
    eprintln!(
        "accepted {}, 409 {}, 422 {}",
        count(200),
        count(409),
        count(422)
    );
    assert!(count(200) >= 40 && count(409) > 0, "the crowd raced");
    s.finish().await;
}
