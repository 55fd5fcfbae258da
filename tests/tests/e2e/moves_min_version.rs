//! `GET /v1/games/{id}/moves?min_version=N`: the moves at version N or a later one, which a
//! process that holds the game at such a version answers from memory. A client names the newest
//! version it knows, so it is never shown an older game than it has seen; without the parameter
//! the answer is at the game's newest version, in any process.

use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Pick, Reply, TestServer};

fn moves_of(reply: &Reply) -> Vec<Value> {
    reply.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["command"].clone())
        .collect()
}

/// Posts the first listed move of the seat `to_act` names first, through `s`; the answer.
async fn first_move_of(s: &TestServer, id: i64, tokens: &[String], to_act: &Value) -> Reply {
    let seat = to_act[0].as_u64().unwrap() as usize;
    s.first_move(id, &tokens[seat]).await
}

#[actix_web::test]
async fn every_seat_gets_at_a_known_version_what_the_newest_read_shows() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let id = s
        .game("burgbaumeister", json!({"variant": true}), &tokens)
        .await;
    let mut pick = Pick::new(11);
    let (mut undoable, mut commands) = (0, 0);
    for _ in 0..120 {
        let board = s.get(&format!("/v1/games/{id}"), None).await;
        if board.body["status"] == "finished" {
            break;
        }
        let seat = board.body["to_act"][0].as_u64().unwrap() as usize;
        let r = s
            .random_move(id, &tokens[seat], &mut pick)
            .await
            .expect("the seat to act has moves");
        let written = r.version();
        commands += 1;
        // Each seat, the one that moved (who may take it back) and the others alike: the
        // whole answer (version, seat, moves, can_undo, signed head) is the newest read's.
        for token in &tokens {
            let held = s
                .get(
                    &format!("/v1/games/{id}/moves?min_version={written}"),
                    Some(token),
                )
                .await;
            let newest = s.moves(id, token).await;
            assert_eq!(held.version(), written);
            assert_eq!(held.body, newest.body, "after command {commands}");
            if held.body["can_undo"] == true {
                undoable += 1;
            }
        }
    }
    assert!(commands > 30, "a long game: {commands}");
    assert!(undoable > 0, "some commands could be taken back");
    s.finish().await;
}

#[actix_web::test]
async fn a_process_answers_a_version_it_holds_and_reads_a_newer_one() {
    let a = TestServer::start().await;
    let b = a.another(|_| {}).await;
    let tokens = a.players(&["ada", "bea", "cyd"]).await;
    let id = a
        .game("burgbaumeister", json!({"variant": true}), &tokens)
        .await;
    let start = a.get(&format!("/v1/games/{id}"), None).await;
    // A command through B: B holds the game at its version (and the seat, the last command).
    let first = first_move_of(&b, id, &tokens, &start.body["to_act"]).await;
    let held = first.version();
    let mover = start.body["to_act"][0].as_u64().unwrap() as usize;
    // The next one through A: only the database and A know the newer version.
    let second = first_move_of(&a, id, &tokens, &first.body["to_act"]).await;
    let newer = second.version();
    assert!(newer > held);
    let truth = a.truth(id).await;
    let moves = |min: Option<i64>| {
        let query = min.map(|v| format!("?min_version={v}")).unwrap_or_default();
        b.get(
            &format!("/v1/games/{id}/moves{query}"),
            Some(&tokens[mover]),
        )
    };

    // Asked for the version it holds, B answers it: what A's command did is not read, and what
    // B answers is exactly that version's moves.
    let at_held = moves(Some(held)).await;
    assert_eq!(at_held.version(), held);
    assert_eq!(moves_of(&at_held), truth.moves(held, mover as u8));
    assert_eq!(at_held.body["seat"], mover);
    // Without `min_version`, or naming the newer version, B reads it.
    for min in [None, Some(newer), Some(newer + 100)] {
        let read = moves(min).await;
        assert_eq!(read.version(), newer, "min_version {min:?}");
        assert_eq!(moves_of(&read), truth.moves(newer, mover as u8));
    }
    // Once B has read the newer version, an older `min_version` is not answered with less.
    assert_eq!(moves(Some(held)).await.version(), newer);
    b.finish().await;
    a.finish().await;
}

#[actix_web::test]
async fn a_game_with_the_turn_clock_is_always_read() {
    // The turn clock's deadlines are computed in the database: such a game's moves are never
    // answered from memory, whatever the version asked for.
    let a = TestServer::start().await;
    let b = a.another(|_| {}).await;
    let tokens = a.players(&["ada", "bea"]).await;
    let id = a
        .game("burgbaumeister", json!({"move_minutes": 60}), &tokens)
        .await;
    let start = a.get(&format!("/v1/games/{id}"), None).await;
    let first = first_move_of(&b, id, &tokens, &start.body["to_act"]).await;
    let held = first.version();
    let mover = start.body["to_act"][0].as_u64().unwrap() as usize;
    let newer = first_move_of(&a, id, &tokens, &first.body["to_act"])
        .await
        .version();
    let read = b
        .get(
            &format!("/v1/games/{id}/moves?min_version={held}"),
            Some(&tokens[mover]),
        )
        .await;
    assert_eq!(read.version(), newer);
    b.finish().await;
    a.finish().await;
}

#[actix_web::test]
async fn a_bad_min_version_is_refused_and_says_why() {
    // Private games are checked with every other way of reading in `private_games.rs`.
    let (s, tokens, id) = ada_and_bea_playing("burgbaumeister", json!({})).await;
    for bad in ["-1", "x", "1.5", ""] {
        let r = s
            .get(
                &format!("/v1/games/{id}/moves?min_version={bad}"),
                Some(&tokens[0]),
            )
            .await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert_eq!(r.code(), "invalid_query");
    }
    s.finish().await;
}
