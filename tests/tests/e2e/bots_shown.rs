//! Bots are shown as bots wherever the API names a player: the lobby and a game's seats, the
//! caller's games, profiles (a bot's own and the seats of others' recent games), leaderboards
//! and rematch proposals, each with the bot's level, and the game's export (the seat and every
//! command the bot chose, kept through an import elsewhere). Bots accept a rematch at once.

use std::time::{Duration, Instant};

use baumeister_tests::given::anna_creates_game;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::steps::assert_refused;
use baumeister_tests::TestServer;

/// Asserts that `entry` (anything naming a player) marks a bot of `level`, or a person.
fn marked(entry: &Value, level: Option<&str>) {
    match level {
        Some(level) => {
            assert_eq!(entry["bot"], true, "a bot: {entry}");
            assert_eq!(entry["bot_level"], level, "{entry}");
        }
        None => {
            assert_eq!(entry.get("bot"), None, "a person: {entry}");
            assert_eq!(entry.get("bot_level"), None, "{entry}");
        }
    }
}

#[actix_web::test]
async fn a_game_against_a_bot_names_it_as_a_bot_in_every_list_and_the_bot_takes_the_rematch() {
    // Anna has vanished at once: the turn clock plays her seat, the bot its own, to the end.
    let (s, anna, r) = anna_creates_game(
        json!({"kind": "space-builder", "seats": 2, "options": {"move_minutes": 1},
                    "rated": true, "bots": [{"seat": 1, "level": "random"}]}),
    )
    .await;
    let id = r.body["id"].as_i64().unwrap();
    marked(&r.body["seats"][0], None);
    marked(&r.body["seats"][1], Some("random"));
    let lobby = s.get("/v1/games?status=active", None).await.body;
    let listed = lobby["games"].as_array().or(lobby.as_array()).unwrap();
    let row = listed.iter().find(|g| g["id"] == id).expect("listed");
    marked(&row["seats"][1], Some("random"));
    let mine = s.get("/v1/me/games", Some(&anna)).await.body;
    assert!(
        mine.to_string().contains("\"bot_level\":\"random\""),
        "{mine}"
    );

    let started = Instant::now();
    let game = loop {
        s.store.advance_clock(60_000);
        s.store.sweep_once().await.unwrap();
        let game = s.get(&format!("/v1/games/{id}"), None).await.body;
        if game["status"] == "finished" {
            break game;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the game did not end: {game}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    };
    marked(&game["seats"][1], Some("random"));
    exported_and_imported_with_the_bot_named(&s, id).await;

    // Profiles: the bot's own says it is one; Anna's recent game names its seats.
    let profile = s.get("/v1/players/bot-random", None).await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    marked(&profile.body, Some("random"));
    let profile = s.get("/v1/players/anna", None).await.body;
    marked(&profile, None);
    let recent = &profile["recent"][0];
    assert_eq!(recent["id"], id, "{profile}");
    marked(&recent["seats"][0], None);
    marked(&recent["seats"][1], Some("random"));

    // The leaderboard (a game against a bot, rated as Anna asked, counts like any other).
    let board = s
        .get("/v1/kinds/space-builder/leaderboard", None)
        .await
        .body;
    let entries = board["players"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{board}");
    for entry in entries {
        let level = (entry["player"] == "bot-random").then_some("random");
        marked(entry, level);
    }

    // The rematch: the bot accepts at once, so Anna's proposal starts the new game.
    let r = s
        .post(&format!("/v1/games/{id}/rematch"), Some(&anna), &json!({}))
        .await;
    assert!(r.status == 200 || r.status == 201, "{}", r.body);
    assert_eq!(r.body["state"], "accepted", "{}", r.body);
    let players = r.body["players"].as_array().unwrap();
    marked(&players[0], None);
    marked(&players[1], Some("random"));
    assert_eq!(players[1]["answer"], "accepted");
    let again = r.body["new_game"].as_i64().expect("the rematch started");
    let game = s.get(&format!("/v1/games/{again}"), None).await.body;
    assert_eq!(game["status"], "active", "{game}");
    assert_eq!(game["options"]["move_minutes"], 1, "the options are copied");
    let bot = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|seat| seat["player"] == "bot-random")
        .expect("the bot sits at the rematch");
    marked(bot, Some("random"));
    s.finish().await;
}

#[actix_web::test]
async fn a_bot_cannot_be_invited_by_name_it_would_never_answer() {
    let s = TestServer::start().await;
    let anna = s.player("anna").await;
    let id = s.open_game(&anna, "mauerbauer", 2).await;
    let r = s
        .post(
            &format!("/v1/games/{id}/invitations"),
            Some(&anna),
            &json!({"player": "bot-greedy"}),
        )
        .await;
    assert_refused(&r, 422, "invitee_is_bot");
    // The creator seats it instead.
    let r = s
        .post(
            &format!("/v1/games/{id}/bots"),
            Some(&anna),
            &json!({"seat": 1, "level": "greedy"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.finish().await;
}

/// The export names the bot's seat and each command it chose; another server that imports the
/// game exports the same.
async fn exported_and_imported_with_the_bot_named(s: &TestServer, id: i64) {
    let r = s.get(&format!("/v1/games/{id}/export"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let export = r.body;
    assert_eq!(export["seats"][0].get("bot_level"), None, "a person");
    assert_eq!(export["seats"][1]["bot_level"], "random");
    let commands = export["commands"].as_array().unwrap();
    // The bot's own moves name it; the turn clock's default moves (Anna's, and the bot's
    // when the test's clock outran it) name nobody.
    let named = |c: &&Value| c.get("bot_level").is_some();
    assert!(
        commands.iter().filter(named).count() > 0,
        "the bot moved: {export}"
    );
    for command in commands.iter().filter(named) {
        assert_eq!(command["bot_level"], "random", "{command}");
        assert_eq!(command["seat"], 1, "{command}");
    }

    let keys = s.get("/v1/keys", None).await.body;
    let key = keys["keys"][0]["key"].as_str().unwrap().to_string();
    let elsewhere = TestServer::start_with(|c| c.trusted_keys = vec![key]).await;
    let r = elsewhere.import_as_auditor("vera", &export).await;
    let imported = r.body["id"].as_i64().unwrap();
    let again = elsewhere
        .get(&format!("/v1/games/{imported}/export"), None)
        .await
        .body;
    assert_eq!(again["seats"], export["seats"]);
    assert_eq!(again["commands"], export["commands"]);
    elsewhere.finish().await;
}
