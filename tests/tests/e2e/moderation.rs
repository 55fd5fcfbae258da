//! Moderation over HTTP and from the command line: players report messages and players (once
//! per thing, rate-limited, a private game's message not there for outsiders); a moderator works
//! the queue, removes messages (gone from every read and stream), suspends accounts (403
//! `account_suspended` on chat, new games, seats, bots, invitations and rematches, while their
//! running games go on), lifts suspensions or lets them run out; every action is in the log.
//! Everybody else is refused the moderators' routes.

use std::time::Duration;

use baumeister_api::limits::Rate;
use baumeister_api::moderation_cli;
use baumeister_api::moderation_cli::{ModeratorAction, ReportsAction};
use baumeister_storage::rfc3339;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::sse::Stream;
use baumeister_tests::{Reply, TestServer};

const WAIT: Duration = Duration::from_secs(20);
const HOUR: i64 = 3_600_000;

/// Longer than the time a request may rely on an account's standing read by an earlier one
/// (`auth::STANDING_TTL`): what the command line changes is then seen.
const STANDING_SEEN: Duration = Duration::from_millis(1_200);

fn chat(id: i64) -> String {
    format!("/v1/games/{id}/chat")
}

async fn said(s: &TestServer, id: i64, token: &str, channel: &str, text: &str) -> i64 {
    let r = s
        .post(
            &chat(id),
            Some(token),
            &json!({"channel": channel, "text": text}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

async fn report(s: &TestServer, token: &str, body: Value) -> Reply {
    s.post("/v1/reports", Some(token), &body).await
}

/// Registers `name` and has the operator make it a moderator (as `baumeister moderator grant`
/// does), before its first request.
async fn moderator(s: &TestServer, name: &str) -> String {
    let token = s.player(name).await;
    moderation_cli::moderator(
        &s.store,
        ModeratorAction::Grant {
            name: name.into(),
            by: Some("olga".into()),
        },
    )
    .await
    .unwrap();
    token
}

/// The next `chat` message of a stream (other messages skipped).
async fn next_chat(stream: &mut Stream) -> Value {
    loop {
        let m = stream.next(WAIT).await.expect("a chat message in time");
        if m.event == "chat" {
            return m.data;
        }
    }
}

fn refused(r: &Reply, status: u16, code: &str) {
    assert_eq!((r.status, r.code()), (status, code), "{}", r.body);
}

/// The log's entries, newest first, as (moderator, action, account, reason).
async fn log(s: &TestServer, token: &str) -> Vec<Value> {
    let r = s.get("/v1/moderation/log?limit=100", Some(token)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["entries"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn reports_reach_the_queue_once_and_a_private_games_message_is_not_there_for_outsiders() {
    let s = TestServer::start().await;
    let mona = moderator(&s, "mona").await;
    let t = s.players(&["ada", "troll", "spammer", "cyd", "ola"]).await;
    let (ada, troll, spammer, cyd, ola) = (&t[0], &t[1], &t[2], &t[3], &t[4]);
    let game = s
        .game("burgbaumeister", json!({}), &[ada.clone(), troll.clone()])
        .await;
    let rude = said(&s, game, troll, "table", "you play like a potato").await;

    // A message's report names its author and game; the same report again is the same entry.
    let r = report(
        &s,
        ada,
        json!({"message_id": rude, "category": "abuse", "text": "  Insults again.  "}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let first = r.body["id"].as_i64().unwrap();
    assert_eq!(r.body["reported"], "troll");
    assert_eq!(r.body["message_id"], rude);
    assert_eq!(r.body["state"], "open");
    assert_eq!(r.body["text"], "Insults again.");
    let again = report(&s, ada, json!({"message_id": rude, "category": "spam"})).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(
        again.body["id"], first,
        "one queue entry per reporter and thing"
    );
    // Another reporter's is another entry; a player is reported by name.
    let r = report(&s, cyd, json!({"message_id": rude, "category": "abuse"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = report(
        &s,
        ada,
        json!({"player": "SPAMMER", "category": "spam", "text": "Links in every game."}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["reported"], "spammer");
    let spam_report = r.body["id"].as_i64().unwrap();

    // A private game's message is, to an outsider, an id never used.
    let private = s
        .post(
            "/v1/games",
            Some(troll),
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    assert_eq!(private.status, 201, "{}", private.body);
    let private = private.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/v1/games/{private}/invitations"),
            Some(troll),
            &json!({"player": "spammer"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    s.joined(private, spammer).await;
    let hidden = said(&s, private, spammer, "table", "buy gold at example.com").await;
    let outsider = report(&s, ola, json!({"message_id": hidden, "category": "spam"})).await;
    let unused = report(&s, ola, json!({"message_id": 999_999, "category": "spam"})).await;
    refused(&outsider, 404, "chat_message_not_found");
    refused(&unused, 404, "chat_message_not_found");
    assert_eq!(
        outsider.body["detail"]
            .as_str()
            .unwrap()
            .replace(&hidden.to_string(), "N"),
        unused.body["detail"]
            .as_str()
            .unwrap()
            .replace("999999", "N"),
        "the same words"
    );
    // Its players report it.
    let r = report(&s, troll, json!({"message_id": hidden, "category": "spam"})).await;
    assert_eq!(r.status, 201, "{}", r.body);

    // Refusals.
    refused(
        &report(&s, troll, json!({"message_id": rude, "category": "abuse"})).await,
        422,
        "cannot_report_self",
    );
    refused(
        &report(&s, ada, json!({"player": "ada", "category": "other"})).await,
        422,
        "cannot_report_self",
    );
    refused(
        &report(&s, ada, json!({"player": "nobody", "category": "other"})).await,
        404,
        "not_found",
    );
    for bad in [
        json!({"category": "abuse"}),
        json!({"message_id": rude, "player": "troll", "category": "abuse"}),
        json!({"player": "troll", "category": "abuse", "text": "x".repeat(1001)}),
        json!({"player": "troll", "category": "abuse", "text": "bell\u{7}"}),
        json!({"player": "", "category": "abuse"}),
    ] {
        refused(&report(&s, ada, bad).await, 400, "invalid_report");
    }
    refused(
        &report(&s, ada, json!({"player": "troll", "category": "rudeness"})).await,
        400,
        "malformed_request",
    );
    let r = s
        .post(
            "/v1/reports",
            None,
            &json!({"player": "troll", "category": "abuse"}),
        )
        .await;
    assert_eq!(r.status, 401, "{}", r.body);

    // The queue, for moderators only.
    for token in [ada, troll] {
        refused(
            &s.get("/v1/moderation/reports", Some(token)).await,
            403,
            "not_a_moderator",
        );
    }
    assert_eq!(s.get("/v1/moderation/reports", None).await.status, 401);
    let r = s
        .post(
            &format!("/v1/moderation/reports/{first}/resolve"),
            Some(ada),
            &json!({"outcome": "dismiss", "reason": "mine"}),
        )
        .await;
    refused(&r, 403, "not_a_moderator");

    // Resolved: dismissed once, then no more.
    let resolve = |id: String, outcome: &'static str, reason: &'static str| {
        let s = &s;
        let mona = mona.clone();
        async move {
            s.post(
                &format!("/v1/moderation/reports/{id}/resolve"),
                Some(&mona),
                &json!({"outcome": outcome, "reason": reason}),
            )
            .await
        }
    };
    let r = resolve(spam_report.to_string(), "dismiss", "Nothing found.").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["state"], "dismissed");
    assert_eq!(r.body["resolved_by"], "mona");
    assert_eq!(r.body["resolution"], "Nothing found.");
    refused(
        &resolve(spam_report.to_string(), "act", "again").await,
        409,
        "report_not_open",
    );
    refused(
        &resolve("999999".into(), "act", "x").await,
        404,
        "report_not_found",
    );
    refused(
        &resolve("abc".into(), "act", "x").await,
        404,
        "report_not_found",
    );
    refused(
        &resolve(first.to_string(), "act", " ").await,
        400,
        "invalid_reason",
    );

    // Open ones first, oldest first, each with its message's text, game, reporter, reported.
    let q = s.get("/v1/moderation/reports", Some(&mona)).await;
    assert_eq!(q.status, 200, "{}", q.body);
    let reports = q.body["reports"].as_array().unwrap();
    let summary: Vec<(&str, &str, &str)> = reports
        .iter()
        .map(|r| {
            (
                r["state"].as_str().unwrap(),
                r["reporter"].as_str().unwrap(),
                r["reported"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("open", "ada", "troll"),
            ("open", "cyd", "troll"),
            ("open", "troll", "spammer"),
            ("dismissed", "ada", "spammer"),
        ]
    );
    let top = &reports[0];
    assert_eq!(top["id"], first);
    assert_eq!(top["category"], "abuse");
    assert_eq!(top["game_id"], game);
    assert_eq!(top["message"]["id"], rude);
    assert_eq!(top["message"]["text"], "you play like a potato");
    assert_eq!(top["message"]["channel"], "table");
    assert_eq!(top["message"]["removed"], false);
    assert_eq!(top["open_reports_of_reported"], 2);
    assert_eq!(reports[2]["message"]["text"], "buy gold at example.com");
    assert_eq!(reports[3]["message"], Value::Null);
    let open = s
        .get("/v1/moderation/reports?state=open&limit=2", Some(&mona))
        .await;
    assert_eq!(open.body["reports"].as_array().unwrap().len(), 2);
    assert_eq!(open.body["next_offset"], 2);
    refused(
        &s.get("/v1/moderation/reports?limit=101", Some(&mona)).await,
        400,
        "invalid_query",
    );
    // Reporting the dismissed thing again is a new report.
    let r = report(&s, ada, json!({"player": "spammer", "category": "spam"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    s.finish().await;
}

#[actix_web::test]
async fn the_same_report_sent_at_once_is_one_entry() {
    let s = TestServer::start().await;
    let mona = moderator(&s, "mona").await;
    let t = s.players(&["ada", "troll"]).await;
    let game = s.game("burgbaumeister", json!({}), &t).await;
    let rude = said(&s, game, &t[1], "table", "rude").await;
    let body = json!({"message_id": rude, "category": "abuse"});
    let replies =
        baumeister_tests::all_at_once((0..6).map(|_| report(&s, &t[0], body.clone()))).await;
    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [200, 200, 200, 200, 200, 201],
        "one filed, the rest found it"
    );
    assert!(replies
        .iter()
        .all(|r| r.body["id"] == replies[0].body["id"]));
    let q = s.get("/v1/moderation/reports", Some(&mona)).await;
    assert_eq!(q.body["reports"].as_array().unwrap().len(), 1, "{}", q.body);
    s.finish().await;
}

#[actix_web::test]
async fn reports_are_limited_per_reporter() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.reports = Some(Rate::per(2, 3600));
    })
    .await;
    let t = s.players(&["ada", "bea", "troll"]).await;
    for category in ["abuse", "spam"] {
        let r = report(&s, &t[0], json!({"player": "troll", "category": category})).await;
        assert!(r.status == 201 || r.status == 200, "{}", r.body);
    }
    let r = report(&s, &t[0], json!({"player": "troll", "category": "other"})).await;
    refused(&r, 429, "rate_limited");
    assert!(r.header("Retry-After").is_some());
    let r = report(&s, &t[1], json!({"player": "troll", "category": "abuse"})).await;
    assert_eq!(r.status, 201, "another reporter's own bucket: {}", r.body);
    s.finish().await;
}

#[actix_web::test]
async fn a_moderator_removes_a_message_from_every_read_and_stream_and_the_log_says_who_when_why() {
    let s = TestServer::start().await;
    let mona = moderator(&s, "mona").await;
    let t = s.players(&["ada", "troll"]).await;
    let (ada, troll) = (&t[0], &t[1]);
    let game = s.game("burgbaumeister", json!({}), &t).await;
    let kept = said(&s, game, ada, "table", "good game").await;
    let mut stream = s
        .stream(
            &format!("/v1/games/{game}/stream?chat_after={kept}"),
            None,
            None,
        )
        .await;
    let rude = said(&s, game, troll, "table", "rude words").await;
    assert_eq!(next_chat(&mut stream).await["text"], "rude words");
    let r = report(&s, ada, json!({"message_id": rude, "category": "abuse"})).await;
    let reported = r.body["id"].as_i64().unwrap();

    let remove = |id: String, token: String, reason: &'static str| {
        let s = &s;
        async move {
            s.post(
                &format!("/v1/moderation/messages/{id}/remove"),
                Some(&token),
                &json!({ "reason": reason }),
            )
            .await
        }
    };
    refused(
        &remove(rude.to_string(), ada.clone(), "mine").await,
        403,
        "not_a_moderator",
    );
    let before = s.store.now_ms();
    let r = remove(rude.to_string(), mona.clone(), "Insults.").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.body["removed"].as_bool(), &r.body["text"]),
        (Some(true), &Value::Null)
    );

    // Gone from the stream, from every chat read, not from the moderators' queue.
    let pushed = next_chat(&mut stream).await;
    assert_eq!(
        (pushed["id"].as_i64(), pushed["removed"].as_bool()),
        (Some(rude), Some(true))
    );
    assert_eq!(pushed["text"], Value::Null);
    for token in [
        None,
        Some(ada.as_str()),
        Some(troll.as_str()),
        Some(mona.as_str()),
    ] {
        let page = s.get(&chat(game), token).await;
        let m = &page.body["messages"][0];
        assert_eq!(
            (m["id"].as_i64(), m["removed"].as_bool()),
            (Some(rude), Some(true))
        );
        assert_eq!(m["text"], Value::Null);
        assert_eq!(page.body["messages"][1]["text"], "good game");
    }
    let q = s.get("/v1/moderation/reports", Some(&mona)).await;
    assert_eq!(q.body["reports"][0]["message"]["text"], "rude words");
    assert_eq!(q.body["reports"][0]["message"]["removed"], true);

    refused(
        &remove(rude.to_string(), mona.clone(), "twice").await,
        409,
        "chat_message_removed",
    );
    refused(
        &remove("999999".into(), mona.clone(), "none").await,
        404,
        "chat_message_not_found",
    );
    refused(
        &remove(kept.to_string(), mona.clone(), "").await,
        400,
        "invalid_reason",
    );

    let r = s
        .post(
            &format!("/v1/moderation/reports/{reported}/resolve"),
            Some(&mona),
            &json!({"outcome": "act", "reason": "Removed the message."}),
        )
        .await;
    assert_eq!(r.body["state"], "actioned", "{}", r.body);

    // The operator's removal is the same removal, recorded under the operator's name.
    baumeister_api::cli::chat(
        &s.store,
        baumeister_api::cli::ChatAction::Remove {
            id: kept,
            reason: "Test of the command line.".into(),
            by: Some("olga".into()),
        },
    )
    .await
    .unwrap();

    let entries = log(&s, &mona).await;
    let seen: Vec<(&str, &str, Option<&str>, &str)> = entries
        .iter()
        .map(|e| {
            (
                e["moderator"].as_str().unwrap(),
                e["action"].as_str().unwrap(),
                e["account"].as_str(),
                e["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                "olga",
                "remove_message",
                Some("ada"),
                "Test of the command line."
            ),
            (
                "mona",
                "act_on_report",
                Some("troll"),
                "Removed the message."
            ),
            ("mona", "remove_message", Some("troll"), "Insults."),
            ("olga", "grant_moderator", Some("mona"), "by the operator"),
        ]
    );
    assert_eq!(entries[2]["message_id"], rude);
    assert_eq!(entries[1]["report_id"], reported);
    let at = baumeister_storage::parse_rfc3339(entries[2]["at"].as_str().unwrap()).unwrap();
    assert!((before..=s.store.now_ms()).contains(&at), "when");
    refused(
        &s.get("/v1/moderation/log", Some(ada)).await,
        403,
        "not_a_moderator",
    );
    let page = s.get("/v1/moderation/log?limit=2", Some(&mona)).await;
    assert_eq!(page.body["entries"].as_array().unwrap().len(), 2);
    let next = page.body["next_before"].as_i64().unwrap();
    let rest = s
        .get(&format!("/v1/moderation/log?before={next}"), Some(&mona))
        .await;
    assert_eq!(rest.body["entries"].as_array().unwrap().len(), 2);
    assert_eq!(rest.body["next_before"], Value::Null);
    s.finish().await;
}

#[actix_web::test]
async fn a_suspension_stops_chat_new_games_seats_and_invitations_while_running_games_go_on() {
    let s = TestServer::start().await;
    let mona = moderator(&s, "mona").await;
    let t = s.players(&["ada", "troll", "bea"]).await;
    let (ada, troll) = (&t[0], &t[1]);
    // A running game with a one-minute turn clock, a table troll waits at, one ada waits at,
    // and ada's private game with troll invited.
    let running = s
        .game(
            "burgbaumeister",
            json!({"move_minutes": 1}),
            &[ada.clone(), troll.clone()],
        )
        .await;
    let trolls_table = s.open_game(troll, "burgbaumeister", 3).await;
    let adas_table = s.open_game(ada, "burgbaumeister", 3).await;
    let adas_private = s
        .post(
            "/v1/games",
            Some(ada),
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let invitation = s
        .post(
            &format!("/v1/games/{adas_private}/invitations"),
            Some(ada),
            &json!({"player": "troll"}),
        )
        .await;
    assert_eq!(invitation.status, 201, "{}", invitation.body);
    let invitation = invitation.body["invitation"]["id"].as_i64().unwrap();

    // Refused to moderators' bad input and to everybody else.
    let suspend = |name: &'static str, token: String, body: Value| {
        let s = &s;
        async move {
            s.post(
                &format!("/v1/moderation/accounts/{name}/suspend"),
                Some(&token),
                &body,
            )
            .await
        }
    };
    let week = rfc3339(s.store.now_ms() + 7 * 24 * HOUR);
    refused(
        &suspend("troll", ada.clone(), json!({"until": week, "reason": "x"})).await,
        403,
        "not_a_moderator",
    );
    let past = rfc3339(s.store.now_ms() - 1000);
    refused(
        &suspend("troll", mona.clone(), json!({"until": past, "reason": "x"})).await,
        422,
        "suspension_not_in_future",
    );
    refused(
        &suspend(
            "troll",
            mona.clone(),
            json!({"until": "next week", "reason": "x"}),
        )
        .await,
        400,
        "invalid_until",
    );
    refused(
        &suspend("troll", mona.clone(), json!({"until": week, "reason": ""})).await,
        400,
        "invalid_reason",
    );
    refused(
        &suspend(
            "nobody",
            mona.clone(),
            json!({"until": week, "reason": "x"}),
        )
        .await,
        404,
        "not_found",
    );

    let r = suspend(
        "TROLL",
        mona.clone(),
        json!({"until": week, "reason": "Insults in chat"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["account"], "troll");
    let until = r.body["suspension"]["until"].as_str().unwrap().to_string();
    assert_eq!(
        baumeister_storage::parse_rfc3339(&until),
        baumeister_storage::parse_rfc3339(&week)
    );

    // Everything social and every new seat: 403 with why and until when.
    let attempts: Vec<(String, Value)> = vec![
        (chat(running), json!({"channel": "table", "text": "hello"})),
        (
            "/v1/games".into(),
            json!({"kind": "burgbaumeister", "seats": 2}),
        ),
        (format!("/v1/games/{adas_table}/join"), json!({})),
        (format!("/v1/me/invitations/{invitation}/accept"), json!({})),
        (
            format!("/v1/games/{trolls_table}/invitations"),
            json!({"player": "bea"}),
        ),
        (
            format!("/v1/games/{trolls_table}/bots"),
            json!({"seat": 1, "level": "random"}),
        ),
        (format!("/v1/games/{running}/rematch"), json!({})),
        (format!("/v1/games/{running}/rematch/accept"), json!({})),
    ];
    for (path, body) in &attempts {
        let r = s.post(path, Some(troll), body).await;
        refused(&r, 403, "account_suspended");
        let detail = r.body["detail"].as_str().unwrap();
        assert!(
            detail.contains("Insults in chat") && detail.contains(&until),
            "{path}: {detail}"
        );
    }
    // Nothing of it happened.
    let game = s.get(&format!("/v1/games/{adas_table}"), None).await.body;
    assert_eq!(game["seats"].as_array().unwrap().len(), 1, "{game}");
    // Reporting, and reading, stay open.
    let r = report(&s, troll, json!({"player": "ada", "category": "other"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(s.get(&chat(running), Some(troll)).await.status, 200);

    // The account sees its suspension; others see none of their own.
    let me = s.get("/v1/me/standing", Some(troll)).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.body["name"], "troll");
    assert_eq!(me.body["suspension"]["until"], until.as_str());
    assert_eq!(me.body["suspension"]["reason"], "Insults in chat");
    assert_eq!(me.body["moderator"], false);
    let her = s.get("/v1/me/standing", Some(&mona)).await;
    assert_eq!(
        (her.body["moderator"].as_bool(), &her.body["suspension"]),
        (Some(true), &Value::Null)
    );
    let list = s.get("/v1/moderation/suspensions", Some(&mona)).await;
    assert_eq!(
        list.body["suspensions"][0]["account"], "troll",
        "{}",
        list.body
    );
    refused(
        &s.get("/v1/moderation/suspensions", Some(ada)).await,
        403,
        "not_a_moderator",
    );

    // The running game goes on: troll's moves are taken, and the turn clock runs as usual.
    let mut version = s.get(&format!("/v1/games/{running}"), None).await.body["version"]
        .as_i64()
        .unwrap();
    let moves = s.moves(running, troll).await;
    if !moves.body["moves"].as_array().unwrap().is_empty() {
        version = s.first_move(running, troll).await.version();
    }
    s.store.advance_clock(61_000);
    let game = s.get(&format!("/v1/games/{running}"), None).await.body;
    assert!(
        game["version"].as_i64().unwrap() > version,
        "the clock's default moves were made: {game}"
    );

    // Lifted: troll chats again; lifting again is refused.
    let lift = |name: &'static str, token: String, reason: &'static str| {
        let s = &s;
        async move {
            s.post(
                &format!("/v1/moderation/accounts/{name}/lift"),
                Some(&token),
                &json!({ "reason": reason }),
            )
            .await
        }
    };
    refused(
        &lift("troll", ada.clone(), "x").await,
        403,
        "not_a_moderator",
    );
    let r = lift("troll", mona.clone(), "Apologised.").await;
    assert_eq!(r.status, 204, "{}", r.body);
    said(&s, running, troll, "table", "sorry").await;
    assert_eq!(
        s.get("/v1/me/standing", Some(troll)).await.body["suspension"],
        Value::Null
    );
    refused(
        &lift("troll", mona.clone(), "again").await,
        409,
        "not_suspended",
    );
    refused(&lift("nobody", mona.clone(), "x").await, 404, "not_found");

    // A suspension runs out by itself.
    let hour = rfc3339(s.store.now_ms() + HOUR);
    let r = suspend(
        "troll",
        mona.clone(),
        json!({"until": hour, "reason": "Cool off"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(
            &chat(running),
            Some(troll),
            &json!({"channel": "table", "text": "hm"}),
        )
        .await;
    refused(&r, 403, "account_suspended");
    s.store.advance_clock(HOUR + 1000);
    said(&s, running, troll, "table", "back").await;
    assert_eq!(
        s.get("/v1/me/standing", Some(troll)).await.body["suspension"],
        Value::Null
    );
    let list = s.get("/v1/moderation/suspensions", Some(&mona)).await;
    assert_eq!(list.body["suspensions"], json!([]));

    // The log: who, when, why, until when.
    let entries = log(&s, &mona).await;
    let seen: Vec<(&str, &str, &str, &str)> = entries
        .iter()
        .map(|e| {
            (
                e["moderator"].as_str().unwrap(),
                e["action"].as_str().unwrap(),
                e["account"].as_str().unwrap(),
                e["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("mona", "suspend", "troll", "Cool off"),
            ("mona", "lift_suspension", "troll", "Apologised."),
            ("mona", "suspend", "troll", "Insults in chat"),
            ("olga", "grant_moderator", "mona", "by the operator"),
        ]
    );
    assert_eq!(entries[2]["until"], until.as_str());
    assert_eq!(entries[1]["until"], Value::Null);
    s.finish().await;
}

#[actix_web::test]
async fn the_operator_grants_moderators_suspends_lifts_and_resolves_from_the_command_line() {
    let s = TestServer::start().await;
    let t = s.players(&["mona", "ada", "troll"]).await;
    let (mona, ada, troll) = (&t[0], &t[1], &t[2]);
    let game = s
        .game("burgbaumeister", json!({}), &[ada.clone(), troll.clone()])
        .await;
    refused(
        &s.get("/v1/moderation/reports", Some(mona)).await,
        403,
        "not_a_moderator",
    );

    let grant = |name: &str| ModeratorAction::Grant {
        name: name.into(),
        by: Some("olga".into()),
    };
    moderation_cli::moderator(&s.store, grant("MONA"))
        .await
        .unwrap();
    let unknown = moderation_cli::moderator(&s.store, grant("nobody"))
        .await
        .unwrap_err();
    assert!(unknown.contains("no account"), "{unknown}");
    assert!(moderation_cli::moderator(&s.store, grant(" "))
        .await
        .is_err());
    moderation_cli::moderator(&s.store, ModeratorAction::List)
        .await
        .unwrap();
    assert_eq!(s.store.moderators().await.unwrap(), ["mona"]);
    actix_web::rt::time::sleep(STANDING_SEEN).await;
    assert_eq!(
        s.get("/v1/moderation/reports", Some(mona)).await.status,
        200
    );

    // Suspended from the command line, for a time from now.
    let bad = moderation_cli::suspend(&s.store, "troll", "soon", "x", None)
        .await
        .unwrap_err();
    assert!(bad.contains("--until"), "{bad}");
    let bad = moderation_cli::suspend(&s.store, "troll", "2d", " ", None)
        .await
        .unwrap_err();
    assert!(bad.contains("reason"), "{bad}");
    moderation_cli::suspend(&s.store, "troll", "2d", "Spam", Some("olga".into()))
        .await
        .unwrap();
    moderation_cli::suspensions(&s.store).await.unwrap();
    actix_web::rt::time::sleep(STANDING_SEEN).await;
    let r = s
        .post(
            &chat(game),
            Some(troll),
            &json!({"channel": "table", "text": "hi"}),
        )
        .await;
    refused(&r, 403, "account_suspended");
    assert!(r.body["detail"].as_str().unwrap().contains("Spam"));
    moderation_cli::unsuspend(&s.store, "troll", "Appeal granted", Some("olga".into()))
        .await
        .unwrap();
    let again = moderation_cli::unsuspend(&s.store, "troll", "twice", None)
        .await
        .unwrap_err();
    assert!(again.contains("not suspended"), "{again}");
    actix_web::rt::time::sleep(STANDING_SEEN).await;
    said(&s, game, troll, "table", "hi again").await;

    // Reports listed and resolved from the command line.
    let filed = report(&s, ada, json!({"player": "troll", "category": "cheating"})).await;
    let id = filed.body["id"].as_i64().unwrap();
    moderation_cli::reports(
        &s.store,
        ReportsAction::List {
            state: Some("open".into()),
            limit: 10,
        },
    )
    .await
    .unwrap();
    let resolve = |outcome: &str| ReportsAction::Resolve {
        id,
        outcome: outcome.into(),
        reason: "Looked at the games.".into(),
        by: Some("olga".into()),
    };
    assert!(moderation_cli::reports(&s.store, resolve("maybe"))
        .await
        .is_err());
    moderation_cli::reports(&s.store, resolve("act"))
        .await
        .unwrap();
    let twice = moderation_cli::reports(&s.store, resolve("dismiss"))
        .await
        .unwrap_err();
    assert!(twice.contains("resolved already"), "{twice}");
    let q = s.get("/v1/moderation/reports", Some(mona)).await;
    assert_eq!(q.body["reports"][0]["state"], "actioned");
    assert_eq!(q.body["reports"][0]["resolved_by"], "olga");

    // Revoked: refused again once the standing is read anew.
    moderation_cli::moderator(
        &s.store,
        ModeratorAction::Revoke {
            name: "mona".into(),
            by: Some("olga".into()),
        },
    )
    .await
    .unwrap();
    moderation_cli::moderator(&s.store, ModeratorAction::Log { limit: 10 })
        .await
        .unwrap();
    let entries = s.store.moderation_log(None, 100).await.unwrap();
    let seen: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e.moderator.as_str(), e.action.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            ("olga", "revoke_moderator"),
            ("olga", "act_on_report"),
            ("olga", "lift_suspension"),
            ("olga", "suspend"),
            ("olga", "grant_moderator"),
        ]
    );
    actix_web::rt::time::sleep(STANDING_SEEN).await;
    refused(
        &s.get("/v1/moderation/reports", Some(mona)).await,
        403,
        "not_a_moderator",
    );
    s.finish().await;
}
