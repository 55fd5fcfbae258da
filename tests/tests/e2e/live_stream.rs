//! Live streams (issue 11): a subscriber connected to one server process sees every event
//! committed through another, once, in order, as it may see it, one snapshot per message.

use std::time::Duration;

use baumeister_domain::Viewer;
use baumeister_storage::pause::READ_HEAD;
use baumeister_tests::given::two_processes;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::sse::Message;
use baumeister_tests::{space_builder_client, TestServer, Truth};

const WAIT: Duration = Duration::from_secs(20);

/// Plays `commands` commands on `s`: each time the first legal move of a seat it waits for.
/// Returns the game's version afterwards.
async fn play(s: &TestServer, id: i64, tokens: &[String], commands: usize) -> i64 {
    for _ in 0..commands {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] == "finished" {
            break;
        }
        let seat = game.body["to_act"][0].as_u64().expect("someone must act") as usize;
        s.first_move(id, &tokens[seat]).await;
    }
    s.get(&format!("/v1/games/{id}"), None).await.body["version"]
        .as_i64()
        .unwrap()
}

/// Checks a stream's messages against the stored log: the events before each `status` are
/// exactly what `viewer` may see of the versions after the previous status, judged at the
/// status's version (one snapshot per message), every `id` is that event's version, and the
/// versions only grow. Returns the last status's version.
fn check(truth: &Truth, messages: &[Message], viewer: Viewer, mut after: i64) -> i64 {
    let mut group: Vec<(i64, Value)> = Vec::new();
    for m in messages {
        match m.event.as_str() {
            "event" => {
                let version = m.data["version"].as_i64().unwrap();
                assert_eq!(m.id, Some(version), "the id is the event's version");
                assert!(
                    version > after,
                    "{version} after {after}: no duplicate, in order"
                );
                group.push((version, m.data["event"].clone()));
            }
            "status" => {
                let version = m.data["version"].as_i64().unwrap();
                assert_eq!(m.id, Some(version));
                assert_eq!(
                    group,
                    truth.log(version, after, viewer),
                    "the events up to status {version} after {after}"
                );
                let state = truth.state_at(version);
                let status = truth.game.status(&state);
                assert_eq!(m.data["to_act"], json!(status.to_act));
                assert_eq!(m.data["finished"], json!(status.finished));
                // A seat's status carries what `/moves` would answer at that version, so a
                // client following the stream needs no request to learn its moves.
                match viewer {
                    Viewer::Seat(seat) => {
                        let legal = if version == 0 {
                            Vec::new()
                        } else {
                            truth.game.legal_commands(&state, seat)
                        };
                        let moves: Vec<Value> = legal
                            .into_iter()
                            .map(|c| json!({ "command": c, "expected_version": version }))
                            .collect();
                        assert_eq!(m.data["moves"], json!(moves), "moves at {version}");
                    }
                    _ => assert!(m.data.get("moves").is_none(), "no moves for {viewer:?}"),
                }
                group.clear();
                after = version;
            }
            other => panic!("unexpected message {other}: {m:?}"),
        }
    }
    assert!(group.is_empty(), "events after the last status: {group:?}");
    after
}

