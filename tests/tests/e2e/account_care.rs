//! Accounts people manage themselves (docs/accounts.md): a changed password revokes every other
//! token; a forgotten one is reset through a mail (to a local SMTP sink) whose link works once
//! and within its time, with the same answer for every name and address and a bound per
//! account; a deleted account leaves its games whole under a pseudonym, its name retired and
//! its data gone; the download holds the account's data and nothing of another's.

use std::time::{Duration, Instant};

use baumeister_storage::{rfc3339, verify_export, Export};
use baumeister_tests::serde_json::{self, json, Value};
use baumeister_tests::smtp::SmtpSink;
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{random_play, Reply, TestServer};

const WAIT: Duration = Duration::from_secs(20);

async fn put(s: &TestServer, path: &str, token: Option<&str>, body: &Value) -> Reply {
    let request = s
        .request("PUT", path, token)
        .insert_header(("Content-Type", "application/json"));
    s.send(request, Some(body.to_string().into_bytes())).await
}

async fn delete(s: &TestServer, path: &str, token: Option<&str>, body: &Value) -> Reply {
    let request = s
        .request("DELETE", path, token)
        .insert_header(("Content-Type", "application/json"));
    s.send(request, Some(body.to_string().into_bytes())).await
}

/// `token`'s account mutes `name`: the status's class.
async fn mute(s: &TestServer, name: &str, token: &str) -> u16 {
    let r = s
        .send(
            s.request("PUT", &format!("/v1/me/mutes/{name}"), Some(token)),
            None,
        )
        .await;
    assert_eq!(r.status / 100, 2, "{}", r.body);
    r.status
}

/// Whether `token` still works (a read only an account may make).
async fn works(s: &TestServer, token: &str) -> u16 {
    s.get("/v1/me/games", Some(token)).await.status
}

