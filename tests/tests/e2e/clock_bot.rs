//! The turn clock's bot (option `clock_bot`, off by default) over HTTP: a vanished player's seat
//! whose deadline passes is played by a bot of the option's level instead of getting the default
//! move. The bot plays only the moves whose deadline passed, the seat shows the bot until its
//! player acts again, each bot move is recorded with no account and the bot's level, and the
//! audit decides it again. The server's clock is moved forward instead of waiting.

use std::time::{Duration, Instant};

use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::turns::{to_act, MINUTE};
use baumeister_tests::{Pick, TestServer};

/// The seat as the game's summary lists it.
fn seat(game: &Value, seat: u8) -> &Value {
    &game["seats"][usize::from(seat)]
}

/// The commands a bot of the turn clock made in the game: (seat, level, response's level).
async fn clock_bot_moves(s: &TestServer, id: i64) -> Vec<(i16, Option<String>, Option<String>)> {
    s.db()
        .await
        .query(
            "SELECT seat, bot_level, response ->> 'clock_bot' FROM commands
             WHERE game_id = $1 AND account_id IS NULL AND seat IS NOT NULL ORDER BY id",
            &[&id],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}

/// Reads the game until `done` holds (the bot thinks in the background), for at most 30 s.
async fn read_until(s: &TestServer, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let game = s.get(&format!("/v1/games/{id}"), None).await.body;
        if done(&game) {
            return game;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "waited in vain: {game}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

#[actix_web::test]
async fn a_vanished_players_turn_is_played_by_the_bot_until_the_player_acts_again() {
    let (s, tokens, id) = ada_and_bea_playing(
        "mauerbauer",
        json!({"move_minutes": 1, "clock_bot": "random"}),
    )
    .await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(game["options"]["clock_bot"], "random", "{game}");
    let version = game["version"].as_i64().unwrap();
    let vanished = to_act(&game)[0];
    let other = 1 - vanished;
    assert_eq!(
        seat(&game, vanished).get("clock_bot"),
        None,
        "nobody handed over yet"
    );

    // The minute passes: the read hands the move to the bot, which makes it in the background.
    s.store.advance_clock(MINUTE + 1_000);
    let game = read_until(&s, id, |g| g["version"].as_i64().unwrap() > version).await;
    assert_eq!(seat(&game, vanished)["clock_bot"], "random", "{game}");
    assert_eq!(
        seat(&game, vanished).get("bot"),
        None,
        "the seat is still the person's"
    );
    assert_eq!(seat(&game, other).get("clock_bot"), None);
    assert_eq!(
        clock_bot_moves(&s, id).await.first(),
        Some(&(
            i16::from(vanished),
            Some("random".to_string()),
            Some("random".to_string())
        )),
        "recorded with no account, the seat and the bot's level"
    );
    // The lobby and the players' own lists show it too.
    let lobby = s.get("/v1/games?status=active", None).await.body;
    let listed = lobby["games"]
        .as_array()
        .or(lobby.as_array())
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .cloned()
        .expect("listed");
    assert_eq!(seat(&listed, vanished)["clock_bot"], "random", "{listed}");
    let mine = s
        .get("/v1/me/games", Some(&tokens[other as usize]))
        .await
        .body;
    assert!(
        mine.to_string().contains("\"clock_bot\":\"random\""),
        "{mine}"
    );

    // The other player plays until the vanished seat is to act again: its clock starts anew and
    // the bot waits for it to run out (it plays only the moves whose deadline passed).
    let mut pick = Pick::new(3);
    let game = loop {
        let game = s.get(&format!("/v1/games/{id}"), None).await.body;
        if to_act(&game).contains(&vanished) {
            break game;
        }
        let r = s
            .random_move(id, &tokens[other as usize], &mut pick)
            .await
            .expect("the other seat has a move");
        assert_eq!(r.status, 200, "{}", r.body);
    };
    assert!(seat(&game, vanished)["turn_deadline"].is_string(), "{game}");
    let waiting = game["version"].clone();
    let moves_before = clock_bot_moves(&s, id).await.len();
    actix_web::rt::time::sleep(Duration::from_millis(1_500)).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(game["version"], waiting, "no bot move before the deadline");
    assert_eq!(clock_bot_moves(&s, id).await.len(), moves_before);

    // The player comes back: their own command takes the seat back.
    let r = s
        .random_move(id, &tokens[vanished as usize], &mut pick)
        .await
        .expect("the seat has a move");
    assert_eq!(r.status, 200, "{}", r.body);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(seat(&game, vanished).get("clock_bot"), None, "{game}");

    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn space_builder_a_vanished_seat_is_played_by_the_bot_while_the_other_plays_at_once() {
    let (s, tokens, id) = ada_and_bea_playing(
        "space-builder",
        json!({"timing": "arrival", "move_minutes": 1, "clock_bot": "greedy"}),
    )
    .await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(to_act(&game), vec![0, 1], "both seats act at once: {game}");
    // Bea plays a move in time; Ada has vanished.
    let mut pick = Pick::new(5);
    if let Some(r) = s.random_move(id, &tokens[1], &mut pick).await {
        assert_eq!(r.status, 200, "{}", r.body);
    }
    s.store.advance_clock(MINUTE + 1_000);
    let started = Instant::now();
    while !clock_bot_moves(&s, id)
        .await
        .iter()
        .any(|m| m.0 == 0 && m.1.as_deref() == Some("greedy"))
    {
        // Reads apply what is due (the sweep may come first).
        s.get(&format!("/v1/games/{id}"), None).await;
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the bot never played Ada's seat"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(seat(&game, 0)["clock_bot"], "greedy", "{game}");
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

#[actix_web::test]
async fn without_the_option_the_clock_makes_the_default_move_and_bad_values_are_refused() {
    let (s, tokens, id) = ada_and_bea_playing("mauerbauer", json!({"move_minutes": 1})).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(
        game["options"].get("clock_bot"),
        None,
        "off by default: {game}"
    );
    let version = game["version"].as_i64().unwrap();
    s.store.advance_clock(MINUTE + 1_000);
    let game = read_until(&s, id, |g| g["version"].as_i64().unwrap() > version).await;
    for held in game["seats"].as_array().unwrap() {
        assert_eq!(held.get("clock_bot"), None, "{game}");
    }
    let recorded = clock_bot_moves(&s, id).await;
    assert!(!recorded.is_empty());
    assert!(
        recorded.iter().all(|(_, level, _)| level.is_none()),
        "the default move names no bot: {recorded:?}"
    );

    for options in [
        json!({"clock_bot": "random"}),
        json!({"move_minutes": 5, "clock_bot": "grandmaster"}),
        json!({"move_minutes": 5, "clock_bot": true}),
    ] {
        let r = s
            .post(
                "/v1/games",
                Some(&tokens[0]),
                &json!({"kind": "mauerbauer", "seats": 2, "options": options}),
            )
            .await;
        assert_eq!(
            (r.status, r.code()),
            (400, "invalid_options"),
            "{options}: {}",
            r.body
        );
        assert!(
            r.body["detail"].as_str().unwrap().contains("clock_bot"),
            "{}",
            r.body
        );
    }
    s.finish().await;
}

/// Without a server (so no bot sweep races the test): when the bot cannot choose, or chooses a
/// command the rules refuse, the seat whose deadline passed gets the default move all the same,
/// recorded as the clock's own, and the hand-over is done.
#[actix_web::test]
async fn a_move_the_bot_cannot_make_becomes_the_default_move() {
    use baumeister_storage::{Store, Table, Visibility};
    let db = baumeister_tests::fresh_database().await;
    let store = Store::connect(&baumeister_tests::database_url(&db), 2, 1)
        .await
        .unwrap();
    let ada = store.create_account("ada", "!not-a-hash").await.unwrap();
    let bea = store.create_account("bea", "!not-a-hash").await.unwrap();
    let table = Table {
        rated: false,
        visibility: Visibility::Open,
        undo: true,
    };
    let options = json!({"move_minutes": 1, "clock_bot": "strong"});
    let mut versions = Vec::new();
    for refused in [Some(json!({"type": "NoSuchCommand"})), None] {
        let game = store
            .create_game("mauerbauer", 2, &options, table, ada, None)
            .await
            .unwrap();
        let game = store.join(game.id, bea, None).await.unwrap();
        let seat = game.to_act[0];
        store.advance_clock(MINUTE + 1_000);
        assert!(store.apply_deadline(game.id, store.now_ms()).await.unwrap());
        let summary = store.summary(game.id).await.unwrap();
        assert_eq!(summary.version, game.version, "only handed over");
        let turns = store.bots_to_act(10).await.unwrap();
        assert!(
            turns
                .iter()
                .any(|t| t.game_id == game.id && t.clock_seat == Some(seat)),
            "{turns:?}"
        );
        assert!(store
            .clock_bot_move(game.id, seat, refused.as_ref(), game.version)
            .await
            .unwrap());
        let row = baumeister_tests::database(&db)
            .await
            .query_one(
                "SELECT seat, bot_level, response ? 'clock_bot', body ->> 'type' FROM commands
                 WHERE game_id = $1 AND position = $2",
                &[&game.id, &game.version],
            )
            .await
            .unwrap();
        assert_eq!(row.get::<_, i16>(0), i16::from(seat));
        assert_eq!(row.get::<_, Option<String>>(1), None, "no bot named");
        assert!(!row.get::<_, bool>(2));
        assert_ne!(row.get::<_, String>(3), "NoSuchCommand");
        assert!(store
            .bots_to_act(10)
            .await
            .unwrap()
            .iter()
            .all(|t| t.game_id != game.id || t.clock_seat.is_none()));
        versions.push(store.summary(game.id).await.unwrap().version > game.version);
    }
    assert_eq!(versions, [true, true], "both games moved on");
    drop(store);
    baumeister_tests::drop_database(&db).await;
}
