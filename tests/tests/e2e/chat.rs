//! Chat at the table: who writes and reads each channel, pages, bounds, the rate limit, live
//! pushes, mutes, an operator's removal, and that chat never touches the game's chain.

use std::time::Duration;

use baumeister_api::cli::{self, ChatAction};
use baumeister_api::limits::Rate;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::sse::Stream;
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{Pick, Reply, TestServer};

const WAIT: Duration = Duration::from_secs(20);

fn chat(id: i64) -> String {
    format!("/v1/games/{id}/chat")
}

async fn say(s: &TestServer, id: i64, token: Option<&str>, channel: &str, text: &str) -> Reply {
    s.post(&chat(id), token, &json!({"channel": channel, "text": text}))
        .await
}

/// Posts and expects it stored; returns the message's id.
async fn said(s: &TestServer, id: i64, token: &str, channel: &str, text: &str) -> i64 {
    let r = say(s, id, Some(token), channel, text).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

/// The texts of a page, in the order given.
fn texts(page: &Reply) -> Vec<String> {
    assert_eq!(page.status, 200, "{}", page.body);
    page.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap_or("<removed>").to_string())
        .collect()
}

/// A burgbaumeister game for ada and bea (seated); cyd registered, without a seat.
async fn table(s: &TestServer) -> (i64, Vec<String>) {
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens[..2]).await;
    (id, tokens)
}

/// The next `chat` message of a stream (other messages skipped).
async fn next_chat(stream: &mut Stream) -> Value {
    loop {
        let m = stream.next(WAIT).await.expect("a chat message in time");
        if m.event == "chat" {
            assert_eq!(m.id, None, "chat does not move Last-Event-ID");
            return m.data;
        }
    }
}

#[actix_web::test]
async fn players_talk_at_the_table_spectators_on_their_bench_and_everybody_hears_the_table() {
    let s = TestServer::start().await;
    let (id, t) = table(&s).await;
    let (ada, cyd) = (t[0].as_str(), t[2].as_str());
    let version = s.get(&format!("/v1/games/{id}"), None).await.body["version"]
        .as_i64()
        .unwrap();

    let r = say(&s, id, Some(ada), "table", "  Good luck, bea!  ").await;
    assert_eq!(r.status, 201, "{}", r.body);
    let m = &r.body;
    assert!(m["id"].as_i64().unwrap() > 0);
    assert_eq!(m["game_id"], id);
    assert_eq!(m["channel"], "table");
    assert_eq!(m["author"], "ada");
    assert_eq!(m["text"], "Good luck, bea!", "trimmed");
    assert_eq!(m["version"], version, "the game's version when written");
    assert_eq!(m["removed"], false);
    baumeister_storage::parse_rfc3339(m["at"].as_str().unwrap()).expect("an RFC 3339 time");

    // Only seated players at the table; only accounts without a seat on the bench.
    let r = say(&s, id, Some(cyd), "table", "may I?").await;
    assert_refused(&r, 403, "not_seated");
    let r = say(&s, id, Some(ada), "spectators", "hello bench").await;
    assert_refused(&r, 403, "spectators_only");
    said(&s, id, cyd, "spectators", "nice opening").await;
    let r = say(&s, id, None, "table", "anonymous").await;
    assert_refused(&r, 401, "token_missing");
    let r = say(&s, id, None, "spectators", "anonymous").await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = say(&s, 999_999, Some(ada), "table", "where?").await;
    assert_refused(&r, 404, "game_not_found");
    let r = say(&s, id, Some(ada), "bench", "no such channel").await;
    assert_refused(&r, 400, "malformed_request");

    // The table is heard by everybody who may see the game; the bench by signed-in accounts,
    // players included when they ask.
    let table_page = format!("{}?channel=table", chat(id));
    let bench_page = format!("{}?channel=spectators", chat(id));
    for token in [None, Some(ada), Some(cyd), Some(t[1].as_str())] {
        assert_eq!(texts(&s.get(&table_page, token).await), ["Good luck, bea!"]);
        assert_eq!(texts(&s.get(&chat(id), token).await), ["Good luck, bea!"]);
    }
    for token in [ada, cyd] {
        assert_eq!(
            texts(&s.get(&bench_page, Some(token)).await),
            ["nice opening"]
        );
    }
    let r = s.get(&bench_page, None).await;
    assert_refused(&r, 401, "token_missing");
    let r = s.get(&format!("{}?channel=bench", chat(id)), None).await;
    assert_refused(&r, 400, "invalid_query");
    let r = s.get(&chat(999_999), None).await;
    assert_refused(&r, 404, "game_not_found");
    s.finish().await;
}

