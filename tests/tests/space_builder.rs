//! Space Builder end to end: three clients build at the same time, each following its own
//! `/moves`, their commands interleaved on the server; other cities stay hidden while a round
//! is being built.

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{space_builder_client as client, TestServer};

#[actix_web::test]
async fn three_players_build_at_once_to_the_end_of_a_game() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    let id = s
        .game("space-builder", json!({"timing": "arrival"}), &tokens)
        .await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(
        game.body["to_act"],
        json!([0, 1, 2]),
        "everybody builds at once"
    );

    let (a, b, c) = tokio::join!(
        client(&s, id, &tokens[0], 1),
        client(&s, id, &tokens[1], 2),
        client(&s, id, &tokens[2], 3)
    );
    assert!(a + b + c > 0);

    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["status"], "finished");
    let winner = game.body["view"]["winner"].as_u64().expect("a winner");
    assert_eq!(game.body["winners"], json!([winner]));
    // The log is whole: versions 1..=n without gaps, readable by anybody after the end.
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT count(*), max(version) FROM events WHERE game_id = $1",
            &[&id],
        )
        .await
        .unwrap();
    let (count, max): (i64, i64) = (row.get(0), row.get(1));
    assert_eq!(count, max);
    assert_eq!(max, game.body["version"].as_i64().unwrap());
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn other_cities_are_hidden_while_a_round_is_built() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game("space-builder", json!({}), &tokens).await;
    let moves = s
        .get(&format!("/v1/games/{id}/moves"), Some(&tokens[0]))
        .await;
    let place = moves.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["command"]["type"] == "PlaceBuildingCard")
        .unwrap()
        .clone();
    let r = s
        .post(
            &format!("/v1/games/{id}/commands"),
            Some(&tokens[0]),
            &place,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mine = s.get(&format!("/v1/games/{id}"), Some(&tokens[0])).await;
    assert_eq!(
        mine.body["view"]["players"][0]["city"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    for reader in [Some(tokens[1].as_str()), None] {
        let theirs = s.get(&format!("/v1/games/{id}"), reader).await;
        let ada = &theirs.body["view"]["players"][0];
        assert!(ada["city"].is_null(), "{ada}");
        assert_eq!(ada["placed"], 1);
        let log = s.get(&format!("/v1/games/{id}/events"), reader).await;
        let placed = log.body["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"]["type"] == "BuildingCardPlaced")
            .expect("the placing is known")
            .clone();
        assert!(
            placed["event"]["placement"].is_null(),
            "where it lies is hidden: {placed}"
        );
    }
    s.finish().await;
}

#[actix_web::test]
async fn a_round_deadline_stops_the_builders_and_is_logged_for_audit() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s
        .game("space-builder", json!({"deadline_minutes": 1}), &tokens)
        .await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["view"]["phase"], "building");
    let deadline = game.body["view"]["deadline_ms"]
        .as_i64()
        .expect("a deadline");
    // Another process of the server, one minute later, finds the deadline due.
    let store = baumeister_storage::Store::connect(&baumeister_tests::database_url(&s.db), 2)
        .await
        .unwrap();
    assert!(
        !store.apply_deadline(id, deadline - 1).await.unwrap(),
        "not yet"
    );
    assert!(store.apply_deadline(id, deadline).await.unwrap());
    assert!(
        !store.apply_deadline(id, deadline).await.unwrap(),
        "only once"
    );
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(
        game.body["view"]["phase"], "releasing",
        "{}",
        game.body["view"]
    );
    let log = s.get(&format!("/v1/games/{id}/events"), None).await;
    let stopped = log.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "BuildingStopped")
        .expect("the stop is in the log")
        .clone();
    assert_eq!(stopped["seat"], Value::Null, "no player caused it");
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT body->>'type', now_ms, account_id FROM commands WHERE game_id = $1 ORDER BY id DESC LIMIT 1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "DeadlinePassed");
    assert_eq!(row.get::<_, i64>(1), deadline);
    assert_eq!(row.get::<_, Option<i64>>(2), None);
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(
        audit.body["decisions_reproduced"], true,
        "deadlines re-run too: {}",
        audit.body
    );
    s.finish().await;
}