#[actix_web::test]
async fn a_subscriber_on_one_process_gets_every_event_posted_to_another_once_and_in_order() {
    let (a, b, tokens) = two_processes(&["ada", "bea"]).await;
    let id = a.game("burgbaumeister", json!({}), &tokens).await;
    let mut seat0 = a
        .stream(&format!("/v1/games/{id}/stream"), Some(&tokens[0]), None)
        .await;
    assert_eq!(seat0.status, 200, "{}", seat0.problem);
    assert!(seat0.content_type.starts_with("text/event-stream"));
    // The spectator authenticates as nobody; the other seat by the query parameter.
    let mut spectator = a
        .stream(&format!("/v1/games/{id}/stream"), None, None)
        .await;
    let mut seat1 = a
        .stream(
            &format!("/v1/games/{id}/stream?token={}", tokens[1]),
            None,
            None,
        )
        .await;
    assert_eq!(seat1.status, 200, "{}", seat1.problem);

    let version = play(&b, id, &tokens, 12).await;
    let truth = b.truth(id).await;
    for (stream, viewer) in [
        (&mut seat0, Viewer::Seat(0)),
        (&mut spectator, Viewer::Spectator),
        (&mut seat1, Viewer::Seat(1)),
    ] {
        let messages = stream.until_version(version, WAIT).await;
        assert_eq!(check(&truth, &messages, viewer, 0), version);
        assert!(
            messages.iter().filter(|m| m.event == "status").count() > 1,
            "a status after each command, not one at the end"
        );
    }

    // A subscriber that reconnects (to the other process) with Last-Event-ID misses nothing
    // and gets nothing twice.
    drop(seat0);
    let more = play(&b, id, &tokens, 6).await;
    let mut again = b
        .stream(
            &format!("/v1/games/{id}/stream"),
            Some(&tokens[0]),
            Some(version),
        )
        .await;
    let messages = again.until_version(more, WAIT).await;
    let truth = b.truth(id).await;
    assert_eq!(check(&truth, &messages, Viewer::Seat(0), version), more);
    assert!(messages.iter().any(|m| m.event == "event"));
    // Open streams would hold up a graceful stop.
    drop((again, spectator, seat1));
    b.finish().await;
    a.finish().await;
}

/// Issue 24: after a notice, a process reads a game once for all of its streams (here two per
/// seat and two spectators, on the process that did not take the command), and yet each stream
/// receives exactly its own viewer's events and moves, never bytes made for another viewer.
#[actix_web::test]
async fn the_streams_of_a_game_share_one_read_per_notice_and_each_gets_its_own_view() {
    let (a, b, tokens) = two_processes(&["ada", "bea", "cid"]).await;
    let id = a.game("wettstreit", json!({}), &tokens).await;
    let started = a.get(&format!("/v1/games/{id}"), None).await.body["version"]
        .as_i64()
        .unwrap();
    let mut streams = Vec::new();
    for viewer in [
        Viewer::Seat(0),
        Viewer::Spectator,
        Viewer::Seat(1),
        Viewer::Seat(0),
        Viewer::Spectator,
        Viewer::Seat(1),
    ] {
        let token = match viewer {
            Viewer::Seat(seat) => Some(tokens[seat as usize].as_str()),
            _ => None,
        };
        let mut stream = a
            .stream(&format!("/v1/games/{id}/stream"), token, None)
            .await;
        assert_eq!(stream.status, 200, "{}", stream.problem);
        let seen = stream.until_version(started, WAIT).await;
        streams.push((viewer, stream, seen));
    }

    // The first stream to wake stops in its read, right after the head: the others wait for
    // that read instead of reading on their own, so nothing arrives anywhere meanwhile.
    let mut paused = a.store.pause_at(READ_HEAD);
    let first = play(&b, id, &tokens, 1).await;
    paused.reached().await;
    for (viewer, stream, _) in &mut streams {
        let early = stream.next(Duration::from_millis(300)).await;
        assert!(
            early.is_none(),
            "{viewer:?} read on its own while the shared read waited: {early:?}"
        );
    }
    paused.resume();
    for (_, stream, seen) in &mut streams {
        seen.extend(stream.until_version(first, WAIT).await);
    }

    let version = play(&b, id, &tokens, 12).await;
    let truth = b.truth(id).await;
    assert_ne!(
        truth.log(version, 0, Viewer::Seat(0)),
        truth.log(version, 0, Viewer::Seat(1)),
        "the seats see different logs (else this test would prove nothing)"
    );
    let mut events_of = std::collections::HashMap::new();
    for (viewer, stream, seen) in &mut streams {
        seen.extend(stream.until_version(version, WAIT).await);
        assert_eq!(check(&truth, seen, *viewer, 0), version, "{viewer:?}");
        let events: Vec<Value> = seen
            .iter()
            .filter(|m| m.event == "event")
            .map(|m| m.data.clone())
            .collect();
        // Both streams of a viewer got the same events (the statuses may group them apart).
        let same = events_of.entry(*viewer).or_insert_with(|| events.clone());
        assert_eq!(*same, events, "{viewer:?}");
    }
    assert_ne!(
        events_of[&Viewer::Seat(0)],
        events_of[&Viewer::Seat(1)],
        "each seat got its own view"
    );
    drop(streams);
    b.finish().await;
    a.finish().await;
}

