//! Notices by email (issue 22): an address confirmed through its link, mail queued in the
//! command's own statement and sent by SMTP (to a local sink the test starts), a plain text
//! and an HTML part, one-click unsubscribe (RFC 8058), digests, the per-game bound on
//! `your_turn`, retries, and a process that dies between the commit and the send.

use std::time::Duration;

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::smtp::{Mail, SmtpSink};
use baumeister_tests::{Reply, TestServer};

const WAIT: Duration = Duration::from_secs(20);

/// A server that mails to `sink` and retries after 100 ms, 200 ms, …; webhooks off.
async fn server(sink: &SmtpSink, deliver: bool) -> TestServer {
    let url = sink.url.clone();
    TestServer::start_with(move |c| {
        c.limits.commands = None;
        c.live.deliver = false;
        c.notices.smtp_url = Some(url);
        c.notices.retry_base = Duration::from_millis(100);
        c.notices.deliver = deliver;
    })
    .await
}

async fn put(s: &TestServer, path: &str, token: Option<&str>, body: &Value) -> Reply {
    let request = s
        .request("PUT", path, token)
        .insert_header(("Content-Type", "application/json"));
    s.send(request, Some(body.to_string().into_bytes())).await
}

/// The path of a link in a mail to this server.
fn path<'a>(s: &TestServer, link: &'a str) -> &'a str {
    link.strip_prefix(s.base.as_str())
        .expect("a link to this server")
}

/// Sets `address` for `token`'s account and follows the link the sink receives.
async fn confirm(s: &TestServer, sink: &SmtpSink, token: &str, address: &str) {
    let before = sink.mails().len();
    let r = put(s, "/v1/me/email", Some(token), &json!({"address": address})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.body["email"], address);
    assert_eq!(r.body["email_confirmed"], false);
    let mails = sink.accepted(before + 1, WAIT).await;
    let mail = &mails[before];
    assert_eq!(mail.to, [address]);
    assert!(mail.subject().contains("Confirm"), "{}", mail.subject());
    let link = mail
        .links()
        .into_iter()
        .find(|l| l.contains("/v1/email/confirm/"))
        .expect("a confirmation link");
    assert!(mail.part("text/html").unwrap().contains(&link));
    let page = s.get(path(s, &link), None).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(
        page.header("Content-Type"),
        Some("text/html; charset=utf-8")
    );
    // A link works once.
    assert_eq!(s.get(path(s, &link), None).await.status, 404);
    let settings = s.get("/v1/me/notices", Some(token)).await;
    assert_eq!(settings.body["email_confirmed"], true, "{}", settings.body);
}

/// The mails to `address`.
fn to(mails: &[Mail], address: &str) -> Vec<Mail> {
    mails
        .iter()
        .filter(|m| m.to == [address])
        .cloned()
        .collect()
}

