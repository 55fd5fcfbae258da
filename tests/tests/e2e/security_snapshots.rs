//! One snapshot per response: whatever is committed while a read is under way, the response is
//! exactly what the reader may see at the one version it names (issue 14: a spectator read a
//! Space Builder blueprint through `/events` while the second seat joined and the game started).

use baumeister_domain::Viewer;
use baumeister_storage::pause::READ_HEAD;
use baumeister_tests::given::ada_and_bea_playing;
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
        s.joined(id, &tokens[1]).await;
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

#[actix_web::test]
async fn moves_and_replays_answer_for_the_version_they_started_from() {
    let (s, tokens, id) = ada_and_bea_playing("space-builder", json!({"timing": "elapsed"})).await;
    let started = s.get(&format!("/v1/games/{id}"), None).await.body["version"]
        .as_i64()
        .unwrap();
    let first_move = |moves: &Reply| moves.body["moves"][0]["command"].clone();
    for path in ["moves", "replay"] {
        let moves = s.moves(id, &tokens[1]).await;
        let command = first_move(&moves);
        let mut paused = s.store.pause_at(READ_HEAD);
        let target = match path {
            "moves" => format!("/v1/games/{id}/moves"),
            _ => format!("/v1/games/{id}/replay?at={started}"),
        };
        let read = s.get(&target, Some(&tokens[0]));
        let write = async {
            paused.reached().await;
            s.commanded(id, &tokens[1], &json!({ "command": command }))
                .await;
            paused.resume();
        };
        let (reply, ()) = tokio::join!(read, write);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let truth = s.truth(id).await;
        let version = reply.body["version"].as_i64().unwrap();
        assert!(
            (version as usize) < truth.events.len(),
            "{path}: the command came after the snapshot"
        );
        if path == "moves" {
            let listed: Vec<Value> = reply.body["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    assert_eq!(m["expected_version"], version);
                    m["command"].clone()
                })
                .collect();
            assert_eq!(listed, truth.moves(version, 0));
        } else {
            assert_eq!(reply.body["view"], truth.view(started, Viewer::Seat(0)));
        }
    }
    s.finish().await;
}

/// What a spectator or a seat read, to be checked against the whole log once the game is over.
enum Seen {
    Page(Viewer, Reply),
    Board(Viewer, Reply),
    Past(Viewer, i64, Reply),
}

/// Reads every endpoint as `viewer` until the game is over.
async fn watch(s: &TestServer, id: i64, token: Option<&str>, viewer: Viewer) -> Vec<Seen> {
    let mut seen = Vec::new();
    loop {
        let board = s.get(&format!("/v1/games/{id}"), token).await;
        assert_eq!(board.status, 200, "{}", board.body);
        let version = board.body["version"].as_i64().unwrap();
        let over = board.body["status"] == "finished";
        seen.push(Seen::Board(viewer, board));
        let page = s.get(&format!("/v1/games/{id}/events"), token).await;
        seen.push(Seen::Page(viewer, page));
        if version > 0 {
            let at = version.max(2) - 1;
            let past = s
                .get(&format!("/v1/games/{id}/replay?at={at}"), token)
                .await;
            seen.push(Seen::Past(viewer, at, past));
        }
        if over {
            return seen;
        }
    }
}

#[actix_web::test]
async fn spectators_and_players_racing_every_read_while_rounds_turn_over_see_one_snapshot_each() {
    // The watchers ask for replays as fast as they can: more than an address may.
    let s = TestServer::start_with(|c| c.limits.expensive_reads = None).await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = open_space_builder(&s, &tokens[0]).await;
    let join = async {
        // Let the watchers start before the game does: its start reveals the first blueprint.
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
        s.joined(id, &tokens[1]).await;
        tokio::join!(
            baumeister_tests::space_builder_client(&s, id, &tokens[0], 7),
            baumeister_tests::space_builder_client(&s, id, &tokens[1], 8)
        )
    };
    let (_, a, b, c) = tokio::join!(
        join,
        watch(&s, id, None, Viewer::Spectator),
        watch(&s, id, None, Viewer::Spectator),
        watch(&s, id, Some(&tokens[0]), Viewer::Seat(0)),
    );
    let truth = s.truth(id).await;
    let mut checked = 0;
    for seen in a.iter().chain(&b).chain(&c) {
        match seen {
            Seen::Page(viewer, page) => assert_page_is_one_snapshot(&truth, page, 0, *viewer),
            Seen::Board(viewer, board) => {
                let version = board.body["version"].as_i64().unwrap();
                if version > 0 {
                    assert_eq!(
                        board.body["view"],
                        truth.view(version, *viewer),
                        "v{version}"
                    );
                }
            }
            Seen::Past(viewer, at, past) => {
                assert_eq!(past.status, 200, "{}", past.body);
                let version = past.body["version"].as_i64().unwrap();
                let viewer = truth.viewer_at(version, *viewer);
                assert_eq!(
                    past.body["view"],
                    truth.view(*at, viewer),
                    "at {at} of {version}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 30, "{checked} responses checked");
    s.finish().await;
}
