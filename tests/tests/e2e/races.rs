//! The race matrix: every pair of writers that can meet on one game, started in the same
//! instant (both requests sent in one poll), for a bounded number of rounds. After every round:
//! nothing acknowledged is lost or marked taken back by another seat's request, the audit is
//! sound, a table never seats more players than it has seats, a full table has started, and
//! the loser of a race is told so with a 4xx, never a 5xx. `docs/concurrency.md` says which
//! path each writer takes.

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{all_at_once, Pick, Reply, TestServer};

/// A game where a seat's command may hand the turn to the other seat and still be taken back
/// (Burgbaumeister's `ReturnCard`).
const KIND: &str = "burgbaumeister";

fn no_fault(r: &Reply, what: &str) {
    assert!(
        (200..500).contains(&r.status),
        "{what}: {} {}",
        r.status,
        r.body
    );
}

async fn undo(s: &TestServer, id: i64, token: &str, key: Option<&str>) -> Reply {
    let mut request = s.request("POST", &format!("/v1/games/{id}/undo"), Some(token));
    if let Some(key) = key {
        request = request.insert_header(("Idempotency-Key", key));
    }
    s.send(request, None).await
}

async fn audit_is_sound(s: &TestServer, id: i64, auditor: &str, round: usize) {
    let audit = s.get(&format!("/v1/games/{id}/audit"), Some(auditor)).await;
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert_eq!(
        (
            &audit.body["chain_intact"],
            &audit.body["decisions_reproduced"]
        ),
        (&json!(true), &json!(true)),
        "round {round}: {}",
        audit.body
    );
}

/// Whether the log entry at `version` is marked taken back (as the auditor reads the log).
async fn taken_back(s: &TestServer, id: i64, version: i64, auditor: &str) -> bool {
    let r = s
        .get(
            &format!("/v1/games/{id}/events?after={}&limit=1", version - 1),
            Some(auditor),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let entry = &r.body["events"][0];
    assert_eq!(entry["version"], version, "{}", r.body);
    entry["taken_back"] == true
}

/// A two-seat game of [`KIND`] between `tokens`, with `options`.
async fn new_game(s: &TestServer, tokens: &[String], options: Value) -> i64 {
    s.game(KIND, options, tokens).await
}

/// Plays random moves until the seat that just moved may take its command back while the other
/// seat is to act: `(mover, other)`. `None` when the game ended first.
async fn undoable_hand_over(
    s: &TestServer,
    id: i64,
    tokens: &[String],
    pick: &mut Pick,
) -> Option<(usize, usize)> {
    for _ in 0..400 {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] != "active" {
            return None;
        }
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        let r = s.random_move(id, &tokens[seat], pick).await?;
        assert_eq!(r.status, 200, "{}", r.body);
        let to_act = r.body["to_act"].as_array().unwrap();
        if to_act.len() == 1 && to_act[0] != seat {
            let moves = s.moves(id, &tokens[seat]).await;
            if moves.body["can_undo"] == true {
                return Some((seat, 1 - seat));
            }
        }
    }
    panic!("no undoable hand-over in 400 moves");
}

/// Rounds of a take-back racing the next player's pinned command (finding 1 of issue 41): only
/// one of them may be acknowledged, and an acknowledged command is never marked taken back.
async fn take_backs_race_the_next_command(s: &TestServer, rounds: usize) {
    let tokens = s.players(&["ada", "bea"]).await;
    let auditor = s.auditor("vera").await;
    let mut pick = Pick::new(41);
    let mut id = new_game(s, &tokens, json!({})).await;
    let (mut undone, mut commanded) = (0, 0);
    for round in 0..rounds {
        let Some((mover, other)) = undoable_hand_over(s, id, &tokens, &mut pick).await else {
            id = new_game(s, &tokens, json!({})).await;
            continue;
        };
        let moves = s.moves(id, &tokens[other]).await;
        let listed = moves.body["moves"].as_array().unwrap();
        let chosen = listed[pick.below(listed.len())].clone();
        let path = format!("/v1/games/{id}/commands");
        let (take_back, command) = futures_pair(
            undo(s, id, &tokens[mover], None),
            s.post(&path, Some(&tokens[other]), &chosen),
        )
        .await;
        no_fault(&take_back, "take-back");
        no_fault(&command, "command");
        assert!(
            !(take_back.status == 200 && command.status == 200),
            "round {round}: both acknowledged: {} / {}",
            take_back.body,
            command.body
        );
        if command.status == 200 {
            commanded += 1;
            assert_refused(&take_back, 422, "others_acted");
            let version = command.version();
            assert!(
                !taken_back(s, id, version, &auditor).await,
                "round {round}: the acknowledged command at {version} was taken back"
            );
        } else {
            undone += 1;
            assert_eq!(take_back.status, 200, "{}", take_back.body);
            assert_refused(&command, 409, "version_conflict");
        }
        audit_is_sound(s, id, &auditor, round).await;
    }
    assert!(undone + commanded > 0, "no round was raced");
}

