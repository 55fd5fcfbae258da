//! Private games and invitations: a private game is listed to and readable by its players, the
//! accounts invited by name and auditors only (404 `game_not_found` to everybody else, on every
//! read); invitations by name are accepted or declined, links are used with their code; the
//! invited hear of it on `/v1/me/stream` and by webhook; the open-games list filters.

use std::time::Duration;

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::steps::{assert_refused, game_ids};
use baumeister_tests::{Reply, TestServer};
use sha2::{Digest, Sha256};

const WAIT: Duration = Duration::from_secs(20);

/// Creates a game with these settings for `token`; returns its id.
async fn create(s: &TestServer, token: &str, body: Value) -> i64 {
    let r = s.post("/v1/games", Some(token), &body).await;
    assert_eq!(r.status, 201, "create: {}", r.body);
    r.body["id"].as_i64().unwrap()
}

async fn private_game(s: &TestServer, token: &str, seats: usize) -> i64 {
    create(
        s,
        token,
        json!({"kind": "burgbaumeister", "seats": seats, "visibility": "private"}),
    )
    .await
}

async fn invite(s: &TestServer, token: &str, game: i64, body: Value) -> Reply {
    s.post(&format!("/v1/games/{game}/invitations"), Some(token), &body)
        .await
}

/// The ids of the games a lobby page lists.
fn ids(r: &Reply) -> Vec<i64> {
    assert_eq!(r.status, 200, "{}", r.body);
    game_ids(&r.body["games"])
}

/// Every way of reading a game (and of acting on it), with what a reader who may watch a
/// running game gets; the stream is checked apart.
fn reads(id: i64) -> Vec<(&'static str, String, Value, u16)> {
    vec![
        ("GET", format!("/v1/games/{id}"), Value::Null, 200),
        ("GET", format!("/v1/games/{id}/events"), Value::Null, 200),
        (
            "GET",
            format!("/v1/games/{id}/replay?at=1"),
            Value::Null,
            200,
        ),
        ("GET", format!("/v1/games/{id}/moves"), Value::Null, 200),
        (
            "GET",
            format!("/v1/games/{id}/moves?min_version=1"),
            Value::Null,
            200,
        ),
        ("GET", format!("/v1/games/{id}/audit"), Value::Null, 200),
        // The game runs: no export for anybody, but only those who may watch learn that.
        ("GET", format!("/v1/games/{id}/export"), Value::Null, 409),
    ]
}

