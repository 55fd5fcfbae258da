//! The one gate ("may this caller watch this game now?", `storage/src/people/watch.rs`): every route of
//! the spec with an `{id}` answers a private game's outsider exactly as an id never used; a
//! stream asks the gate again before each push; profiles and leaderboards show a private game,
//! its players and its result only to those who may watch it, and a private game is not rated.

use std::time::Duration;

use baumeister_tests::random_play::{play_to_end, random_step};
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::steps::{assert_refused, game_ids};
use baumeister_tests::{Pick, Reply, TestServer};

const WAIT: Duration = Duration::from_secs(20);

/// The spec's operations whose path holds `{id}`, as `(method, path)`.
fn operations_with_an_id() -> Vec<(String, String)> {
    let spec = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../openapi/openapi.json"
    ))
    .expect("the spec");
    let spec: Value = baumeister_tests::serde_json::from_str(&spec).unwrap();
    let mut found = Vec::new();
    for (path, operations) in spec["paths"].as_object().unwrap() {
        if !path.contains("{id}") {
            continue;
        }
        for method in operations.as_object().unwrap().keys() {
            if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                found.push((method.to_uppercase(), path.clone()));
            }
        }
    }
    found
}

/// What an operation is sent: a request that would get past everything but the gate (a valid
/// body, the query it needs). Every operation with an `{id}` must be here: a new one fails the
/// scan until it is.
fn request_for(method: &str, path: &str) -> (&'static str, Value) {
    match (method, path) {
        ("GET", "/v1/games/{id}/replay") => ("?at=1", Value::Null),
        ("GET", "/v1/games/{id}/chat") => ("?channel=spectators", Value::Null),
        ("GET", "/v1/games/{id}/moves") => ("?min_version=1", Value::Null),
        ("GET", _) | ("DELETE", _) => ("", Value::Null),
        ("POST", "/v1/games/{id}/bots") => ("", json!({"seat": 2, "level": "random"})),
        ("POST", "/v1/games/{id}/chat") => ("", json!({"channel": "spectators", "text": "hi"})),
        ("POST", "/v1/games/{id}/commands") => ("", json!({"command": {"type": "Pass"}})),
        ("POST", "/v1/games/{id}/invitations") => ("", json!({"link": true})),
        ("POST", "/v1/games/{id}/join") => ("", json!({})),
        ("POST", "/v1/games/{id}/rematch")
        | ("POST", "/v1/games/{id}/rematch/accept")
        | ("POST", "/v1/games/{id}/rematch/decline")
        | ("POST", "/v1/games/{id}/undo")
        | ("POST", "/v1/me/invitations/{id}/accept")
        | ("POST", "/v1/me/invitations/{id}/decline") => ("", json!({})),
        other => panic!("no request for {other:?}: add one"),
    }
}

/// `text` with every number that is `id` (a whole run of digits) written `{id}`.
fn normalised(body: &Value, id: i64) -> String {
    // Each request has an id of its own, which the problem names: not part of the answer's
    // content.
    let mut body = body.clone();
    if let Some(problem) = body.as_object_mut() {
        problem.remove("request_id");
    }
    let text = body.to_string();
    let id = id.to_string();
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(if digits == id { "{id}" } else { &digits });
            digits.clear();
        }
        out.push(c);
    }
    out.pop();
    out
}

/// The answer to one operation for `game` (`invitation` in place of `{invitation_id}`), as
/// `(status, code, body with the game's id normalised)`.
async fn answer(
    s: &TestServer,
    method: &str,
    path: &str,
    game: i64,
    invitation: i64,
    token: Option<&str>,
) -> (u16, String, String) {
    let (query, body) = request_for(method, path);
    let url = format!(
        "{}{query}",
        path.replace("{id}", &game.to_string())
            .replace("{invitation_id}", &invitation.to_string())
    );
    if path.ends_with("/stream") {
        let stream = s.stream(&url, token, None).await;
        let code = stream.problem["code"].as_str().unwrap_or("").to_string();
        return (stream.status, code, normalised(&stream.problem, game));
    }
    let request = s.request(method, &url, token);
    let r: Reply = if body.is_null() {
        s.send(request, None).await
    } else {
        s.send(
            request.insert_header(("Content-Type", "application/json")),
            Some(body.to_string().into_bytes()),
        )
        .await
    };
    (r.status, r.code().to_string(), normalised(&r.body, game))
}