#[actix_web::test]
async fn pages_go_newest_first_and_follow_their_cursor_within_the_bounds_asked_for() {
    let s = TestServer::start().await;
    let (id, t) = table(&s).await;
    let mut ids = Vec::new();
    for n in 1..=7 {
        ids.push(said(&s, id, &t[n % 2], "table", &format!("m{n}")).await);
    }
    let server = &s;
    let page = |q: String| {
        let path = format!("{}?{q}", chat(id));
        async move { server.get(&path, None).await }
    };
    let first = page("limit=3".into()).await;
    assert_eq!(texts(&first), ["m7", "m6", "m5"]);
    assert_eq!(first.body["next_before"], ids[4]);
    let second = page(format!("limit=3&before={}", ids[4])).await;
    assert_eq!(texts(&second), ["m4", "m3", "m2"]);
    let last = page(format!("limit=3&before={}", ids[1])).await;
    assert_eq!(texts(&last), ["m1"]);
    assert_eq!(last.body["next_before"], Value::Null);

    // `after` is a floor: catching up after m2, two at a time, newest first.
    let mut caught = Vec::new();
    let mut q = format!("limit=2&after={}", ids[1]);
    loop {
        let p = page(q.clone()).await;
        caught.extend(texts(&p));
        match p.body["next_before"].as_i64() {
            Some(before) => q = format!("limit=2&after={}&before={before}", ids[1]),
            None => break,
        }
    }
    assert_eq!(caught, ["m7", "m6", "m5", "m4", "m3"]);
    assert_eq!(texts(&page(String::new()).await).len(), 7, "50 by default");

    for bad in ["limit=0", "limit=101", "before=-1", "after=x", "page=2"] {
        let r = page(bad.into()).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "invalid_query"),
            "{bad}: {}",
            r.body
        );
    }
    s.finish().await;
}

#[actix_web::test]
async fn texts_are_one_to_five_hundred_characters_of_plain_text_in_a_small_body() {
    let s = TestServer::start_with(|c| c.limits.chat = None).await;
    let (id, t) = table(&s).await;
    let ada = Some(t[0].as_str());
    for (text, code) in [
        ("", "chat_text_length"),
        (" \n\t ", "chat_text_length"),
        ("ring\u{7}", "chat_text_not_plain"),
        ("tab\there", "chat_text_not_plain"),
        ("windows\r\nline", "chat_text_not_plain"),
        ("nul\u{0}", "chat_text_not_plain"),
        ("c1\u{85}control", "chat_text_not_plain"),
    ] {
        let r = say(&s, id, ada, "table", text).await;
        assert_eq!((r.status, r.code()), (400, code), "{text:?}: {}", r.body);
    }
    let r = say(&s, id, ada, "table", &"a".repeat(501)).await;
    assert_refused(&r, 400, "chat_text_length");
    // Characters are Unicode scalar values, not bytes: 500 castles (2000 bytes) pass.
    let castles = "🏰".repeat(500);
    let r = say(&s, id, ada, "table", &format!(" {castles}\n")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["text"], castles.as_str());
    let r = say(&s, id, ada, "table", &"🏰".repeat(501)).await;
    assert_refused(&r, 400, "chat_text_length");
    // Newlines stay; markup is stored as given, to be shown as text.
    let markup = "<b>bold</b> &amp;\nsecond line";
    let r = say(&s, id, ada, "table", markup).await;
    assert_eq!((r.status, r.code()), (201, ""), "{}", r.body);
    assert_eq!(r.body["text"], markup);

    // The body is bounded (8 KiB) before it is parsed; anything but the two fields is refused.
    let big = json!({"channel": "table", "text": "a".repeat(9000)});
    let r = s.post(&chat(id), ada, &big).await;
    assert_refused(&r, 413, "payload_too_large");
    let r = s
        .post(
            &chat(id),
            ada,
            &json!({"channel": "table", "text": "hi", "html": true}),
        )
        .await;
    assert_refused(&r, 400, "malformed_request");
    let r = s
        .send(
            s.request("POST", &chat(id), ada),
            Some(b"{\"channel\":\"table\",\"text\":\"hi\"}".to_vec()),
        )
        .await;
    assert_eq!(r.status, 415, "{}", r.body);
    assert_eq!(
        texts(&s.get(&chat(id), None).await).len(),
        2,
        "nothing refused was stored"
    );
    s.finish().await;
}

