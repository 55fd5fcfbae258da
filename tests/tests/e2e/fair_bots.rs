//! Bots' thinking is shared fairly between the people whose games wait for bots: one account's
//! many bot games do not keep another account's bot waiting behind their whole backlog, and the
//! sweep lists every person's oldest waiting move before anybody's second.

use std::time::{Duration, Instant};

use baumeister_api::config::Bots;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::TestServer;

/// Creates a two-seat Carcassonne game for `token` (seat 0) against a bot of `level` (seat 1)
/// and plays seat 0's first listed moves until the bot is to act; returns the game's id.
async fn game_handed_to_bot(s: &TestServer, token: &str, level: &str) -> i64 {
    let id = s
        .create_game(
            token,
            &json!({"kind": "carcassonne", "seats": 2, "bots": [{"seat": 1, "level": level}]}),
        )
        .await;
    loop {
        let game = s.get(&format!("/v1/games/{id}"), Some(token)).await;
        if game.body["to_act"] == json!([1]) {
            return id;
        }
        if game.body["to_act"] == json!([0]) {
            s.first_move(id, token).await;
        }
    }
}

/// Of `games`, those whose bot (seat 1) is still to act.
async fn waiting_for_bot(s: &TestServer, token: &str, games: &[i64]) -> usize {
    let mut waiting = 0;
    for id in games {
        let game = s.get(&format!("/v1/games/{id}"), Some(token)).await;
        if game.body["to_act"] == json!([1]) {
            waiting += 1;
        }
    }
    waiting
}

/// One thinker, so only the order of the moves can help: Anna's twelve strong bots wait (each
/// thinks up to its second's budget), then Ben's random bot. Oldest game first, Ben's bot would
/// answer after all of them; shared in turn, it answers after the move running when it came.
#[actix_web::test]
async fn another_accounts_bot_moves_before_one_accounts_backlog_is_drained() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.bots = Bots {
            thinkers: 1,
            per_account: 1,
        };
    })
    .await;
    let anna = s.player("anna").await;
    let ben = s.player("ben").await;
    let mut annas = Vec::new();
    for _ in 0..12 {
        annas.push(game_handed_to_bot(&s, &anna, "strong").await);
    }
    let bens = game_handed_to_bot(&s, &ben, "random").await;
    let backlog = waiting_for_bot(&s, &anna, &annas).await;
    assert!(
        backlog >= 4,
        "the test needs a backlog: {backlog} of Anna's bots still to act when Ben's waits"
    );
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "Ben's bot never answered"
        );
        let game: Value = s.get(&format!("/v1/games/{bens}"), Some(&ben)).await.body;
        if game["to_act"] != json!([1]) {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    let left = waiting_for_bot(&s, &anna, &annas).await;
    assert!(
        left + 2 >= backlog,
        "Ben's bot answered after {left} of Anna's {backlog} waiting bots were left: \
         it waited for more than the move running when it came"
    );
    s.finish().await;
}

/// Without a server (so no bot moves while the test looks): four people's seats handed to the
/// turn clock's bot in Ada's and Bea's games, then one in Cleo's and Dora's game, the newest.
/// A sweep as long as there are people waiting lists one move of each, the newest game's too.
#[actix_web::test]
async fn the_sweep_lists_every_persons_oldest_move_before_anyones_second() {
    use baumeister_storage::{Store, Table, Visibility};
    let db = baumeister_tests::fresh_database().await;
    let store = Store::connect(&baumeister_tests::database_url(&db), 2, 1)
        .await
        .unwrap();
    let mut ids = Vec::new();
    for name in ["ada", "bea", "cleo", "dora"] {
        ids.push(store.create_account(name, "!not-a-hash").await.unwrap());
    }
    let table = Table {
        rated: false,
        visibility: Visibility::Open,
        undo: true,
    };
    let options = json!({"move_minutes": 1, "clock_bot": "random"});
    let mut games = Vec::new();
    for (first, second) in [(0, 1), (0, 1), (0, 1), (0, 1), (2, 3)] {
        let game = store
            .create_game("mauerbauer", 2, &options, table, ids[first], None)
            .await
            .unwrap();
        store.join(game.id, ids[second], None).await.unwrap();
        games.push(game.id);
        store.advance_clock(60_000 + 1_000);
        assert!(store.apply_deadline(game.id, store.now_ms()).await.unwrap());
    }
    let all = store.bots_to_act(10).await.unwrap();
    assert_eq!(all.len(), 5, "{all:?}");
    for turn in &all {
        assert!(turn.clock_seat.is_some(), "{turn:?}");
        assert_eq!(turn.owner, turn.account_id, "a seat's own player: {turn:?}");
    }
    let mut owners: Vec<i64> = all.iter().map(|t| t.owner).collect();
    owners.sort_unstable();
    owners.dedup();
    let first_round = store.bots_to_act(owners.len() as i64).await.unwrap();
    assert!(
        first_round.iter().any(|t| t.game_id == games[4]),
        "Cleo's and Dora's game is in the first round: {first_round:?}"
    );
    let mut served: Vec<i64> = first_round.iter().map(|t| t.owner).collect();
    served.sort_unstable();
    assert_eq!(served, owners, "one move of each owner: {first_round:?}");
    drop(store);
    baumeister_tests::drop_database(&db).await;
}