async fn invite(s: &TestServer, token: &str, game: i64, body: Value) -> i64 {
    let r = s
        .post(&format!("/v1/games/{game}/invitations"), Some(token), &body)
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["invitation"]["id"].as_i64().unwrap()
}

/// A private Carcassonne game of ada and bea (bea invited by name), played to its end.
async fn finished_private_game(s: &TestServer, tokens: &[String], seed: u64) -> i64 {
    let id = s
        .create_game(
            &tokens[0],
            &json!({"kind": "carcassonne", "seats": 2, "visibility": "private"}),
        )
        .await;
    let invitation = invite(s, &tokens[0], id, json!({"player": "bea"})).await;
    let r = s
        .answer_invitation(invitation, "accept", &tokens[1], &json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Played as `play_to_end` plays, but read back by a player: nobody else may.
    let mut pick = Pick::new(seed);
    while let Some((_, chosen, r)) = random_step(s, id, &tokens[..2], &mut pick).await {
        assert_eq!(r.status, 200, "{chosen} refused: {}", r.body);
    }
    id
}

#[actix_web::test]
async fn every_route_with_an_id_answers_a_private_games_outsider_as_an_id_never_used() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.expensive_reads = None;
        c.limits.chat = None;
    })
    .await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let cyd = tokens[2].as_str();
    // Game ids that no other number in an answer could be mistaken for (see `normalised`).
    s.db()
        .await
        .execute(
            "ALTER TABLE games ALTER COLUMN id RESTART WITH 7340001",
            &[],
        )
        .await
        .unwrap();

    // A finished private game with a rematch proposed (ada accepted, bea has not answered),
    // and a private game waiting for players, with a free seat for a bot and a pending link.
    let finished = finished_private_game(&s, &tokens, 11).await;
    let r = s
        .post(
            &format!("/v1/games/{finished}/rematch"),
            Some(&tokens[0]),
            &json!({}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let waiting = s
        .create_game(
            &tokens[0],
            &json!({"kind": "burgbaumeister", "seats": 3, "visibility": "private"}),
        )
        .await;
    let finished_invitation = s
        .get(
            &format!("/v1/games/{finished}/invitations"),
            Some(&tokens[0]),
        )
        .await
        .body["invitations"][0]["id"]
        .as_i64()
        .unwrap();
    let link = invite(&s, &tokens[0], waiting, json!({"link": true})).await;

    // Those who may watch (a player, an auditor) read the proposal and the chat: the scan
    // below would pass for nobody otherwise, and the gate judges an auditor alike everywhere.
    let auditor = s.auditor("aud").await;
    for (who, token) in [("bea", &tokens[1]), ("aud", &auditor)] {
        for read in ["rematch", "chat?channel=table"] {
            let r = s
                .get(&format!("/v1/games/{finished}/{read}"), Some(token))
                .await;
            assert_eq!(r.status, 200, "{who} {read}: {}", r.body);
        }
    }

    let never = waiting + 1_000_000;
    let operations = operations_with_an_id();
    assert!(
        operations.len() >= 20,
        "the spec's routes with an id: {operations:?}"
    );
    // Every answer that tells the private game apart, listed at once.
    let mut told_apart = Vec::new();
    let mut scanned = 0;
    for (game, invitation) in [(finished, finished_invitation), (waiting, link)] {
        for (who, token) in [("anonymous", None), ("cyd", Some(cyd))] {
            for (method, path) in &operations {
                let private = answer(&s, method, path, game, invitation, token).await;
                let unused = answer(&s, method, path, never, invitation, token).await;
                let signed_in_game_route = path.starts_with("/v1/games/{id}") && token.is_some();
                let not_found = (private.0, private.1.as_str()) == (404, "game_not_found");
                if private != unused || (signed_in_game_route && !not_found) {
                    told_apart.push(format!(
                        "{who} {method} {path} of game {game}: {private:?}, for no game {unused:?}"
                    ));
                }
                scanned += 1;
            }
        }
    }
    assert_eq!(scanned, 4 * operations.len());
    assert!(
        told_apart.is_empty(),
        "a private game's outsider is answered otherwise than for no game:\n{}",
        told_apart.join("\n")
    );
    s.finish().await;
}

#[actix_web::test]
async fn a_game_stream_pushes_nothing_more_once_its_invitation_is_revoked() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let id = s
        .create_game(
            &tokens[0],
            &json!({"kind": "burgbaumeister", "seats": 3, "visibility": "private"}),
        )
        .await;
    let invitation = invite(&s, &tokens[0], id, json!({"player": "bea"})).await;
    let mut stream = s
        .stream(&format!("/v1/games/{id}/stream"), Some(&tokens[1]), None)
        .await;
    assert_eq!(stream.status, 200, "{}", stream.problem);
    stream.until_version(0, WAIT).await;
    let say = |text: &'static str| {
        let s = &s;
        let token = tokens[0].clone();
        async move {
            let r = s
                .post(
                    &format!("/v1/games/{id}/chat"),
                    Some(&token),
                    &json!({"channel": "table", "text": text}),
                )
                .await;
            assert_eq!(r.status, 201, "{}", r.body);
        }
    };

    // Invited, bea hears the table.
    say("welcome").await;
    let m = stream.next(WAIT).await.expect("the first message");
    assert_eq!(
        (m.event.as_str(), &m.data["text"]),
        ("chat", &json!("welcome"))
    );

    // Revoked: her reads answer 404 at once, and so does her stream at its next push, the
    // table's chat and the game's events alike.
    assert_eq!(s.revoke_invitation(id, invitation, &tokens[0]).await, 204);
    let r = s.get(&format!("/v1/games/{id}"), Some(&tokens[1])).await;
    assert_eq!((r.status, r.code()), (404, "game_not_found"));
    say("a secret").await;
    let r = s
        .post(
            &format!("/v1/games/{id}/invitations"),
            Some(&tokens[0]),
            &json!({"link": true}),
        )
        .await;
    let code = r.body["code"].as_str().unwrap().to_string();
    let r = s
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&tokens[2]),
            &json!({"invitation": code}),
        )
        .await;
    assert_eq!(r.status, 200, "cyd takes a seat: {}", r.body);
    let m = stream.next_any(WAIT).await.expect("the stream's last word");
    assert_eq!(
        (m.event.as_str(), m.data["code"].as_str()),
        ("error", Some("game_not_found")),
        "{m:?}"
    );
    assert!(stream.next_any(WAIT).await.is_none(), "the stream ended");
    s.finish().await;
}