#[actix_web::test]
async fn each_account_may_send_a_burst_then_waits_and_is_checked_before_its_body_is_read() {
    let s = TestServer::start_with(|c| c.limits.chat = Some(Rate::per(3, 60))).await;
    let (id, t) = table(&s).await;
    for n in 0..3 {
        said(&s, id, &t[0], "table", &format!("{n}")).await;
    }
    let r = say(&s, id, Some(&t[0]), "table", "one too many").await;
    assert_refused(&r, 429, "rate_limited");
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&wait), "{wait}");
    // Refused before the body is read: a malformed one gets the same answer.
    let r = s
        .send(
            s.request("POST", &chat(id), Some(&t[0]))
                .insert_header(("Content-Type", "application/json")),
            Some(b"not json".to_vec()),
        )
        .await;
    assert_refused(&r, 429, "rate_limited");
    // Per account: the other player (and a spectator) still talk; commands are another bucket.
    said(&s, id, &t[1], "table", "my turn to talk").await;
    said(&s, id, &t[2], "spectators", "and mine").await;
    let game = s.moves(id, &t[0]).await;
    assert_eq!(game.status, 200, "{}", game.body);
    s.finish().await;
}

#[actix_web::test]
async fn streams_push_each_channel_to_those_who_read_it() {
    let s = TestServer::start().await;
    let (id, t) = table(&s).await;
    let (ada, bea, cyd) = (t[0].as_str(), t[1].as_str(), t[2].as_str());
    let path = format!("/v1/games/{id}/stream");
    let mut at_table = s.stream(&path, Some(ada), None).await;
    let mut asking = s
        .stream(&format!("{path}?spectator_chat=true"), Some(bea), None)
        .await;
    let mut spectator = s.stream(&path, Some(cyd), None).await;
    let mut anonymous = s.stream(&path, None, None).await;
    let mut mine = s.stream("/v1/me/stream", Some(bea), None).await;
    let mut bench_mine = s.stream("/v1/me/stream", Some(cyd), None).await;
    for stream in [
        &at_table,
        &asking,
        &spectator,
        &anonymous,
        &mine,
        &bench_mine,
    ] {
        assert_eq!(stream.status, 200, "{}", stream.problem);
    }
    let bad = s
        .stream(&format!("{path}?spectator_chat=yes"), Some(ada), None)
        .await;
    assert_eq!(bad.status, 400, "{}", bad.problem);
    // The streams have started (their status sent) before anything is said.
    for stream in [&mut at_table, &mut asking, &mut spectator, &mut anonymous] {
        stream.until_version(0, WAIT).await;
    }

    let hello = said(&s, id, ada, "table", "hello table").await;
    for stream in [
        &mut at_table,
        &mut asking,
        &mut spectator,
        &mut anonymous,
        &mut mine,
    ] {
        let m = next_chat(stream).await;
        assert_eq!(
            (m["id"].as_i64(), m["text"].as_str()),
            (Some(hello), Some("hello table"))
        );
        assert_eq!(m["author"], "ada");
    }
    let bench = said(&s, id, cyd, "spectators", "psst").await;
    let marker = said(&s, id, bea, "table", "marker").await;
    // The bench reaches accounts without a seat and the player who asked, nobody else.
    for stream in [&mut spectator, &mut asking] {
        assert_eq!(next_chat(stream).await["id"], bench);
        assert_eq!(next_chat(stream).await["id"], marker);
    }
    for stream in [&mut at_table, &mut anonymous, &mut mine] {
        assert_eq!(next_chat(stream).await["id"], marker, "no bench talk");
    }
    // An account's own stream carries only the tables it sits at.
    assert!(
        bench_mine.next(Duration::from_millis(500)).await.is_none(),
        "cyd sits at no table"
    );

    // Resuming after a chat id sends what came after it, then what is new.
    let mut resumed = s
        .stream(&format!("{path}?chat_after={hello}"), Some(cyd), None)
        .await;
    assert_eq!(next_chat(&mut resumed).await["id"], bench);
    assert_eq!(next_chat(&mut resumed).await["id"], marker);
    let later = said(&s, id, ada, "table", "later").await;
    assert_eq!(next_chat(&mut resumed).await["id"], later);

    // Messages stored at once through another server process reach this one's streams, each
    // once and in the order of their ids (a game's messages commit in id order).
    let b = s.another(|_| {}).await;
    let (r1, r2, r3, r4, r5, r6) = tokio::join!(
        say(&b, id, Some(ada), "table", "a1"),
        say(&b, id, Some(bea), "table", "b1"),
        say(&b, id, Some(cyd), "spectators", "c1"),
        say(&b, id, Some(ada), "table", "a2"),
        say(&b, id, Some(bea), "table", "b2"),
        say(&b, id, Some(cyd), "spectators", "c2"),
    );
    let mut ids: Vec<i64> = [r1, r2, r3, r4, r5, r6]
        .iter()
        .map(|r| {
            assert_eq!(r.status, 201, "{}", r.body);
            r.body["id"].as_i64().unwrap()
        })
        .collect();
    ids.sort();
    let mut got = Vec::new();
    for _ in 0..ids.len() {
        got.push(next_chat(&mut resumed).await["id"].as_i64().unwrap());
    }
    assert_eq!(got, ids);
    b.finish().await;
    s.finish().await;
}

