//! Mauerbauer end to end: a whole 3-player game played by following `/moves`, with each hand
//! secret from the other seats in views, logs and replays until the end.

use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Pick, TestServer};

/// `me` sees its own hand and nobody else's, and not the draw pile's cards.
fn check_view(view: &Value, me: u64) {
    for p in view["players"].as_array().unwrap() {
        assert_eq!(
            p["hand"].is_array(),
            p["seat"] == me,
            "seat {me} sees only its own hand: {p}"
        );
        assert!(p["hand_count"].is_number());
    }
    assert!(view["draw_pile_cards"].is_null(), "the draw pile is secret");
}

/// In `me`'s log, only `me`'s draws show their cards.
fn check_log(events: &[Value], me: u64) {
    for entry in events {
        let e = &entry["event"];
        if e["type"] == "GuildCardsDrawn" {
            assert_eq!(e["cards"].is_array(), e["seat"] == me, "seat {me}: {e}");
        }
    }
}

/// Plays game `id` to the end, each seat choosing at random among its `/moves`; at every step
/// the seat to act sees only its own hand, and every 20th step (when `deep`) every seat's log and
/// a past board hide the others' hands. Returns the number of commands sent.
async fn play_to_end(s: &TestServer, id: i64, tokens: &[String], seed: u64, deep: bool) -> usize {
    let mut pick = Pick::new(seed);
    let mut commands = 0;
    loop {
        let game = s.get(&format!("/v1/games/{id}"), Some(&tokens[0])).await;
        assert_eq!(game.status, 200, "{}", game.body);
        if game.body["status"] == "finished" {
            return commands;
        }
        let to_act = game.body["to_act"].as_array().unwrap();
        assert_eq!(to_act.len(), 1, "one seat acts at a time");
        let seat = to_act[0].as_u64().unwrap();
        let token = &tokens[seat as usize];
        let mine = s.get(&format!("/v1/games/{id}"), Some(token)).await;
        assert_eq!(mine.body["view"]["type"], "MauerbauerView");
        check_view(&mine.body["view"], seat);
        if deep && commands % 20 == 0 {
            for (me, t) in tokens.iter().enumerate() {
                check_log(&s.events(id, Some(t)).await, me as u64);
                let version = game.body["version"].as_i64().unwrap();
                let at = 1 + (commands as i64 * 7) % version;
                let past = s
                    .get(&format!("/v1/games/{id}/replay?at={at}"), Some(t))
                    .await;
                assert_eq!(past.status, 200, "{}", past.body);
                check_view(&past.body["view"], me as u64);
                if me as u64 != seat {
                    let moves = s.moves(id, t).await;
                    assert_eq!(moves.body["moves"], json!([]), "seat {me} has no moves");
                }
            }
        }
        let moves = s.moves(id, token).await;
        let moves = moves.body["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "seat {seat} must act and has moves");
        let chosen = &moves[pick.below(moves.len())];
        let r = s.commanded(id, token, chosen).await;
        // What the command's response logs for its sender hides the other hands too (until
        // the command that ends the game: then everything is public).
        if r.body["finished"] == false {
            check_log(r.body["events"].as_array().unwrap(), seat);
        }
        commands += 1;
        assert!(commands < 3000, "the game does not end");
    }
}

/// The finished game as anybody sees it: a result, every hand shown.
async fn check_finished(s: &TestServer, id: i64, seats: usize) {
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["status"], "finished");
    assert_eq!(game.body["to_act"], json!([]));
    assert!(!game.body["winners"].as_array().unwrap().is_empty());
    assert_eq!(game.body["scores"].as_array().unwrap().len(), seats);
    let view = &game.body["view"];
    assert!(view["result"]["reason"].is_string());
    for p in view["players"].as_array().unwrap() {
        assert!(p["hand"].is_array(), "after the end all hands are shown");
    }
}

#[actix_web::test]
async fn a_whole_three_player_game_is_played_by_following_moves() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    let id = s.game("mauerbauer", json!({}), &tokens).await;
    let kinds = s.get("/v1/kinds", None).await;
    assert!(kinds
        .body
        .as_array()
        .unwrap()
        .iter()
        .any(|k| k["kind"] == "mauerbauer"));
    play_to_end(&s, id, &tokens, 8, true).await;
    check_finished(&s, id, 3).await;
    let events = s.events(id, Some(&tokens[1])).await;
    assert!(events
        .iter()
        .filter(|e| e["event"]["type"] == "GuildCardsDrawn")
        .all(|e| e["event"]["cards"].is_array()));
    // Random walls may leave every city open until the last tower is placed (about one game
    // in ten here): then the game ends by its towers, never otherwise.
    if !events.iter().any(|e| e["event"]["type"] == "CityWalledIn") {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        assert_eq!(
            game.body["view"]["result"]["reason"], "last_tower",
            "{}",
            game.body
        );
    }
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn two_and_four_players_play_to_the_end_too() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem", "dan"]).await;
    for seats in [2, 4] {
        let id = s.game("mauerbauer", json!({}), &tokens[..seats]).await;
        play_to_end(&s, id, &tokens[..seats], seats as u64, false).await;
        check_finished(&s, id, seats).await;
    }
    s.finish().await;
}

#[actix_web::test]
async fn a_broken_rule_is_a_422_with_its_code_and_changes_nothing() {
    let (s, tokens, id) = ada_and_bea_playing("mauerbauer", json!({})).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
    let version = game.body["version"].clone();
    let path = format!("/v1/games/{id}/commands");
    let send =
        |token: &String, command: Value| s.post(&path, Some(token), &json!({ "command": command }));
    for (command, code) in [
        (json!({"type": "BuildWall", "line": 77}), "no_such_line"),
        (
            json!({"type": "PlaceTowers", "towers": []}),
            "awaiting_wall",
        ),
        (
            json!({"type": "LayGuildCards", "cards": ["board_walls"]}),
            "awaiting_wall",
        ),
    ] {
        let r = send(&tokens[seat], command.clone()).await;
        assert_eq!((r.status, r.code()), (422, code), "{command}: {}", r.body);
    }
    let r = send(&tokens[1 - seat], json!({"type": "BuildWall", "line": 0})).await;
    assert_eq!((r.status, r.code()), (422, "not_your_turn"));
    let r = send(&tokens[seat], json!({"type": "BuildWall", "line": "x"})).await;
    assert_eq!((r.status, r.code()), (400, "invalid_command"));
    let r = send(
        &tokens[seat],
        json!({"type": "LayGuildCards", "cards": ["no_such_card"]}),
    )
    .await;
    assert_eq!((r.status, r.code()), (400, "invalid_command"));
    let after = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(
        after.body["version"], version,
        "refused commands change nothing"
    );
    s.finish().await;
}
