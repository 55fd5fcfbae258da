//! Several server processes on one database (issue 10): each has its own pool, aggregate
//! cache and seat cache, and none may lose a command, decide on a state another process has
//! moved past, or show a writer less than what its successful POST answered.

use baumeister_domain::Viewer;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Pick, TestServer};

#[actix_web::test]
async fn commands_through_either_process_are_read_at_once_through_the_other() {
    let a = TestServer::start().await;
    let b = a.another(|_| {}).await;
    let tokens = a.players(&["ada", "bea", "cyd"]).await;
    // A Burgbaumeister game can end early (blocked: no player can place any card left in the
    // store), and one that ends within 50 commands says too little of the two processes: then
    // another is played, at most five.
    let (mut id, mut accepted) = (0, Vec::new());
    for attempt in 0..5 {
        id = a
            .game("burgbaumeister", json!({"variant": true}), &tokens)
            .await;
        let processes = [&a, &b];
        let mut pick = Pick::new(7 + attempt);
        accepted = Vec::new();
        for i in 0..400 {
            // Both caches hold the game at every step, so each POST may land on a stale one.
            let (writer, reader) = (processes[i % 2], processes[(i + 1) % 2]);
            let board = reader.get(&format!("/v1/games/{id}"), None).await;
            if board.body["status"] == "finished" {
                break;
            }
            let seat = board.body["to_act"][0].as_u64().unwrap() as usize;
            let moves = writer.moves(id, &tokens[seat]).await;
            let listed = moves.body["moves"].as_array().unwrap();
            let command = listed[pick.below(listed.len())]["command"].clone();
            let r = writer
                .command(id, &tokens[seat], &json!({ "command": command }))
                .await;
            let written = r.version();
            accepted.push(r.body.clone());
            // Read your writes, through the other process: the board, the moves and the log.
            let truth = reader.truth(id).await;
            for (token, viewer) in [
                (Some(tokens[seat].as_str()), Viewer::Seat(seat as u8)),
                (None, Viewer::Spectator),
            ] {
                let board = reader.get(&format!("/v1/games/{id}"), token).await;
                assert_eq!(board.version(), written, "the board after POST {i}");
                assert_eq!(board.body["view"], truth.view(written, viewer));
            }
            let moves = reader.moves(id, &tokens[seat]).await;
            assert_eq!(moves.version(), written, "the moves after POST {i}");
            let listed: Vec<Value> = moves.body["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["command"].clone())
                .collect();
            assert_eq!(listed, truth.moves(written, seat as u8));
        }
        if accepted.len() > 50 {
            break;
        }
    }
    assert!(accepted.len() > 50, "a long game: {}", accepted.len());
    // Nothing lost, nothing twice: versions run 1, 2, … and each accepted command's events
    // are the log's at the versions its response named.
    let truth = a.truth(id).await;
    let mut expected_version = accepted[0]["version"].as_i64().unwrap()
        - accepted[0]["events"].as_array().unwrap().len() as i64;
    for response in &accepted {
        let events = response["events"].as_array().unwrap();
        for event in events {
            expected_version += 1;
            assert_eq!(event["version"], expected_version, "contiguous");
        }
        assert_eq!(response["version"], expected_version);
    }
    assert_eq!(truth.events.len() as i64, expected_version);
    let commands: i64 = a
        .db()
        .await
        .query_one(
            "SELECT count(*) FROM commands WHERE game_id = $1 AND account_id IS NOT NULL AND seat IS NOT NULL",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(
        commands,
        accepted.len() as i64,
        "one stored command per 200"
    );
    b.finish().await;
    a.finish().await;
}

#[actix_web::test]
async fn players_racing_through_two_processes_on_one_game_lose_nothing() {
    // Space Builder: both seats build at once, each through its own process, with no
    // expected_version: a command that loses a race is decided again on the newest state.
    let a = TestServer::start().await;
    let b = a.another(|_| {}).await;
    let tokens = a.players(&["ada", "bea"]).await;
    let id = a.game("space-builder", json!({}), &tokens).await;
    let (ada, bea) = tokio::join!(
        baumeister_tests::space_builder_client(&a, id, &tokens[0], 1),
        baumeister_tests::space_builder_client(&b, id, &tokens[1], 2),
    );
    let finished = a.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(finished.body["status"], "finished", "{}", finished.body);
    let db = a.db().await;
    let row = db
        .query_one(
            "SELECT count(*) FILTER (WHERE account_id IS NOT NULL AND seat IS NOT NULL),
                    (SELECT count(*) FROM events WHERE game_id = $1),
                    (SELECT max(version) FROM events WHERE game_id = $1)
             FROM commands WHERE game_id = $1",
            &[&id],
        )
        .await
        .unwrap();
    let (players_commands, events, last): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
    assert_eq!(
        players_commands,
        (ada + bea) as i64,
        "every accepted command stored once"
    );
    assert_eq!(events, last, "versions 1 to {last}, none missing");
    // Both processes end on the same board.
    assert_eq!(
        b.get(&format!("/v1/games/{id}"), None).await.body["view"],
        finished.body["view"]
    );
    b.finish().await;
    a.finish().await;
}

/// A client that sends one pinned command twice with the same Idempotency-Key (a retry after a
/// timeout, say) through two processes at once gets the command's one answer twice: the twin
/// that loses the race is answered with the winner's stored response, as a repeat after it
/// would be, never with 409 for a version that its own command moved past.
#[actix_web::test]
async fn twin_requests_with_one_key_through_two_processes_get_the_same_answer() {
    let a = TestServer::start().await;
    let b = a.another(|_| {}).await;
    let tokens = a.players(&["ada", "bea"]).await;
    let id = a.game("burgbaumeister", json!({}), &tokens).await;
    let mut pick = Pick::new(11);
    for i in 0..60 {
        let board = a.get(&format!("/v1/games/{id}"), None).await;
        if board.body["status"] == "finished" {
            break;
        }
        let seat = board.body["to_act"][0].as_u64().unwrap() as usize;
        // Listed by one process, so the other's cache is behind half of the time and the
        // twins race on the path that reads the head first too.
        let lister = if i % 2 == 0 { &a } else { &b };
        let moves = lister.moves(id, &tokens[seat]).await;
        let listed = moves.body["moves"].as_array().unwrap();
        let chosen = &listed[pick.below(listed.len())];
        let body =
            json!({"command": chosen["command"], "expected_version": chosen["expected_version"]});
        let key = format!("twin-{i}");
        let (first, second) = tokio::join!(
            send_keyed(&a, id, &tokens[seat], &body, &key),
            send_keyed(&b, id, &tokens[seat], &body, &key)
        );
        assert_eq!(first.status, 200, "twin {i} through a: {}", first.body);
        assert_eq!(second.status, 200, "twin {i} through b: {}", second.body);
        assert_eq!(first.body, second.body, "twin {i}: one answer");
    }
    let db = a.db().await;
    let stored: i64 = db
        .query_one(
            "SELECT count(*) FROM commands WHERE game_id = $1 AND idempotency_key LIKE 'twin-%'",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    assert!(stored > 0);
    let keys: i64 = db
        .query_one(
            "SELECT count(DISTINCT idempotency_key) FROM commands WHERE game_id = $1",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, keys, "each key's command stored once");
    b.finish().await;
    a.finish().await;
}

/// A command sent with an Idempotency-Key.
async fn send_keyed(
    s: &TestServer,
    id: i64,
    token: &str,
    body: &Value,
    key: &str,
) -> baumeister_tests::Reply {
    let request = s
        .request("POST", &format!("/v1/games/{id}/commands"), Some(token))
        .insert_header(("Content-Type", "application/json"))
        .insert_header(("Idempotency-Key", key.to_string()));
    s.send(request, Some(body.to_string().into_bytes())).await
}