#[actix_web::test]
async fn a_muted_author_is_left_out_of_the_muting_accounts_reads_and_pushes() {
    let s = TestServer::start().await;
    let (id, t) = table(&s).await;
    let (ada, bea, cyd) = (t[0].as_str(), t[1].as_str(), t[2].as_str());
    let server = &s;
    let mute = |token: Option<&str>, method: &str, name: &str| {
        let request = server.request(method, &format!("/v1/me/mutes/{name}"), token);
        async move { server.send(request, None).await }
    };
    said(&s, id, bea, "table", "before").await;
    let r = mute(Some(ada), "PUT", "BEA").await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert_eq!(
        mute(Some(ada), "PUT", "bea").await.status,
        204,
        "again: no change"
    );
    let list = s.get("/v1/me/mutes", Some(ada)).await;
    assert_eq!(list.status, 200, "{}", list.body);
    assert_eq!(list.body["mutes"].as_array().unwrap().len(), 1);
    assert_eq!(list.body["mutes"][0]["name"], "bea");
    for (token, method, name, status, code) in [
        (Some(ada), "PUT", "ada", 422, "cannot_mute_self"),
        (Some(ada), "PUT", "nobody", 404, "not_found"),
        (Some(ada), "DELETE", "nobody", 404, "not_found"),
        (None, "PUT", "bea", 401, "token_missing"),
    ] {
        let r = mute(token, method, name).await;
        assert_eq!(
            (r.status, r.code()),
            (status, code),
            "{method} {name}: {}",
            r.body
        );
    }
    assert_eq!(s.get("/v1/me/mutes", None).await.status, 401);

    let mut ada_stream = s
        .stream(&format!("/v1/games/{id}/stream"), Some(ada), None)
        .await;
    let mut ada_mine = s.stream("/v1/me/stream", Some(ada), None).await;
    let mut cyd_stream = s
        .stream(&format!("/v1/games/{id}/stream"), Some(cyd), None)
        .await;
    ada_stream.until_version(0, WAIT).await;
    cyd_stream.until_version(0, WAIT).await;
    said(&s, id, bea, "table", "muted words").await;
    let marker = said(&s, id, ada, "table", "marker").await;
    assert_eq!(
        next_chat(&mut ada_stream).await["id"],
        marker,
        "bea left out"
    );
    assert_eq!(next_chat(&mut ada_mine).await["id"], marker, "bea left out");
    assert_eq!(
        next_chat(&mut cyd_stream).await["text"],
        "muted words",
        "only for ada"
    );
    assert_eq!(texts(&s.get(&chat(id), Some(ada)).await), ["marker"]);
    assert_eq!(
        texts(&s.get(&chat(id), Some(cyd)).await),
        ["marker", "muted words", "before"]
    );

    assert_eq!(mute(Some(ada), "DELETE", "bea").await.status, 204);
    assert_eq!(
        mute(Some(ada), "DELETE", "bea").await.status,
        204,
        "again: no change"
    );
    assert_eq!(
        s.get("/v1/me/mutes", Some(ada)).await.body["mutes"],
        json!([])
    );
    assert_eq!(texts(&s.get(&chat(id), Some(ada)).await).len(), 3);
    s.finish().await;
}