#[actix_web::test]
async fn a_confirmed_address_gets_its_notices_with_both_parts_and_a_working_unsubscribe_link() {
    let sink = SmtpSink::start(0).await;
    let s = server(&sink, true).await;
    let tokens = s.players(&["ada", "bea"]).await;
    confirm(&s, &sink, &tokens[1], "bea@example.org").await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let mails = sink.accepted(2, WAIT).await;
    let mail = &to(&mails, "bea@example.org")[1];
    assert!(mail.from.contains('@'));
    // RFC 8058: a one-click unsubscribe URL and the POST that uses it.
    let unsubscribe = mail.header("List-Unsubscribe").expect("List-Unsubscribe");
    let unsubscribe = unsubscribe
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string();
    assert!(unsubscribe.starts_with(&format!("{}/v1/unsubscribe/", s.base)));
    assert_eq!(
        mail.header("List-Unsubscribe-Post"),
        Some("List-Unsubscribe=One-Click")
    );
    assert!(mail
        .header("Content-Type")
        .unwrap()
        .starts_with("multipart/alternative"));
    let text = mail.part("text/plain").expect("a plain text part");
    let html = mail.part("text/html").expect("an HTML part");
    let game_link = format!("{}/#/game/{id}", s.base);
    assert!(text.contains(&game_link), "{text}");
    assert!(html.contains(&game_link), "{html}");
    assert!(text.contains(&format!("#{id}")) && text.contains("burgbaumeister"));
    assert!(text.contains(&unsubscribe));
    assert!(mail.subject().contains(&format!("#{id}")) || mail.subject().contains("news"));

    // Following the link shows a page that asks; its button (or a mail program) POSTs.
    let page = s.get(path(&s, &unsubscribe), None).await;
    assert_eq!(page.status, 200);
    let page = page.body.as_str().unwrap().to_string();
    assert!(
        page.contains(&format!("action=\"{}\"", path(&s, &unsubscribe))),
        "{page}"
    );
    assert_eq!(
        s.get("/v1/me/notices", Some(&tokens[1])).await.body["email_kinds"],
        json!([
            "your_turn",
            "game_started",
            "game_finished",
            "deadline_soon",
            "invitation"
        ]),
        "opening the page unsubscribes nobody"
    );
    let one_click = s
        .request("POST", path(&s, &unsubscribe), None)
        .insert_header(("Content-Type", "application/x-www-form-urlencoded"));
    let r = s
        .send(one_click, Some(b"List-Unsubscribe=One-Click".to_vec()))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        s.get("/v1/me/notices", Some(&tokens[1])).await.body["email_kinds"],
        json!([])
    );
    // No more mail: another game starts, and nothing is queued for bea.
    let sent = sink.mails().len();
    s.game("burgbaumeister", json!({}), &tokens).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.mails().len(), sent);
    let bogus = s.get("/v1/unsubscribe/not-a-token", None).await;
    assert_eq!(bogus.status, 404);
    sink.stop();
    s.finish().await;
}