/// A stream that shares its reads with others is still judged on its own: once its caller may
/// no longer watch a private game (it declined its invitation), the next change ends its
/// stream with `game_not_found`, while the stream that shared the read goes on.
#[actix_web::test]
async fn a_stream_whose_caller_loses_access_to_a_private_game_ends_and_the_others_go_on() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let id = s
        .create_game(
            &tokens[0],
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    let mut invitations = Vec::new();
    for name in ["bea", "cyd"] {
        let r = s
            .post(
                &format!("/v1/games/{id}/invitations"),
                Some(&tokens[0]),
                &json!({ "player": name }),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        invitations.push(r.body["invitation"]["id"].as_i64().unwrap());
    }
    // Both invited may watch; each stream sends its first status.
    let mut streams = Vec::new();
    for token in &tokens[1..] {
        let mut stream = s
            .stream(&format!("/v1/games/{id}/stream"), Some(token), None)
            .await;
        assert_eq!(stream.status, 200, "{}", stream.problem);
        stream.until_version(0, WAIT).await;
        streams.push(stream);
    }
    let r = s
        .post(
            &format!("/v1/me/invitations/{}/decline", invitations[0]),
            Some(&tokens[1]),
            &json!({}),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    // cyd takes the last seat and the game starts: a change, read once for both streams.
    let r = s
        .post(
            &format!("/v1/me/invitations/{}/accept", invitations[1]),
            Some(&tokens[2]),
            &json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let [bea, cyd] = &mut streams[..] else {
        unreachable!()
    };
    let m = bea.next_any(WAIT).await.expect("a message");
    assert_eq!(
        (m.event.as_str(), m.data["code"].as_str()),
        ("error", Some("game_not_found")),
        "{m:?}"
    );
    assert!(bea.next_any(WAIT).await.is_none(), "the stream ended");
    let m = cyd.next_any(WAIT).await.expect("a message");
    assert_eq!(m.event, "event", "{m:?}");
    let m = cyd.until_version(1, WAIT).await.pop().unwrap();
    assert!(m.data["moves"].is_array(), "cyd is seated now: {m:?}");
    drop(streams);
    s.finish().await;
}

#[actix_web::test]
async fn a_spectator_streaming_a_space_builder_game_from_before_it_starts_never_sees_a_blueprint() {
    let (a, b, tokens) = two_processes(&["ada", "bea"]).await;
    let id = a
        .create_game(
            &tokens[0],
            &json!({"kind": "space-builder", "seats": 2, "options": {"timing": "elapsed"}}),
        )
        .await;
    let mut spectator = a
        .stream(&format!("/v1/games/{id}/stream"), None, None)
        .await;
    let mut seat0 = a
        .stream(&format!("/v1/games/{id}/stream"), Some(&tokens[0]), None)
        .await;
    let first = spectator.next(WAIT).await.unwrap();
    assert_eq!(
        (first.event.as_str(), &first.data),
        (
            "status",
            &json!({"version": 0, "to_act": [], "finished": false})
        )
    );
    // The game starts and is played through the other process.
    b.joined(id, &tokens[1]).await;
    let (_, _) = tokio::join!(
        space_builder_client(&b, id, &tokens[0], 1),
        space_builder_client(&b, id, &tokens[1], 2)
    );
    let truth = b.truth(id).await;
    let version = truth.events.len() as i64;
    let messages = spectator.until_version(version, WAIT).await;
    check(&truth, &messages, Viewer::Spectator, 0);
    // The spectator followed the game while it was played: the blueprints of the rounds came
    // hidden (`check` proved each is what the rules show at the version that judged it).
    let hidden_while_built = messages
        .iter()
        .filter(|m| m.event == "event" && m.data["event"]["type"] == "BlueprintRevealed")
        .filter(|m| m.data["event"]["blueprint"].is_null())
        .count();
    assert!(
        hidden_while_built > 0,
        "blueprints were hidden from the spectator"
    );
    let seat_messages = seat0.until_version(version, WAIT).await;
    check(&truth, &seat_messages, Viewer::Seat(0), 0);
    drop((spectator, seat0));
    b.finish().await;
    a.finish().await;
}

#[actix_web::test]
async fn streams_refuse_bad_input_and_keep_quiet_connections_alive() {
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.live.keepalive = Duration::from_secs(1);
    })
    .await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let r = s.stream("/v1/games/999999/stream", None, None).await;
    assert_eq!(
        (r.status, r.problem["code"].as_str()),
        (404, Some("game_not_found"))
    );
    let r = s
        .stream(&format!("/v1/games/{id}/stream?token=forged"), None, None)
        .await;
    assert_eq!(
        (r.status, r.problem["code"].as_str()),
        (401, Some("invalid_token"))
    );
    let mut request = s.request("GET", &format!("/v1/games/{id}/stream"), None);
    request = request.insert_header(("Last-Event-ID", "seven"));
    let r = baumeister_tests::sse::Stream::open(request).await;
    assert_eq!(
        (r.status, r.problem["code"].as_str()),
        (400, Some("invalid_last_event_id"))
    );
    let r = s.stream("/v1/me/stream", None, None).await;
    assert_eq!(
        (r.status, r.problem["code"].as_str()),
        (401, Some("token_missing"))
    );

    let mut stream = s
        .stream(&format!("/v1/games/{id}/stream"), Some(&tokens[0]), None)
        .await;
    let mut seen_status = false;
    let mut keepalive = false;
    while let Some(m) = stream.next_any(Duration::from_secs(5)).await {
        if m.comment.as_deref() == Some("keep-alive") {
            keepalive = true;
            break;
        }
        seen_status |= m.event == "status";
    }
    assert!(
        seen_status && keepalive,
        "a status, then a keep-alive comment"
    );

    // Logging out everywhere ends the stream.
    let r = s
        .send(s.request("DELETE", "/v1/tokens", Some(&tokens[0])), None)
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let mut ended = false;
    while let Some(m) = stream.next_any(Duration::from_secs(5)).await {
        if m.event == "error" {
            assert_eq!(m.data["code"], "token_revoked");
            ended = stream.next_any(Duration::from_secs(5)).await.is_none();
            break;
        }
    }
    assert!(
        ended,
        "the stream ends with an error when its token is revoked"
    );
    drop(stream);
    s.finish().await;
}

/// A process announces its appends to the others right after the commit, under its own tag (and
/// sends nothing while no other process listens), and one that starts tells the others to read
/// everything again (what it announced before it last stopped may never have been sent): all
/// on the channel, as another process hears them.
#[actix_web::test]
async fn a_process_announces_its_appends_to_the_others_under_its_tag_and_asks_them_to_resync_when_it_starts(
) {
    let a = TestServer::start().await;
    let mut notices = a.live_notices().await;

    // Alone, a process tells nobody: its own subscribers are woken in memory.
    let tokens = a.players(&["ada", "bea"]).await;
    let id = a.game("burgbaumeister", json!({}), &tokens).await;
    let alone = play(&a, id, &tokens, 1).await;
    let quiet = tokio::time::timeout(
        Duration::from_millis(500),
        notices.next(|n| n.contains('/'), WAIT),
    )
    .await;
    assert!(
        quiet.is_err(),
        "a process alone sent {quiet:?} for version {alone}"
    );

    let b = a.another(|c| c.limits.commands = None).await;
    let resync = notices.next(|n| n.ends_with("/resync"), WAIT).await;
    let b_tag = resync.split_once('/').unwrap().0.to_string();
    assert_eq!(b_tag.len(), 16, "a random tag of 8 bytes: {resync}");

    let version = play(&b, id, &tokens, 1).await;
    let announced = notices
        .next(|n| n.contains(&format!("/{id}:{version}:")), WAIT)
        .await;
    assert_eq!(
        announced.split_once('/').unwrap().0,
        b_tag,
        "announced by the process that committed it: {announced}"
    );
    a.finish().await;
}
