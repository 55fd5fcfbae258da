//! Carcassonne end to end: a whole 3-player game with Magier & Hexe and Die Goldminen played by
//! following `/moves`, with the draw pile's order absent from every view, log and replay.

use std::collections::HashSet;

use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Pick, TestServer};

/// Nothing is secret, so every reader gets the same view and log; and no event names a tile
/// before it was drawn: the pile's order is nowhere, not even for an auditor.
async fn check_pile_order_never_shown(s: &TestServer, id: i64, readers: &[Option<&str>]) {
    let first = s.get(&format!("/v1/games/{id}"), readers[0]).await.body["view"].clone();
    let first_log = s.events(id, readers[0]).await;
    for &reader in &readers[1..] {
        let view = s.get(&format!("/v1/games/{id}"), reader).await.body["view"].clone();
        assert_eq!(view, first, "the same view for every reader");
        assert_eq!(s.events(id, reader).await, first_log, "the same log");
    }
    let mut known: HashSet<String> = HashSet::new();
    for entry in &first_log {
        let event = &entry["event"];
        match event["type"].as_str().unwrap() {
            "CarcassonneGameStarted" => {
                // Counts by kind only.
                for count in event["tile_counts"].as_array().unwrap() {
                    assert_eq!(count.as_object().unwrap().len(), 2, "{count}");
                }
            }
            "StartTilePlaced" | "TileDrawn" | "TileDiscarded" => {
                known.insert(event["tile"].as_str().unwrap().to_string());
            }
            _ => {
                if let Some(tile) = event["tile"].as_str() {
                    assert!(known.contains(tile), "{tile} named before it was drawn");
                }
            }
        }
    }
    let left = first["tiles_left"].as_u64().unwrap();
    let by_kind: u64 = first["tiles_left_by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(left, by_kind);
}

/// A player who likes to put followers out and otherwise picks at random.
fn choose(pick: &mut Pick, moves: &[Value]) -> Value {
    let followers: Vec<&Value> = moves
        .iter()
        .filter(|m| m["command"]["type"] == "PlaceFollower")
        .collect();
    if !followers.is_empty() && pick.below(10) < 4 {
        return followers[pick.below(followers.len())].clone();
    }
    moves[pick.below(moves.len())].clone()
}

/// The finished game: no one to act, the scores shown per seat, every follower at home or on
/// the board, all 16 ingots somewhere, every tile placed or discarded, the winners the best
/// scores, and the log's last event the end.
async fn the_end_adds_up(s: &TestServer, id: i64) {
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let view = &game.body["view"];
    assert_eq!(game.body["status"], "finished");
    assert_eq!(game.body["to_act"], json!([]));
    let scores = game.body["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 3);
    let players = view["players"].as_array().unwrap();
    for (seat, player) in players.iter().enumerate() {
        assert_eq!(player["score"], scores[seat]);
        let out = player["followers_on_board"].as_u64().unwrap();
        assert_eq!(player["followers_at_home"].as_u64().unwrap() + out, 7);
    }
    let ingots: u64 = players.iter().map(|p| p["ingots"].as_u64().unwrap()).sum();
    let on_tiles: u64 = view["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["ingots"].as_u64().unwrap())
        .sum();
    assert_eq!(
        ingots + on_tiles + view["gold_supply"].as_u64().unwrap(),
        16
    );
    let placed = view["tiles"].as_array().unwrap().len();
    let discarded = view["discarded"].as_array().unwrap().len();
    assert_eq!(placed + discarded, 88, "every tile placed or discarded");
    assert_eq!(view["tiles_left"], 0);
    let winners = game.body["winners"].as_array().unwrap();
    let best = scores.iter().map(|s| s.as_i64().unwrap()).max().unwrap();
    for w in winners {
        assert_eq!(scores[w.as_u64().unwrap() as usize].as_i64().unwrap(), best);
    }
    let events = s.events(id, None).await;
    assert_eq!(
        events.last().unwrap()["event"]["type"],
        "CarcassonneGameEnded"
    );
}

#[actix_web::test]
async fn a_whole_three_player_game_with_both_expansions_is_played_by_following_moves() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    let auditor = s.player("auditor").await;
    let id = s
        .game(
            "carcassonne",
            json!({"mage_and_witch": true, "gold_mines": true}),
            &tokens,
        )
        .await;
    let readers: Vec<Option<&str>> = tokens
        .iter()
        .map(|t| Some(t.as_str()))
        .chain([None, Some(auditor.as_str())])
        .collect();
    let mut pick = Pick::new(9);
    let mut commands = 0;
    let mut seen_types: HashSet<String> = HashSet::new();
    let mut early_view = None;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let mut to_act = game.body["to_act"].clone();
    loop {
        let seat = to_act[0].as_u64().expect("somebody acts") as usize;
        let moves = s.moves(id, &tokens[seat]).await;
        let moves = moves.body["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "seat {seat} must act and has moves");
        if commands % 10 == 0 {
            let game = s.get(&format!("/v1/games/{id}"), None).await;
            let view = &game.body["view"];
            assert_eq!(view["turn"], seat);
            if view["phase"] == "place_tile" {
                assert!(
                    view["drawn_tile"]["segments"].is_array(),
                    "the drawn tile is public"
                );
                assert!(moves.iter().all(|m| m["command"]["type"] == "PlaceTile"));
            }
            if commands == 30 {
                early_view = Some((game.body["version"].as_i64().unwrap(), view.clone()));
            }
        }
        if commands % 50 == 0 {
            let other = (seat + 1) % 3;
            let none = s.moves(id, &tokens[other]).await;
            assert_eq!(
                none.body["moves"],
                json!([]),
                "only the seat to act has moves"
            );
            check_pile_order_never_shown(&s, id, &readers).await;
        }
        let chosen = choose(&mut pick, &moves);
        seen_types.insert(chosen["command"]["type"].as_str().unwrap().to_string());
        let r = s.commanded(id, &tokens[seat], &chosen).await;
        commands += 1;
        assert!(commands < 1000, "the game does not end");
        if r.body["finished"] == true {
            break;
        }
        to_act = r.body["to_act"].clone();
    }
    for expected in [
        "PlaceTile",
        "PlaceFollower",
        "SkipFollower",
        "PlaceMageOrWitch",
    ] {
        assert!(seen_types.contains(expected), "no {expected} in the game");
    }

    the_end_adds_up(&s, id).await;
    check_pile_order_never_shown(&s, id, &readers).await;

    // A past board is the board as it was.
    let (version, early) = early_view.unwrap();
    let replay = s
        .get(
            &format!("/v1/games/{id}/replay?at={version}"),
            Some(&tokens[1]),
        )
        .await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    assert_eq!(replay.body["view"], early);

    // Bad input changes nothing.
    let r = s
        .command(
            id,
            &tokens[0],
            &json!({"command": {"type": "SkipFollower"}}),
        )
        .await;
    assert_eq!((r.status, r.code()), (422, "game_over"));

    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn a_misplaced_tile_is_refused_with_the_rule_and_changes_nothing() {
    let (s, tokens, id) = ada_and_bea_playing("carcassonne", json!({})).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
    let version = game.body["version"].clone();
    for (command, status, code) in [
        (
            json!({"type": "PlaceTile", "x": 0, "y": 0, "rotation": 0}),
            422,
            "place_taken",
        ),
        (
            json!({"type": "PlaceTile", "x": 5, "y": 5, "rotation": 0}),
            422,
            "not_adjacent",
        ),
        (
            json!({"type": "PlaceTile", "x": i32::MAX, "y": i32::MIN, "rotation": 0}),
            422,
            "not_adjacent",
        ),
        (
            json!({"type": "PlaceTile", "x": 1, "y": 0, "rotation": 45}),
            422,
            "invalid_rotation",
        ),
        (json!({"type": "SkipFollower"}), 422, "not_this_step"),
        (json!({"type": "PlaceTile", "x": 1, "y": 0}), 400, ""),
        (
            json!({"type": "PlaceTile", "x": 1, "y": 0, "rotation": 0, "meeple": 1}),
            400,
            "",
        ),
    ] {
        let r = s
            .command(id, &tokens[seat], &json!({ "command": command }))
            .await;
        assert_eq!(r.status, status, "{command}: {}", r.body);
        if !code.is_empty() {
            assert_eq!(r.code(), code, "{command}");
        }
    }
    let r = s
        .command(
            id,
            &tokens[1 - seat],
            &json!({"command": {"type": "SkipFollower"}}),
        )
        .await;
    assert_eq!((r.status, r.code()), (422, "not_your_turn"));
    let after = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(after.body["version"], version);
    let kinds = s.get("/v1/kinds", None).await;
    let carcassonne = kinds
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "carcassonne")
        .unwrap()
        .clone();
    assert_eq!(carcassonne["options_schema"], "CarcassonneOptions");
    assert_eq!(
        (
            carcassonne["min_seats"].as_u64(),
            carcassonne["max_seats"].as_u64()
        ),
        (Some(2), Some(5))
    );
    let bad = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": "carcassonne", "seats": 2, "options": {"river": true}}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    s.finish().await;
}
