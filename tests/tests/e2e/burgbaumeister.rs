//! Der Wettkampf der Burgbaumeister end to end: whole games played by following `/moves`,
//! hidden cards in views, logs and replays, races, idempotency and bad input.

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Pick, TestServer};

/// Plays until the game ends, each seat choosing among its `/moves` (placing cards when it can,
/// so that games end). Returns the number of commands sent.
async fn play_to_end(
    s: &TestServer,
    id: i64,
    tokens: &[String],
    seed: u64,
    cannons: &mut usize,
) -> usize {
    let mut pick = Pick::new(seed);
    let mut sent = 0;
    loop {
        let game = s.get(&format!("/v1/games/{id}"), Some(&tokens[0])).await;
        assert_eq!(game.status, 200, "{}", game.body);
        if game.body["status"] == "finished" {
            return sent;
        }
        let to_act = game.body["to_act"].as_array().unwrap();
        assert_eq!(to_act.len(), 1, "one seat acts at a time");
        let seat = to_act[0].as_u64().unwrap() as usize;
        let token = &tokens[seat];
        // Only the seat to act has moves.
        for (other, t) in tokens.iter().enumerate() {
            if other != seat {
                let m = s.moves(id, t).await;
                assert_eq!(m.body["moves"], json!([]), "seat {other} has no moves");
            }
        }
        let moves = s.moves(id, token).await;
        assert_eq!(moves.status, 200);
        let moves = moves.body["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "the seat to act has moves");
        let listed = |t: &str| moves.iter().any(|m| m["command"]["type"] == t);
        // Firing a cannon is a choice: whenever a target is listed, so is declining.
        assert_eq!(listed("FireCannon"), listed("DeclineCannon"), "{moves:?}");
        if listed("DeclineCannon") {
            *cannons += 1;
        }
        let placing: Vec<&Value> = moves
            .iter()
            .filter(|m| {
                m["command"]["type"] != "TurnUpCard" && m["command"]["type"] != "ReturnCard"
            })
            .collect();
        let chosen = if !placing.is_empty() && pick.below(10) < 9 {
            placing[pick.below(placing.len())].clone()
        } else {
            moves[pick.below(moves.len())].clone()
        };
        s.commanded(id, token, &chosen).await;
        sent += 1;
        assert!(sent < 2000, "the game does not end");
    }
}

async fn players(s: &TestServer, n: usize) -> Vec<String> {
    s.players(&["player0", "player1", "player2", "player3"][..n])
        .await
}

async fn check_finished(s: &TestServer, id: i64, tokens: &[String], variant: bool) {
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["status"], "finished");
    assert_eq!(game.body["to_act"], json!([]));
    let winners = game.body["winners"].as_array().unwrap();
    assert!(!winners.is_empty(), "somebody wins");
    let scores = game.body["scores"].as_array().unwrap();
    assert_eq!(scores.len(), tokens.len());
    let best = scores.iter().map(|s| s.as_i64().unwrap()).max().unwrap();
    if variant {
        for w in winners {
            assert_eq!(
                scores[w.as_u64().unwrap() as usize].as_i64().unwrap(),
                best,
                "variant: most points win"
            );
        }
    }
    // After the end everything is public: the store's cards too.
    let view = &game.body["view"];
    for slot in view["store"].as_array().unwrap() {
        if slot["state"] == "face_down" {
            assert!(
                slot["card"].is_number(),
                "after the end face-down cards are shown"
            );
        }
    }
    let events = s.events(id, None).await;
    assert_eq!(events.last().unwrap()["event"]["type"], "CastleGameEnded");
    assert_eq!(events.len() as i64, game.body["version"].as_i64().unwrap());
    assert!(
        events[1]["event"]["cards"].is_array(),
        "the layout is public after the end"
    );
    // No more commands.
    for t in tokens {
        let m = s.moves(id, t).await;
        assert_eq!(m.body["moves"], json!([]));
    }
    let r = s
        .command(
            id,
            &tokens[0],
            &json!({"command": {"type": "TurnUpCard", "slot": 0}}),
        )
        .await;
    assert_eq!((r.status, r.code()), (422, "game_over"));
}

