//! State snapshots every K events: replays fold from the nearest one and answer exactly what a
//! fold from event 1 gives; a changed snapshot is never used and the audit names it.

use baumeister_domain::Viewer;
use baumeister_tests::serde_json::json;
use baumeister_tests::{Pick, TestServer};

#[actix_web::test]
async fn replays_through_snapshots_equal_the_fold_from_event_1_and_changed_ones_are_not_used() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.limits.expensive_reads = None;
        c.snapshot_every = 4;
    })
    .await;
    let tokens = s.players(&["gina", "hans"]).await;
    let id = s.game("carcassonne", json!({}), &tokens).await;
    let mut pick = Pick::new(5);
    for _ in 0..25 {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        let moves = s.moves(id, &tokens[seat]).await;
        let moves = moves.body["moves"].as_array().unwrap().clone();
        let chosen = &moves[pick.below(moves.len())];
        s.commanded(id, &tokens[seat], chosen).await;
    }
    let truth = s.truth(id).await;
    let version = truth.events.len() as i64;
    let replay = |at: i64, token: Option<String>| {
        let s = &s;
        async move {
            let r = s
                .get(&format!("/v1/games/{id}/replay?at={at}"), token.as_deref())
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            r.body["view"].clone()
        }
    };
    // Twice over every version: the first pass writes the snapshots, the second folds from them.
    for pass in 0..2 {
        for at in 1..=version {
            let expected = truth.view(at, Viewer::Seat(0));
            assert_eq!(
                replay(at, Some(tokens[0].clone())).await,
                expected,
                "pass {pass}, version {at}"
            );
            let expected = truth.view(at, Viewer::Spectator);
            assert_eq!(
                replay(at, None).await,
                expected,
                "pass {pass}, version {at}"
            );
        }
    }
    let db = s.db().await;
    let stored: i64 = db
        .query_one("SELECT count(*) FROM snapshots WHERE game_id = $1", &[&id])
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, version / 4);
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["snapshots"], stored, "{}", audit.body);
    assert_eq!(audit.body["snapshots_match"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    // The audit started runs from the snapshots (and from event 1).
    assert!(
        audit.body["starting_points"].as_u64().unwrap() > 1,
        "{}",
        audit.body
    );

    // Somebody with write access changes a snapshot (state, or state and hash): replays ignore
    // it (its signature no longer verifies), the audit names it, and the next fold rewrites it.
    let at = 8;
    let early: Vec<u8> = db
        .query_one(
            "SELECT state FROM snapshots WHERE game_id = $1 AND version = 4",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    db.execute(
        "UPDATE snapshots SET state = $2 WHERE game_id = $1 AND version = $3",
        &[&id, &early, &at],
    )
    .await
    .unwrap();
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["snapshots_match"], false, "{}", audit.body);
    assert!(
        audit.body["problems"]
            .to_string()
            .contains("snapshot at version 8"),
        "{}",
        audit.body
    );
    for at in at..at + 4 {
        assert_eq!(
            replay(at, None).await,
            truth.view(at, Viewer::Spectator),
            "version {at}"
        );
    }
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(
        audit.body["snapshots_match"], true,
        "rewritten: {}",
        audit.body
    );
    s.finish().await;
}
