//! One request per move: `POST /v1/games/{id}/commands` with `Prefer: return=representation`
//! answers with the caller's board and legal moves at the version it wrote, exactly as
//! `GET /v1/games/{id}` and `/moves` show them to that seat at that version; without the
//! preference the answer is what it always was.
//!
//! The players here choose each command from the answer to their own previous command. Their
//! only other reads are those no answer can replace: at the start, and when other seats have
//! moved the game on since a seat's last answer (the answer is the caller's board, so it cannot
//! know what the others will do; a real client learns of it from the stream's `status`). The
//! checks read the board and the moves after every command, but the players never use them.

use baumeister_domain::{GameState, Viewer};
use baumeister_tests::given::two_processes;
use baumeister_tests::serde_json::{self, json, Value};
use baumeister_tests::{Pick, Reply, TestServer};

/// Commands per game at most (most games end before).
const COMMANDS: usize = 300;

/// What a seat knows of the game: its legal moves at a version (the random players here look
/// at nothing else of their board).
struct Known {
    version: i64,
    moves: Vec<Value>,
}

/// `POST …/commands` as `token`, with `Prefer` and `Idempotency-Key` when given.
async fn command(
    s: &TestServer,
    id: i64,
    token: &str,
    body: &Value,
    prefer: Option<&str>,
    key: Option<&str>,
) -> Reply {
    let mut request = s
        .request("POST", &format!("/v1/games/{id}/commands"), Some(token))
        .insert_header(("Content-Type", "application/json"));
    if let Some(prefer) = prefer {
        request = request.insert_header(("Prefer", prefer));
    }
    if let Some(key) = key {
        request = request.insert_header(("Idempotency-Key", key));
    }
    s.send(request, Some(serde_json::to_vec(body).unwrap()))
        .await
}

/// The seat's board and moves as the reads show them (the board, the moves), checked to be of
/// one version.
async fn read(s: &TestServer, id: i64, token: &str) -> (Value, Value) {
    let game = s.get(&format!("/v1/games/{id}"), Some(token)).await;
    assert_eq!(game.status, 200, "{}", game.body);
    let moves = s.moves(id, token).await;
    assert_eq!(moves.status, 200, "{}", moves.body);
    assert_eq!(
        game.body["version"], moves.body["version"],
        "nobody else plays"
    );
    (game.body, moves.body)
}

/// The answer's `board` is what the reads show the caller at its version, and it is the
/// version, seat and head of the command just accepted.
async fn check_board(s: &TestServer, id: i64, token: &str, seat: usize, answer: &Reply) {
    assert_eq!(
        answer.header("Preference-Applied"),
        Some("return=representation")
    );
    let board = &answer.body["board"];
    assert_eq!(board["version"], answer.body["version"], "{board}");
    assert_eq!(board["your_seat"], json!(seat));
    assert_eq!(board["head"], answer.body["head"]);
    let (game, moves) = read(s, id, token).await;
    assert_eq!(game["version"], board["version"]);
    assert_eq!(game["your_seat"], board["your_seat"]);
    assert_eq!(game["view"], board["view"], "the board as GET shows it");
    assert_eq!(game["head"], board["head"]);
    assert_eq!(
        moves["moves"], board["moves"],
        "the moves as /moves lists them"
    );
    assert_eq!(moves["head"], board["head"]);
}