#[actix_web::test]
async fn a_changed_password_revokes_every_other_token_and_the_session_goes_on() {
    let s = TestServer::start_with(|c| c.limits.name_attempts = None).await;
    let first = s.player("anna").await;
    let second = s.player_login("anna").await;
    let change = |old: &str, new: &str| json!({"old_password": old, "new_password": new});

    let wrong = put(
        &s,
        "/v1/me/password",
        Some(&first),
        &change("not-it-at-all", "a new password"),
    )
    .await;
    assert_refused(&wrong, 403, "wrong_password");
    let short = put(
        &s,
        "/v1/me/password",
        Some(&first),
        &change("password-of-anna", "short"),
    )
    .await;
    assert_eq!((short.status, short.code()), (400, "invalid_password"));
    let anonymous = put(
        &s,
        "/v1/me/password",
        None,
        &change("password-of-anna", "a new password"),
    )
    .await;
    assert_eq!(anonymous.status, 401);
    assert_eq!(works(&s, &first).await, 200, "refusals change nothing");

    let r = put(
        &s,
        "/v1/me/password",
        Some(&first),
        &change("password-of-anna", "a new password"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["name"], "anna");
    let fresh = r.body["token"].as_str().unwrap().to_string();
    for old in [&first, &second] {
        let r = s.get("/v1/me/games", Some(old)).await;
        assert_refused(&r, 401, "token_revoked");
    }
    assert_eq!(works(&s, &fresh).await, 200, "the asking session goes on");
    assert_eq!(s.login("anna", "password-of-anna").await.status, 401);
    assert_eq!(s.login("anna", "a new password").await.status, 200);
}

/// Sets and confirms `address` for `token`'s account through the sink.
async fn confirm(s: &TestServer, sink: &SmtpSink, token: &str, address: &str) {
    let before = sink.mails().len();
    let r = put(s, "/v1/me/email", Some(token), &json!({"address": address})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let mails = sink.accepted(before + 1, WAIT).await;
    let link = mails[before]
        .links()
        .into_iter()
        .find(|l| l.contains("/v1/email/confirm/"))
        .unwrap();
    let page = s
        .get(link.strip_prefix(s.base.as_str()).unwrap(), None)
        .await;
    assert_eq!(page.status, 200);
}

/// The number of mails the sink holds once no more arrive for a while (the reset work runs
/// after the answer).
async fn mails_settled(sink: &SmtpSink) -> usize {
    let mut seen = sink.mails().len();
    loop {
        actix_web::rt::time::sleep(Duration::from_millis(700)).await;
        let now = sink.mails().len();
        if now == seen {
            return now;
        }
        seen = now;
    }
}

/// The reset token in the newest mail to `address`.
fn reset_token(sink: &SmtpSink, s: &TestServer, address: &str) -> String {
    let mail = sink
        .mails()
        .into_iter()
        .rfind(|m| m.to == [address])
        .expect("a mail");
    assert!(mail.subject().contains("password"), "{}", mail.subject());
    let link = mail
        .links()
        .into_iter()
        .find(|l| l.contains("/#/reset/"))
        .expect("a reset link");
    assert!(link.starts_with(&format!("{}/#/reset/", s.base)), "{link}");
    assert!(mail.part("text/html").unwrap().contains(&link));
    link.rsplit('/').next().unwrap().to_string()
}

/// A server mailing through `sink`, at most three resets an hour per account; anna with a
/// confirmed address and bert with an address set but not confirmed (no reset mail goes to it).
struct Resets {
    sink: SmtpSink,
    s: TestServer,
    anna: String,
}

async fn given_anna_confirmed_and_bert_not() -> Resets {
    let sink = SmtpSink::start(0).await;
    let url = sink.url.clone();
    let s = TestServer::start_with(move |c| {
        c.limits.commands = None;
        c.limits.logins = None;
        c.limits.name_attempts = None;
        c.live.deliver = false;
        c.notices.smtp_url = Some(url);
        c.accounts.resets_per_hour = 3;
    })
    .await;
    let anna = s.player("anna").await;
    let bert = s.player("bert").await;
    confirm(&s, &sink, &anna, "anna@example.org").await;
    let r = put(
        &s,
        "/v1/me/email",
        Some(&bert),
        &json!({"address": "bert@example.org"}),
    )
    .await;
    assert_eq!(r.status, 202);
    Resets { sink, s, anna }
}

/// Asks for a reset of the account `who` names.
async fn ask(s: &TestServer, who: &str) -> Reply {
    let body = json!({ "name_or_email": who });
    s.post("/v1/password-resets", None, &body).await
}

/// Uses reset `token` to set `password`.
async fn use_reset(s: &TestServer, token: &str, password: &str) -> Reply {
    let body = json!({"token": token, "new_password": password});
    s.post("/v1/password-resets/use", None, &body).await
}

/// The reset token in mail number `index` of the sink.
fn reset_token_in(sink: &SmtpSink, index: usize) -> String {
    sink.mails()[index]
        .links()
        .into_iter()
        .find(|l| l.contains("/#/reset/"))
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string()
}

#[actix_web::test]
async fn a_reset_request_is_answered_alike_for_everybody_and_mails_only_a_confirmed_address() {
    let Resets { sink, s, .. } = given_anna_confirmed_and_bert_not().await;
    let s = &s;
    let before = mails_settled(&sink).await;
    let known = ask(s, "anna").await;
    assert_eq!(known.status, 202, "{}", known.body);
    let mut timings = Vec::new();
    for who in [
        "nobody",
        "nobody@example.org",
        "bert",
        "bert@example.org",
        "\u{0}",
    ] {
        let started = Instant::now();
        let r = ask(s, who).await;
        timings.push(started.elapsed());
        assert_eq!((r.status, &r.body), (202, &known.body), "{who}");
    }
    // Longer than any name or address: refused for its form, the same for everybody.
    let long = ask(s, &"a".repeat(255)).await;
    assert_eq!(
        (long.status, long.body["code"].as_str()),
        (400, Some("invalid_name_or_email"))
    );
    let started = Instant::now();
    assert_eq!(ask(s, "ANNA").await.body, known.body);
    let known_took = started.elapsed();
    println!("reset request answered in {known_took:?} (known name), {timings:?} (others)");
    assert_eq!(
        mails_settled(&sink).await,
        before + 2,
        "only the confirmed address got mail (twice)"
    );
    assert_eq!(sink.mails()[before].to, ["anna@example.org"]);
    sink.stop();
}

#[actix_web::test]
async fn the_newest_reset_link_works_once_and_ends_every_earlier_one() {
    let Resets { sink, s, anna } = given_anna_confirmed_and_bert_not().await;
    let s = &s;
    let before = mails_settled(&sink).await;
    for who in ["anna", "ANNA"] {
        assert_eq!(ask(s, who).await.status, 202);
    }
    assert_eq!(mails_settled(&sink).await, before + 2);
    let token = reset_token(&sink, s, "anna@example.org");
    let earlier = reset_token_in(&sink, before);
    let short = use_reset(s, &token, "short").await;
    assert_eq!((short.status, short.code()), (400, "invalid_password"));
    let r = use_reset(s, &token, "a password reset").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["name"], "anna");
    let fresh = r.body["token"].as_str().unwrap().to_string();
    assert_eq!(works(s, &fresh).await, 200);
    assert_eq!(works(s, &anna).await, 401, "every other token is revoked");
    assert_eq!(s.login("anna", "password-of-anna").await.status, 401);
    assert_eq!(s.login("anna", "a password reset").await.status, 200);
    for spent in [&token, &earlier] {
        let again = use_reset(s, spent, "yet another one").await;
        assert_refused(&again, 400, "reset_token_invalid");
    }
    let made_up = use_reset(s, &"ab".repeat(32), "yet another one").await;
    assert_eq!(made_up.code(), "reset_token_invalid");
    let open: i64 = s
        .db()
        .await
        .query_one("SELECT count(*) FROM password_resets WHERE NOT spent", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(open, 0, "a reset ends every token of the account");
    sink.stop();
}

#[actix_web::test]
async fn a_reset_link_past_its_time_is_refused_and_ends() {
    let Resets { sink, s, .. } = given_anna_confirmed_and_bert_not().await;
    let s = &s;
    let before = mails_settled(&sink).await;
    assert_eq!(ask(s, "anna@example.org").await.status, 202);
    assert_eq!(mails_settled(&sink).await, before + 1, "asked by address");
    let token = reset_token(&sink, s, "anna@example.org");
    let db = s.db().await;
    let stored: Vec<u8> = db
        .query_one(
            "SELECT token_hash FROM password_resets WHERE NOT spent",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_ne!(stored, token.as_bytes(), "only the token's hash is stored");
    assert_eq!(stored.len(), 32);
    db.execute(
        "UPDATE password_resets SET expires_ms = 0 WHERE NOT spent",
        &[],
    )
    .await
    .unwrap();
    let late = use_reset(s, &token, "too late for this").await;
    assert_eq!((late.status, late.code()), (400, "reset_token_expired"));
    assert_eq!(
        use_reset(s, &token, "too late for this").await.code(),
        "reset_token_invalid"
    );
    assert_eq!(
        s.login("anna", "password-of-anna").await.status,
        200,
        "the password stays"
    );
    sink.stop();
}

#[actix_web::test]
async fn three_reset_mails_an_hour_go_to_an_account_and_further_requests_are_answered_alike() {
    let Resets { sink, s, .. } = given_anna_confirmed_and_bert_not().await;
    let s = &s;
    let first = mails_settled(&sink).await;
    let known = ask(s, "anna").await;
    assert_eq!(known.status, 202, "{}", known.body);
    for who in ["ANNA", "anna@example.org"] {
        assert_eq!(ask(s, who).await.body, known.body);
    }
    // Three mails an hour per account (spent or not): further requests send nothing, also
    // when asked by address.
    let before = mails_settled(&sink).await;
    assert_eq!(before, first + 3);
    for who in ["anna", "anna", "anna@example.org"] {
        assert_eq!(ask(s, who).await.body, known.body);
    }
    assert_eq!(mails_settled(&sink).await, before, "3 were sent this hour");
    // An hour later there are three more.
    s.db()
        .await
        .execute(
            "UPDATE password_resets SET created_at = created_at - interval '61 minutes'",
            &[],
        )
        .await
        .unwrap();
    for _ in 0..4 {
        assert_eq!(ask(s, "anna").await.body, known.body);
    }
    assert_eq!(mails_settled(&sink).await, before + 3);
    sink.stop();
}

#[actix_web::test]
async fn reset_requests_count_against_the_address_limit_like_logins() {
    let s = TestServer::start_with(|c| {
        c.limits.logins = Some(baumeister_api::limits::Rate::per(2, 60));
    })
    .await;
    let ask = || s.post("/v1/password-resets", None, &json!({"name_or_email": "x"}));
    assert_eq!(ask().await.status, 202);
    assert_eq!(ask().await.status, 202);
    let r = ask().await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"));
    assert!(r.header("Retry-After").is_some());
}

fn export_of(r: Reply) -> Export {
    assert_eq!(r.status, 200, "{}", r.body);
    serde_json::from_value(r.body).unwrap()
}

/// Waits until game `id` has moved past `version` and no longer waits for seat 0 (a turn may
/// take the clock several steps); its body then.
async fn moved_on(s: &TestServer, id: i64, version: i64) -> Value {
    let started = Instant::now();
    loop {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["version"].as_i64().unwrap() > version && game.body["to_act"] != json!([0]) {
            return game.body;
        }
        if started.elapsed() > WAIT {
            let row = s.db().await.query_one("SELECT turn_deadlines::text, deadline_ms, to_act::text, status FROM games WHERE id = $1", &[&id]).await.unwrap();
            panic!(
                "game {id} stays at {version}: {:?} {:?} {:?} {:?} now {}",
                row.get::<_, Option<String>>(0),
                row.get::<_, Option<i64>>(1),
                row.get::<_, String>(2),
                row.get::<_, String>(3),
                s.store.now_ms()
            );
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Makes the game wait for seat 0 (anna).
async fn annas_turn(s: &TestServer, id: i64, tokens: &[String]) -> i64 {
    loop {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["to_act"] == json!([0]) {
            return game.body["version"].as_i64().unwrap();
        }
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        s.first_move(id, &tokens[seat]).await;
    }
}

/// Anna and bert (their tokens in that order) on a server that allows private games; anna's
/// account id.
struct Deleting {
    s: TestServer,
    tokens: Vec<String>,
    anna_id: i64,
}

async fn given_anna_and_bert() -> Deleting {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.name_attempts = None;
        c.live.allow_private = true;
        c.live.deliver = false;
    })
    .await;
    let tokens = s.players(&["anna", "bert"]).await;
    let anna_id: i64 = s
        .db()
        .await
        .query_one("SELECT id FROM accounts WHERE name = 'anna'", &[])
        .await
        .unwrap()
        .get(0);
    Deleting { s, tokens, anna_id }
}

/// A finished, rated game of anna (seat 0) and bert with her chat message; its export then.
async fn given_a_finished_game_with_her_chat(d: &Deleting) -> (i64, Export) {
    let s = &d.s;
    let finished = s.game("carcassonne", json!({}), &d.tokens).await;
    let chat = s
        .post(
            &format!("/v1/games/{finished}/chat"),
            Some(d.tokens[0].as_str()),
            &json!({"channel": "table", "text": "good game"}),
        )
        .await;
    assert_eq!(chat.status, 201, "{}", chat.body);
    random_play::play_to_end(s, finished, &d.tokens, 7).await;
    let exported = export_of(s.get(&format!("/v1/games/{finished}/export"), None).await);
    assert_eq!(exported.seats[0].player.as_deref(), Some("anna"));
    (finished, exported)
}

/// A running game with the turn clock and one without, both waiting for anna: (id, version).
async fn given_running_games_waiting_for_her(d: &Deleting) -> [(i64, i64); 2] {
    let s = &d.s;
    let clocked = s
        .game("burgbaumeister", json!({"move_minutes": 60}), &d.tokens)
        .await;
    let clocked_at = annas_turn(s, clocked, &d.tokens).await;
    let unclocked = s.game("burgbaumeister", json!({}), &d.tokens).await;
    let unclocked_at = annas_turn(s, unclocked, &d.tokens).await;
    [(clocked, clocked_at), (unclocked, unclocked_at)]
}

/// What identifies anna beside the games: a webhook, notice settings, mutes both ways, a
/// vacation and an invitation to bert's private game (its id).
async fn given_her_data_beside_the_games(d: &Deleting) -> i64 {
    let (s, anna, bert) = (&d.s, d.tokens[0].as_str(), d.tokens[1].as_str());
    s.add_webhook(anna, "http://127.0.0.1:9/hook", json!(["your_turn"]))
        .await;
    assert_eq!(
        put(s, "/v1/me/notices", Some(anna), &json!({"language": "de"}))
            .await
            .status,
        200
    );
    assert_eq!(mute(s, "bert", anna).await / 100, 2);
    assert_eq!(mute(s, "anna", bert).await / 100, 2);
    let until = rfc3339(s.store.now_ms() + 3_600_000);
    assert_eq!(
        put(s, "/v1/me/vacation", Some(anna), &json!({"until": until}))
            .await
            .status,
        200
    );
    let private = s
        .post(
            "/v1/games",
            Some(bert),
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    assert_eq!(private.status, 201, "{}", private.body);
    let private = private.body["id"].as_i64().unwrap();
    let invited = s
        .post(
            &format!("/v1/games/{private}/invitations"),
            Some(bert),
            &json!({"player": "anna"}),
        )
        .await;
    assert_eq!(invited.status, 201, "{}", invited.body);
    private
}

/// Anna deletes her account with her password; her pseudonym.
async fn she_deletes_her_account(d: &Deleting) -> String {
    let r = delete(
        &d.s,
        "/v1/me",
        Some(d.tokens[0].as_str()),
        &json!({"password": "password-of-anna"}),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let pseudonym = baumeister_storage::pseudonym(d.anna_id);
    assert!(pseudonym.starts_with("deleted~"), "{pseudonym}");
    pseudonym
}

/// The number of rows of `sql` (a count with `$1`) for anna's account.
async fn count_of_hers(d: &Deleting, sql: &str) -> i64 {
    d.s.db()
        .await
        .query_one(sql, &[&d.anna_id])
        .await
        .unwrap()
        .get(0)
}

#[actix_web::test]
async fn deleting_an_account_takes_its_password() {
    let d = given_anna_and_bert().await;
    let wrong = delete(
        &d.s,
        "/v1/me",
        Some(d.tokens[0].as_str()),
        &json!({"password": "not-her-password"}),
    )
    .await;
    assert_eq!((wrong.status, wrong.code()), (403, "wrong_password"));
    assert_eq!(
        delete(&d.s, "/v1/me", None, &json!({"password": "x"}))
            .await
            .status,
        401
    );
    she_deletes_her_account(&d).await;
}

#[actix_web::test]
async fn a_deleted_accounts_tokens_and_password_are_dead_at_once() {
    let d = given_anna_and_bert().await;
    let pseudonym = she_deletes_her_account(&d).await;
    let s = &d.s;
    let r = s.get("/v1/me/games", Some(d.tokens[0].as_str())).await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(s.login("anna", "password-of-anna").await.status, 401);
    assert_eq!(s.login(&pseudonym, "!deleted").await.status, 401);
}

#[actix_web::test]
async fn a_deleted_accounts_name_is_retired_in_look_alike_forms_until_retirement_ends() {
    let d = given_anna_and_bert().await;
    let pseudonym = she_deletes_her_account(&d).await;
    let s = &d.s;
    for name in ["anna", "ANNA", "anna_"] {
        let r = s.register(name, "a fresh password").await;
        assert_eq!(
            (r.status, r.code()),
            (409, "name_retired"),
            "{name}: {}",
            r.body
        );
    }
    let r = s.register(&pseudonym, "a fresh password").await;
    assert_eq!(
        (r.status, r.code()),
        (400, "invalid_name"),
        "a pseudonym cannot be registered"
    );
    // Retirement ends: the name may be registered again by somebody new.
    s.db()
        .await
        .execute(
            "UPDATE retired_names SET retired_until = now() - interval '1 second'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(s.register("anna", "a fresh password").await.status, 201);
}

#[actix_web::test]
async fn nobody_invites_a_deleted_account() {
    let d = given_anna_and_bert().await;
    let private = given_her_data_beside_the_games(&d).await;
    let pseudonym = she_deletes_her_account(&d).await;
    // It would never answer.
    let r =
        d.s.post(
            &format!("/v1/games/{private}/invitations"),
            Some(d.tokens[1].as_str()),
            &json!({"player": pseudonym}),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
}

#[actix_web::test]
async fn a_deleted_account_shows_as_its_pseudonym_in_views_profile_leaderboard_and_chat() {
    let d = given_anna_and_bert().await;
    let (finished, _) = given_a_finished_game_with_her_chat(&d).await;
    let pseudonym = she_deletes_her_account(&d).await;
    let (s, bert) = (&d.s, d.tokens[1].as_str());
    let game = s.get(&format!("/v1/games/{finished}"), Some(bert)).await;
    assert_eq!(
        game.body["seats"][0]["player"],
        json!(pseudonym),
        "{}",
        game.body["seats"]
    );
    assert_eq!(
        s.get(&format!("/v1/players/{pseudonym}"), None)
            .await
            .status,
        200
    );
    assert_eq!(s.get("/v1/players/anna", None).await.status, 404);
    let board = s.get("/v1/kinds/carcassonne/leaderboard", None).await;
    let listed: Vec<&Value> = board.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["player"])
        .collect();
    assert!(listed.contains(&&json!(pseudonym)), "{}", board.body);
    assert!(!board.body.to_string().contains("\"anna\""));
    let chat = s
        .get(
            &format!("/v1/games/{finished}/chat?channel=table"),
            Some(bert),
        )
        .await;
    assert_eq!(chat.status, 200, "{}", chat.body);
    assert!(chat.body.to_string().contains(&pseudonym), "{}", chat.body);
    assert!(chat.body.to_string().contains("good game"));
}

#[actix_web::test]
async fn a_deleted_accounts_finished_game_keeps_its_chain_and_exports_the_pseudonym() {
    let d = given_anna_and_bert().await;
    let (finished, exported) = given_a_finished_game_with_her_chat(&d).await;
    let pseudonym = she_deletes_her_account(&d).await;
    let s = &d.s;
    // The chain and its signed head are what they were; the export verifies and names the
    // pseudonym; the audit passes.
    let again = export_of(s.get(&format!("/v1/games/{finished}/export"), None).await);
    verify_export(&again).unwrap();
    assert_eq!(again.commands, exported.commands);
    assert_eq!(again.head, exported.head);
    assert_eq!(again.seats[0].player.as_deref(), Some(pseudonym.as_str()));
    assert_eq!(again.seats[1].player.as_deref(), Some("bert"));
    s.audit_holds(finished).await;
}

#[actix_web::test]
async fn a_deleted_accounts_running_games_go_on_with_the_clock_taking_its_turns() {
    let d = given_anna_and_bert().await;
    let running = given_running_games_waiting_for_her(&d).await;
    she_deletes_her_account(&d).await;
    let s = &d.s;
    // With or without the turn clock option.
    for (id, version) in running {
        let game = moved_on(s, id, version).await;
        assert_ne!(game["to_act"], json!([0]), "{}", game["to_act"]);
        let db = s.db().await;
        let by_clock: i64 = db
            .query_one("SELECT count(*) FROM commands WHERE game_id = $1 AND account_id IS NULL AND seat = 0", &[&id])
            .await
            .unwrap()
            .get(0);
        assert!(by_clock >= 1, "the clock moved for her in game {id}");
        let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
        assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    }
}

#[actix_web::test]
async fn nothing_of_a_deleted_account_is_left_beside_the_games() {
    let d = given_anna_and_bert().await;
    given_her_data_beside_the_games(&d).await;
    let pseudonym = she_deletes_her_account(&d).await;
    for table in [
        "notice_settings",
        "push_subscriptions",
        "webhooks",
        "vacations",
        "password_resets",
        "notice_deliveries",
    ] {
        let sql = format!("SELECT count(*) FROM {table} WHERE account_id = $1");
        assert_eq!(count_of_hers(&d, &sql).await, 0, "{table}");
    }
    let mutes = "SELECT count(*) FROM chat_mutes WHERE account_id = $1 OR muted_id = $1";
    assert_eq!(count_of_hers(&d, mutes).await, 0, "mutes");
    let invitations = "SELECT count(*) FROM invitations WHERE account_id = $1 OR invited_by = $1";
    assert_eq!(count_of_hers(&d, invitations).await, 0, "invitations");
    let db = d.s.db().await;
    let row = db
        .query_one(
            "SELECT name, password_hash, deleted_at IS NOT NULL FROM accounts WHERE id = $1",
            &[&d.anna_id],
        )
        .await
        .unwrap();
    assert_eq!(
        (
            row.get::<_, String>(0),
            row.get::<_, String>(1),
            row.get::<_, bool>(2)
        ),
        (pseudonym, "!deleted".into(), true)
    );
    let anywhere: i64 = db
        .query_one(
            "SELECT count(*) FROM accounts WHERE lower(name) = 'anna'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(anywhere, 0);
}

#[actix_web::test]
async fn the_download_holds_the_accounts_data_and_nothing_of_anothers() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.live.allow_private = true;
        c.live.deliver = false;
    })
    .await;
    let tokens = s.players(&["anna", "bert"]).await;
    let (anna, bert) = (&tokens[0], &tokens[1]);
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    for (token, text) in [(anna, "anna writes this"), (bert, "bert writes that")] {
        let r = s
            .post(
                &format!("/v1/games/{id}/chat"),
                Some(token),
                &json!({"channel": "table", "text": text}),
            )
            .await;
        assert_eq!(r.status, 201);
    }
    let hook = s
        .add_webhook(anna, "http://127.0.0.1:9/anna", json!(["your_turn"]))
        .await;
    let secret = hook.body["secret"].as_str().unwrap().to_string();
    s.add_webhook(bert, "http://127.0.0.1:9/bert", json!(["your_turn"]))
        .await;
    assert_eq!(mute(&s, "bert", anna).await / 100, 2);
    let private = s
        .create_game(
            bert,
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    let r = s
        .post(
            &format!("/v1/games/{private}/invitations"),
            Some(bert),
            &json!({"player": "anna"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);

    assert_eq!(s.get("/v1/me/data", None).await.status, 401);
    let r = s.get("/v1/me/data", Some(anna)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.header("Content-Disposition"),
        Some("attachment; filename=\"baumeister-anna.json\"")
    );
    let data = &r.body;
    assert_eq!(data["account"]["name"], "anna");
    assert_eq!(data["notice_settings"]["language"], "en");
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{data}");
    assert_eq!(games[0]["id"], id);
    assert_eq!(games[0]["your_seat"], 0);
    assert_eq!(games[0]["seats"][1]["player"], "bert");
    assert_eq!(data["chat_messages"].as_array().unwrap().len(), 1);
    assert_eq!(data["chat_messages"][0]["text"], "anna writes this");
    assert_eq!(data["webhooks"].as_array().unwrap().len(), 1);
    assert_eq!(data["webhooks"][0]["url"], "http://127.0.0.1:9/anna");
    assert_eq!(data["mutes"][0]["name"], "bert");
    assert_eq!(data["invitations_received"][0]["invited_by"], "bert");
    assert_eq!(data["invitations_received"][0]["game_id"], private);
    assert_eq!(data["invitations_sent"], json!([]));
    for part in [
        "ratings",
        "rating_changes",
        "vacations",
        "push_subscriptions",
    ] {
        assert!(data[part].is_array(), "{part}");
    }
    let text = data.to_string();
    for foreign in [
        "bert writes that",
        "http://127.0.0.1:9/bert",
        secret.as_str(),
        "$argon2",
    ] {
        assert!(!text.contains(foreign), "{foreign} in {text}");
    }
    // Bert's own download names his invitation as sent.
    let theirs = s.get("/v1/me/data", Some(bert)).await;
    assert_eq!(theirs.body["invitations_sent"][0]["invitee"], "anna");
    assert!(!theirs.body.to_string().contains("anna writes this"));
}

#[actix_web::test]
async fn a_deletion_racing_the_other_players_moves_leaves_the_game_sound() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.live.deliver = false;
    })
    .await;
    let tokens = s.players(&["anna", "bert"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    // Bert plays as fast as he may while anna deletes her account: her turns are the clock's.
    let bert = async {
        let mut refused = 0;
        for _ in 0..40 {
            let game = s.get(&format!("/v1/games/{id}"), None).await;
            if game.body["status"] == "finished" {
                break;
            }
            if !game.body["to_act"].as_array().unwrap().contains(&json!(1)) {
                actix_web::rt::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            let moves = s.moves(id, &tokens[1]).await;
            let Some(first) = moves.body["moves"].get(0) else {
                continue;
            };
            let r = s
                .command(id, &tokens[1], &json!({"command": first["command"]}))
                .await;
            assert!(r.status < 500, "{}", r.body);
            if r.status != 200 {
                refused += 1;
            }
        }
        refused
    };
    let anna = async {
        let r = delete(
            &s,
            "/v1/me",
            Some(&tokens[0]),
            &json!({"password": "password-of-anna"}),
        )
        .await;
        assert_eq!(r.status, 204, "{}", r.body);
        s.store.settle_departed().await.unwrap()
    };
    let (refused, _) = tokio::join!(bert, anna);
    println!("bert's commands refused in the race: {refused}");
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert!(
        game.body["version"].as_i64().unwrap() > 1,
        "the game went on: {}",
        game.body
    );
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    for check in ["chain_intact", "decisions_reproduced"] {
        assert_eq!(audit.body[check], true, "{}", audit.body);
    }
    let by_clock: i64 = s
        .db()
        .await
        .query_one(
            "SELECT count(*) FROM commands WHERE game_id = $1 AND account_id IS NULL AND seat = 0",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    assert!(by_clock >= 1, "the clock played anna's turns");
}
