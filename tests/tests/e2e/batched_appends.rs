//! Group commit: players' commands to different games, arriving together, are appended in one
//! statement (`storage/src/command/batch.rs`). Each game's log must be exactly what its answers said,
//! as if every command had been appended alone, and one game's failing append must not take
//! the others of its batch with it.

use std::time::Duration;

use baumeister_tests::serde_json::json;
use baumeister_tests::{all_at_once, Pick, Reply, TestServer};

/// Plays up to `commands` random commands of game `id` (a seat it waits for, no key): every
/// answer, with the seat that sent it.
async fn play(
    s: &TestServer,
    id: i64,
    tokens: &[String],
    commands: usize,
    seed: u64,
) -> Vec<(u8, Reply)> {
    let mut pick = Pick::new(seed);
    let mut answers = Vec::new();
    for _ in 0..commands {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        assert_eq!(game.status, 200, "{}", game.body);
        let Some(seat) = game.body["to_act"][0].as_u64() else {
            break;
        };
        let Some(r) = s.random_move(id, &tokens[seat as usize], &mut pick).await else {
            break;
        };
        answers.push((seat as u8, r));
    }
    answers
}

/// The transactions that wrote players' commands of more than one game: batches.
async fn batches(s: &TestServer) -> i64 {
    s.db()
        .await
        .query_one(
            "SELECT count(*) FROM (SELECT xmin::text FROM commands WHERE seat IS NOT NULL
                                   GROUP BY 1 HAVING count(DISTINCT game_id) > 1) b",
            &[],
        )
        .await
        .unwrap()
        .get(0)
}

/// Every answer's events are the log's at its versions as its seat sees them, the versions run
/// 1, 2, … with none missing, one stored command per 200, and the audit decides every stored
/// command again to the same events.
async fn log_is_what_was_answered(s: &TestServer, id: i64, answers: &[(u8, Reply)]) {
    let truth = s.truth(id).await;
    for (seat, r) in answers {
        assert_eq!(r.status, 200, "{}", r.body);
        truth.holds_answer(&r.body, *seat);
    }
    s.log_is_whole(id, answers.len()).await;
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
}

/// Plays `count` Burgbaumeister games of two seats at once, up to `commands` commands each (at
/// least `least` each), and holds every game's log to its answers.
async fn play_games_at_once(s: &TestServer, count: usize, commands: usize, least: usize) {
    let tokens = s.players(&["ada", "bea"]).await;
    let mut games = Vec::new();
    for _ in 0..count {
        games.push(s.game("burgbaumeister", json!({}), &tokens).await);
    }
    let answers = all_at_once(
        games
            .iter()
            .enumerate()
            .map(|(i, &id)| play(s, id, &tokens, commands, i as u64)),
    )
    .await;
    for (id, answers) in games.iter().zip(&answers) {
        assert!(answers.len() >= least, "game {id}: {}", answers.len());
        log_is_what_was_answered(s, *id, answers).await;
    }
}

#[actix_web::test]
async fn games_played_at_once_are_appended_together_and_each_log_is_whole() {
    let s = TestServer::start_with(|c| c.limits.commands = None).await;
    play_games_at_once(&s, 12, 40, 11).await;
    assert!(batches(&s).await > 0, "some commands went together");
    s.finish().await;
}

#[actix_web::test]
async fn with_batches_off_every_append_is_alone() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.append_batches = false;
    })
    .await;
    play_games_at_once(&s, 6, 20, 0).await;
    assert_eq!(batches(&s).await, 0);
    s.finish().await;
}

#[actix_web::test]
async fn a_failing_append_fails_alone_and_its_batch_lands() {
    let s = TestServer::start_with(|c| c.limits.commands = None).await;
    let tokens = s.players(&["ada", "bea"]).await;
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(s.game("burgbaumeister", json!({}), &tokens).await);
    }
    // From now on the database refuses every new event of the first game (a fault only an
    // operator could cause): its commands fail, and nothing of them is written.
    let doomed = games[0];
    s.db()
        .await
        .batch_execute(&format!(
            "CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
             CREATE TRIGGER refuse_doomed BEFORE INSERT ON events FOR EACH ROW
             WHEN (NEW.game_id = {doomed}) EXECUTE FUNCTION refuse_doomed();"
        ))
        .await
        .unwrap();
    let doomed_before = s.truth(doomed).await.events.len();
    let tries = |id: i64, seed: u64| {
        let s = &s;
        let tokens = &tokens;
        async move {
            if id == doomed {
                // Its seat sends again and again while the others play.
                let mut failed = 0;
                let mut pick = Pick::new(seed);
                for _ in 0..30 {
                    let game = s.get(&format!("/v1/games/{id}"), None).await;
                    let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
                    let r = s.random_move(id, &tokens[seat], &mut pick).await.unwrap();
                    assert!(r.status >= 500, "{}", r.body);
                    failed += 1;
                    actix_web::rt::time::sleep(Duration::from_millis(1)).await;
                }
                assert_eq!(failed, 30);
                Vec::new()
            } else {
                play(s, id, tokens, 30, seed).await
            }
        }
    };
    let answers = all_at_once(games.iter().enumerate().map(|(i, &id)| tries(id, i as u64))).await;
    for (id, answers) in games.iter().zip(&answers).skip(1) {
        assert!(answers.len() > 10, "game {id}: {}", answers.len());
        log_is_what_was_answered(&s, *id, answers).await;
    }
    assert_eq!(
        s.truth(doomed).await.events.len(),
        doomed_before,
        "nothing of the refused appends"
    );
    s.finish().await;
}
