//! One snapshot per response: whatever is committed while a read is under way, the response is
//! exactly what the reader may see at the one version it names (issue 14: a spectator read a
//! Space Builder blueprint through `/events` while the second seat joined and the game started).

use baumeister_domain::Viewer;
use baumeister_storage::pause::READ_HEAD;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Reply, TestServer, Truth};

/// Asserts that a log page (`after`, default limit) equals what `viewer` may see at the version
/// the page names.
fn assert_page_is_one_snapshot(truth: &Truth, page: &Reply, after: i64, viewer: Viewer) {
    assert_eq!(page.status, 200, "{}", page.body);
    let version = page.body["version"].as_i64().unwrap();
    let got: Vec<(i64, Value)> = page.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["version"].as_i64().unwrap(), e["event"].clone()))
        .collect();
    let mut expected = truth.log(version, after, viewer);
    expected.truncate(100);
    assert_eq!(got, expected, "the page at version {version}");
}

/// A 2-seat Space Builder game in `elapsed` timing, created by the first token, not started.
async fn open_space_builder(s: &TestServer, creator: &str) -> i64 {
    let r = s
        .post(
            "/v1/games",
            Some(creator),
            &json!({"kind": "space-builder", "seats": 2, "options": {"timing": "elapsed"}}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[actix_web::test]
async fn a_game_starting_while_a_spectator_reads_the_log_does_not_reveal_the_blueprint() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = open_space_builder(&s, &tokens[0]).await;
    let mut paused = s.store.pause_at(READ_HEAD);
    let read = s.get(&format!("/v1/games/{id}/events"), None);
    let start = async {
        paused.reached().await;
        // The second seat is taken while the read is between its head and its rows.
        let r = s
            .post(
                &format!("/v1/games/{id}/join"),
                Some(&tokens[1]),
                &json!({}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        paused.resume();
    };
    let (page, ()) = tokio::join!(read, start);
    let truth = s.truth(id).await;
    assert!(!truth.events.is_empty(), "the game started");
    assert_page_is_one_snapshot(&truth, &page, 0, Viewer::Spectator);
    for e in page.body["events"].as_array().unwrap() {
        assert!(
            e["event"]["type"] != "BlueprintRevealed" || e["event"]["blueprint"].is_null(),
            "a spectator sees no blueprint while it is being built: {e}"
        );
    }
    s.finish().await;
}
