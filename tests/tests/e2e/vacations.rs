//! Vacations over HTTP: the turn clock of an account's seats stands still while it is away, a
//! vacation ended early gives the rest back, the yearly allowance is kept, and the lobby and the
//! game show who is away. The server's clock is moved forward instead of waiting.

use baumeister_storage::{parse_rfc3339, rfc3339};
use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::turns::MINUTE;
use baumeister_tests::{Reply, TestServer};

const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

async fn put_vacation(s: &TestServer, token: &str, body: &Value) -> Reply {
    let request = s
        .request("PUT", "/v1/me/vacation", Some(token))
        .insert_header(("Content-Type", "application/json"));
    s.send(request, Some(serde_json::to_vec(body).unwrap()))
        .await
}

async fn end_vacation(s: &TestServer, token: &str) -> Reply {
    s.send(s.request("DELETE", "/v1/me/vacation", Some(token)), None)
        .await
}

fn seat_field(game: &Value, seat: usize, field: &str) -> Option<String> {
    game["seats"][seat][field].as_str().map(str::to_string)
}

fn turn_deadline(game: &Value, seat: usize) -> Option<i64> {
    seat_field(game, seat, "turn_deadline").map(|t| parse_rfc3339(&t).unwrap())
}

#[actix_web::test]
async fn a_vacation_stops_the_clock_and_is_shown_at_the_table() {
    let (s, tokens, id) = ada_and_bea_playing("burgbaumeister", json!({"move_minutes": 60})).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    // The seat to act (the start player is drawn) goes on vacation.
    let away = game["to_act"][0].as_u64().unwrap() as usize;
    let back = 1 - away;
    let before_deadline = turn_deadline(&game, away).unwrap();
    let version = game["version"].clone();

    let etag = s
        .get(&format!("/v1/games/{id}"), None)
        .await
        .header("etag")
        .unwrap()
        .to_string();
    let from = s.store.now_ms();
    let until = from + DAY;
    let r = put_vacation(&s, &tokens[away], &json!({ "until": rfc3339(until) })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["on_vacation"], true);
    assert_eq!(r.body["until"], rfc3339(until));
    let to = s.store.now_ms();
    let r = s.get("/v1/me/vacation", Some(&tokens[away])).await;
    assert_eq!(r.body["until"], rfc3339(until), "{}", r.body);

    // The game and the lobby show who is away, and the deadline pushed back by the vacation;
    // a client polling with its ETag hears of it.
    let reply = s.get(&format!("/v1/games/{id}"), None).await;
    assert_ne!(reply.header("etag"), Some(etag.as_str()));
    let game = reply.body;
    assert_eq!(
        seat_field(&game, away, "vacation_until"),
        Some(rfc3339(until))
    );
    assert_eq!(seat_field(&game, back, "vacation_until"), None);
    let pushed = turn_deadline(&game, away).unwrap();
    assert!(
        (before_deadline + until - to..=before_deadline + until - from).contains(&pushed),
        "pushed back by the vacation's length"
    );
    let lobby = s.get("/v1/games?status=active", None).await;
    assert_eq!(
        lobby.body["games"][0]["seats"][away]["vacation_until"],
        rfc3339(until),
        "{}",
        lobby.body
    );

    // An hour later, and until just before the pushed-back deadline, nothing happens.
    s.store.advance_clock(2 * HOUR);
    s.store.sweep_once().await.unwrap();
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(game["version"], version, "the clock stands still");
    s.store.advance_clock(pushed - s.store.now_ms() - MINUTE);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(game["version"], version);
    assert_eq!(seat_field(&game, away, "vacation_until"), None, "back now");

    // Then the hour left when the vacation began runs out.
    s.store.advance_clock(2 * MINUTE);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_ne!(game["version"], version, "the default move was made");
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT account_id, seat FROM commands WHERE game_id = $1 ORDER BY id DESC LIMIT 1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, Option<i64>>(0), None);
    assert_eq!(row.get::<_, Option<i16>>(1), Some(away as i16));
    s.finish().await;
}

