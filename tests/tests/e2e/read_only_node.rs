//! A database node that takes no writes (a primary demoted under the server, or a standby not
//! yet through its promotion: docs/failover.md): reads are served, commands get 503 with
//! `Retry-After` (never a 500), and the pools drop the connections made to it, so that once a
//! node takes writes again (here the same database made writable; in a failover the new
//! primary) commands go through without the server being restarted.

use std::time::{Duration, Instant};

use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{database, Reply, TestServer};

/// A read, sent again while it is answered 503 (a connection that ended under it), at most 5 s.
async fn read(s: &TestServer, path: &str, token: Option<&str>) -> Reply {
    let started = Instant::now();
    loop {
        let r = s.get(path, token).await;
        if r.status != 503 || started.elapsed() > Duration::from_secs(5) {
            assert_eq!(r.status, 200, "reads are served: {}", r.body);
            return r;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The first listed move of the seat the game waits for, sent.
async fn next_move(s: &TestServer, id: i64, tokens: &[String]) -> Reply {
    let board = read(s, &format!("/v1/games/{id}"), None).await;
    let seat = board.body["to_act"][0].as_u64().unwrap() as usize;
    let moves = read(s, &format!("/v1/games/{id}/moves"), Some(&tokens[seat])).await;
    let body: Value = moves.body["moves"][0].clone();
    s.command(id, &tokens[seat], &body).await
}

#[actix_web::test]
async fn commands_to_a_node_that_takes_no_writes_get_503_and_the_pools_leave_its_connections() {
    let (s, tokens, id) = ada_and_bea_playing("burgbaumeister", json!({})).await;
    assert_eq!(next_move(&s, id, &tokens).await.status, 200);
    let admin = database("postgres").await;
    let read_only = |on: bool| {
        format!(
            "ALTER DATABASE \"{}\" SET default_transaction_read_only = {on}",
            s.db
        )
    };
    // Every new session is read-only, and the server's sessions end, as a demotion ends them.
    admin.batch_execute(&read_only(true)).await.unwrap();
    admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            &[&s.db],
        )
        .await
        .unwrap();
    for _ in 0..3 {
        let r = next_move(&s, id, &tokens).await;
        assert_eq!(r.status, 503, "{}", r.body);
        assert_eq!(r.code(), "database_unavailable");
        assert!(r.header("retry-after").is_some());
    }

    // Writable again: the pools' read-only connections are left after their next refusal, and
    // commands go through within moments.
    admin.batch_execute(&read_only(false)).await.unwrap();
    let started = Instant::now();
    loop {
        let r = next_move(&s, id, &tokens).await;
        if r.status == 200 {
            break;
        }
        assert_eq!(r.status, 503, "{}", r.body);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the pools kept their connections to the read-only node"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    s.log_is_whole(id, 2).await;
    s.finish().await;
}
