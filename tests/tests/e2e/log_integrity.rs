//! The log holds together without the foreign keys that V20 dropped from it (they cost every
//! append a locking query per row): games are played through the server (people's commands,
//! an undo, a bot's seat, the turn clock's default move), then every row of `commands` and
//! `events` is checked against what those keys used to promise, and more: the game exists, an
//! event's command is a command of the same game, a command's account holds a seat at it. The
//! games' `bot_seats` (what the bot sweep reads instead of every running game) name exactly the
//! seats that bots hold. And what V21 took off the append: the CHECK constraints of `games` and
//! `events` (their writers keep them; creation still checks), the trigger that wrote a command's
//! bot level (the append writes it), and the look for webhooks and notices on every append (the
//! game's `listeners` must say where one may be found). And what the unclocked append leaves
//! alone in a game without the turn clock: its row's clock columns must hold what the clock's
//! CASEs wrote.

use std::time::{Duration, Instant};

use baumeister_tests::serde_json::json;
use baumeister_tests::{Pick, TestServer};
use tokio_postgres::Client;

/// The one number `sql` (a `count(*)` over the whole database) counts.
async fn count(db: &Client, sql: &str) -> i64 {
    db.query_one(sql, &[]).await.unwrap().get(0)
}

#[actix_web::test]
async fn every_logged_row_belongs_to_its_game_and_seat_and_bot_seats_are_kept() {
    let s = TestServer::start().await;
    let tokens = s.players(&["anna", "ben"]).await;
    let mut pick = Pick::new(24);
    let db = s.db().await;

    let played = people_play_and_one_takes_a_command_back(&s, &tokens, &mut pick).await;
    let with_bot = a_bot_at_its_seat_moves(&s, &db, &tokens, &mut pick).await;
    the_turn_clock_moves_for_a_seat(&s, &db, &tokens).await;

    every_row_belongs_to_a_game_and_a_seat(&db).await;
    what_the_dropped_checks_promised_holds(&db).await;
    the_append_writes_bot_levels_and_keeps_responses_that_can_be_asked_again(&db).await;
    games_with_listeners_say_so(&db, [played, with_bot]).await;
    creation_still_refuses_under_the_constraints_names(&db, played).await;
    games_without_the_clock_keep_their_clock_columns(&db).await;
    let bot_seats: Option<Vec<i16>> = db
        .query_one("SELECT bot_seats FROM games WHERE id = $1", &[&with_bot])
        .await
        .unwrap()
        .get(0);
    assert_eq!(bot_seats, Some(vec![2]));
    s.finish().await;
}

/// Anna and ben play a game (ben saves notice settings while it runs) and one of them takes a
/// command back; the game's id.
async fn people_play_and_one_takes_a_command_back(
    s: &TestServer,
    tokens: &[String],
    pick: &mut Pick,
) -> i64 {
    let played = s.game("burgbaumeister", json!({}), tokens).await;
    // Ben starts listening while the game runs (notice settings saved): the game must say so.
    let saved = s
        .send(
            s.request("PUT", "/v1/me/notices", Some(&tokens[1]))
                .insert_header(("Content-Type", "application/json")),
            Some(json!({"email_every_hours": 1}).to_string().into_bytes()),
        )
        .await;
    assert_eq!(saved.status, 200, "{}", saved.body);

    let mut undone = false;
    for _ in 0..40 {
        for token in tokens {
            if let Some(r) = s.random_move(played, token, pick).await {
                assert!(r.status == 200 || r.status == 422, "{}", r.body);
                if r.status == 200 && !undone {
                    let u = s
                        .post(&format!("/v1/games/{played}/undo"), Some(token), &json!({}))
                        .await;
                    undone = u.status == 200;
                }
            }
        }
    }

    assert!(undone, "a command was taken back");
    played
}

