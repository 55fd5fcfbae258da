//! The turn clock (option `move_minutes`, every kind) over HTTP: a seat that does not act in time
//! gets its game's default move, recorded with no account, the game goes on, and the audit
//! decides the move again. The server's clock is moved forward instead of waiting.

use baumeister_storage::parse_rfc3339;
use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::turns::{to_act, MINUTE};
use baumeister_tests::TestServer;

/// Each seat's turn deadline (ms) as the game's summary shows it.
fn turn_deadlines(game: &Value) -> Vec<Option<i64>> {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s.get("turn_deadline")
                .and_then(Value::as_str)
                .map(|t| parse_rfc3339(t).expect("an RFC 3339 time"))
        })
        .collect()
}

#[actix_web::test]
async fn burgbaumeister_seats_that_do_not_act_get_their_default_move() {
    a_seat_that_does_not_act_gets_its_default_move("burgbaumeister", json!({}), 2).await;
}

#[actix_web::test]
async fn wettstreit_seats_that_do_not_act_get_their_default_move() {
    a_seat_that_does_not_act_gets_its_default_move("wettstreit", json!({}), 3).await;
}

#[actix_web::test]
async fn space_builder_seats_that_do_not_act_get_their_default_move() {
    a_seat_that_does_not_act_gets_its_default_move(
        "space-builder",
        json!({"timing": "arrival"}),
        2,
    )
    .await;
}

#[actix_web::test]
async fn mauerbauer_seats_that_do_not_act_get_their_default_move() {
    a_seat_that_does_not_act_gets_its_default_move("mauerbauer", json!({}), 2).await;
}

#[actix_web::test]
async fn carcassonne_seats_that_do_not_act_get_their_default_move() {
    a_seat_that_does_not_act_gets_its_default_move("carcassonne", json!({}), 2).await;
}

/// The default moves are recorded as commands with no account, each with the seat it was made
/// for and the clock at which it was due; the first is the first seat's default move.
async fn recorded_without_an_account(
    s: &TestServer,
    id: i64,
    kind: &str,
    waiting: &[u8],
    after: i64,
    expected: &Value,
) {
    let db = s.db().await;
    let rows = db
        .query(
            "SELECT account_id, seat, body, now_ms FROM commands
             WHERE game_id = $1 AND body->>'type' <> 'Setup' ORDER BY id",
            &[&id],
        )
        .await
        .unwrap();
    assert!(!rows.is_empty());
    for row in &rows {
        assert_eq!(row.get::<_, Option<i64>>(0), None, "{kind}: no account");
        let seat = row
            .get::<_, Option<i16>>(1)
            .expect("the seat it was made for");
        assert!(waiting.contains(&(seat as u8)), "{kind}: seat {seat}");
        assert!(row.get::<_, i64>(3) >= after + MINUTE);
    }
    assert_eq!(
        rows[0].get::<_, Option<i16>>(1),
        Some(i16::from(waiting[0]))
    );
    assert_eq!(
        rows[0].get::<_, Value>(2),
        *expected,
        "{kind}: the default move"
    );
}