/// The ids of a profile's recent games.
fn recent(profile: &Reply) -> Vec<i64> {
    assert_eq!(profile.status, 200, "{}", profile.body);
    game_ids(&profile.body["recent"])
}

/// A profile's `(played, running)` in a kind (`(0, 0)`: no record).
fn record(profile: &Reply, kind: &str) -> (i64, i64) {
    profile.body["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == kind)
        .map_or((0, 0), |k| {
            (
                k["played"].as_i64().unwrap(),
                k["running"].as_i64().unwrap(),
            )
        })
}

/// ada's line on the Carcassonne leaderboard, as `token` reads it.
async fn adas_line(s: &TestServer, token: Option<&str>) -> Value {
    let r = s.get("/v1/kinds/carcassonne/leaderboard", token).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == "ada")
        .cloned()
        .expect("ada is listed")
}

#[actix_web::test]
async fn profiles_and_leaderboards_show_a_private_game_only_to_those_who_may_watch_it() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd", "dan"]).await;
    let auditor = s.auditor("aud").await;

    let private = finished_private_game(&s, &tokens, 7).await;
    // A public rated game of ada and cyd, and a private game of ada and bea being played.
    let public = s
        .game(
            "carcassonne",
            json!({}),
            &[tokens[0].clone(), tokens[2].clone()],
        )
        .await;
    play_to_end(&s, public, &[tokens[0].clone(), tokens[2].clone()], 8).await;
    let running = s
        .create_game(
            &tokens[0],
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    let invitation = invite(&s, &tokens[0], running, json!({"player": "bea"})).await;
    let r = s
        .answer_invitation(invitation, "accept", &tokens[1], &json!({}))
        .await;
    assert_eq!(r.body["status"], "active", "{}", r.body);

    // Strangers (anonymous, dan) and cyd, who played ada in public only, see the public game.
    for (who, token) in [
        ("anonymous", None),
        ("dan", Some(tokens[3].as_str())),
        ("cyd", Some(tokens[2].as_str())),
    ] {
        for name in ["ada", "bea"] {
            let profile = s.get(&format!("/v1/players/{name}"), token).await;
            let expected: &[i64] = if name == "ada" { &[public] } else { &[] };
            assert_eq!(recent(&profile), expected, "{who} reads {name}'s profile");
            assert_eq!(
                record(&profile, "carcassonne"),
                (i64::from(name == "ada"), 0),
                "{who} reads {name}'s profile"
            );
            assert_eq!(
                record(&profile, "burgbaumeister"),
                (0, 0),
                "{who}: no running private game counted for {name}"
            );
            assert!(
                !profile
                    .body
                    .to_string()
                    .contains(&format!("\"id\":{private}")),
                "{who}: {}",
                profile.body
            );
        }
        assert_eq!(adas_line(&s, token).await["played"], 1, "{who}");
    }

    // Its players and auditors see it, its result and the running one.
    for (who, token) in [("bea", &tokens[1]), ("aud", &auditor)] {
        let profile = s.get("/v1/players/ada", Some(token)).await;
        assert_eq!(recent(&profile), [public, private], "{who}");
        let shown = &profile.body["recent"][1];
        assert_eq!(shown["rated"], false, "{shown}");
        assert_eq!(shown["seats"][1]["player"], "bea", "{shown}");
        assert_eq!(record(&profile, "carcassonne"), (2, 0), "{who}");
        assert_eq!(record(&profile, "burgbaumeister"), (0, 1), "{who}");
        assert_eq!(adas_line(&s, Some(token)).await["played"], 2, "{who}");
    }
    s.finish().await;
}

#[actix_web::test]
async fn a_private_game_is_not_rated_by_default_nor_on_request() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": "carcassonne", "seats": 2, "visibility": "private", "rated": true}),
        )
        .await;
    assert_refused(&r, 400, "invalid_options");
    let private = finished_private_game(&s, &tokens, 7).await;
    let summary = s
        .get(&format!("/v1/games/{private}"), Some(&tokens[0]))
        .await;
    assert_eq!(summary.body["status"], "finished", "{}", summary.body);
    assert_eq!(summary.body["rated"], false, "{}", summary.body);
    let db = s.db().await;
    let moved: i64 = db
        .query_one("SELECT count(*) FROM rating_changes", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(moved, 0, "the private game moved no rating");
    // Nor does the database create one, whoever writes it.
    let refused = db
        .execute(
            "INSERT INTO games (kind, options, seat_count, status, created_by, visibility, rated)
             SELECT 'carcassonne', '{}'::jsonb, 2, 'open', id, 'private', true FROM accounts
             WHERE name = 'ada'",
            &[],
        )
        .await
        .expect_err("a private rated game");
    assert_eq!(
        refused.as_db_error().map(|e| e.constraint()),
        Some(Some("games_private_unrated")),
        "{refused}"
    );
    s.finish().await;
}