/// A bot holds a seat (taken at creation) at a new game and answers the people's moves until
/// it has moved; the game's id.
async fn a_bot_at_its_seat_moves(
    s: &TestServer,
    db: &Client,
    tokens: &[String],
    pick: &mut Pick,
) -> i64 {
    let with_bot = s.create_game(&tokens[0], &json!({"kind": "burgbaumeister", "seats": 3, "bots": [{"seat": 2, "level": "random"}]})).await;
    s.joined(with_bot, &tokens[1]).await;
    let bot_commands = || async {
        db.query_one(
            "SELECT count(*) FROM commands c JOIN seats s ON s.game_id = c.game_id AND s.account_id = c.account_id
             JOIN accounts a ON a.id = s.account_id WHERE c.game_id = $1 AND a.bot",
            &[&with_bot],
        )
        .await
        .unwrap()
        .get::<_, i64>(0)
    };
    let started = Instant::now();
    while bot_commands().await == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the bot never moved"
        );
        for token in tokens {
            s.random_move(with_bot, token, pick).await;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    with_bot
}

/// The turn clock's default move at a clocked game: a command without an account.
async fn the_turn_clock_moves_for_a_seat(s: &TestServer, db: &Client, tokens: &[String]) {
    let clocked = s
        .game("burgbaumeister", json!({"move_minutes": 1}), tokens)
        .await;
    // The server's clock moves past the deadline instead of waiting a minute.
    s.store.advance_clock(61_000);
    let started = Instant::now();
    loop {
        let game = s
            .get(&format!("/v1/games/{clocked}"), Some(&tokens[0]))
            .await;
        assert_eq!(game.status, 200, "{}", game.body);
        let by_clock: i64 = db
            .query_one(
                "SELECT count(*) FROM commands WHERE game_id = $1 AND account_id IS NULL AND seat IS NOT NULL",
                &[&clocked],
            )
            .await
            .unwrap()
            .get(0);
        if by_clock > 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the clock never moved"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What the foreign keys V20 dropped promised, and more: every event and command is of a game,
/// an event's command is its game's, a command's account sits at its game; `bot_seats` names
/// the seats bots hold.
async fn every_row_belongs_to_a_game_and_a_seat(db: &Client) {
    assert!(count(db, "SELECT count(*) FROM events").await > 0);
    assert_eq!(
        count(db, "SELECT count(*) FROM events e WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = e.game_id)").await,
        0,
        "an event of no game"
    );
    assert_eq!(
        count(db, "SELECT count(*) FROM commands c WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = c.game_id)").await,
        0,
        "a command of no game"
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM events e WHERE NOT EXISTS
                 (SELECT 1 FROM commands c WHERE c.game_id = e.game_id AND c.id = e.command_id)"
        )
        .await,
        0,
        "an event whose command is not its game's"
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM commands c WHERE c.account_id IS NOT NULL AND NOT EXISTS
                 (SELECT 1 FROM seats s WHERE s.game_id = c.game_id AND s.account_id = c.account_id)"
        )
        .await,
        0,
        "a command by an account without a seat at its game"
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM games g WHERE g.bot_seats IS DISTINCT FROM
                 (SELECT array_agg(s.seat ORDER BY s.seat) FROM seats s JOIN accounts a ON a.id = s.account_id
                  WHERE s.game_id = g.id AND a.bot)"
        )
        .await,
        0,
        "bot_seats names the seats bots hold, and only games with bots have them"
    );
}

/// What the CHECK constraints of `games` and `events` promised before V21 took them off the
/// append.
async fn what_the_dropped_checks_promised_holds(db: &Client) {
    // What the CHECK constraints dropped by V21 promised (their writers keep it).
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM games WHERE NOT (seat_count > 0
                 AND status IN ('open', 'active', 'finished') AND visibility IN ('open', 'private'))"
        )
        .await,
        0,
        "a game with a seat count, status or visibility its checks refused"
    );
    assert_eq!(
        count(db, "SELECT count(*) FROM events WHERE NOT version > 0").await,
        0,
        "an event at a version below 1"
    );
}