#[actix_web::test]
async fn an_operator_removes_a_message_which_then_shows_as_removed_with_the_removal_recorded() {
    let s = TestServer::start().await;
    let (id, t) = table(&s).await;
    let kept = said(&s, id, &t[0], "table", "fine words").await;
    let rude = said(&s, id, &t[1], "table", "rude words").await;
    let mut stream = s
        .stream(
            &format!("/v1/games/{id}/stream?chat_after={kept}"),
            None,
            None,
        )
        .await;
    assert_eq!(next_chat(&mut stream).await["text"], "rude words");

    let remove = |id: i64, reason: &str| ChatAction::Remove {
        id,
        reason: reason.into(),
        by: Some("olga".into()),
    };
    cli::chat(&s.store, remove(rude, "insults")).await.unwrap();
    let pushed = next_chat(&mut stream).await;
    assert_eq!(
        (pushed["id"].as_i64(), pushed["removed"].as_bool()),
        (Some(rude), Some(true))
    );
    assert_eq!(pushed["text"], Value::Null);

    let page = s.get(&chat(id), None).await;
    assert_eq!(page.body["messages"][0]["id"], rude);
    assert_eq!(page.body["messages"][0]["removed"], true);
    assert_eq!(page.body["messages"][0]["text"], Value::Null, "withheld");
    assert_eq!(page.body["messages"][0]["author"], "bea");
    assert_eq!(page.body["messages"][1]["text"], "fine words");
    let row = s
        .db()
        .await
        .query_one(
            "SELECT text, removed_by, removed_reason, removed_at IS NOT NULL FROM chat_messages WHERE id = $1",
            &[&rude],
        )
        .await
        .unwrap();
    let record: (String, String, String, bool) = (row.get(0), row.get(1), row.get(2), row.get(3));
    assert_eq!(
        record,
        ("rude words".into(), "olga".into(), "insults".into(), true),
        "who, why and when are kept, and the text for the record"
    );

    let again = cli::chat(&s.store, remove(rude, "twice"))
        .await
        .unwrap_err();
    assert!(again.contains("removed already"), "{again}");
    let unknown = cli::chat(&s.store, remove(999_999, "nothing"))
        .await
        .unwrap_err();
    assert!(unknown.contains("no chat message"), "{unknown}");
    let no_reason = cli::chat(&s.store, remove(kept, " ")).await.unwrap_err();
    assert!(no_reason.contains("reason"), "{no_reason}");
    s.finish().await;
}

/// What the game's history looks like to its readers.
async fn history(s: &TestServer, id: i64, version: i64, token: &str) -> Vec<Value> {
    let mut seen = vec![
        json!(s.events(id, None).await),
        json!(s.events(id, Some(token)).await),
    ];
    for path in [
        format!("/v1/games/{id}/replay?at={version}"),
        format!("/v1/games/{id}/replay?at=1"),
        format!("/v1/games/{id}/audit"),
        format!("/v1/games/{id}/export"),
    ] {
        let r = s.get(&path, None).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        seen.push(r.body);
    }
    seen
}

#[actix_web::test]
async fn chat_is_not_in_the_chain_the_log_the_replay_the_audit_or_the_export() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.chat = None;
        c.limits.expensive_reads = None;
    })
    .await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let id = s.game("carcassonne", json!({}), &tokens[..2]).await;
    // Played to the end by random legal moves, with chat on both channels along the way.
    let mut pick = Pick::new(11);
    let mut written_at = Vec::new();
    for turn in 0..2000 {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] == "finished" {
            break;
        }
        if turn % 10 == 0 {
            let m = say(
                &s,
                id,
                Some(&tokens[turn % 2]),
                "table",
                &format!("turn {turn}"),
            )
            .await;
            assert_eq!(m.body["version"], game.body["version"], "{}", m.body);
            written_at.push(m.body["version"].as_i64().unwrap());
            said(&s, id, &tokens[2], "spectators", "watching").await;
        }
        let to_act = game.body["to_act"].as_array().unwrap();
        let seat = to_act[pick.below(to_act.len())].as_u64().unwrap() as usize;
        let r = s.random_move(id, &tokens[seat], &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["status"], "finished", "{}", game.body);
    let version = game.body["version"].as_i64().unwrap();
    assert!(written_at.len() > 3 && written_at.windows(2).all(|w| w[0] < w[1]));

    // The log holds exactly the game's events, none of them chat, and the audit passes.
    let db = s.db().await;
    let events: i64 = db
        .query_one("SELECT count(*) FROM events WHERE game_id = $1", &[&id])
        .await
        .unwrap()
        .get(0);
    assert_eq!(events, version);
    let before = history(&s, id, version, &tokens[0]).await;
    let audit = &before[4];
    assert_eq!(
        (
            &audit["chain_intact"],
            &audit["decisions_reproduced"],
            &audit["problems"]
        ),
        (&json!(true), &json!(true), &json!([])),
        "{audit}"
    );
    let text = before.iter().map(Value::to_string).collect::<String>();
    assert!(
        !text.contains("watching") && !text.contains("turn 10"),
        "no chat anywhere"
    );

    // More chat after the end changes none of it.
    said(&s, id, &tokens[0], "table", "good game").await;
    said(&s, id, &tokens[2], "spectators", "well played").await;
    let after = history(&s, id, version, &tokens[0]).await;
    assert_eq!(before, after);
    assert_eq!(
        s.get(&format!("/v1/games/{id}"), None).await.body["version"],
        version
    );
    s.finish().await;
}