/// Plays a game of `kind` to its end (or [`COMMANDS`]) as described in the module's
/// documentation; then checks every board an answer showed against the rules' own view of the
/// stored log for that seat, and, for a game with `secrets`, that a seat's board hid what only
/// others (or nobody) may see.
async fn play(kind: &str, seats: usize, secrets: bool) {
    let s = TestServer::start().await;
    let names: Vec<String> = (0..seats).map(|n| format!("{kind}-{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tokens = s.players(&names).await;
    let id = s.game(kind, json!({}), &tokens).await;
    // The one read at the start.
    let mut known = Vec::new();
    let mut to_act = Vec::new();
    let mut version = 0;
    for token in &tokens {
        let (game, moves) = read(&s, id, token).await;
        version = game["version"].as_i64().unwrap();
        to_act = game["to_act"].as_array().unwrap().clone();
        known.push(Known {
            version,
            moves: moves["moves"].as_array().unwrap().clone(),
        });
    }
    let mut pick = Pick::new(seats as u64 * 7 + kind.len() as u64);
    let (mut from_answers, mut reads, mut sent) = (0, 0, 0);
    let mut shown = Vec::new();
    for _ in 0..COMMANDS {
        if to_act.is_empty() {
            break;
        }
        let seat = to_act[pick.below(to_act.len())].as_u64().unwrap() as usize;
        let token = &tokens[seat];
        if known[seat].version == version {
            from_answers += 1;
        } else {
            // Others moved since this seat's last answer: its board is old.
            assert!(known[seat].version < version);
            let (game, moves) = read(&s, id, token).await;
            reads += 1;
            known[seat] = Known {
                version: game["version"].as_i64().unwrap(),
                moves: moves["moves"].as_array().unwrap().clone(),
            };
        }
        let moves = &known[seat].moves;
        assert!(
            !moves.is_empty(),
            "seat {seat} is to act at {version} but has no moves"
        );
        let chosen = moves[pick.below(moves.len())].clone();
        let answer = command(&s, id, token, &chosen, Some("return=representation"), None).await;
        assert_eq!(answer.status, 200, "{chosen}: {}", answer.body);
        sent += 1;
        check_board(&s, id, token, seat, &answer).await;
        let board = &answer.body["board"];
        version = answer.body["version"].as_i64().unwrap();
        to_act = answer.body["to_act"].as_array().unwrap().clone();
        known[seat] = Known {
            version,
            moves: board["moves"].as_array().unwrap().clone(),
        };
        shown.push((version, seat as u8, board["view"].clone()));
        if answer.body["finished"] == true {
            assert!(to_act.is_empty());
            assert!(board["moves"].as_array().unwrap().is_empty());
        }
    }
    assert!(
        from_answers > 0,
        "{kind}: no seat ever chose from its own answer"
    );
    println!(
        "{kind}: {sent} commands, {from_answers} chosen from the answer alone, {reads} reads when others had moved"
    );
    // The rules' own view of the stored log, for each seat at each version an answer showed.
    let truth = s.truth(id).await;
    // As JSON carries it (floats included), which is what a client compares.
    let as_sent = |state: &GameState, viewer| -> Value {
        serde_json::from_str(truth.game.view_json(state, viewer).get()).unwrap()
    };
    let mut hidden = 0;
    for (version, seat, view) in &shown {
        let state = truth.state_at(*version);
        let viewer = truth.game.effective_viewer(&state, Viewer::Seat(*seat));
        assert_eq!(
            view,
            &as_sent(&state, viewer),
            "{kind} at {version}: the seat's board"
        );
        if view != &as_sent(&state, Viewer::Everyone) {
            hidden += 1;
        }
    }
    if secrets {
        assert!(
            hidden > 0,
            "{kind}: no board hid anything, so this test proves nothing about secrets"
        );
    }
    s.finish().await;
}

#[actix_web::test]
async fn burgbaumeister_is_played_from_the_answers_to_commands() {
    play("burgbaumeister", 2, true).await;
}

#[actix_web::test]
async fn wettstreit_is_played_from_the_answers_to_commands() {
    play("wettstreit", 3, true).await;
}

#[actix_web::test]
async fn space_builder_is_played_from_the_answers_to_commands() {
    play("space-builder", 2, true).await;
}

#[actix_web::test]
async fn mauerbauer_is_played_from_the_answers_to_commands() {
    play("mauerbauer", 2, true).await;
}

#[actix_web::test]
async fn carcassonne_is_played_from_the_answers_to_commands() {
    // Every tile placed and the one drawn are public: nothing to hide from a seat.
    play("carcassonne", 2, false).await;
}

/// Without `Prefer` (or with another preference) the answer is today's: exactly the six
/// fields of `CommandAccepted`, compact, in the spec's order, and no `Preference-Applied`.
#[actix_web::test]
async fn without_the_preference_the_answer_is_unchanged() {
    let s = TestServer::start().await;
    let tokens = s.players(&["plain-0", "plain-1"]).await;
    let id = s.game("carcassonne", json!({}), &tokens).await;
    for prefer in [None, Some("return=minimal"), Some("respond-async")] {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        let moves = s.moves(id, &tokens[seat]).await;
        let chosen = serde_json::to_vec(&moves.body["moves"][0]).unwrap();
        let mut request = s
            .request(
                "POST",
                &format!("/v1/games/{id}/commands"),
                Some(&tokens[seat]),
            )
            .insert_header(("Content-Type", "application/json"));
        if let Some(prefer) = prefer {
            request = request.insert_header(("Prefer", prefer));
        }
        let mut response = request.send_body(chosen).await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert!(response.headers().get("Preference-Applied").is_none());
        let bytes = response.body().await.unwrap();
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        let keys: Vec<&str> = body
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(
            keys,
            ["events", "finished", "game_id", "head", "to_act", "version"],
            "{prefer:?}"
        );
        assert_eq!(
            bytes.len(),
            serde_json::to_vec(&body).unwrap().len(),
            "compact"
        );
        // Written once from `CommandAccepted`, the fields come in the order the spec lists
        // them (until November 2026 the answer went through a `Value`, which sorted them).
        let text = std::str::from_utf8(&bytes).unwrap();
        let at = |key: &str| text.find(&format!("\"{key}\":")).unwrap();
        let order = ["game_id", "version", "events", "to_act", "finished", "head"];
        assert!(order.windows(2).all(|w| at(w[0]) < at(w[1])), "{text}");
    }
    s.finish().await;
}

/// A repeated `Idempotency-Key` gets the first answer again; with the preference, the board and
/// moves are the game's as it is when the replay is answered, and `board.version` says so.
#[actix_web::test]
async fn a_replay_repeats_the_first_answer_with_the_board_as_it_is_now() {
    let s = TestServer::start().await;
    let tokens = s.players(&["again-0", "again-1"]).await;
    let id = s.game("burgbaumeister", json!({}), &tokens).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
    let moves = s.moves(id, &tokens[seat]).await;
    let chosen = moves.body["moves"][0].clone();
    let prefer = Some("return=representation");
    let first = command(&s, id, &tokens[seat], &chosen, prefer, Some("k-1")).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let accepted = |body: &Value| {
        let mut body = body.clone();
        body.as_object_mut().unwrap().remove("board");
        body
    };
    // At once: the same board, at the same version.
    let again = command(&s, id, &tokens[seat], &chosen, prefer, Some("k-1")).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(accepted(&again.body), accepted(&first.body));
    assert_eq!(again.body["board"], first.body["board"]);
    check_board(&s, id, &tokens[seat], seat, &again).await;
    // Without the preference: the first answer alone.
    let plain = command(&s, id, &tokens[seat], &chosen, None, Some("k-1")).await;
    assert_eq!(plain.header("Idempotent-Replayed"), Some("true"));
    assert!(plain.header("Preference-Applied").is_none());
    assert_eq!(plain.body, accepted(&first.body));
    // Once the game has moved on (two more commands, by whoever is to act): the first answer,
    // with the board and moves as they are now.
    let mut version = 0;
    for _ in 0..2 {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        let next = game.body["to_act"][0].as_u64().unwrap() as usize;
        let moves = s.moves(id, &tokens[next]).await;
        let r = command(&s, id, &tokens[next], &moves.body["moves"][0], None, None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        version = r.body["version"].as_i64().unwrap();
    }
    assert!(version > first.body["version"].as_i64().unwrap());
    let later = command(&s, id, &tokens[seat], &chosen, prefer, Some("k-1")).await;
    assert_eq!(later.status, 200, "{}", later.body);
    assert_eq!(later.header("Idempotent-Replayed"), Some("true"));
    assert_eq!(
        later.header("Preference-Applied"),
        Some("return=representation")
    );
    assert_eq!(
        accepted(&later.body),
        accepted(&first.body),
        "the first answer"
    );
    let board = &later.body["board"];
    assert_eq!(board["version"], json!(version), "the board now");
    let (game, moves) = read(&s, id, &tokens[seat]).await;
    assert_eq!(game["version"], board["version"]);
    assert_eq!(game["view"], board["view"]);
    assert_eq!(game["head"], board["head"]);
    assert_eq!(moves["moves"], board["moves"]);
    s.finish().await;
}

/// A command sent to a process whose copy of the game is behind (another process moved it on)
/// takes the path that reads the head first: its answer's board is the new version's too.
#[actix_web::test]
async fn the_board_is_right_when_another_process_moved_the_game_on() {
    let (a, b, tokens) = two_processes(&["far-0", "far-1"]).await;
    let id = a.game("mauerbauer", json!({}), &tokens).await;
    // Both processes know the game, then take turns: each command finds its process behind.
    let game = b.get(&format!("/v1/games/{id}"), None).await;
    let mut to_act = game.body["to_act"].clone();
    for n in 0..12 {
        let (s, other) = if n % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let seat = to_act[0].as_u64().unwrap() as usize;
        let moves = other.moves(id, &tokens[seat]).await;
        let chosen = &moves.body["moves"][0];
        let answer = command(
            s,
            id,
            &tokens[seat],
            chosen,
            Some("return=representation"),
            None,
        )
        .await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        check_board(s, id, &tokens[seat], seat, &answer).await;
        // The other process (which signs with a key of its own) shows the same board.
        let (game, moves) = read(other, id, &tokens[seat]).await;
        assert_eq!(game["version"], answer.body["board"]["version"]);
        assert_eq!(game["view"], answer.body["board"]["view"]);
        assert_eq!(moves["moves"], answer.body["board"]["moves"]);
        to_act = answer.body["to_act"].clone();
    }
    b.finish().await;
    a.finish().await;
}