#[actix_web::test]
async fn whole_base_games_are_played_by_following_moves() {
    let s = TestServer::start().await;
    let tokens = players(&s, 4).await;
    let mut cannons = 0;
    for (n, seed) in [(2usize, 1u64), (3, 2), (4, 3)] {
        let id = s
            .game("burgbaumeister", json!({"variant": false}), &tokens[..n])
            .await;
        play_to_end(&s, id, &tokens[..n], seed, &mut cannons).await;
        check_finished(&s, id, &tokens[..n], false).await;
    }
    assert_eq!(cannons, 0, "a cannon is a plain card in the base game");
    s.finish().await;
}

#[actix_web::test]
async fn whole_variant_games_are_played_by_following_moves() {
    let s = TestServer::start().await;
    let tokens = players(&s, 4).await;
    let mut cannons = 0;
    // The server deals with its own seeds, so whether a cannon comes up in one game is chance:
    // every seat count is played, then more games until some cannon could fire (bounded).
    let plan = [2usize, 3, 4].into_iter().cycle().take(15).enumerate();
    for (i, n) in plan {
        if i >= 3 && cannons > 0 {
            break;
        }
        let id = s
            .game("burgbaumeister", json!({"variant": true}), &tokens[..n])
            .await;
        play_to_end(&s, id, &tokens[..n], 11 + i as u64, &mut cannons).await;
        check_finished(&s, id, &tokens[..n], true).await;
    }
    assert!(
        cannons > 0,
        "some cannon could fire, or be declined, in 15 games"
    );
    s.finish().await;
}

#[actix_web::test]
async fn the_game_starts_when_the_last_seat_is_taken() {
    let s = TestServer::start().await;
    let tokens = players(&s, 3).await;
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": "burgbaumeister", "seats": 3}),
        )
        .await;
    let id = r.body["id"].as_i64().unwrap();
    let early = s
        .command(
            id,
            &tokens[0],
            &json!({"command": {"type": "TurnUpCard", "slot": 0}}),
        )
        .await;
    assert_eq!((early.status, early.code()), (409, "game_not_started"));
    let again = s.join(id, &tokens[0]).await;
    assert_eq!((again.status, again.code()), (409, "already_seated"));
    let r = s.join(id, &tokens[1]).await;
    assert_eq!(r.body["status"], "open");
    let r = s.join(id, &tokens[2]).await;
    assert_eq!(r.body["status"], "active");
    assert_eq!(r.body["to_act"].as_array().unwrap().len(), 1);
    let late = s.player("late").await;
    let r = s.join(id, &late).await;
    assert_eq!((r.status, r.code()), (409, "game_not_open"));
    // The lobby's filters.
    let mine = s.get("/v1/games?mine=true", Some(&tokens[1])).await;
    assert_eq!(mine.body["games"].as_array().unwrap().len(), 1);
    let to_act = r.body["to_act"]
        .as_array()
        .map(|a| a[0].as_u64().unwrap())
        .unwrap_or(0);
    let _ = to_act;
    let summary = s.get(&format!("/v1/games/{id}"), None).await;
    let seat = summary.body["to_act"][0].as_u64().unwrap() as usize;
    let turn = s.get("/v1/games?my_turn=true", Some(&tokens[seat])).await;
    assert_eq!(turn.body["games"].as_array().unwrap().len(), 1);
    let other = s
        .get("/v1/games?my_turn=true", Some(&tokens[(seat + 1) % 3]))
        .await;
    assert_eq!(other.body["games"], json!([]));
    let by_kind = s
        .get("/v1/games?kind=burgbaumeister&status=active", None)
        .await;
    assert_eq!(by_kind.body["games"].as_array().unwrap().len(), 1);
    let none = s.get("/v1/games?status=finished", None).await;
    assert_eq!(none.body["games"], json!([]));
    s.finish().await;
}

fn face_down_numbers(view: &Value) -> Vec<Value> {
    view["store"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|slot| slot["state"] == "face_down")
        .map(|slot| slot["card"].clone())
        .collect()
}