async fn a_seat_that_does_not_act_gets_its_default_move(kind: &str, options: Value, seats: usize) {
    let s = TestServer::start().await;
    let names = ["ada", "bea", "cem", "dov", "eli"];
    let tokens = s.players(&names[..seats]).await;
    let mut options = options;
    options["move_minutes"] = json!(1);
    let before = s.store.now_ms();
    let id = s.game(kind, options, &tokens).await;
    let after = s.store.now_ms();
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(game["options"]["move_minutes"], 1, "{game}");
    let version = game["version"].as_i64().unwrap();
    let waiting = to_act(&game);
    assert!(!waiting.is_empty());
    // Every seat to act shows when its minute runs out; the others show none.
    for (seat, deadline) in turn_deadlines(&game).into_iter().enumerate() {
        if waiting.contains(&(seat as u8)) {
            let deadline = deadline.expect("a seat to act has a turn deadline");
            assert!(
                (before + MINUTE..=after + MINUTE).contains(&deadline),
                "{kind}: the minute starts at the set-up"
            );
        } else {
            assert_eq!(deadline, None, "{kind}: seat {seat} is not to act");
        }
    }
    let truth = s.truth(id).await;
    let state = truth.state_at(version);
    let first = *waiting.first().unwrap();
    let expected = truth
        .game
        .default_command(&state, first)
        .expect("a seat to act has a default move");

    // Not yet: nothing happens before the minute is up.
    s.store.advance_clock(MINUTE - 5_000);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(game["version"], version, "{kind}: too early");

    // Then the read itself applies what is due (the sweep may have come first).
    s.store.advance_clock(10_000);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert!(
        game["version"].as_i64().unwrap() > version,
        "{kind}: the default move was made: {game}"
    );

    recorded_without_an_account(&s, id, kind, &waiting, after, &expected).await;

    // The log names the seat the move was made for.
    let log = s
        .get(&format!("/v1/games/{id}/events?after={version}"), None)
        .await;
    let first_event = &log.body["events"][0];
    assert_eq!(first_event["seat"], first, "{kind}: {first_event}");

    // The game goes on: a seat to act plays one of its listed moves, and its clock starts
    // again; so does the clock of every seat that becomes one to act.
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(
        game["status"], "active",
        "{kind}: one default move does not end it"
    );
    let old_waiting = to_act(&game);
    let old_deadlines = turn_deadlines(&game);
    let seat = old_waiting[0];
    let moves = s.moves(id, &tokens[seat as usize]).await;
    let command = moves.body["moves"][0].clone();
    assert!(command.is_object(), "{kind}: {}", moves.body);
    s.store.advance_clock(20_000);
    let sent_from = s.store.now_ms();
    let r = s.command(id, &tokens[seat as usize], &command).await;
    assert_eq!(r.status, 200, "{kind}: {}", r.body);
    let sent_until = s.store.now_ms();
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    let deadlines = turn_deadlines(&game);
    for waiting_now in to_act(&game) {
        let deadline = deadlines[waiting_now as usize].expect("to act, so a deadline");
        if waiting_now == seat || !old_waiting.contains(&waiting_now) {
            assert!(
                (sent_from + MINUTE..=sent_until + MINUTE).contains(&deadline),
                "{kind}: seat {waiting_now}'s clock starts again"
            );
        } else {
            assert_eq!(
                Some(deadline),
                old_deadlines[waiting_now as usize],
                "{kind}: another seat's move does not reset seat {waiting_now}'s clock"
            );
        }
    }

    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(
        audit.body["decisions_reproduced"], true,
        "{kind}: the audit re-runs the default moves: {}",
        audit.body
    );
    s.finish().await;
}

#[actix_web::test]
async fn a_game_nobody_plays_ends_by_the_clock_alone() {
    // Space Builder with nobody playing: the clock stops every builder and releases for every
    // round winner, round after round, until the game ends.
    let (s, _, id) = ada_and_bea_playing("space-builder", json!({"move_minutes": 1})).await;
    let mut finished = false;
    for _ in 0..500 {
        s.store.advance_clock(MINUTE);
        s.store.sweep_once().await.unwrap();
        let game = s.get(&format!("/v1/games/{id}"), None).await.body;
        if game["status"] == "finished" {
            finished = true;
            break;
        }
    }
    assert!(finished, "the clock alone brings the game to its end");
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(
        turn_deadlines(&game),
        vec![None, None],
        "no clock runs after the end"
    );
    s.finish().await;
}