/// The append writes each command's bot level and stores a response only where a repeated
/// request can ask for it again.
async fn the_append_writes_bot_levels_and_keeps_responses_that_can_be_asked_again(db: &Client) {
    // The bot level the append writes (a trigger's lookup until V21): the account's for a
    // command with an account and a seat, the clock's bot's for one with a seat only.
    assert!(
        count(
            db,
            "SELECT count(*) FROM commands WHERE bot_level IS NOT NULL"
        )
        .await
            > 0
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM commands c WHERE c.bot_level IS DISTINCT FROM CASE
                 WHEN c.seat IS NULL THEN NULL
                 WHEN c.account_id IS NULL THEN c.response ->> 'clock_bot'
                 ELSE (SELECT a.bot_level FROM accounts a WHERE a.id = c.account_id) END"
        )
        .await,
        0,
        "a command whose bot level is not its account's"
    );
    // A stored response is there to be answered again to a repeated Idempotency-Key: a
    // person's command without a key stores none (V21); the server's own keep theirs.
    assert!(
        count(db, "SELECT count(*) FROM commands WHERE account_id IS NOT NULL AND idempotency_key IS NULL")
            .await
            > 0
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM commands WHERE (account_id IS NOT NULL AND idempotency_key IS NULL)
                 = (response IS NOT NULL)"
        )
        .await,
        0,
        "a response stored where no request can repeat it, or missing where one can"
    );
}

/// Every game at which somebody with a webhook or notice settings sits says it has listeners.
async fn games_with_listeners_say_so(db: &Client, bens_games: [i64; 2]) {
    // Every unfinished game at which an account with a webhook or notice settings sits says
    // so (the append queues notices only for those).
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM games g WHERE g.status <> 'finished' AND NOT g.listeners
                 AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id
                     AND (EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = s.account_id)
                          OR EXISTS (SELECT 1 FROM notice_settings n WHERE n.account_id = s.account_id)))"
        )
        .await,
        0,
        "a game whose listeners went unnoticed"
    );
    for game in bens_games {
        let listened: bool = db
            .query_one("SELECT listeners FROM games WHERE id = $1", &[&game])
            .await
            .unwrap()
            .get(0);
        // The game he sat at when he saved them, and the one he joined afterwards.
        assert!(listened, "ben's notice settings mark game {game}");
    }
}

/// Creating a game still refuses what the dropped constraints refused, under their names.
async fn creation_still_refuses_under_the_constraints_names(db: &Client, played: i64) {
    for (seat_count, status, visibility, constraint) in [
        (0i16, "open", "open", "games_seat_count_check"),
        (2, "paused", "open", "games_status_check"),
        (2, "open", "secret", "games_visibility_check"),
    ] {
        let refused = db
            .execute(
                "INSERT INTO games (kind, options, seat_count, status, created_by, visibility)
                 SELECT 'burgbaumeister', '{}', $1, $2, created_by, $3 FROM games WHERE id = $4",
                &[&seat_count, &status, &visibility, &played],
            )
            .await
            .expect_err("refused");
        assert_eq!(
            refused.as_db_error().and_then(|e| e.constraint()),
            Some(constraint),
            "{refused}"
        );
    }
}

/// A game without the turn clock keeps its clock columns as the clock's CASEs wrote them.
async fn games_without_the_clock_keep_their_clock_columns(db: &Client) {
    // A game without the turn clock has no turn deadlines, no seat with the clock's bot, and
    // the rule's deadline as its only one, whichever statement appended its commands.
    assert!(
        count(
            db,
            "SELECT count(*) FROM games WHERE options ->> 'move_minutes' IS NULL AND version > 0"
        )
        .await
            >= 2,
        "the game played and the bot's"
    );
    assert_eq!(
        count(
            db,
            "SELECT count(*) FROM games WHERE options ->> 'move_minutes' IS NULL
                 AND (turn_deadlines IS NOT NULL OR clock_bot_seats IS NOT NULL
                      OR deadline_ms IS DISTINCT FROM rule_deadline_ms)"
        )
        .await,
        0,
        "a game without the clock whose clock columns moved"
    );
}