#[actix_web::test]
async fn face_down_cards_are_hidden_in_views_logs_and_replays_but_not_from_auditors() {
    let s = TestServer::start().await;
    let tokens = players(&s, 2).await;
    let auditor = s.auditor("auditor").await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
    let r = s
        .commanded(
            id,
            &tokens[seat],
            &json!({"command": {"type": "TurnUpCard", "slot": 7}}),
        )
        .await;
    let turned = r.body["events"][0]["event"]["card"].clone();
    assert!(turned.is_number(), "a turned-up card is public");
    for reader in [Some(tokens[0].as_str()), Some(tokens[1].as_str()), None] {
        let view = s.get(&format!("/v1/games/{id}"), reader).await.body["view"].clone();
        assert!(face_down_numbers(&view).iter().all(Value::is_null), "view");
        assert_eq!(view["turned_up"]["card"], turned);
        let replay = s.get(&format!("/v1/games/{id}/replay?at=2"), reader).await;
        assert_eq!(replay.status, 200);
        assert!(
            face_down_numbers(&replay.body["view"])
                .iter()
                .all(Value::is_null),
            "replay"
        );
        let log = s.get(&format!("/v1/games/{id}/events"), reader).await;
        let text = log.body.to_string();
        assert!(
            log.body["events"][1]["event"]["cards"].is_null(),
            "log: {text}"
        );
    }
    // Polling: the ETag answers 304 until something changes.
    let first = s.get(&format!("/v1/games/{id}"), None).await;
    let etag = first.header("etag").unwrap().to_string();
    for tag in [etag.as_str(), "*"] {
        let request = s
            .request("GET", &format!("/v1/games/{id}"), None)
            .insert_header(("If-None-Match", tag));
        assert_eq!(s.send(request, None).await.status, 304, "{tag}");
    }
    let view = s.get(&format!("/v1/games/{id}"), Some(&auditor)).await.body["view"].clone();
    assert!(
        face_down_numbers(&view).iter().all(Value::is_number),
        "auditors see everything"
    );
    let log = s
        .get(&format!("/v1/games/{id}/events"), Some(&auditor))
        .await;
    assert_eq!(
        log.body["events"][1]["event"]["cards"]
            .as_array()
            .unwrap()
            .len(),
        45
    );
    // An auditor who sits at a game plays it as that seat, without the others' secrets.
    let played = s
        .game(
            "burgbaumeister",
            json!({}),
            &[auditor.clone(), tokens[0].clone()],
        )
        .await;
    let view = s
        .get(&format!("/v1/games/{played}"), Some(&auditor))
        .await
        .body["view"]
        .clone();
    assert!(
        face_down_numbers(&view).iter().all(Value::is_null),
        "a seated auditor"
    );
    let log = s
        .get(&format!("/v1/games/{played}/events"), Some(&auditor))
        .await;
    assert!(log.body["events"][1]["event"]["cards"].is_null());
    let r = s.get(&format!("/v1/games/{id}/replay?at=0"), None).await;
    assert_eq!((r.status, r.code()), (400, "version_out_of_range"));
    let r = s.get(&format!("/v1/games/{id}/replay?at=99"), None).await;
    assert_eq!((r.status, r.code()), (400, "version_out_of_range"));
    s.finish().await;
}