#[actix_web::test]
async fn with_simultaneous_turns_each_seat_has_its_own_clock() {
    let (s, tokens, id) = ada_and_bea_playing(
        "space-builder",
        json!({"timing": "elapsed", "move_minutes": 1}),
    )
    .await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(to_act(&game), vec![0, 1]);
    let start = turn_deadlines(&game);
    // The clocks are not in the events: rebuilding the projections keeps them.
    s.store.rebuild_projections(id).await.unwrap();
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(turn_deadlines(&game), start);
    // Ada looks at the blueprint half a minute in: her clock starts again, Bea's does not.
    s.store.advance_clock(30_000);
    s.commanded(
        id,
        &tokens[0],
        &json!({"command": {"type": "LookAtBlueprint"}}),
    )
    .await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    let after_look = turn_deadlines(&game);
    assert!(after_look[0].unwrap() >= start[0].unwrap() + 30_000);
    assert_eq!(after_look[1], start[1]);
    // At Bea's minute only Bea is stopped.
    s.store.advance_clock(35_000);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(
        to_act(&game),
        vec![0],
        "Bea was stopped, Ada builds on: {game}"
    );
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT account_id, seat, body FROM commands WHERE game_id = $1 ORDER BY id DESC LIMIT 1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, Option<i64>>(0), None);
    assert_eq!(row.get::<_, Option<i16>>(1), Some(1));
    assert_eq!(row.get::<_, Value>(2), json!({"type": "StopBuilding"}));
    assert_eq!(turn_deadlines(&game)[0], after_look[0]);
    // Then Ada's own minute runs out too, and the round ends.
    s.store.advance_clock(30_000);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_ne!(game["view"]["phase"], "building", "{game}");
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn a_space_builder_seat_that_keeps_acting_cannot_hold_the_round_open() {
    // Each act restarts the actor's clock, so the clock alone never ends a round Ada keeps
    // building in. The rules bound the round to three periods (docs/rules/space-builder.md).
    let (s, tokens, id) = ada_and_bea_playing(
        "space-builder",
        json!({"timing": "elapsed", "move_minutes": 1}),
    )
    .await;
    let started = s.store.now_ms();
    let command = json!({"command": {"type": "LookAtBlueprint"}});
    s.commanded(id, &tokens[0], &command).await;
    let mut ended_after = None;
    for _ in 0..8 {
        s.store.advance_clock(50_000);
        let game = s.get(&format!("/v1/games/{id}"), None).await.body;
        if game["view"]["phase"] != "building" {
            ended_after = Some(s.store.now_ms() - started);
            break;
        }
        let moves = s.moves(id, &tokens[0]).await;
        let building = moves.body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| {
                [
                    "PlaceBuildingCard",
                    "MoveBuildingCard",
                    "TakeBackBuildingCard",
                ]
                .contains(&m["command"]["type"].as_str().unwrap_or_default())
            })
            .expect("Ada can always change her city")
            .clone();
        s.commanded(id, &tokens[0], &building).await;
    }
    let ended_after = ended_after.expect("the round ended although Ada kept acting");
    assert!(
        (3 * MINUTE..3 * MINUTE + 50_000).contains(&ended_after),
        "ended {ended_after} ms after the reveal"
    );
    let log = s.get(&format!("/v1/games/{id}/events"), None).await.body;
    let stopped = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"]["type"] == "BuildingStopped")
        .unwrap_or_else(|| panic!("{log}"));
    assert_eq!(stopped["event"]["reason"], "deadline_passed", "{stopped}");
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn the_option_is_offered_for_every_kind_and_checked() {
    let s = TestServer::start().await;
    let kinds = s.get("/v1/kinds", None).await;
    let kinds = kinds.body.as_array().unwrap().clone();
    assert!(kinds.len() >= 5);
    for kind in &kinds {
        assert_eq!(
            kind["default_options"]["move_minutes"],
            Value::Null,
            "{}: off by default, and listed",
            kind["kind"]
        );
    }
    let spec = s.get("/openapi.json", None).await.body;
    for kind in &kinds {
        let schema = kind["options_schema"].as_str().unwrap();
        assert_eq!(
            spec["components"]["schemas"][schema]["properties"]["move_minutes"]["minimum"], 1,
            "{schema} documents the turn clock"
        );
    }
    let token = s.player("ada").await;
    for bad in [json!(0), json!(-1), json!("5"), json!(1.5), json!(40_321)] {
        let r = s
            .post(
                "/v1/games",
                Some(&token),
                &json!({"kind": "mauerbauer", "seats": 2, "options": {"move_minutes": bad}}),
            )
            .await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert_eq!(r.code(), "invalid_options");
    }
    // Without the option no clock runs, however long nobody plays.
    let tokens = vec![token, s.player("bea").await];
    let id = s.game("mauerbauer", json!({}), &tokens).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    let version = game["version"].clone();
    assert_eq!(turn_deadlines(&game), vec![None, None]);
    s.store.advance_clock(365 * 24 * 60 * MINUTE);
    s.store.sweep_once().await.unwrap();
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(game["version"], version);
    s.finish().await;
}
