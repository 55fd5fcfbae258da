//! Bots at the table through the server: a person creates a game with a bot of each level, plays
//! their own seat by script, and the bots play theirs until the game ends. Every bot command is
//! recorded with the bot's level, and the audit decides every command again.

use std::time::{Duration, Instant};

use baumeister_tests::given::anna_creates_game;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::steps::{assert_refused, game_pairs};
use baumeister_tests::TestServer;

#[actix_web::test]
async fn a_person_plays_burgbaumeister_to_the_end_against_a_bot_of_each_level() {
    let (s, anna, r) = anna_creates_game(json!({"kind": "burgbaumeister", "seats": 4, "bots": [
        {"seat": 1, "level": "random"},
        {"seat": 2, "level": "greedy"},
        {"seat": 3, "level": "strong"},
    ]}))
    .await;
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(
        r.body["status"], "active",
        "the bots filled the game: {}",
        r.body
    );
    let seats = r.body["seats"].as_array().unwrap();
    assert_eq!(seats[0].get("bot"), None, "a person is no bot");
    for (seat, level) in [(1, "random"), (2, "greedy"), (3, "strong")] {
        assert_eq!(seats[seat]["bot"], true, "{}", r.body);
        assert_eq!(seats[seat]["bot_level"], level);
    }

    // Anna plays her seat as a person would: she builds whenever she can, and otherwise turns up
    // a different card each time. (Scripted to send the first listed command, she turned up the
    // same card and returned it for ever; her empty wall could take any card, so the game was
    // never blocked, and it ended only if a bot finished its wall. Bots whose walls were stuck
    // played on for ever: that was the hang, a game that cannot end, not the bots' sweep.) She
    // goes round the store one slot a turn: counting her returns too, she once visited only
    // every other slot, and the one card she could place lay in a slot she never looked at.
    let started = Instant::now();
    let mut looked = 0usize;
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the game did not end"
        );
        let game = s.get(&format!("/v1/games/{id}"), Some(&anna)).await;
        if game.body["status"] == "finished" {
            break;
        }
        let moves = s.moves(id, &anna).await;
        // Each listed move is a request body ready to send, with the version it was listed at.
        let listed = moves.body["moves"].as_array().cloned().unwrap_or_default();
        if listed.is_empty() {
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let builds = |m: &&Value| {
            m["command"]["type"] == "AddCardToWall"
                || m["command"]["type"] == "InsertCardWithWizard"
        };
        let turns_up = listed.iter().all(|m| m["command"]["type"] == "TurnUpCard");
        let body = listed.iter().find(builds).unwrap_or_else(|| {
            if turns_up {
                looked += 1;
            }
            &listed[looked % listed.len()]
        });
        let r = s.command(id, &anna, body).await;
        assert!(
            r.status == 200 || r.status == 201 || r.code() == "version_conflict",
            "{}",
            r.body
        );
    }

    let levels: Vec<(i16, Option<String>)> = game_pairs(
        &s.db().await,
        "SELECT DISTINCT seat, bot_level FROM commands WHERE game_id = $1 AND seat IS NOT NULL ORDER BY seat",
        id,
    )
    .await;
    assert_eq!(
        levels,
        vec![
            (0, None),
            (1, Some("random".into())),
            (2, Some("greedy".into())),
            (3, Some("strong".into())),
        ],
        "every seat played, each bot's commands named with its level"
    );
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn only_the_creator_seats_bots_at_free_seats_and_bots_cannot_log_in() {
    let s = TestServer::start().await;
    let anna = s.player("anna").await;
    let ben = s.player("ben").await;
    let id = s.open_game(&anna, "carcassonne", 3).await;
    let path = format!("/v1/games/{id}/bots");
    let s = &s;
    let add = |token: &str, body: Value| {
        let (path, token) = (path.clone(), token.to_string());
        async move { s.post(&path, Some(&token), &body).await }
    };
    let r = add(&ben, json!({"seat": 1, "level": "greedy"})).await;
    assert_refused(&r, 403, "not_creator");
    let r = add(&anna, json!({"seat": 3, "level": "greedy"})).await;
    assert_refused(&r, 400, "no_such_seat");
    let r = add(&anna, json!({"seat": 0, "level": "greedy"})).await;
    assert_refused(&r, 409, "seat_taken");
    let r = add(&anna, json!({"seat": 1, "level": "grandmaster"})).await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = add(&anna, json!({"seat": 2, "level": "greedy"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "open");
    // A person takes the lowest free seat, past the bot's: the game starts.
    let r = s.joined(id, &ben).await;
    assert_eq!(r.body["status"], "active", "{}", r.body);
    assert_eq!(r.body["seats"][1]["player"], "ben");
    assert_eq!(r.body["seats"][2]["bot_level"], "greedy");
    let r = s
        .post(
            "/v1/games",
            Some(&anna),
            &json!({"kind": "carcassonne", "seats": 2, "bots": [{"seat": 0, "level": "random"}]}),
        )
        .await;
    assert_refused(&r, 400, "invalid_bots");
    let r = s.login("bot-greedy", "").await;
    assert_eq!(r.status / 100, 4, "{}", r.body);
}

#[actix_web::test]
async fn greedy_and_strong_bots_take_seats_at_every_kind() {
    let s = TestServer::start().await;
    let anna = s.player("anna").await;
    for kind in [
        "burgbaumeister",
        "carcassonne",
        "mauerbauer",
        "wettstreit",
        "space-builder",
    ] {
        let r = s
            .post(
                "/v1/games",
                Some(&anna),
                &json!({"kind": kind, "seats": 3,
                        "bots": [{"seat": 1, "level": "greedy"}, {"seat": 2, "level": "strong"}]}),
            )
            .await;
        assert_eq!(r.status, 201, "{kind}: {}", r.body);
        assert_eq!(r.body["status"], "active", "{}", r.body);
        assert_eq!(r.body["seats"][1]["bot_level"], "greedy", "{}", r.body);
        assert_eq!(r.body["seats"][2]["bot_level"], "strong", "{}", r.body);
        // Seating one at an open game works alike.
        let id = s.open_game(&anna, kind, 3).await;
        let r = s
            .post(
                &format!("/v1/games/{id}/bots"),
                Some(&anna),
                &json!({"seat": 1, "level": "strong"}),
            )
            .await;
        assert_eq!(r.status, 200, "{kind}: {}", r.body);
    }
}

/// A bot answers a person's move at once: the person's command wakes the bots (through the
/// live listener), so the answer takes the bot's think time, not the bots' fallback sweep (ten
/// deadline sweeps, 2 s in tests).
#[actix_web::test]
async fn a_bot_answers_a_persons_move_within_its_think_time_not_a_poll_interval() {
    let (s, anna, r) = anna_creates_game(
        json!({"kind": "burgbaumeister", "seats": 2, "bots": [{"seat": 1, "level": "random"}]}),
    )
    .await;
    let id = r.body["id"].as_i64().unwrap();
    let mut answers = Vec::new();
    let started = Instant::now();
    while answers.len() < 8 && started.elapsed() < Duration::from_secs(120) {
        let moves = s.moves(id, &anna).await;
        let listed = moves.body["moves"].as_array().cloned().unwrap_or_default();
        if listed.is_empty() {
            let game = s.get(&format!("/v1/games/{id}"), Some(&anna)).await;
            if game.body["status"] == "finished" {
                break;
            }
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
            continue;
        }
        // Returning the card ends her turn: the bot is to act.
        let body = listed
            .iter()
            .find(|m| m["command"]["type"] == "ReturnCard")
            .unwrap_or(&listed[0]);
        let ends_turn = body["command"]["type"] == "ReturnCard";
        let sent = Instant::now();
        let r = s.commanded(id, &anna, body).await;
        let written = r.body["version"].as_i64().unwrap();
        if !ends_turn {
            continue;
        }
        loop {
            let game = s.get(&format!("/v1/games/{id}"), Some(&anna)).await;
            if game.body["version"].as_i64().unwrap() > written {
                break;
            }
            assert!(
                sent.elapsed() < Duration::from_secs(10),
                "the bot never answered"
            );
            actix_web::rt::time::sleep(Duration::from_millis(5)).await;
        }
        answers.push(sent.elapsed());
    }
    assert!(answers.len() >= 3, "too few answers measured: {answers:?}");
    let slowest = answers.iter().max().unwrap();
    eprintln!("bot answers: {answers:?}");
    assert!(
        *slowest < Duration::from_millis(1_500),
        "a bot answered after {slowest:?}: {answers:?}"
    );
    s.finish().await;
}

/// The bot sweep is woken by the appends of games that seat a bot, not by every command of
/// every game (its read cost PostgreSQL more per command than many appends): the append's
/// notice says whether the game seats one (`…:1`) or not (`…:0`).
#[actix_web::test]
async fn only_the_commands_of_games_that_seat_a_bot_wake_the_bot_sweep() {
    let s = TestServer::start().await;
    let mut notices = s.live_notices().await;
    // A process alone sends no notices (nobody else to wake): a second one listens.
    let _other = s.another(|_| {}).await;
    notices
        .next(|n| n.ends_with("/resync"), Duration::from_secs(10))
        .await;
    // The first process hears it too, and from then on sends.
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;

    let tokens = s.players(&["anna", "bert"]).await;
    let people = s.game("burgbaumeister", json!({}), &tokens).await;
    let with_bot = s.create_game(&tokens[0], &json!({"kind": "burgbaumeister", "seats": 2, "bots": [{"seat": 1, "level": "random"}]})).await;
    let mut pick = baumeister_tests::Pick::new(7);
    for (game, expected) in [(people, ":0"), (with_bot, ":1")] {
        // Whoever of the two people may move now (Anna is the only person at the bot's game).
        let moved = 'found: loop {
            for token in &tokens {
                if let Some(r) = s.random_move(game, token, &mut pick).await {
                    break 'found r;
                }
            }
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        };
        assert_eq!(moved.status, 200, "{}", moved.body);
        let version = moved.body["version"].as_i64().unwrap();
        // An append's notice is sent by the server's process after the commit, under its tag:
        // `<tag>/<game>:<version>:<queued>:<bots>`.
        let prefix = format!("/{game}:{version}:");
        let notice = notices
            .next(|n| n.contains(&prefix), Duration::from_secs(10))
            .await;
        assert!(notice.ends_with(expected), "game {game}: {notice}");
    }
    s.finish().await;
}