/// The game's version and how many events are stored, to prove nothing changed.
async fn fingerprint(s: &TestServer, id: i64) -> (i64, i64, i64) {
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT (SELECT version FROM games WHERE id = $1), (SELECT count(*) FROM events WHERE game_id = $1), (SELECT count(*) FROM commands WHERE game_id = $1)",
            &[&id],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

/// Bodies of a command refused for their form (400), with the code each is refused with.
const MALFORMED_COMMANDS: [(&str, &str); 11] = [
    ("{not json", "malformed_request"),
    ("[]", "malformed_request"),
    ("{\"command\": 5}", "invalid_command"),
    ("{\"command\": {}}", "invalid_command"),
    ("{\"command\": {\"type\": \"Teleport\"}}", "unknown_command"),
    (
        "{\"command\": {\"type\": \"TurnUpCard\", \"slot\": 1, \"slott\": 2}}",
        "invalid_command",
    ),
    (
        "{\"command\": {\"type\": \"TurnUpCard\", \"slot\": 1, \"note\": \"a\\u0000b\"}}",
        "invalid_command",
    ),
    (
        "{\"command\": {\"type\": \"TurnUpCard\"}}",
        "invalid_command",
    ),
    (
        "{\"command\": {\"type\": \"TurnUpCard\", \"slot\": -1}}",
        "invalid_command",
    ),
    (
        "{\"command\": {\"type\": \"TurnUpCard\", \"slot\": 300}}",
        "invalid_command",
    ),
    (
        "{\"command\": {\"type\": \"TurnUpCard\", \"slot\": 0}, \"expected_version\": \"x\"}",
        "malformed_request",
    ),
];

#[actix_web::test]
async fn bad_input_gets_the_right_status_and_code_and_changes_nothing() {
    let s = TestServer::start().await;
    let tokens = players(&s, 2).await;
    let stranger = s.player("stranger").await;
    let auditor = s.auditor("auditor").await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let seat = s.get(&format!("/v1/games/{id}"), None).await.body["to_act"][0]
        .as_u64()
        .unwrap() as usize;
    let (me, other) = (&tokens[seat], &tokens[1 - seat]);
    let path = format!("/v1/games/{id}/commands");
    let before = fingerprint(&s, id).await;

    let raw = |body: &'static str| {
        let request = s
            .request("POST", &path, Some(me))
            .insert_header(("Content-Type", "application/json"));
        s.send(request, Some(body.as_bytes().to_vec()))
    };
    for (body, code) in MALFORMED_COMMANDS {
        let r = raw(body).await;
        assert_eq!((r.status, r.code()), (400, code), "{body}: {}", r.body);
    }
    let send =
        |token: &String, command: Value| s.post(&path, Some(token), &json!({"command": command}));
    let r = send(me, json!({"type": "TurnUpCard", "slot": 45})).await;
    assert_eq!(r.status, 422, "slot out of range: {}", r.body);
    let r = send(other, json!({"type": "TurnUpCard", "slot": 0})).await;
    assert_eq!((r.status, r.code()), (422, "not_your_turn"));
    let r = send(&stranger, json!({"type": "TurnUpCard", "slot": 0})).await;
    assert_eq!((r.status, r.code()), (403, "not_seated"));
    let r = send(me, json!({"type": "AddCardToWall"})).await;
    assert_eq!(r.status, 422, "nothing turned up yet: {}", r.body);
    let r = s
        .post(
            &path,
            None,
            &json!({"command": {"type": "TurnUpCard", "slot": 0}}),
        )
        .await;
    assert_eq!((r.status, r.code()), (401, "token_missing"));
    let r = s
        .post(
            "/v1/games/424242/commands",
            Some(me),
            &json!({"command": {"type": "TurnUpCard", "slot": 0}}),
        )
        .await;
    assert_eq!((r.status, r.code()), (404, "game_not_found"));
    let r = s
        .post(
            &path,
            Some(me),
            &json!({"command": {"type": "TurnUpCard", "slot": 0}, "expected_version": 999}),
        )
        .await;
    assert_eq!((r.status, r.code()), (409, "version_conflict"));
    assert_eq!(
        fingerprint(&s, id).await,
        before,
        "refused commands change nothing"
    );

    // An illegal card: turn up the 46 and build it, then the next turn's card is lower.
    let everything = s.get(&format!("/v1/games/{id}"), Some(&auditor)).await.body["view"].clone();
    let slot_of = |card: u64| {
        everything["store"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["card"] == card)
            .unwrap()["slot"]
            .clone()
    };
    assert_eq!(
        send(me, json!({"type": "TurnUpCard", "slot": slot_of(46)}))
            .await
            .status,
        200
    );
    assert_eq!(send(me, json!({"type": "AddCardToWall"})).await.status, 200);
    assert_eq!(
        send(other, json!({"type": "TurnUpCard", "slot": slot_of(2)}))
            .await
            .status,
        200
    );
    assert_eq!(send(other, json!({"type": "ReturnCard"})).await.status, 200);
    assert_eq!(
        send(me, json!({"type": "TurnUpCard", "slot": slot_of(30)}))
            .await
            .status,
        200
    );
    let before = fingerprint(&s, id).await;
    let r = send(me, json!({"type": "AddCardToWall"})).await;
    assert_eq!((r.status, r.code()), (422, "card_too_low"));
    assert!(
        r.body["detail"].as_str().unwrap().len() > 10,
        "the rule in words"
    );
    assert_eq!(fingerprint(&s, id).await, before);
    s.finish().await;
}