#[actix_web::test]
async fn a_turn_that_starts_during_a_vacation_gets_its_time_after_it_and_ending_early_gives_the_rest_back(
) {
    let (s, tokens, id) = ada_and_bea_playing("burgbaumeister", json!({"move_minutes": 60})).await;
    let mut game = s.get(&format!("/v1/games/{id}"), None).await.body;
    // The seat not to act (the start player is drawn) goes on vacation.
    let playing = game["to_act"][0].as_u64().unwrap() as usize;
    let away = 1 - playing;
    let until = s.store.now_ms() + 3 * DAY;
    let r = put_vacation(&s, &tokens[away], &json!({ "until": rfc3339(until) })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The other plays until it is the away seat's turn.
    for _ in 0..10 {
        if game["to_act"] == json!([away]) {
            break;
        }
        let moves = s.moves(id, &tokens[playing]).await;
        s.commanded(id, &tokens[playing], &moves.body["moves"][0])
            .await;
        game = s.get(&format!("/v1/games/{id}"), None).await.body;
    }
    assert_eq!(game["to_act"], json!([away]), "{game}");
    assert_eq!(
        turn_deadline(&game, away),
        Some(until + HOUR),
        "the hour starts when the vacation ends"
    );

    // A day later the player comes back early: the hour starts now, the unused days stay theirs.
    s.store.advance_clock(DAY);
    let from = s.store.now_ms();
    let r = end_vacation(&s, &tokens[away]).await;
    let to = s.store.now_ms();
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["on_vacation"], false);
    assert!(r.body.get("until").is_none_or(Value::is_null));
    let used = r.body["used_days"].as_f64().unwrap();
    assert!((0.99..=1.01).contains(&used), "{}", r.body);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(seat_field(&game, away, "vacation_until"), None);
    let deadline = turn_deadline(&game, away).unwrap();
    assert!((from + HOUR..=to + HOUR).contains(&deadline));
    let version = game["version"].clone();
    s.store.advance_clock(HOUR + MINUTE);
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_ne!(game["version"], version, "the hour ran out");
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    // Ending a vacation nobody is on changes nothing.
    let r = end_vacation(&s, &tokens[away]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["on_vacation"], false);
    s.finish().await;
}

#[actix_web::test]
async fn the_yearly_allowance_counts_the_days_used() {
    let s = TestServer::start().await;
    let token = s.player("ada").await;
    // Start on the 2nd of January of next year, so that nothing here crosses a year's end.
    let year: i64 = rfc3339(s.store.now_ms())[..4].parse().unwrap();
    let jan2 = parse_rfc3339(&format!("{}-01-02T00:00:00Z", year + 1)).unwrap();
    s.store.advance_clock(jan2 - s.store.now_ms());
    let at = |days: i64| rfc3339(s.store.now_ms() + days * DAY);

    let r = put_vacation(&s, &token, &json!({ "until": at(31) })).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "vacation_allowance_exceeded");
    let r = put_vacation(&s, &token, &json!({ "until": at(20) })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["allowance_days"], 30);
    assert_eq!(r.body["year"], year + 1);
    assert_eq!(r.body["remaining_days"], 10.0, "{}", r.body);
    // Moving the end of the running vacation counts it once.
    let r = put_vacation(&s, &token, &json!({ "until": at(25) })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["remaining_days"], 5.0, "{}", r.body);
    s.store.advance_clock(26 * DAY);
    let r = s.get("/v1/me/vacation", Some(&token)).await;
    assert_eq!(r.body["on_vacation"], false, "{}", r.body);
    assert_eq!(r.body["used_days"], 25.0, "{}", r.body);
    let r = put_vacation(&s, &token, &json!({ "until": at(6) })).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "vacation_allowance_exceeded");
    // (A minute less: the first vacation began a moment before its end was counted from.)
    let r = put_vacation(
        &s,
        &token,
        &json!({ "until": at(5).replace("Z", "+00:01") }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Ended after a day: only that day is used.
    s.store.advance_clock(DAY);
    let r = end_vacation(&s, &token).await;
    assert_eq!(r.body["used_days"], 26.0, "{}", r.body);
    assert_eq!(r.body["remaining_days"], 4.0, "{}", r.body);

    // Bad requests change nothing and say what is wrong.
    let r = put_vacation(&s, &token, &json!({ "until": at(-1) })).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.code(), "vacation_not_in_future");
    let r = put_vacation(&s, &token, &json!({ "until": "next week" })).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.code(), "invalid_time");
    let r = put_vacation(&s, &token, &json!({ "until": at(1), "from": at(0) })).await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = s.get("/v1/me/vacation", None).await;
    assert_eq!(r.status, 401);
    let r = s.get("/v1/me/vacation", Some(&token)).await;
    assert_eq!(r.body["used_days"], 26.0);
    assert_eq!(r.body["on_vacation"], false);
    s.finish().await;
}