async fn send(
    s: &TestServer,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Reply {
    match method {
        "GET" => s.get(path, token).await,
        _ => s.post(path, token, body).await,
    }
}

/// A private game ada created and bea joined by her invitation (their game runs), an open game
/// cyd created, ada's, bea's and cyd's tokens and an auditor's; the server, the tokens, the
/// auditor's token, the private game's id and the open one's.
async fn ada_and_bea_at_a_private_game() -> (TestServer, Vec<String>, String, i64, i64) {
    let s = TestServer::start_with(|c| c.limits.expensive_reads = None).await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let auditor = s.auditor("aud").await;
    let id = private_game(&s, &tokens[0], 2).await;
    let r = invite(&s, &tokens[0], id, json!({"player": "bea"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let invitation = r.body["invitation"]["id"].as_i64().unwrap();
    let r = s
        .answer_invitation(invitation, "accept", &tokens[1], &json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "active", "the last seat starts the game");
    assert_eq!(r.body["visibility"], "private");
    let open = create(
        &s,
        &tokens[2],
        json!({"kind": "burgbaumeister", "seats": 2}),
    )
    .await;
    (s, tokens, auditor, id, open)
}

#[actix_web::test]
async fn a_private_game_is_unlisted_and_unreadable_by_outsiders() {
    let (s, tokens, _, id, open) = ada_and_bea_at_a_private_game().await;
    // Outsiders (anonymous, or logged in without an invitation) learn nothing: every read
    // answers as for an id that was never used.
    let never = id + 1000;
    for (who, token) in [("anonymous", None), ("cyd", Some(tokens[2].as_str()))] {
        for (method, path, body, _) in reads(id).into_iter().chain([
            ("GET", format!("/v1/games/{id}/invitations"), Value::Null, 0),
            ("POST", format!("/v1/games/{id}/join"), json!({}), 0),
            (
                "POST",
                format!("/v1/games/{id}/commands"),
                json!({"command": {"type": "Pass"}}),
                0,
            ),
            (
                "POST",
                format!("/v1/games/{id}/invitations"),
                json!({"link": true}),
                0,
            ),
            // Its chat, read or written from the bench, does not reveal it either.
            (
                "GET",
                format!("/v1/games/{id}/chat?channel=table"),
                Value::Null,
                0,
            ),
            (
                "POST",
                format!("/v1/games/{id}/chat"),
                json!({"channel": "spectators", "text": "hello?"}),
                0,
            ),
        ]) {
            let r = send(&s, method, &path, token, &body).await;
            if token.is_none() && (method == "POST" || path.ends_with("/invitations")) {
                assert_eq!(r.status, 401, "{who} {method} {path}: {}", r.body);
                continue;
            }
            assert_eq!(r.status, 404, "{who} {method} {path}: {}", r.body);
            assert_eq!(r.code(), "game_not_found", "{who} {method} {path}");
            let unused = path.replace(&format!("/{id}"), &format!("/{never}"));
            let r2 = send(&s, method, &unused, token, &body).await;
            assert_eq!(
                (r2.status, r2.code()),
                (r.status, r.code()),
                "{who} {method} {path}: the same as for no game at all"
            );
        }
        let stream = s
            .stream(&format!("/v1/games/{id}/stream"), token, None)
            .await;
        assert_eq!(stream.status, 404, "{who}: {}", stream.problem);
        assert_eq!(stream.problem["code"], "game_not_found");
        let lobby = s.get("/v1/games", token).await;
        assert!(!ids(&lobby).contains(&id), "{who} does not see it listed");
        assert!(
            ids(&lobby).contains(&open),
            "open games are listed as before"
        );
        let active = s.get("/v1/games?status=active", token).await;
        assert!(
            !ids(&active).contains(&id),
            "{who}: not among the games to watch"
        );
    }

    s.finish().await;
}

#[actix_web::test]
async fn a_private_games_players_and_auditors_read_and_list_it() {
    let (s, tokens, auditor, id, _) = ada_and_bea_at_a_private_game().await;
    for (who, token) in [
        ("ada", &tokens[0]),
        ("bea", &tokens[1]),
        ("the auditor", &auditor),
    ] {
        for (method, path, body, status) in reads(id) {
            let r = send(&s, method, &path, Some(token), &body).await;
            assert_eq!(r.status, status, "{who} {method} {path}: {}", r.body);
        }
        let mut stream = s
            .stream(&format!("/v1/games/{id}/stream"), Some(token), None)
            .await;
        assert_eq!(stream.status, 200, "{who}: {}", stream.problem);
        assert!(stream.next(WAIT).await.is_some(), "{who}: the stream sends");
        let lobby = s.get("/v1/games", Some(token)).await;
        assert!(ids(&lobby).contains(&id), "{who} sees it listed");
    }
    let mine = s.get("/v1/games?mine=true", Some(&tokens[1])).await;
    assert_eq!(ids(&mine), [id]);
    let my_games = s.get("/v1/me/games", Some(&tokens[1])).await;
    assert_eq!(my_games.body["games"][0]["id"], id);

    s.finish().await;
}

#[actix_web::test]
async fn a_private_games_log_and_chain_know_nothing_of_its_invitation() {
    let (s, tokens, _, id, _) = ada_and_bea_at_a_private_game().await;
    // Nothing of the invitation is in the game's log, chain or export.
    let events = s.events(id, Some(&tokens[0])).await;
    assert!(
        !Value::from(events).to_string().contains("nvitation"),
        "the log knows no invitation"
    );
    let audit = s
        .get(&format!("/v1/games/{id}/audit"), Some(&tokens[0]))
        .await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);

    s.finish().await;
}

#[actix_web::test]
async fn an_open_game_is_readable_and_joined_by_anybody_and_no_third_visibility_exists() {
    let (s, tokens, _, _, open) = ada_and_bea_at_a_private_game().await;
    // An open game is as it was: listed and readable by anybody, joined by anybody.
    let r = s.get(&format!("/v1/games/{open}"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["visibility"], "open");
    s.joined(open, &tokens[0]).await;
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "secret"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    s.finish().await;
}

#[actix_web::test]
async fn an_invitation_by_name_is_accepted_or_declined() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd", "dan"]).await;
    let auditor = s.auditor("aud").await;
    let id = private_game(&s, &tokens[0], 3).await;

    nobody_joins_uninvited(&s, &tokens, &auditor, id).await;
    let to_bea = ada_invites_bea_by_name(&s, &tokens, id).await;
    invitations_that_cannot_be_are_refused(&s, &tokens, id).await;
    the_invited_sees_the_game_and_the_uninvited_does_not(&s, &tokens, id, to_bea).await;
    a_declined_invitation_hides_the_game_again(&s, &tokens, id, to_bea).await;
    an_accepted_invitation_seats_like_a_join(&s, &tokens, to_bea).await;
    the_games_players_list_its_invitations_and_others_may_not(&s, &tokens, &auditor, id).await;
    an_expired_invitation_makes_way_for_a_new_one(&s, &tokens, id).await;
    // A game under way invites nobody.
    let r = invite(&s, &tokens[0], id, json!({"player": "cyd"})).await;
    assert_refused(&r, 409, "game_not_open");
    s.finish().await;
}

/// Nobody joins a private game without an invitation; who cannot see the game is told it is not
/// there.
async fn nobody_joins_uninvited(s: &TestServer, tokens: &[String], auditor: &str, id: i64) {
    let game = format!("/v1/games/{id}");
    let r = s
        .post(&format!("{game}/join"), Some(&tokens[1]), &json!({}))
        .await;
    assert_refused(&r, 404, "game_not_found");
    let r = s
        .post(&format!("{game}/join"), Some(auditor), &json!({}))
        .await;
    assert_refused(&r, 403, "invitation_required");
}

/// Ada invites bea by name (spelled in capitals), for two hours: pending, no link, no code;
/// the invitation's id.
async fn ada_invites_bea_by_name(s: &TestServer, tokens: &[String], id: i64) -> i64 {
    let r = invite(
        s,
        &tokens[0],
        id,
        json!({"player": "BEA", "expires_in_hours": 2}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["invitation"]["player"], "bea");
    assert_eq!(r.body["invitation"]["invited_by"], "ada");
    assert_eq!(r.body["invitation"]["state"], "pending");
    assert_eq!(r.body["invitation"]["link"], false);
    assert!(
        r.body["code"].is_null(),
        "no code for an invitation by name"
    );
    r.body["invitation"]["id"].as_i64().unwrap()
}

/// Invitations of the invited again, the seated, nobody, without or with contradicting terms,
/// or by who is not seated are refused, each with its code.
async fn invitations_that_cannot_be_are_refused(s: &TestServer, tokens: &[String], id: i64) {
    for (token, body, status, code) in [
        (&tokens[0], json!({"player": "bea"}), 409, "already_invited"),
        (&tokens[0], json!({"player": "ada"}), 409, "already_seated"),
        (&tokens[0], json!({"player": "nobody"}), 404, "not_found"),
        (&tokens[0], json!({}), 400, "invalid_invitation"),
        (
            &tokens[0],
            json!({"player": "cyd", "link": true}),
            400,
            "invalid_invitation",
        ),
        (
            &tokens[0],
            json!({"player": "cyd", "expires_in_hours": 0}),
            400,
            "invalid_invitation",
        ),
        (
            &tokens[0],
            json!({"player": "cyd", "expires_in_hours": 721}),
            400,
            "invalid_invitation",
        ),
        // bea may see the game now, but only its players invite.
        (&tokens[1], json!({"player": "cyd"}), 403, "not_seated"),
        (&tokens[2], json!({"player": "dan"}), 404, "game_not_found"),
    ] {
        let r = invite(s, token, id, body.clone()).await;
        assert_eq!((r.status, r.code()), (status, code), "{body}: {}", r.body);
    }
}

/// Bea sees her invitation with its game and may watch the game; cyd may not.
async fn the_invited_sees_the_game_and_the_uninvited_does_not(
    s: &TestServer,
    tokens: &[String],
    id: i64,
    to_bea: i64,
) {
    let game = format!("/v1/games/{id}");
    let mine = s.get("/v1/me/invitations", Some(&tokens[1])).await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert_eq!(mine.body["invitations"][0]["id"], to_bea);
    assert_eq!(mine.body["invitations"][0]["invited_by"], "ada");
    assert_eq!(mine.body["invitations"][0]["game"]["id"], id);
    assert_eq!(mine.body["invitations"][0]["game"]["seat_count"], 3);
    assert_eq!(s.get(&game, Some(&tokens[1])).await.status, 200);
    assert!(ids(&s.get("/v1/games?status=open", Some(&tokens[1])).await).contains(&id));
    assert_eq!(s.get(&game, Some(&tokens[2])).await.status, 404);
    let theirs = s.get("/v1/me/invitations", Some(&tokens[2])).await;
    assert_eq!(theirs.body["invitations"], json!([]));
}

/// Cyd is invited and declines (not bea's invitation, which is not his): the game is gone for
/// him again, and the answer stands.
async fn a_declined_invitation_hides_the_game_again(
    s: &TestServer,
    tokens: &[String],
    id: i64,
    to_bea: i64,
) {
    let game = format!("/v1/games/{id}");
    let r = invite(s, &tokens[0], id, json!({"player": "cyd"})).await;
    let to_cyd = r.body["invitation"]["id"].as_i64().unwrap();
    assert_eq!(s.get(&game, Some(&tokens[2])).await.status, 200);
    let r = s
        .answer_invitation(to_bea, "decline", &tokens[2], &json!({}))
        .await;
    assert_eq!(
        (r.status, r.code()),
        (404, "invitation_not_found"),
        "not his"
    );
    let r = s
        .answer_invitation(to_cyd, "decline", &tokens[2], &json!({}))
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(s.get(&game, Some(&tokens[2])).await.status, 404);
    let r = s
        .answer_invitation(to_cyd, "accept", &tokens[2], &json!({}))
        .await;
    assert_refused(&r, 409, "invitation_not_pending");
    let r = s
        .post(&format!("{game}/join"), Some(&tokens[2]), &json!({}))
        .await;
    assert_refused(&r, 404, "game_not_found");
}

/// Bea accepts with her own seed: seated like any join, the invitation answered once.
async fn an_accepted_invitation_seats_like_a_join(s: &TestServer, tokens: &[String], to_bea: i64) {
    let r = s
        .answer_invitation(
            to_bea,
            "accept",
            &tokens[1],
            &json!({"client_seed": "bea-seed"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["seats"][1]["player"], "bea");
    assert_eq!(r.body["fairness"]["client_seeds"][1], "bea-seed");
    let r = s
        .answer_invitation(to_bea, "accept", &tokens[1], &json!({}))
        .await;
    assert_refused(&r, 409, "invitation_not_pending");
    let mine = s.get("/v1/me/invitations", Some(&tokens[1])).await;
    assert_eq!(mine.body["invitations"], json!([]));
}

/// The game's players list its invitations with their states; an auditor may not.
async fn the_games_players_list_its_invitations_and_others_may_not(
    s: &TestServer,
    tokens: &[String],
    auditor: &str,
    id: i64,
) {
    let game = format!("/v1/games/{id}");
    let list = s
        .get(&format!("{game}/invitations"), Some(&tokens[1]))
        .await;
    assert_eq!(list.status, 200, "{}", list.body);
    let states: Vec<(String, String)> = list.body["invitations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["player"].as_str().unwrap().to_string(),
                i["state"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [
            ("cyd".to_string(), "declined".to_string()),
            ("bea".to_string(), "accepted".to_string())
        ]
    );
    let r = s.get(&format!("{game}/invitations"), Some(auditor)).await;
    assert_eq!((r.status, r.code()), (403, "not_seated"));
}

/// An expired invitation lets nobody in and no longer shows the game; a new one does, and
/// joining accepts it (the last seat: the game starts).
async fn an_expired_invitation_makes_way_for_a_new_one(s: &TestServer, tokens: &[String], id: i64) {
    let game = format!("/v1/games/{id}");
    let r = invite(s, &tokens[0], id, json!({"player": "dan"})).await;
    let to_dan = r.body["invitation"]["id"].as_i64().unwrap();
    s.db()
        .await
        .execute(
            "UPDATE invitations SET expires_ms = 0 WHERE id = $1",
            &[&to_dan],
        )
        .await
        .unwrap();
    assert_eq!(s.get(&game, Some(&tokens[3])).await.status, 404);
    let r = s
        .answer_invitation(to_dan, "accept", &tokens[3], &json!({}))
        .await;
    assert_refused(&r, 403, "invitation_expired");
    let list = s
        .get(&format!("{game}/invitations"), Some(&tokens[0]))
        .await;
    assert_eq!(list.body["invitations"][0]["state"], "expired");
    // ... and makes way for a new one, which joining accepts.
    let r = invite(s, &tokens[0], id, json!({"player": "dan"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = s
        .post(&format!("{game}/join"), Some(&tokens[3]), &json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "active");
    let list = s
        .get(&format!("{game}/invitations"), Some(&tokens[0]))
        .await;
    assert_eq!(list.body["invitations"][0]["state"], "accepted");
}

#[actix_web::test]
async fn a_link_fills_seats_until_it_expires_is_revoked_or_used_up() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd", "dan", "eve"]).await;
    let id = private_game(&s, &tokens[0], 4).await;

    let (code, link) = a_link_has_a_secret_code_kept_only_as_its_hash(&s, &tokens, id).await;
    only_the_right_code_seats_and_only_once(&s, &tokens, id, &code).await;
    a_used_up_or_expired_link_is_refused(&s, &tokens, id).await;
    a_revoked_link_is_refused(&s, &tokens, id, link, &code).await;

    let join = format!("/v1/games/{id}/join");
    // A valid link fills the last seat; the game is full after it.
    let r = invite(&s, &tokens[0], id, json!({"link": true})).await;
    let last = r.body["code"].as_str().unwrap().to_string();
    let r = s
        .post(&join, Some(&tokens[3]), &json!({"invitation": last}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "active");
    let r = s
        .post(&join, Some(&tokens[4]), &json!({"invitation": last}))
        .await;
    assert_refused(&r, 409, "game_not_open");
    let list = s
        .get(&format!("/v1/games/{id}/invitations"), Some(&tokens[0]))
        .await;
    let uses: Vec<i64> = list.body["invitations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["uses"].as_i64().unwrap())
        .collect();
    assert_eq!(
        uses,
        [1, 0, 1, 1],
        "newest first: last, late, once, the first link"
    );
    s.finish().await;
}

/// Ada makes a link: 192 random bits in hexadecimal, valid for a week, kept in the database as
/// its SHA-256 only and never listed; the code and the invitation's id.
async fn a_link_has_a_secret_code_kept_only_as_its_hash(
    s: &TestServer,
    tokens: &[String],
    id: i64,
) -> (String, i64) {
    let r = invite(s, &tokens[0], id, json!({"link": true})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let code = r.body["code"].as_str().unwrap().to_string();
    let link = r.body["invitation"]["id"].as_i64().unwrap();
    assert_eq!(code.len(), 48, "192 bits, in hexadecimal");
    assert!(code.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(r.body["invitation"]["link"], true);
    assert!(r.body["invitation"]["player"].is_null());
    let expires = r.body["invitation"]["expires_at"].as_str().unwrap();
    let created = r.body["invitation"]["created_at"].as_str().unwrap();
    let days = |t: &str| baumeister_storage::parse_rfc3339(t).unwrap() / 86_400_000;
    assert_eq!(days(expires) - days(created), 7, "a week by default");

    // The database holds the code's SHA-256, never the code.
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT code_hash, row_to_json(i)::text FROM invitations i WHERE id = $1",
            &[&link],
        )
        .await
        .unwrap();
    assert_eq!(
        row.get::<_, Vec<u8>>(0),
        Sha256::digest(code.as_bytes()).to_vec()
    );
    assert!(!row.get::<_, String>(1).contains(&code));
    let list = s
        .get(&format!("/v1/games/{id}/invitations"), Some(&tokens[0]))
        .await;
    assert!(!list.body.to_string().contains(&code), "never listed");

    (code, link)
}

/// A wrong code is not found for who cannot see the game and refused for who can; the right one
/// seats bea, once.
async fn only_the_right_code_seats_and_only_once(
    s: &TestServer,
    tokens: &[String],
    id: i64,
    code: &str,
) {
    let join = format!("/v1/games/{id}/join");
    // A wrong code: not found for who cannot see the game; refused for who can.
    let mut wrong = code.to_string();
    wrong.replace_range(..1, if code.starts_with('0') { "1" } else { "0" });
    for bad in [wrong.as_str(), "x"] {
        let r = s
            .post(&join, Some(&tokens[1]), &json!({"invitation": bad}))
            .await;
        assert_refused(&r, 404, "game_not_found");
    }
    let r = s
        .post(&join, Some(&tokens[1]), &json!({"invitation": ""}))
        .await;
    assert_eq!((r.status, r.code()), (400, "invalid_invitation"));
    let r = s
        .post(&join, Some(&tokens[0]), &json!({"invitation": wrong}))
        .await;
    assert_refused(&r, 403, "invitation_invalid");

    // The right one seats bea, once.
    let r = s
        .post(&join, Some(&tokens[1]), &json!({"invitation": code}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["seats"][1]["player"], "bea");
    let r = s
        .post(&join, Some(&tokens[1]), &json!({"invitation": code}))
        .await;
    assert_refused(&r, 409, "already_seated");
}

/// A link for one seat fills one and is used up; an expired link is refused.
async fn a_used_up_or_expired_link_is_refused(s: &TestServer, tokens: &[String], id: i64) {
    let join = format!("/v1/games/{id}/join");
    // A link for one seat fills one.
    let r = invite(s, &tokens[0], id, json!({"link": true, "max_uses": 1})).await;
    let once = r.body["code"].as_str().unwrap().to_string();
    let r = s
        .post(&join, Some(&tokens[2]), &json!({"invitation": once}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(&join, Some(&tokens[3]), &json!({"invitation": once}))
        .await;
    assert_refused(&r, 403, "invitation_used_up");

    // An expired link is refused.
    let r = invite(
        s,
        &tokens[0],
        id,
        json!({"link": true, "expires_in_hours": 1}),
    )
    .await;
    let late = r.body["code"].as_str().unwrap().to_string();
    let late_id = r.body["invitation"]["id"].as_i64().unwrap();
    s.db()
        .await
        .execute(
            "UPDATE invitations SET expires_ms = 0 WHERE id = $1",
            &[&late_id],
        )
        .await
        .unwrap();
    let r = s
        .post(&join, Some(&tokens[3]), &json!({"invitation": late}))
        .await;
    assert_refused(&r, 403, "invitation_expired");
}

/// Revoking is for the game's players, once; a revoked link is refused.
async fn a_revoked_link_is_refused(
    s: &TestServer,
    tokens: &[String],
    id: i64,
    link: i64,
    code: &str,
) {
    let join = format!("/v1/games/{id}/join");
    // A revoked link is refused; revoking is for the game's players, once.
    assert_eq!(
        s.revoke_invitation(id, link, &tokens[3]).await,
        404,
        "dan cannot see the game"
    );
    assert_eq!(s.revoke_invitation(id, link, &tokens[1]).await, 204);
    assert_eq!(
        s.revoke_invitation(id, link, &tokens[0]).await,
        409,
        "already revoked"
    );
    let r = s
        .post(&join, Some(&tokens[3]), &json!({"invitation": code}))
        .await;
    assert_refused(&r, 403, "invitation_revoked");
}

#[actix_web::test]
async fn the_invited_hear_of_it_on_their_stream_and_by_webhook() {
    let s = TestServer::start_with(|c| {
        c.live.deliver = false;
        c.live.allow_private = true;
    })
    .await;
    let tokens = s.players(&["ada", "bea"]).await;
    let r = s
        .add_webhook(&tokens[1], "http://127.0.0.1:9/hook", json!(["invitation"]))
        .await;
    let webhook = r.body["id"].as_i64().unwrap();
    let mut stream = s
        .stream(&format!("/v1/me/stream?token={}", tokens[1]), None, None)
        .await;
    assert_eq!(stream.status, 200, "{}", stream.problem);
    let id = private_game(&s, &tokens[0], 2).await;
    let r = invite(&s, &tokens[0], id, json!({"player": "bea"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let invitation = r.body["invitation"]["id"].as_i64().unwrap();

    let m = stream.next(WAIT).await.expect("the invitation");
    assert_eq!(m.event, "invitation", "{m:?}");
    assert_eq!(m.data["id"], invitation);
    assert_eq!(m.data["invited_by"], "ada");
    assert_eq!(m.data["game"]["id"], id);
    assert_eq!(m.data["game"]["visibility"], "private");

    let rows = s
        .db()
        .await
        .query(
            "SELECT kind, body FROM webhook_deliveries WHERE webhook_id = $1",
            &[&webhook],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), 1, "one delivery queued");
    assert_eq!(rows[0].get::<_, String>(0), "invitation");
    let body: Value = rows[0].get(1);
    assert_eq!(body["kind"], "invitation");
    assert_eq!(body["invitation"]["id"], invitation);
    assert_eq!(body["invitation"]["game"]["id"], id);
    let listed = s.get("/v1/me/webhooks", Some(&tokens[1])).await;
    assert_eq!(listed.body["webhooks"][0]["kinds"], json!(["invitation"]));
    assert_eq!(listed.body["webhooks"][0]["pending"], 1);

    // A link tells nobody in particular.
    let r = invite(&s, &tokens[0], id, json!({"link": true})).await;
    assert_eq!(r.status, 201);
    let count = s
        .db()
        .await
        .query_one("SELECT count(*) FROM webhook_deliveries", &[])
        .await
        .unwrap()
        .get::<_, i64>(0);
    assert_eq!(count, 1);
    s.finish().await;
}

#[actix_web::test]
async fn the_open_games_list_filters_by_kind_seats_options_and_turn_clock() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let ada = &tokens[0];
    let clocked = create(
        &s,
        ada,
        json!({"kind": "burgbaumeister", "seats": 2, "options": {"variant": true, "move_minutes": 60}}),
    )
    .await;
    let roomy = create(
        &s,
        ada,
        json!({"kind": "burgbaumeister", "seats": 4, "options": {"variant": false}}),
    )
    .await;
    let other_kind = create(&s, ada, json!({"kind": "mauerbauer", "seats": 2})).await;
    let hidden = create(
        &s,
        ada,
        json!({"kind": "burgbaumeister", "seats": 4, "visibility": "private"}),
    )
    .await;
    let started = s.game("burgbaumeister", json!({}), &tokens).await;

    let list = |query: &'static str| {
        let s = &s;
        let token = tokens[1].clone();
        async move {
            ids(&s
                .get(&format!("/v1/games?status=open&{query}"), Some(&token))
                .await)
        }
    };
    assert_eq!(
        list("").await,
        [other_kind, roomy, clocked],
        "open, listed games: {started} and {hidden} are not"
    );
    assert_eq!(list("kind=burgbaumeister").await, [roomy, clocked]);
    assert_eq!(list("kind=mauerbauer").await, [other_kind]);
    assert_eq!(list("free_seats_min=1").await, [other_kind, roomy, clocked]);
    assert_eq!(list("free_seats_min=2").await, [roomy]);
    assert_eq!(list("free_seats_min=4").await, Vec::<i64>::new());
    assert_eq!(list("option=variant:true").await, [clocked]);
    assert_eq!(list("option=variant:false").await, [roomy]);
    assert_eq!(list("option=move_minutes:60").await, [clocked]);
    assert_eq!(
        list("option=variant:true&option=move_minutes:61").await,
        Vec::<i64>::new()
    );
    assert_eq!(
        list("option=variant:true&kind=burgbaumeister&option=move_minutes:60").await,
        [clocked]
    );
    assert_eq!(
        list("move_minutes_max=60").await,
        [clocked],
        "games without a clock are not fast"
    );
    assert_eq!(list("move_minutes_max=59").await, Vec::<i64>::new());
    assert_eq!(
        list("move_minutes_min=60").await,
        [other_kind, roomy, clocked]
    );
    assert_eq!(
        list("move_minutes_min=61").await,
        [other_kind, roomy],
        "no clock: no limit"
    );
    // The creator sees her private game among the open ones.
    let own = ids(&s
        .get("/v1/games?status=open&free_seats_min=3", Some(ada))
        .await);
    assert_eq!(own, [hidden, roomy]);

    // Every filter must hold: the same one twice is the same filter, two values for one
    // option match nothing.
    assert_eq!(
        list("option=move_minutes:60&option=move_minutes:60").await,
        list("option=move_minutes:60").await
    );
    assert_eq!(
        list("option=move_minutes:60&option=move_minutes:61").await,
        Vec::<i64>::new()
    );
    for query in [
        "option=variant",
        "option=:true",
        "free_seats_min=0",
        "move_minutes_max=0",
        "move_minutes_min=x",
        "options=variant:true",
        "option=a:%22%5Cu0000%22",
    ] {
        let r = s.get(&format!("/v1/games?{query}"), None).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "invalid_query"),
            "{query}: {}",
            r.body
        );
    }
    s.finish().await;
}