#[actix_web::test]
async fn an_idempotency_key_replayed_returns_the_first_response_and_appends_nothing() {
    let s = TestServer::start().await;
    let tokens = players(&s, 2).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let seat = s.get(&format!("/v1/games/{id}"), None).await.body["to_act"][0]
        .as_u64()
        .unwrap() as usize;
    let path = format!("/v1/games/{id}/commands");
    let post = |command: Value| {
        let request = s
            .request("POST", &path, Some(&tokens[seat]))
            .insert_header(("Content-Type", "application/json"))
            .insert_header(("Idempotency-Key", "turn-1"));
        s.send(
            request,
            Some(serde_json::to_vec(&json!({"command": command})).unwrap()),
        )
    };
    let first = post(json!({"type": "TurnUpCard", "slot": 3})).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let after_first = fingerprint(&s, id).await;
    let second = post(json!({"type": "TurnUpCard", "slot": 3})).await;
    assert_eq!(second.status, 200);
    assert_eq!(second.body, first.body);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(fingerprint(&s, id).await, after_first);
    let different = post(json!({"type": "ReturnCard"})).await;
    assert_eq!(
        (different.status, different.code()),
        (422, "idempotency_key_reused")
    );
    assert_eq!(fingerprint(&s, id).await, after_first);
    s.finish().await;
}

#[actix_web::test]
async fn two_clients_racing_on_one_version_one_wins_one_gets_409_and_nothing_is_lost() {
    let s = TestServer::start().await;
    let tokens = players(&s, 2).await;
    for round in 0..10 {
        let id = s.game("burgbaumeister", json!({}), &tokens).await;
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        let version = game.body["version"].as_i64().unwrap();
        let path = format!("/v1/games/{id}/commands");
        let a = s.post(
            &path,
            Some(&tokens[seat]),
            &json!({"command": {"type": "TurnUpCard", "slot": round}, "expected_version": version}),
        );
        let b = s.post(&path, Some(&tokens[seat]), &json!({"command": {"type": "TurnUpCard", "slot": round + 1}, "expected_version": version}));
        let (a, b) = futures_join(a, b).await;
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{} / {}", a.body, b.body);
        let loser = if a.status == 409 { &a } else { &b };
        assert_eq!(loser.code(), "version_conflict");
        let (version_now, events, _) = fingerprint(&s, id).await;
        assert_eq!(version_now, version + 1, "exactly one event appended");
        assert_eq!(events, version_now, "versions 1..=n, none lost or doubled");
    }
    // Without a pinned version the loser is decided again on the new state: there, turning up
    // a second card breaks a rule (422), it is not a conflict.
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let seat = s.get(&format!("/v1/games/{id}"), None).await.body["to_act"][0]
        .as_u64()
        .unwrap() as usize;
    let path = format!("/v1/games/{id}/commands");
    let a = s.post(
        &path,
        Some(&tokens[seat]),
        &json!({"command": {"type": "TurnUpCard", "slot": 0}}),
    );
    let b = s.post(
        &path,
        Some(&tokens[seat]),
        &json!({"command": {"type": "TurnUpCard", "slot": 1}}),
    );
    let (a, b) = futures_join(a, b).await;
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, [200, 422], "{} / {}", a.body, b.body);
    s.finish().await;
}