#[actix_web::test]
async fn addresses_are_checked_never_shown_to_others_and_mail_needs_smtp() {
    let sink = SmtpSink::start(0).await;
    let s = server(&sink, true).await;
    let tokens = s.players(&["ada", "bea"]).await;
    for (body, status, code) in [
        (json!({"address": "not an address"}), 400, "invalid_email"),
        (json!({"address": "@example.org"}), 400, "invalid_email"),
        (json!({"address": 7}), 400, ""),
        (json!({"mail": "a@example.org"}), 400, ""),
    ] {
        let r = put(&s, "/v1/me/email", Some(&tokens[0]), &body).await;
        assert_eq!(r.status, status, "{body}: {}", r.body);
        if !code.is_empty() {
            assert_eq!(r.code(), code);
        }
    }
    let r = put(
        &s,
        "/v1/me/email",
        None,
        &json!({"address": "a@example.org"}),
    )
    .await;
    assert_eq!(r.status, 401);
    let r = put(
        &s,
        "/v1/me/notices",
        Some(&tokens[0]),
        &json!({"email_every_hours": 169}),
    )
    .await;
    assert_eq!((r.status, r.code()), (400, "invalid_notice_settings"));
    let r = put(
        &s,
        "/v1/me/notices",
        Some(&tokens[0]),
        &json!({"email_kinds": ["nonsense"]}),
    )
    .await;
    assert_eq!(r.status, 400);
    let r = put(
        &s,
        "/v1/me/notices",
        Some(&tokens[0]),
        &json!({"language": "de", "email_every_hours": 6, "email_kinds": ["your_turn", "your_turn"]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["language"], "de");
    assert_eq!(r.body["email_every_hours"], 6);
    assert_eq!(r.body["email_kinds"], json!(["your_turn"]));
    let r = s
        .send(s.request("DELETE", "/v1/me/email", Some(&tokens[0])), None)
        .await;
    assert_eq!((r.status, r.code()), (404, "no_email"));

    confirm(&s, &sink, &tokens[1], "bea.secret@example.org").await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    for (path, token) in [
        (format!("/v1/games/{id}"), Some(&tokens[0])),
        ("/v1/players/bea".to_string(), Some(&tokens[0])),
        ("/v1/me/notices".to_string(), Some(&tokens[0])),
        (format!("/v1/games/{id}/events"), Some(&tokens[0])),
        ("/v1/me/games".to_string(), Some(&tokens[0])),
    ] {
        let r = s.get(&path, token.map(|t| t.as_str())).await;
        assert!(
            !r.body.to_string().contains("bea.secret"),
            "{path} shows bea's address: {}",
            r.body
        );
    }
    // Unknown and expired confirmation links.
    assert_eq!(s.get("/v1/email/confirm/nope", None).await.status, 404);
    let before = sink.mails().len();
    put(
        &s,
        "/v1/me/email",
        Some(&tokens[0]),
        &json!({"address": "ada@example.org"}),
    )
    .await;
    // Bea's notice of the game may come before or after ada's confirmation.
    let mut mails = sink.accepted(before + 1, WAIT).await;
    while to(&mails, "ada@example.org").is_empty() {
        mails = sink.accepted(mails.len() + 1, WAIT).await;
    }
    let confirmation = to(&mails, "ada@example.org").remove(0);
    let link = confirmation
        .links()
        .into_iter()
        .find(|l| l.contains("/confirm/"))
        .unwrap();
    s.store.advance_clock(49 * 3_600_000);
    assert_eq!(s.get(path(&s, &link), None).await.status, 410);
    // The confirmation mail was in German: ada chose German above.
    assert!(
        confirmation.subject().contains("Bestätige"),
        "{}",
        confirmation.subject()
    );

    // Without SMTP no address is taken.
    let plain = TestServer::start().await;
    let token = plain.player("cid").await;
    let r = put(
        &plain,
        "/v1/me/email",
        Some(&token),
        &json!({"address": "cid@example.org"}),
    )
    .await;
    assert_eq!((r.status, r.code()), (409, "email_unavailable"));
    plain.finish().await;
    sink.stop();
    s.finish().await;
}

#[actix_web::test]
async fn a_process_that_dies_between_the_commit_and_the_send_loses_no_mail() {
    let sink = SmtpSink::start(0).await;
    let a = server(&sink, false).await;
    let tokens = a.players(&["ada", "bea"]).await;
    let r = put(
        &a,
        "/v1/me/email",
        Some(&tokens[1]),
        &json!({"address": "bea@example.org"}),
    )
    .await;
    assert_eq!(r.status, 202);
    a.game("burgbaumeister", json!({}), &tokens).await;
    // Confirmed by the operator's hand (the link is in a mail nobody sent yet).
    let db = a.db().await;
    db.execute("UPDATE notice_settings SET email_confirmed_at = now()", &[])
        .await
        .unwrap();
    let id = a.game("burgbaumeister", json!({}), &tokens).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(sink.mails().is_empty(), "nothing sent by the dead process");
    a.stop().await;
    let url = sink.url.clone();
    let b = a
        .another(move |c| {
            c.live.deliver = false;
            c.notices.smtp_url = Some(url);
            c.notices.retry_base = Duration::from_millis(100);
        })
        .await;
    // The confirmation mail and the second game's notice (the first came before the address
    // was confirmed: none was queued).
    let mails = sink.accepted(2, WAIT).await;
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(mails.iter().any(|m| m.subject().contains("Confirm")));
    let notice = mails
        .iter()
        .find(|m| !m.subject().contains("Confirm"))
        .unwrap();
    assert!(notice
        .part("text/plain")
        .unwrap()
        .contains(&format!("#{id} ")));
    b.notices_settled("email").await;
    b.finish().await;
    sink.stop();
}

#[actix_web::test]
async fn a_mail_server_that_fails_twice_gets_the_third_try() {
    let sink = SmtpSink::start(2).await;
    let s = server(&sink, true).await;
    let token = s.player("ada").await;
    let r = put(
        &s,
        "/v1/me/email",
        Some(&token),
        &json!({"address": "ada@example.org"}),
    )
    .await;
    assert_eq!(r.status, 202);
    let mails = sink.accepted(1, WAIT).await;
    assert_eq!(sink.refused(), 2);
    assert_eq!(mails.len(), 1);
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT attempts, delivered_at IS NOT NULL, last_error FROM notice_deliveries",
            &[],
        )
        .await
        .unwrap();
    let mut row = row;
    for _ in 0..100 {
        if row.get::<_, bool>(1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        row = db
            .query_one(
                "SELECT attempts, delivered_at IS NOT NULL, last_error FROM notice_deliveries",
                &[],
            )
            .await
            .unwrap();
    }
    assert_eq!(row.get::<_, i32>(0), 3);
    assert!(row.get::<_, bool>(1));
    assert_eq!(row.get::<_, Option<String>>(2).as_deref(), Some("smtp"));
    sink.stop();
    s.finish().await;
}

/// Plays moves until the turn passes from ada (seat 0) to bea (seat 1), `times` times.
async fn pass_turn_to_bea(s: &TestServer, id: i64, tokens: &[String], times: usize) {
    let mut to_act = s.get(&format!("/v1/games/{id}"), None).await.body["to_act"].clone();
    for _ in 0..times {
        to_act = s.pass_turn_to_seat_1(id, tokens, to_act).await["to_act"].clone();
    }
}

#[actix_web::test]
async fn a_fast_game_mails_your_turn_at_most_once_per_window_and_a_digest_gathers_the_rest() {
    let sink = SmtpSink::start(0).await;
    let s = server(&sink, true).await;
    let tokens = s.players(&["ada", "bea"]).await;
    confirm(&s, &sink, &tokens[1], "bea@example.org").await;
    let r = put(
        &s,
        "/v1/me/notices",
        Some(&tokens[1]),
        &json!({"email_kinds": ["your_turn"]}),
    )
    .await;
    assert_eq!(r.status, 200);
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    pass_turn_to_bea(&s, id, &tokens, 1).await;
    let mails = sink.accepted(2, WAIT).await;
    assert!(
        mails[1].subject().contains(&format!("#{id}")),
        "{}",
        mails[1].subject()
    );
    // The turn comes back to bea again and again within the window: no more mail.
    pass_turn_to_bea(&s, id, &tokens, 3).await;
    s.notices_settled("email").await;
    assert_eq!(sink.mails().len(), 2, "{:#?}", sink.mails());
    let skipped = s.skipped_your_turn_notices().await;
    assert!(skipped >= 3, "{skipped}");

    // A digest every hour: the first notice goes at once, the next wait, then come together.
    let r = put(
        &s,
        "/v1/me/notices",
        Some(&tokens[1]),
        &json!({"email_kinds": ["game_started"], "email_every_hours": 1}),
    )
    .await;
    assert_eq!(r.status, 200);
    let first = s.game("burgbaumeister", json!({}), &tokens).await;
    let mails = sink.accepted(3, WAIT).await;
    assert!(mails[2].subject().contains(&format!("#{first}")));
    let second = s.game("burgbaumeister", json!({}), &tokens).await;
    let third = s.game("burgbaumeister", json!({}), &tokens).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.mails().len(), 3, "the digest waits for its hour");
    s.store.advance_clock(3_600_000 + 1000);
    let mails = sink.accepted(4, WAIT).await;
    let digest = &mails[3];
    assert!(
        digest.subject().contains("2 pieces of news"),
        "{}",
        digest.subject()
    );
    let text = digest.part("text/plain").unwrap();
    assert!(
        text.contains(&format!("#{second} ")) && text.contains(&format!("#{third} ")),
        "{text}"
    );
    assert!(digest.header("List-Unsubscribe").is_some());
    s.notices_settled("email").await;
    sink.stop();
    s.finish().await;
}
