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

/// Mona the moderator; ada, troll, spammer, cyd and ola; troll's rude message in a game of ada
/// and troll.
struct Reporting {
    s: TestServer,
    mona: String,
    t: Vec<String>,
    game: i64,
    rude: i64,
}

async fn given_a_rude_message() -> Reporting {
    let s = TestServer::start().await;
    let mona = moderator(&s, "mona").await;
    let t = s.players(&["ada", "troll", "spammer", "cyd", "ola"]).await;
    let game = s.game("burgbaumeister", json!({}), &t[..2]).await;
    let rude = said(&s, game, &t[1], "table", "you play like a potato").await;
    Reporting {
        s,
        mona,
        t,
        game,
        rude,
    }
}

/// Ada reports the rude message (twice: one entry) and, by name, spammer; cyd reports the
/// message too. The ids of ada's report of the message and of spammer.
async fn ada_and_cyd_report(w: &Reporting) -> (i64, i64) {
    let (s, ada, rude) = (&w.s, w.t[0].as_str(), w.rude);
    // A message's report names its author and game; the same report again is the same entry.
    let r = report(
        s,
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
    let again = report(s, ada, json!({"message_id": rude, "category": "spam"})).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(
        again.body["id"], first,
        "one queue entry per reporter and thing"
    );
    // Another reporter's is another entry; a player is reported by name.
    let r = report(s, &w.t[3], json!({"message_id": rude, "category": "abuse"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = report(
        s,
        ada,
        json!({"player": "SPAMMER", "category": "spam", "text": "Links in every game."}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["reported"], "spammer");
    (first, r.body["id"].as_i64().unwrap())
}

/// Spammer's message in troll's private game: ola, an outsider, is told it does not exist,
/// with the words an unused id gets; troll, a player of it, reports it.
async fn a_private_message_is_reported_by_its_player_only(w: &Reporting) {
    let (s, troll, spammer, ola) = (&w.s, w.t[1].as_str(), &w.t[2], &w.t[4]);
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
    let hidden = said(s, private, spammer, "table", "buy gold at example.com").await;
    let outsider = report(s, ola, json!({"message_id": hidden, "category": "spam"})).await;
    let unused = report(s, ola, json!({"message_id": 999_999, "category": "spam"})).await;
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
    let r = report(s, troll, json!({"message_id": hidden, "category": "spam"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

/// Mona resolves report `id`.
async fn resolve(s: &TestServer, token: &str, id: &str, outcome: &str, reason: &str) -> Reply {
    s.post(
        &format!("/v1/moderation/reports/{id}/resolve"),
        Some(token),
        &json!({"outcome": outcome, "reason": reason}),
    )
    .await
}

/// Mona dismisses the report of spammer; resolving it again, or what is not a report, or
/// without a reason, is refused.
async fn mona_dismisses_once(w: &Reporting, first: i64, spam_report: i64) {
    let (s, mona) = (&w.s, w.mona.as_str());
    let r = resolve(
        s,
        mona,
        &spam_report.to_string(),
        "dismiss",
        "Nothing found.",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["state"], "dismissed");
    assert_eq!(r.body["resolved_by"], "mona");
    assert_eq!(r.body["resolution"], "Nothing found.");
    refused(
        &resolve(s, mona, &spam_report.to_string(), "act", "again").await,
        409,
        "report_not_open",
    );
    for id in ["999999", "abc"] {
        refused(
            &resolve(s, mona, id, "act", "x").await,
            404,
            "report_not_found",
        );
    }
    refused(
        &resolve(s, mona, &first.to_string(), "act", " ").await,
        400,
        "invalid_reason",
    );
}

#[actix_web::test]
async fn a_report_names_the_reported_and_is_one_entry_per_reporter_and_thing() {
    let w = given_a_rude_message().await;
    ada_and_cyd_report(&w).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn a_private_games_message_is_not_there_for_outsiders_to_report() {
    let w = given_a_rude_message().await;
    a_private_message_is_reported_by_its_player_only(&w).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn reports_of_oneself_of_nobody_or_of_bad_form_are_refused() {
    let w = given_a_rude_message().await;
    let (s, ada, rude) = (&w.s, w.t[0].as_str(), w.rude);
    refused(
        &report(
            s,
            w.t[1].as_str(),
            json!({"message_id": rude, "category": "abuse"}),
        )
        .await,
        422,
        "cannot_report_self",
    );
    refused(
        &report(s, ada, json!({"player": "ada", "category": "other"})).await,
        422,
        "cannot_report_self",
    );
    refused(
        &report(s, ada, json!({"player": "nobody", "category": "other"})).await,
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
        refused(&report(s, ada, bad).await, 400, "invalid_report");
    }
    refused(
        &report(s, ada, json!({"player": "troll", "category": "rudeness"})).await,
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
    w.s.finish().await;
}

#[actix_web::test]
async fn the_report_queue_is_for_moderators_only() {
    let w = given_a_rude_message().await;
    let (first, _) = ada_and_cyd_report(&w).await;
    let s = &w.s;
    for token in [w.t[0].as_str(), w.t[1].as_str()] {
        refused(
            &s.get("/v1/moderation/reports", Some(token)).await,
            403,
            "not_a_moderator",
        );
    }
    assert_eq!(s.get("/v1/moderation/reports", None).await.status, 401);
    let r = resolve(s, w.t[0].as_str(), &first.to_string(), "dismiss", "mine").await;
    refused(&r, 403, "not_a_moderator");
    w.s.finish().await;
}

#[actix_web::test]
async fn a_report_is_resolved_once() {
    let w = given_a_rude_message().await;
    let (first, spam_report) = ada_and_cyd_report(&w).await;
    mona_dismisses_once(&w, first, spam_report).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn the_queue_lists_open_reports_oldest_first_each_with_its_message() {
    let w = given_a_rude_message().await;
    let (first, spam_report) = ada_and_cyd_report(&w).await;
    a_private_message_is_reported_by_its_player_only(&w).await;
    mona_dismisses_once(&w, first, spam_report).await;
    let (s, mona) = (&w.s, w.mona.as_str());

    // Open ones first, oldest first, each with its message's text, game, reporter, reported.
    let q = s.get("/v1/moderation/reports", Some(mona)).await;
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
    assert_eq!(top["game_id"], w.game);
    assert_eq!(top["message"]["id"], w.rude);
    assert_eq!(top["message"]["text"], "you play like a potato");
    assert_eq!(top["message"]["channel"], "table");
    assert_eq!(top["message"]["removed"], false);
    assert_eq!(top["open_reports_of_reported"], 2);
    assert_eq!(reports[2]["message"]["text"], "buy gold at example.com");
    assert_eq!(reports[3]["message"], Value::Null);
    let open = s
        .get("/v1/moderation/reports?state=open&limit=2", Some(mona))
        .await;
    assert_eq!(open.body["reports"].as_array().unwrap().len(), 2);
    assert_eq!(open.body["next_offset"], 2);
    refused(
        &s.get("/v1/moderation/reports?limit=101", Some(mona)).await,
        400,
        "invalid_query",
    );
    // Reporting the dismissed thing again is a new report.
    let r = report(
        s,
        w.t[0].as_str(),
        json!({"player": "spammer", "category": "spam"}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    w.s.finish().await;
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

/// Mona the moderator; ada's kept message and troll's rude one, reported by ada, in a game of
/// theirs whose stream is read from after the kept one.
struct Removing {
    s: TestServer,
    mona: String,
    t: Vec<String>,
    game: i64,
    kept: i64,
    rude: i64,
    reported: i64,
    stream: Stream,
}

async fn given_a_reported_message_on_a_stream() -> Removing {
    let s = TestServer::start().await;
    let mona = moderator(&s, "mona").await;
    let t = s.players(&["ada", "troll"]).await;
    let game = s.game("burgbaumeister", json!({}), &t).await;
    let kept = said(&s, game, &t[0], "table", "good game").await;
    let mut stream = s
        .stream(
            &format!("/v1/games/{game}/stream?chat_after={kept}"),
            None,
            None,
        )
        .await;
    let rude = said(&s, game, &t[1], "table", "rude words").await;
    assert_eq!(next_chat(&mut stream).await["text"], "rude words");
    let r = report(&s, &t[0], json!({"message_id": rude, "category": "abuse"})).await;
    let reported = r.body["id"].as_i64().unwrap();
    Removing {
        s,
        mona,
        t,
        game,
        kept,
        rude,
        reported,
        stream,
    }
}

async fn remove(s: &TestServer, id: &str, token: &str, reason: &str) -> Reply {
    s.post(
        &format!("/v1/moderation/messages/{id}/remove"),
        Some(token),
        &json!({ "reason": reason }),
    )
    .await
}

/// Mona removes the rude message for "Insults."; the time just before.
async fn mona_removes_the_rude_message(w: &Removing) -> i64 {
    let before = w.s.store.now_ms();
    let r = remove(&w.s, &w.rude.to_string(), &w.mona, "Insults.").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.body["removed"].as_bool(), &r.body["text"]),
        (Some(true), &Value::Null)
    );
    before
}

#[actix_web::test]
async fn a_moderator_removes_a_message_once_and_with_a_reason() {
    let w = given_a_reported_message_on_a_stream().await;
    let (s, mona) = (&w.s, w.mona.as_str());
    refused(
        &remove(s, &w.rude.to_string(), &w.t[0], "mine").await,
        403,
        "not_a_moderator",
    );
    mona_removes_the_rude_message(&w).await;
    refused(
        &remove(s, &w.rude.to_string(), mona, "twice").await,
        409,
        "chat_message_removed",
    );
    refused(
        &remove(s, "999999", mona, "none").await,
        404,
        "chat_message_not_found",
    );
    refused(
        &remove(s, &w.kept.to_string(), mona, "").await,
        400,
        "invalid_reason",
    );
    w.s.finish().await;
}

#[actix_web::test]
async fn a_removed_message_is_gone_from_the_stream_and_every_read_but_not_from_the_queue() {
    let mut w = given_a_reported_message_on_a_stream().await;
    mona_removes_the_rude_message(&w).await;
    let (rude, mona) = (w.rude, w.mona.clone());
    let pushed = next_chat(&mut w.stream).await;
    assert_eq!(
        (pushed["id"].as_i64(), pushed["removed"].as_bool()),
        (Some(rude), Some(true))
    );
    assert_eq!(pushed["text"], Value::Null);
    let s = &w.s;
    for token in [
        None,
        Some(w.t[0].as_str()),
        Some(w.t[1].as_str()),
        Some(mona.as_str()),
    ] {
        let page = s.get(&chat(w.game), token).await;
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
    w.s.finish().await;
}

#[actix_web::test]
async fn the_log_says_who_removed_which_message_when_and_why() {
    let w = given_a_reported_message_on_a_stream().await;
    let before = mona_removes_the_rude_message(&w).await;
    let (s, mona, ada) = (&w.s, w.mona.as_str(), w.t[0].as_str());
    let r = resolve(
        s,
        mona,
        &w.reported.to_string(),
        "act",
        "Removed the message.",
    )
    .await;
    assert_eq!(r.body["state"], "actioned", "{}", r.body);
    // The operator's removal is the same removal, recorded under the operator's name.
    baumeister_api::cli::chat(
        &s.store,
        baumeister_api::cli::ChatAction::Remove {
            id: w.kept,
            reason: "Test of the command line.".into(),
            by: Some("olga".into()),
        },
    )
    .await
    .unwrap();

    let entries = log(s, mona).await;
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
    assert_eq!(entries[2]["message_id"], w.rude);
    assert_eq!(entries[1]["report_id"], w.reported);
    let at = baumeister_storage::parse_rfc3339(entries[2]["at"].as_str().unwrap()).unwrap();
    assert!((before..=s.store.now_ms()).contains(&at), "when");
    refused(
        &s.get("/v1/moderation/log", Some(ada)).await,
        403,
        "not_a_moderator",
    );
    let page = s.get("/v1/moderation/log?limit=2", Some(mona)).await;
    assert_eq!(page.body["entries"].as_array().unwrap().len(), 2);
    let next = page.body["next_before"].as_i64().unwrap();
    let rest = s
        .get(&format!("/v1/moderation/log?before={next}"), Some(mona))
        .await;
    assert_eq!(rest.body["entries"].as_array().unwrap().len(), 2);
    assert_eq!(rest.body["next_before"], Value::Null);
    w.s.finish().await;
}

/// Mona the moderator; ada, troll and bea; a running game of ada and troll with a one-minute
/// turn clock, a table troll waits at, one ada waits at, and ada's private game with troll
/// invited.
struct Suspending {
    s: TestServer,
    mona: String,
    t: Vec<String>,
    running: i64,
    trolls_table: i64,
    adas_table: i64,
    invitation: i64,
}

async fn given_troll_in_games_and_invited() -> Suspending {
    let s = TestServer::start().await;
    let mona = moderator(&s, "mona").await;
    let t = s.players(&["ada", "troll", "bea"]).await;
    let (ada, troll) = (&t[0], &t[1]);
    let running = s
        .game("burgbaumeister", json!({"move_minutes": 1}), &t[..2])
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
    Suspending {
        s,
        mona,
        t,
        running,
        trolls_table,
        adas_table,
        invitation,
    }
}

async fn suspend(s: &TestServer, name: &str, token: &str, body: Value) -> Reply {
    s.post(
        &format!("/v1/moderation/accounts/{name}/suspend"),
        Some(token),
        &body,
    )
    .await
}

async fn lift(s: &TestServer, name: &str, token: &str, reason: &str) -> Reply {
    s.post(
        &format!("/v1/moderation/accounts/{name}/lift"),
        Some(token),
        &json!({ "reason": reason }),
    )
    .await
}

/// Mona suspends troll (named in capitals) for a week for "Insults in chat"; the until the
/// answer gives.
async fn given_troll_suspended_for_a_week(w: &Suspending) -> String {
    let week = rfc3339(w.s.store.now_ms() + 7 * 24 * HOUR);
    let r = suspend(
        &w.s,
        "TROLL",
        &w.mona,
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
    until
}

/// Mona lifts troll's suspension; troll chats again; lifting again is refused.
async fn mona_lifts_it(w: &Suspending) {
    let (s, mona, troll) = (&w.s, w.mona.as_str(), w.t[1].as_str());
    refused(
        &lift(s, "troll", w.t[0].as_str(), "x").await,
        403,
        "not_a_moderator",
    );
    let r = lift(s, "troll", mona, "Apologised.").await;
    assert_eq!(r.status, 204, "{}", r.body);
    said(s, w.running, troll, "table", "sorry").await;
    assert_eq!(
        s.get("/v1/me/standing", Some(troll)).await.body["suspension"],
        Value::Null
    );
    refused(&lift(s, "troll", mona, "again").await, 409, "not_suspended");
    refused(&lift(s, "nobody", mona, "x").await, 404, "not_found");
}

/// Mona suspends troll for an hour, which runs out by itself.
async fn a_suspension_for_an_hour_runs_out(w: &Suspending) {
    let (s, mona, troll) = (&w.s, w.mona.as_str(), w.t[1].as_str());
    let hour = rfc3339(s.store.now_ms() + HOUR);
    let r = suspend(
        s,
        "troll",
        mona,
        json!({"until": hour, "reason": "Cool off"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .post(
            &chat(w.running),
            Some(troll),
            &json!({"channel": "table", "text": "hm"}),
        )
        .await;
    refused(&r, 403, "account_suspended");
    s.store.advance_clock(HOUR + 1000);
    said(s, w.running, troll, "table", "back").await;
    assert_eq!(
        s.get("/v1/me/standing", Some(troll)).await.body["suspension"],
        Value::Null
    );
    let list = s.get("/v1/moderation/suspensions", Some(mona)).await;
    assert_eq!(list.body["suspensions"], json!([]));
}

#[actix_web::test]
async fn a_suspension_is_refused_to_bad_input_and_to_others_than_moderators() {
    let w = given_troll_in_games_and_invited().await;
    let (s, mona) = (&w.s, w.mona.as_str());
    let week = rfc3339(s.store.now_ms() + 7 * 24 * HOUR);
    let past = rfc3339(s.store.now_ms() - 1000);
    for (name, token, body, status, code) in [
        (
            "troll",
            w.t[0].as_str(),
            json!({"until": week, "reason": "x"}),
            403,
            "not_a_moderator",
        ),
        (
            "troll",
            mona,
            json!({"until": past, "reason": "x"}),
            422,
            "suspension_not_in_future",
        ),
        (
            "troll",
            mona,
            json!({"until": "next week", "reason": "x"}),
            400,
            "invalid_until",
        ),
        (
            "troll",
            mona,
            json!({"until": week, "reason": ""}),
            400,
            "invalid_reason",
        ),
        (
            "nobody",
            mona,
            json!({"until": week, "reason": "x"}),
            404,
            "not_found",
        ),
    ] {
        refused(&suspend(s, name, token, body).await, status, code);
    }
    w.s.finish().await;
}

#[actix_web::test]
async fn a_suspended_account_is_refused_chat_new_games_seats_bots_invitations_and_rematches() {
    let w = given_troll_in_games_and_invited().await;
    let until = given_troll_suspended_for_a_week(&w).await;
    let (s, running, trolls_table) = (&w.s, w.running, w.trolls_table);
    // 403 with why and until when.
    let attempts: Vec<(String, Value)> = vec![
        (chat(running), json!({"channel": "table", "text": "hello"})),
        (
            "/v1/games".into(),
            json!({"kind": "burgbaumeister", "seats": 2}),
        ),
        (format!("/v1/games/{}/join", w.adas_table), json!({})),
        (
            format!("/v1/me/invitations/{}/accept", w.invitation),
            json!({}),
        ),
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
        let r = s.post(path, Some(w.t[1].as_str()), body).await;
        refused(&r, 403, "account_suspended");
        let detail = r.body["detail"].as_str().unwrap();
        assert!(
            detail.contains("Insults in chat") && detail.contains(&until),
            "{path}: {detail}"
        );
    }
    // Nothing of it happened.
    let game = s
        .get(&format!("/v1/games/{}", w.adas_table), None)
        .await
        .body;
    assert_eq!(game["seats"].as_array().unwrap().len(), 1, "{game}");
    w.s.finish().await;
}

#[actix_web::test]
async fn a_suspended_account_still_reports_and_reads() {
    let w = given_troll_in_games_and_invited().await;
    given_troll_suspended_for_a_week(&w).await;
    let (s, troll) = (&w.s, w.t[1].as_str());
    let r = report(s, troll, json!({"player": "ada", "category": "other"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(s.get(&chat(w.running), Some(troll)).await.status, 200);
    w.s.finish().await;
}

#[actix_web::test]
async fn a_suspended_account_sees_its_suspension_and_moderators_see_the_list() {
    let w = given_troll_in_games_and_invited().await;
    let until = given_troll_suspended_for_a_week(&w).await;
    let (s, mona) = (&w.s, w.mona.as_str());
    // Others see none of their own.
    let me = s.get("/v1/me/standing", Some(w.t[1].as_str())).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.body["name"], "troll");
    assert_eq!(me.body["suspension"]["until"], until.as_str());
    assert_eq!(me.body["suspension"]["reason"], "Insults in chat");
    assert_eq!(me.body["moderator"], false);
    let her = s.get("/v1/me/standing", Some(mona)).await;
    assert_eq!(
        (her.body["moderator"].as_bool(), &her.body["suspension"]),
        (Some(true), &Value::Null)
    );
    let list = s.get("/v1/moderation/suspensions", Some(mona)).await;
    assert_eq!(
        list.body["suspensions"][0]["account"], "troll",
        "{}",
        list.body
    );
    refused(
        &s.get("/v1/moderation/suspensions", Some(w.t[0].as_str()))
            .await,
        403,
        "not_a_moderator",
    );
    w.s.finish().await;
}

#[actix_web::test]
async fn a_suspended_accounts_running_game_goes_on_with_its_moves_and_the_turn_clock() {
    let w = given_troll_in_games_and_invited().await;
    given_troll_suspended_for_a_week(&w).await;
    let (s, running, troll) = (&w.s, w.running, w.t[1].as_str());
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
    w.s.finish().await;
}

#[actix_web::test]
async fn a_lifted_suspension_lets_the_account_chat_again() {
    let w = given_troll_in_games_and_invited().await;
    given_troll_suspended_for_a_week(&w).await;
    mona_lifts_it(&w).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn a_suspension_runs_out_by_itself() {
    let w = given_troll_in_games_and_invited().await;
    a_suspension_for_an_hour_runs_out(&w).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn the_log_says_who_suspended_and_lifted_when_why_and_until_when() {
    let w = given_troll_in_games_and_invited().await;
    let until = given_troll_suspended_for_a_week(&w).await;
    mona_lifts_it(&w).await;
    a_suspension_for_an_hour_runs_out(&w).await;
    let entries = log(&w.s, &w.mona).await;
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
    w.s.finish().await;
}

/// Mona, ada and troll, not moderators; a game of ada and troll.
struct Operating {
    s: TestServer,
    t: Vec<String>,
    game: i64,
}

async fn given_mona_and_ada_and_troll_playing() -> Operating {
    let s = TestServer::start().await;
    let t = s.players(&["mona", "ada", "troll"]).await;
    let game = s.game("burgbaumeister", json!({}), &t[1..]).await;
    Operating { s, t, game }
}

/// The operator makes mona (named in capitals) a moderator; refused before, she reads the queue
/// once the standing is read anew; unknown and blank names are refused.
async fn the_operator_grants_mona(w: &Operating) {
    let (s, mona) = (&w.s, w.t[0].as_str());
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
}

/// The operator suspends troll for two days, then lifts it: troll is refused chat between.
async fn the_operator_suspends_and_lifts_troll(w: &Operating) {
    let (s, troll) = (&w.s, w.t[2].as_str());
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
            &chat(w.game),
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
    said(s, w.game, troll, "table", "hi again").await;
}

/// The operator lists the open reports and acts on ada's, once; mona's queue shows it.
async fn the_operator_resolves_adas_report(w: &Operating) {
    let s = &w.s;
    let filed = report(
        s,
        &w.t[1],
        json!({"player": "troll", "category": "cheating"}),
    )
    .await;
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
    let q = s.get("/v1/moderation/reports", Some(&w.t[0])).await;
    assert_eq!(q.body["reports"][0]["state"], "actioned");
    assert_eq!(q.body["reports"][0]["resolved_by"], "olga");
}

#[actix_web::test]
async fn the_operator_grants_a_moderator_from_the_command_line() {
    let w = given_mona_and_ada_and_troll_playing().await;
    the_operator_grants_mona(&w).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn the_operator_suspends_and_lifts_from_the_command_line() {
    let w = given_mona_and_ada_and_troll_playing().await;
    the_operator_suspends_and_lifts_troll(&w).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn the_operator_resolves_reports_from_the_command_line() {
    let w = given_mona_and_ada_and_troll_playing().await;
    the_operator_grants_mona(&w).await;
    the_operator_resolves_adas_report(&w).await;
    w.s.finish().await;
}

#[actix_web::test]
async fn a_revoked_moderator_is_refused_and_the_log_names_the_operator_for_each_action() {
    let w = given_mona_and_ada_and_troll_playing().await;
    the_operator_grants_mona(&w).await;
    the_operator_suspends_and_lifts_troll(&w).await;
    the_operator_resolves_adas_report(&w).await;
    let s = &w.s;
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
    // Refused again once the standing is read anew.
    actix_web::rt::time::sleep(STANDING_SEEN).await;
    refused(
        &s.get("/v1/moderation/reports", Some(&w.t[0])).await,
        403,
        "not_a_moderator",
    );
    w.s.finish().await;
}