/// Runs two requests at once on this thread.
async fn futures_join<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    tokio::join!(a, b)
}

#[actix_web::test]
async fn the_event_log_is_hash_chained_and_projections_equal_a_rebuild() {
    use baumeister_storage::{Chain, GENESIS};
    let s = TestServer::start().await;
    let tokens = players(&s, 3).await;
    let id = s
        .game("burgbaumeister", json!({"variant": true}), &tokens)
        .await;
    play_to_end(&s, id, &tokens, 99, &mut 0).await;
    let db = s.db().await;
    let rows = db
        .query(
            "SELECT version, type, payload, hash FROM events WHERE game_id = $1 ORDER BY version",
            &[&id],
        )
        .await
        .unwrap();
    // The chain covers the game's global uid (kept by exports and imports), not its local id.
    // Each link is salted with the game's secret (chain format 2), revealed now it has ended.
    let row = db
        .query_one(
            "SELECT uid::text, secret, chain_format FROM game_fairness WHERE game_id = $1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(
        row.get::<_, i16>(2),
        2,
        "games are created with salted chains"
    );
    let chain = Chain::salted(
        baumeister_storage::trust::uid_bytes(&row.get::<_, String>(0)),
        row.get(1),
    );
    let mut previous = GENESIS.to_vec();
    let mut payloads = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let version: i64 = row.get(0);
        assert_eq!(version, i as i64 + 1);
        let payload: Value = row.get(2);
        let hash: Vec<u8> = row.get(3);
        assert_eq!(
            hash,
            chain.event_hash(&previous, version, row.get(1), &payload),
            "event {version}"
        );
        previous = hash;
        payloads.push(payload);
    }
    // Every board served, to each seat and to spectators, is the view of the state replayed
    // from the events alone, in this process (cached aggregate) and in a fresh one (cold).
    let game = baumeister_domain::registry::find("burgbaumeister").unwrap();
    let state = game.replay(&payloads).unwrap();
    let cold = s.another(|_| {}).await;
    for server in [&s, &cold] {
        for seat in [None, Some(0u8), Some(1), Some(2)] {
            let viewer = match seat {
                None => baumeister_domain::Viewer::Spectator,
                Some(seat) => baumeister_domain::Viewer::Seat(seat),
            };
            let token = seat.map(|seat| tokens[seat as usize].as_str());
            let served = server.get(&format!("/v1/games/{id}"), token).await;
            assert_eq!(served.status, 200, "{}", served.body);
            assert_eq!(
                served.body["view"],
                game.view(&state, game.effective_viewer(&state, viewer)),
                "{viewer:?}"
            );
        }
    }
    cold.finish().await;
    // The lobby row, thrown away and rebuilt from the events alone (`baumeister
    // rebuild-projections`), comes back exactly as the live path wrote it.
    let snapshot = "SELECT row_to_json(g)::text FROM (SELECT version, status, to_act, progress, deadline_ms FROM games WHERE id = $1) g";
    let live: String = db.query_one(snapshot, &[&id]).await.unwrap().get(0);
    db.batch_execute(&format!(
        "UPDATE games SET status = 'active', to_act = '{{}}', progress = NULL WHERE id = {id}"
    ))
    .await
    .unwrap();
    let store = baumeister_storage::Store::connect(&baumeister_tests::database_url(&s.db), 2, 1)
        .await
        .unwrap();
    assert_eq!(store.rebuild_all_projections().await.unwrap(), 1);
    let rebuilt: String = db.query_one(snapshot, &[&id]).await.unwrap().get(0);
    assert_eq!(rebuilt, live);
    // The audit decides every command again with its stored seed: the same events come out.
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    assert_eq!(audit.body["events"].as_i64().unwrap(), rows.len() as i64);
    // Editing one stored event is caught twice: by the chain and by the decisions.
    db.execute(
        "UPDATE events SET payload = jsonb_set(payload, '{slot}', '44') WHERE game_id = $1 AND version = 3",
        &[&id],
    )
    .await
    .unwrap();
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], false, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], false, "{}", audit.body);
    s.finish().await;
}