/// Two futures at once, on this task.
async fn futures_pair<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    let mut a = Box::pin(a);
    let mut b = Box::pin(b);
    let (mut ra, mut rb) = (None, None);
    std::future::poll_fn(|cx| {
        if ra.is_none() {
            if let std::task::Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let std::task::Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        if ra.is_some() && rb.is_some() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    (ra.unwrap(), rb.unwrap())
}

#[actix_web::test]
async fn a_take_back_never_erases_the_next_players_command() {
    let s = TestServer::start().await;
    take_backs_race_the_next_command(&s, 12).await;
    s.finish().await;
}

#[actix_web::test]
async fn a_take_back_never_erases_the_next_players_command_appended_alone() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.append_batches = false;
    })
    .await;
    take_backs_race_the_next_command(&s, 12).await;
    s.finish().await;
}

/// A take-back racing the turn clock's default move for the next seat (applied by a read once
/// the deadline passed): the audit stays sound, whichever wins.
#[actix_web::test]
async fn a_take_back_never_erases_the_turn_clocks_move() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let auditor = s.auditor("vera").await;
    let mut pick = Pick::new(7);
    let options = json!({"move_minutes": 1});
    let mut id = new_game(&s, &tokens, options.clone()).await;
    let mut raced = 0;
    for round in 0..8 {
        let Some((mover, _)) = undoable_hand_over(&s, id, &tokens, &mut pick).await else {
            id = new_game(&s, &tokens, options.clone()).await;
            continue;
        };
        let before = s.get(&format!("/v1/games/{id}"), None).await.version();
        s.store.advance_clock(61_000);
        let path = format!("/v1/games/{id}");
        let (take_back, read) = futures_pair(
            undo(&s, id, &tokens[mover], None),
            s.get(&path, Some(&tokens[1 - mover])),
        )
        .await;
        no_fault(&take_back, "take-back");
        assert_eq!(read.status, 200, "{}", read.body);
        if take_back.status != 200 {
            assert_eq!(take_back.code(), "others_acted", "{}", take_back.body);
            // The clock's move came first, and stays.
            assert!(!taken_back(&s, id, before + 1, &auditor).await);
        }
        raced += 1;
        audit_is_sound(&s, id, &auditor, round).await;
    }
    assert!(raced > 0);
    s.finish().await;
}

/// The same take-back sent twice at once: taken back once. With one Idempotency-Key, both get
/// the same answer (one of them replayed); without, the second is refused.
#[actix_web::test]
async fn a_take_back_sent_twice_takes_back_once() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let auditor = s.auditor("vera").await;
    let mut pick = Pick::new(3);
    let mut id = new_game(&s, &tokens, json!({})).await;
    for round in 0..8 {
        let Some((mover, _)) = undoable_hand_over(&s, id, &tokens, &mut pick).await else {
            id = new_game(&s, &tokens, json!({})).await;
            continue;
        };
        let before = s.get(&format!("/v1/games/{id}"), None).await.version();
        let key = format!("undo-{round}");
        let keyed = round % 2 == 0;
        let key = keyed.then_some(key.as_str());
        let (first, second) = futures_pair(
            undo(&s, id, &tokens[mover], key),
            undo(&s, id, &tokens[mover], key),
        )
        .await;
        no_fault(&first, "first");
        no_fault(&second, "second");
        let after = s.get(&format!("/v1/games/{id}"), None).await.version();
        assert_eq!(after, before + 1, "round {round}: taken back exactly once");
        if keyed {
            assert_eq!((first.status, second.status), (200, 200));
            assert_eq!(first.body, second.body, "the first answer again");
            let replayed = [&first, &second]
                .iter()
                .filter(|r| r.header("Idempotent-Replayed") == Some("true"))
                .count();
            assert_eq!(replayed, 1, "round {round}");
        } else {
            let mut statuses = [first.status, second.status];
            statuses.sort_unstable();
            assert_eq!(statuses, [200, 422], "{} / {}", first.body, second.body);
            let refused = if first.status == 422 { &first } else { &second };
            assert_eq!(refused.code(), "nothing_to_undo", "{}", refused.body);
        }
        audit_is_sound(&s, id, &auditor, round).await;
    }
    s.finish().await;
}

