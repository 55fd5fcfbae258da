//! "My games" (issue 11): the caller's games, which wait for them, live across processes.

use std::time::Duration;

use baumeister_tests::given::two_processes;
use baumeister_tests::serde_json::json;
use baumeister_tests::steps::game_ids;
use baumeister_tests::TestServer;

const WAIT: Duration = Duration::from_secs(20);

#[actix_web::test]
async fn my_games_lists_whose_turn_it_is_and_filters_and_pages() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let first = s.game("burgbaumeister", json!({}), &tokens[..2]).await;
    let second = s.game("burgbaumeister", json!({}), &tokens[..2]).await;
    let open = s.open_game(&tokens[0], "burgbaumeister", 2).await;
    // Somebody else's game is not ada's.
    s.game(
        "burgbaumeister",
        json!({}),
        &[tokens[1].clone(), tokens[2].clone()],
    )
    .await;

    let all = s.get("/v1/me/games", Some(&tokens[0])).await;
    assert_eq!(all.status, 200, "{}", all.body);
    let ids = game_ids(&all.body["games"]);
    assert_eq!(ids, [open, second, first], "most recently active first");
    let game = &all.body["games"][1];
    assert_eq!(game["kind"], "burgbaumeister");
    assert_eq!(game["status"], "active");
    assert_eq!(game["your_seat"], 0);
    assert!(game["version"].as_i64().unwrap() > 0);
    assert!(game["last_activity"].is_string());
    let to_act = game["to_act"][0]["seat"].as_u64().unwrap();
    assert_eq!(game["your_turn"], to_act == 0);
    let names = ["ada", "bea"];
    assert_eq!(game["to_act"][0]["player"], names[to_act as usize]);

    let waiting = s.get("/v1/me/games?to_act=me", Some(&tokens[0])).await;
    for g in waiting.body["games"].as_array().unwrap() {
        assert_eq!(g["your_turn"], true);
        assert_eq!(g["status"], "active");
    }
    let theirs = s.get("/v1/me/games?to_act=me", Some(&tokens[1])).await;
    let (mine, bea_waits) = (
        game_ids(&waiting.body["games"]),
        game_ids(&theirs.body["games"]),
    );
    for game in [first, second] {
        assert!(
            mine.contains(&game) != bea_waits.contains(&game),
            "game {game} waits for exactly one of its two players"
        );
    }
    let open_only = s.get("/v1/me/games?status=open", Some(&tokens[0])).await;
    assert_eq!(open_only.body["games"][0]["id"], open);
    assert_eq!(open_only.body["games"].as_array().unwrap().len(), 1);

    let page = s.get("/v1/me/games?limit=2", Some(&tokens[0])).await;
    assert_eq!(page.body["games"].as_array().unwrap().len(), 2);
    assert_eq!(page.body["next_offset"], 2);
    let rest = s
        .get("/v1/me/games?limit=2&offset=2", Some(&tokens[0]))
        .await;
    assert_eq!(rest.body["games"][0]["id"], first);
    assert!(rest.body["next_offset"].is_null());

    for (query, code) in [
        ("to_act=you", "invalid_query"),
        ("limit=0", "invalid_query"),
        ("status=won", "invalid_query"),
    ] {
        let r = s
            .get(&format!("/v1/me/games?{query}"), Some(&tokens[0]))
            .await;
        assert_eq!((r.status, r.code()), (400, code), "{query}: {}", r.body);
    }
    let r = s.get("/v1/me/games", None).await;
    assert_eq!((r.status, r.code()), (401, "token_missing"));
    s.finish().await;
}

#[actix_web::test]
async fn my_stream_tells_when_a_game_changes_or_becomes_my_turn_whichever_process_changed_it() {
    let (a, b, tokens) = two_processes(&["ada", "bea"]).await;
    let mut ada = a
        .stream(&format!("/v1/me/stream?token={}", tokens[0]), None, None)
        .await;
    assert_eq!(ada.status, 200, "{}", ada.problem);
    // A game ada creates through the other process appears on her stream.
    let r = b
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": "burgbaumeister", "seats": 2}),
        )
        .await;
    let id = r.body["id"].as_i64().unwrap();
    let m = ada.next(WAIT).await.expect("the new game");
    assert_eq!((m.event.as_str(), &m.data["id"]), ("game", &json!(id)));
    assert_eq!(m.data["status"], "open");
    // Bea takes the last seat through the other process: the game starts.
    b.joined(id, &tokens[1]).await;
    let m = ada.next(WAIT).await.expect("a message");
    assert_eq!(m.event, "game");
    assert_eq!(m.data["id"], id);
    assert_eq!(m.data["status"], "active");
    // Play until the game waits for ada after bea's move.
    let mut my_turn_seen = m.data["your_turn"] == true;
    for _ in 0..40 {
        if my_turn_seen {
            break;
        }
        let game = b.get(&format!("/v1/games/{id}"), None).await;
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        let r = b.first_move(id, &tokens[seat]).await;
        let m = ada.next(WAIT).await.expect("a message per change");
        assert_eq!((m.event.as_str(), &m.data["id"]), ("game", &json!(id)));
        assert_eq!(m.data["version"], r.body["version"]);
        my_turn_seen = m.data["your_turn"] == true;
    }
    assert!(my_turn_seen, "ada was told it is her turn");
    drop(ada);
    b.finish().await;
    a.finish().await;
}

#[actix_web::test]
async fn my_games_shows_the_turn_clock_and_deadline_soon_warns_before_it() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.live.allow_private = true;
        c.live.deadline_soon = std::time::Duration::from_secs(120);
    })
    .await;
    let receiver = baumeister_tests::receiver::Receiver::start(0);
    let tokens = s.players(&["ada", "bea"]).await;
    for token in &tokens {
        s.add_webhook(token, &receiver.url, json!(["deadline_soon"]))
            .await;
    }
    let before = baumeister_storage::now_ms();
    let id = s
        .game("burgbaumeister", json!({"move_minutes": 1}), &tokens)
        .await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
    let mine = s.get("/v1/me/games?to_act=me", Some(&tokens[seat])).await;
    let listed = &mine.body["games"][0];
    assert_eq!(listed["id"], id);
    let deadline = listed["deadline_ms"].as_i64().expect("the turn clock runs");
    assert!(
        (before + 55_000..=before + 65_000).contains(&deadline),
        "a minute from the start: {deadline} vs {before}"
    );
    assert!(listed["deadline"].is_string());
    // The seat the clock runs for is warned (the deadline is within two minutes), the other not.
    let received = receiver.accepted(1, WAIT).await;
    let body = received[0].json();
    assert_eq!(body["kind"], "deadline_soon");
    assert_eq!(body["seat"], seat);
    assert_eq!(body["game"]["id"], id);
    actix_web::rt::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(receiver.received().len(), 1, "once, to the seat to act");
    receiver.stop().await;
    s.finish().await;
}
