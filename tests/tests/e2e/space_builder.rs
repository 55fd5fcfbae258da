//! Space Builder end to end: three clients build at the same time, each following its own
//! `/moves`, their commands interleaved on the server, in both timings; other cities stay hidden
//! while a round is being built; `elapsed` timing waits for every player; deadlines end the
//! building and the winner's release.

use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::person_builder::plan;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{space_builder_client as client, TestServer};

#[actix_web::test]
async fn three_players_build_at_once_to_the_end_of_a_game() {
    three_players_play_a_whole_game("arrival").await;
}

#[actix_web::test]
async fn three_players_each_in_their_own_time_play_to_the_end_of_a_game() {
    three_players_play_a_whole_game("elapsed").await;
}

async fn three_players_play_a_whole_game(timing: &str) {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    let id = s
        .game("space-builder", json!({ "timing": timing }), &tokens)
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
    let (s, tokens, id) = ada_and_bea_playing("space-builder", json!({})).await;
    let moves = s.moves(id, &tokens[0]).await;
    let place = moves.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["command"]["type"] == "PlaceBuildingCard")
        .unwrap()
        .clone();
    s.commanded(id, &tokens[0], &place).await;
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
async fn a_round_deadline_stops_the_builders_then_releases_for_the_winner_and_is_audited() {
    let (s, _, id) = ada_and_bea_playing("space-builder", json!({"deadline_minutes": 1})).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["view"]["phase"], "building");
    let deadline = game.body["view"]["deadline_ms"]
        .as_i64()
        .expect("a deadline");
    // Another process of the server, one minute later, finds the deadline due.
    let store = baumeister_storage::Store::connect(&baumeister_tests::database_url(&s.db), 2, 1)
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
    // The winner's choice has the same minute; then the server releases their lowest card.
    let release_deadline = game.body["view"]["deadline_ms"]
        .as_i64()
        .expect("the release has a deadline");
    assert_eq!(release_deadline, deadline + 60_000);
    let winner = game.body["view"]["releasing"].as_u64().unwrap() as usize;
    assert!(!store
        .apply_deadline(id, release_deadline - 1)
        .await
        .unwrap());
    assert!(store.apply_deadline(id, release_deadline).await.unwrap());
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["view"]["phase"], "building");
    assert_eq!(game.body["view"]["round"], 2);
    assert_eq!(
        game.body["view"]["players"][winner]["hand"],
        json!([1, 2, 3, 4, 5])
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
    let released = log.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "BuildingCardReleased")
        .expect("the release is in the log")
        .clone();
    assert_eq!(released["seat"], Value::Null, "the server released it");
    assert_eq!(released["event"]["card"], 5, "the lowest card not yet held");
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT body->>'type', now_ms, account_id FROM commands WHERE game_id = $1 ORDER BY id DESC LIMIT 1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "DeadlinePassed");
    assert_eq!(row.get::<_, i64>(1), release_deadline);
    assert_eq!(row.get::<_, Option<i64>>(2), None);
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(
        audit.body["decisions_reproduced"], true,
        "deadlines re-run too: {}",
        audit.body
    );
    s.finish().await;
}

#[actix_web::test]
async fn with_elapsed_timing_a_look_returns_the_blueprint_and_the_round_waits_for_everyone() {
    let (s, tokens, id) = ada_and_bea_playing("space-builder", json!({"timing": "elapsed"})).await;
    let path = format!("/v1/games/{id}/commands");
    let send = |seat: usize, command: Value| {
        s.post(&path, Some(&tokens[seat]), &json!({ "command": command }))
    };
    let before = s.get(&format!("/v1/games/{id}"), Some(&tokens[0])).await;
    assert!(
        before.body["view"]["blueprint"].is_null(),
        "not before looking"
    );
    let r = send(0, json!({"type": "LookAtBlueprint"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let looked = &r.body["events"][0]["event"];
    assert_eq!(looked["type"], "BlueprintLookedAt");
    let blueprint = looked["blueprint"].clone();
    assert!(
        blueprint["cards"].is_array(),
        "the response carries the plan: {looked}"
    );
    assert!(
        blueprint["turn"].is_u64(),
        "the plan names its quarter turns: {looked}"
    );
    let view = s.get(&format!("/v1/games/{id}"), Some(&tokens[0])).await;
    assert_eq!(view.body["view"]["blueprint"], blueprint);
    // The other player's copy of that event does not carry it, nor does their view.
    let log = s
        .get(&format!("/v1/games/{id}/events"), Some(&tokens[1]))
        .await;
    let theirs = log.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "BlueprintLookedAt")
        .unwrap()
        .clone();
    assert!(theirs["event"]["blueprint"].is_null(), "{theirs}");
    let view = s.get(&format!("/v1/games/{id}"), Some(&tokens[1])).await;
    assert!(view.body["view"]["blueprint"].is_null());
    // Ada builds the plan exactly and finishes: with two players the round still goes on.
    for place in plan(&blueprint).into_iter().take(4) {
        let r = send(0, place).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = send(0, json!({"type": "DeclareCityFinished"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["to_act"],
        json!([1]),
        "Bea builds on in her own time"
    );
    // Bea stops without ever looking: she misses every card, and the round ends.
    let moves = s.moves(id, &tokens[1]).await;
    let listed: Vec<&Value> = moves.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["command"]["type"])
        .collect();
    assert_eq!(listed, vec!["LookAtBlueprint", "StopBuilding"]);
    let r = send(1, json!({"type": "StopBuilding"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let checked = r.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "CitiesChecked")
        .expect("the round is checked")
        .clone();
    let result = &checked["event"]["result"];
    assert_eq!(result["winner"], 0);
    assert_eq!(result["cities"][0]["faults"], 0);
    let bea = &result["cities"][1];
    assert_eq!(
        (bea["seat"].clone(), bea["faults"].clone()),
        (json!(1), json!(4))
    );
    assert!(bea["cards"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["verdict"] == "missing"));
    s.finish().await;
}