/// Whether game `id` is as a table must be after any race: never more seats taken than it has,
/// each at most once, and started (version > 0) exactly when full.
async fn table_is_sound(s: &TestServer, id: i64, seat_count: i64) {
    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT (SELECT count(*) FROM seats WHERE game_id = $1),
                    (SELECT count(DISTINCT seat) FROM seats WHERE game_id = $1),
                    (SELECT coalesce(max(seat), -1)::smallint FROM seats WHERE game_id = $1),
                    status, version
             FROM games WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
    let (taken, distinct, highest): (i64, i64, i16) = (row.get(0), row.get(1), row.get(2));
    let (status, version): (String, i64) = (row.get(3), row.get(4));
    assert!(taken <= seat_count, "{taken} seats of {seat_count}");
    assert_eq!(taken, distinct, "one account a seat");
    assert!(
        i64::from(highest) < seat_count,
        "seat {highest} of {seat_count}"
    );
    if taken == seat_count {
        assert_eq!(status, "active", "a full table has started");
        assert!(version > 0, "a full table has set up");
    } else {
        assert_eq!((status.as_str(), version), ("open", 0));
    }
}

/// Rounds of every waiting player joining a 5-seat game at once (finding 2 of issue 41): all
/// are seated, each once, and the game starts.
#[actix_web::test]
async fn joins_racing_joins_fill_every_seat_once() {
    let s = TestServer::start().await;
    let names = ["ada", "bea", "cem", "dov", "eli"];
    let tokens = s.players(&names).await;
    for _ in 0..6 {
        let id = s.open_game(&tokens[0], "carcassonne", 5).await;
        let path = format!("/v1/games/{id}/join");
        let replies = all_at_once(
            tokens[1..]
                .iter()
                .map(|t| s.post(&path, Some(t), &json!({}))),
        )
        .await;
        for r in &replies {
            assert_eq!(r.status, 200, "{}", r.body);
        }
        table_is_sound(&s, id, 5).await;
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        assert_eq!(game.body["status"], "active", "{}", game.body);
    }
    s.finish().await;
}

/// A join racing a bot seated (finding 2): both at the last seat, or at the two last seats;
/// the table starts whenever it fills, and never holds more than its seats.
#[actix_web::test]
async fn a_join_racing_a_bot_never_freezes_the_table() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    for round in 0..8 {
        let id = s.open_game(&tokens[0], "carcassonne", 3).await;
        if round % 2 == 1 {
            // One seat left: the join and the bot race for it.
            s.joined(id, &tokens[2]).await;
        }
        let seat = if round % 4 < 2 { 2 } else { 1 };
        let (join, bot) = futures_pair(
            s.post(
                &format!("/v1/games/{id}/join"),
                Some(&tokens[1]),
                &json!({}),
            ),
            s.post(
                &format!("/v1/games/{id}/bots"),
                Some(&tokens[0]),
                &json!({"seat": seat, "level": "random"}),
            ),
        )
        .await;
        no_fault(&join, "join");
        no_fault(&bot, "bot");
        assert!(join.status == 200 || bot.status == 200);
        for r in [&join, &bot] {
            if r.status != 200 {
                assert_eq!(r.status, 409, "{}", r.body);
                assert!(
                    ["seat_taken", "game_not_open"].contains(&r.code()),
                    "{}",
                    r.body
                );
            }
        }
        table_is_sound(&s, id, 3).await;
    }
    s.finish().await;
}

/// Two bots for one seat, and an invitation accepted racing a join and a bot: one seat each,
/// the losers told with 409.
#[actix_web::test]
async fn invitations_bots_and_joins_racing_share_the_seats() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    for round in 0..6 {
        let id = s.open_game(&tokens[0], "carcassonne", 3).await;
        let bots = format!("/v1/games/{id}/bots");
        let (first, second) = futures_pair(
            s.post(
                &bots,
                Some(&tokens[0]),
                &json!({"seat": 1, "level": "random"}),
            ),
            s.post(
                &bots,
                Some(&tokens[0]),
                &json!({"seat": 1, "level": "greedy"}),
            ),
        )
        .await;
        let mut statuses = [first.status, second.status];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "{} / {}", first.body, second.body);
        table_is_sound(&s, id, 3).await;

        // The last seat: an invitation accepted, a join and a bot at once.
        let r = s
            .post(
                &format!("/v1/games/{id}/invitations"),
                Some(&tokens[0]),
                &json!({"player": "cem"}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        let mine = s.get("/v1/me/invitations", Some(&tokens[2])).await;
        let invitation = mine.body.as_array().unwrap_or_else(|| {
            mine.body["invitations"]
                .as_array()
                .expect("a list of invitations")
        });
        let invitation = invitation
            .iter()
            .find(|i| i["game"]["id"] == id)
            .expect("cem's invitation")["id"]
            .as_i64()
            .unwrap();
        let replies = all_at_once(
            [
                s.post(
                    &format!("/v1/me/invitations/{invitation}/accept"),
                    Some(&tokens[2]),
                    &json!({}),
                ),
                s.post(
                    &format!("/v1/games/{id}/join"),
                    Some(&tokens[1]),
                    &json!({}),
                ),
                s.post(
                    &bots,
                    Some(&tokens[0]),
                    &json!({"seat": 2, "level": "random"}),
                ),
            ]
            .into_iter(),
        )
        .await;
        let won = replies.iter().filter(|r| r.status == 200).count();
        assert_eq!(won, 1, "round {round}: one seat was left");
        for r in replies.iter().filter(|r| r.status != 200) {
            assert_eq!(r.status, 409, "{}", r.body);
        }
        table_is_sound(&s, id, 3).await;
    }
    s.finish().await;
}

/// A player's command racing its own turn clock's default move (a read once the deadline
/// passed applies it): one of them moves the game, the other is refused or decided again, and
/// every acknowledged command stays in the log.
#[actix_web::test]
async fn a_command_racing_its_turn_clock_loses_nothing() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let auditor = s.auditor("vera").await;
    let mut pick = Pick::new(11);
    let options = json!({"move_minutes": 1});
    let id = new_game(&s, &tokens, options).await;
    for round in 0..8 {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] != "active" {
            break;
        }
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        let moves = s.moves(id, &tokens[seat]).await;
        let listed = moves.body["moves"].as_array().unwrap();
        let chosen = listed[pick.below(listed.len())].clone();
        s.store.advance_clock(61_000);
        let (command, read) = futures_pair(
            s.post(
                &format!("/v1/games/{id}/commands"),
                Some(&tokens[seat]),
                &chosen,
            ),
            s.get(&format!("/v1/games/{id}"), Some(&tokens[1 - seat])),
        )
        .await;
        no_fault(&command, "command");
        assert_eq!(read.status, 200, "{}", read.body);
        if command.status == 200 {
            let version = command.version();
            assert!(
                !taken_back(&s, id, version, &auditor).await,
                "round {round}"
            );
        } else {
            // The clock moved first: the pinned command names a version gone by.
            assert_refused(&command, 409, "version_conflict");
        }
        audit_is_sound(&s, id, &auditor, round).await;
    }
    s.finish().await;
}

/// The last two answers to a rematch sent at once: one new game, seated whole and started.
#[actix_web::test]
async fn rematch_answers_racing_start_one_game() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    let id = s.game("carcassonne", json!({}), &tokens).await;
    baumeister_tests::random_play::play_to_end(&s, id, &tokens, 5).await;
    let path = format!("/v1/games/{id}/rematch");
    let r = s.post(&path, Some(&tokens[0]), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let accept = format!("{path}/accept");
    let (bea, cem) = futures_pair(
        s.post(&accept, Some(&tokens[1]), &json!({})),
        s.post(&accept, Some(&tokens[2]), &json!({})),
    )
    .await;
    assert_eq!(
        (bea.status, cem.status),
        (200, 200),
        "{} / {}",
        bea.body,
        cem.body
    );
    let r = s.get(&path, None).await;
    let new_game = r.body["new_game"].as_i64().expect("one new game");
    table_is_sound(&s, new_game, 3).await;
    let games: i64 = s
        .db()
        .await
        .query_one("SELECT count(*) FROM games WHERE id <> $1", &[&id])
        .await
        .unwrap()
        .get(0);
    assert_eq!(games, 1, "exactly one rematch");
    s.finish().await;
}
