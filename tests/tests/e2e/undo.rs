//! Undo end to end: a player takes back their last command while it revealed nothing, the
//! take-back is recorded in the chain (the undone events stay in the log, marked), and views,
//! replays, the log, `/audit`, an export verified offline and its import elsewhere all agree.
//! Every refusal has its code.

use baumeister_domain::fairness::{derive_key, from_hex, to_hex};
use baumeister_storage::{verify_export, Chain, Export, ExportCommand, ExportEvent, GENESIS};
use baumeister_tests::serde_json::{self, json, Value};
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{Pick, TestServer};

/// A game that always ends under random legal moves (its tiles run out).
const KIND: &str = "carcassonne";

async fn new_game(s: &TestServer, tokens: &[String], table: Value) -> i64 {
    let mut body = json!({"kind": KIND, "seats": 2});
    for (k, v) in table.as_object().unwrap() {
        body[k] = v.clone();
    }
    let r = s.post("/v1/games", Some(&tokens[0]), &body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    s.joined(id, &tokens[1]).await;
    id
}

async fn undo(s: &TestServer, id: i64, token: &str) -> baumeister_tests::Reply {
    s.send(
        s.request("POST", &format!("/v1/games/{id}/undo"), Some(token)),
        None,
    )
    .await
}

async fn seat_to_act(s: &TestServer, id: i64) -> Option<usize> {
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    if game.body["status"] == "finished" {
        return None;
    }
    Some(game.body["to_act"][0].as_u64().unwrap() as usize)
}

async fn view(s: &TestServer, id: i64, token: Option<&str>) -> Value {
    let game = s.get(&format!("/v1/games/{id}"), token).await;
    assert_eq!(game.status, 200, "{}", game.body);
    game.body["view"].clone()
}

/// An entry of the log without its mark.
fn unmarked(entry: &Value) -> Value {
    let mut entry = entry.clone();
    entry.as_object_mut().unwrap().remove("taken_back");
    entry
}

/// Where random play found an undoable command, and one that revealed something.
struct Found {
    seat: usize,
    /// The version before the undoable command, and the boards then.
    before: i64,
    before_seat_view: Value,
    before_public_view: Value,
    /// The version after it, and the public board then.
    after: i64,
    after_public_view: Value,
    /// The last versions of commands whose take-back was refused with `undo_reveals`.
    revealing: Vec<(usize, i64)>,
}

/// Plays random moves until the mover may take its command back; each command before that
/// which may not is refused with `undo_reveals` (it is the mover's own last command).
async fn play_until_undoable(s: &TestServer, id: i64, tokens: &[String], pick: &mut Pick) -> Found {
    let mut revealing = Vec::new();
    for _ in 0..300 {
        let seat = seat_to_act(s, id).await.expect("the game ends first");
        let token = &tokens[seat];
        let before = s.get(&format!("/v1/games/{id}"), Some(token)).await;
        let before_public_view = view(s, id, None).await;
        let r = s.random_move(id, token, pick).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let after = r.body["version"].as_i64().unwrap();
        let moves = s.moves(id, token).await;
        if moves.body["can_undo"] == true {
            return Found {
                seat,
                before: before.body["version"].as_i64().unwrap(),
                before_seat_view: before.body["view"].clone(),
                before_public_view,
                after,
                after_public_view: view(s, id, None).await,
                revealing,
            };
        }
        let refused = undo(s, id, token).await;
        assert_refused(&refused, 422, "undo_reveals");
        revealing.push((seat, after));
    }
    panic!("no undoable command in 300 moves");
}

/// Plays random moves until the game ends; returns the seat and last version of each command
/// that may not be taken back right after it was made (it revealed something).
async fn play_to_the_end(
    s: &TestServer,
    id: i64,
    tokens: &[String],
    pick: &mut Pick,
) -> Vec<(usize, i64)> {
    let mut revealing = Vec::new();
    for _ in 0..2000 {
        let Some(seat) = seat_to_act(s, id).await else {
            return revealing;
        };
        let r = s.random_move(id, &tokens[seat], pick).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let moves = s.moves(id, &tokens[seat]).await;
        if moves.body["can_undo"] == false {
            revealing.push((seat, r.body["version"].as_i64().unwrap()));
        }
    }
    panic!("the game did not end");
}

#[actix_web::test]
async fn a_command_is_taken_back_recorded_and_everything_agrees() {
    let s = TestServer::start().await;
    let tokens = s.players(&["anna", "bert"]).await;
    let id = new_game(&s, &tokens, json!({})).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["undo"], true, "on by default: {}", game.body);
    let mut pick = Pick::new(7);
    let found = play_until_undoable(&s, id, &tokens, &mut pick).await;
    let me = &tokens[found.seat];
    let other = &tokens[1 - found.seat];
    let public_log_before = s.events(id, None).await;

    neither_the_other_seat_nor_a_stale_version_takes_it_back(&s, id, &found, me, other).await;
    let undone_at = it_is_taken_back_and_the_boards_are_as_before(&s, id, &found, me).await;
    the_log_keeps_the_undone_events_marked_and_replays_show_them(
        &s,
        id,
        &found,
        &public_log_before,
        undone_at,
    )
    .await;

    // Another move is played instead; the audit agrees with all of it.
    let r = s.random_move(id, me, &mut pick).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let auditor = s.auditor("vera").await;
    let audit = s
        .get(&format!("/v1/games/{id}/audit"), Some(&auditor))
        .await;
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);

    // Played to the end: the export holds the take-back and verifies offline.
    let mut revealing = found.revealing.clone();
    revealing.extend(play_to_the_end(&s, id, &tokens, &mut pick).await);
    let r = s.get(&format!("/v1/games/{id}/export"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let exported: Export = serde_json::from_value(r.body).unwrap();
    let take_back = exported
        .commands
        .iter()
        .find(|c| c.body["type"] == "TakeBack")
        .expect("the take-back is exported");
    assert_eq!(take_back.position, found.after);
    assert_eq!(take_back.seat, Some(found.seat as u8));
    verify_export(&exported).unwrap();

    a_server_trusting_this_one_imports_and_audits_it(&s, &exported).await;
    a_forged_take_back_of_a_revealing_command_fails_the_verify(&exported, &revealing);
    s.finish().await;
}

/// The other seat cannot take back somebody else's command; a pinned version that is not the
/// game's is a conflict.
async fn neither_the_other_seat_nor_a_stale_version_takes_it_back(
    s: &TestServer,
    id: i64,
    found: &Found,
    me: &str,
    other: &str,
) {
    let r = undo(s, id, other).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        ["others_acted", "nothing_to_undo"].contains(&r.code()),
        "{}",
        r.body
    );
    // A pinned version that is not the game's: 409, as for commands.
    let r = s
        .post(
            &format!("/v1/games/{id}/undo"),
            Some(me),
            &json!({"expected_version": found.after - 1}),
        )
        .await;
    assert_refused(&r, 409, "version_conflict");
}

/// The mover takes the command back, answered like a command, and the boards are as before it,
/// one step at a time; the version of the take-back.
async fn it_is_taken_back_and_the_boards_are_as_before(
    s: &TestServer,
    id: i64,
    found: &Found,
    me: &str,
) -> i64 {
    // Taken back, answered like a command (with the board, when asked).
    let r = s
        .send(
            s.request("POST", &format!("/v1/games/{id}/undo"), Some(me))
                .insert_header(("Content-Type", "application/json"))
                .insert_header(("Prefer", "return=representation")),
            Some(serde_json::to_vec(&json!({"expected_version": found.after})).unwrap()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let undone_at = found.after + 1;
    assert_eq!(r.body["version"], undone_at);
    assert_eq!(
        r.body["events"][0]["event"],
        json!({"type": "CommandTakenBack", "seat": found.seat,
               "from_version": found.before + 1, "to_version": found.after})
    );
    assert_eq!(r.body["board"]["view"], found.before_seat_view);
    // The boards are as they were before the command, for the player and for spectators.
    assert_eq!(view(s, id, Some(me)).await, found.before_seat_view);
    assert_eq!(view(s, id, None).await, found.before_public_view);
    // One step at a time.
    let moves = s.moves(id, me).await;
    assert_eq!(moves.body["can_undo"], false);
    let r = undo(s, id, me).await;
    assert_refused(&r, 422, "nothing_to_undo");

    undone_at
}

/// The log keeps the undone events, marked, and adds the take-back; replays show each version
/// as it was.
async fn the_log_keeps_the_undone_events_marked_and_replays_show_them(
    s: &TestServer,
    id: i64,
    found: &Found,
    public_log_before: &[Value],
    undone_at: i64,
) {
    // What a spectator saw before is unchanged but for the mark (the undone events were
    // public anyway).
    let public_log = s.events(id, None).await;
    assert_eq!(public_log.len(), public_log_before.len() + 1);
    for (now, then) in public_log.iter().zip(public_log_before) {
        assert_eq!(unmarked(now), unmarked(then));
        let version = now["version"].as_i64().unwrap();
        let inside = version > found.before && version <= found.after;
        assert_eq!(now["taken_back"] == true, inside, "{now}");
    }
    assert_eq!(
        public_log.last().unwrap()["event"]["type"],
        "CommandTakenBack"
    );
    // Replays show what was then: inside the range the command's board, after it the old one.
    let replay = |at: i64| s.get(&format!("/v1/games/{id}/replay?at={at}"), None);
    assert_eq!(
        replay(found.after).await.body["view"],
        found.after_public_view
    );
    assert_eq!(
        replay(undone_at).await.body["view"],
        found.before_public_view
    );
}

/// Imported into a server that trusts this one, the game passes its audit there too.
async fn a_server_trusting_this_one_imports_and_audits_it(s: &TestServer, exported: &Export) {
    let keys = s.get("/v1/keys", None).await;
    let key = keys.body["keys"][0]["key"].as_str().unwrap().to_string();
    let b = TestServer::start_with(|c| c.trusted_keys = vec![key]).await;
    let r = b.import_as_auditor("olga", exported).await;
    let imported = r.body["id"].as_i64().unwrap();
    let audit = b.get(&format!("/v1/games/{imported}/audit"), None).await;
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    b.finish().await;
}

/// A take-back of a command that revealed something, written into the history with its seed
/// and chain made right, is refused by the offline verify.
fn a_forged_take_back_of_a_revealing_command_fails_the_verify(
    exported: &Export,
    revealing: &[(usize, i64)],
) {
    let (seat, end) = *revealing.first().expect("some command revealed");
    let mut forged = exported.clone();
    let cut = forged
        .commands
        .iter()
        .position(|c| c.position >= end)
        .unwrap();
    forged.commands.truncate(cut);
    let secret = from_hex(&forged.secret).unwrap();
    let seeds: Vec<String> = forged.seats.iter().map(|s| s.client_seed.clone()).collect();
    let payload = json!({"type": "CommandTakenBack", "seat": seat,
                         "from_version": forged.commands[cut - 1].position + 1, "to_version": end});
    forged.commands.push(ExportCommand {
        position: end,
        seat: Some(seat as u8),
        body: json!({"type": "TakeBack"}),
        now_ms: forged.commands[cut - 1].now_ms,
        seed: to_hex(&derive_key(&secret, &seeds, end)),
        bot_level: None,
        events: vec![ExportEvent {
            version: end + 1,
            hash: String::new(),
            payload,
        }],
    });
    let chain = Chain::salted(
        baumeister_storage::trust::uid_bytes(&forged.game),
        secret.clone(),
    );
    let mut previous = GENESIS.to_vec();
    for command in &mut forged.commands {
        for event in &mut command.events {
            let kind = event.payload["type"].as_str().unwrap().to_string();
            previous = chain.event_hash(&previous, event.version, &kind, &event.payload);
            event.hash = to_hex(&previous);
        }
    }
    forged.head.version = end + 1;
    forged.head.hash = to_hex(&previous);
    let d = verify_export(&forged).unwrap_err();
    assert_eq!(d.part, "decision", "{d}");
    assert!(d.message.contains("undo_reveals"), "{d}");
}

#[actix_web::test]
async fn refusals_say_why() {
    let s = TestServer::start().await;
    let tokens = s.players(&["carl", "dora", "emil"]).await;

    // Before the game starts.
    let open = s.open_game(&tokens[0], KIND, 2).await;
    let r = undo(&s, open, &tokens[0]).await;
    assert_refused(&r, 409, "game_not_started");

    let id = new_game(&s, &tokens[..2], json!({})).await;
    // Nothing of the caller's yet.
    let r = undo(&s, id, &tokens[0]).await;
    assert_refused(&r, 422, "nothing_to_undo");
    // Not at the table.
    let r = undo(&s, id, &tokens[2]).await;
    assert_refused(&r, 403, "not_seated");
    let moves = s.get(&format!("/v1/games/{id}/moves"), None).await;
    assert_eq!(moves.body["can_undo"], false);

    // Turned off for a game: never allowed, and the summary says so.
    let off = new_game(&s, &tokens[..2], json!({"undo": false})).await;
    let game = s.get(&format!("/v1/games/{off}"), None).await;
    assert_eq!(game.body["undo"], false, "{}", game.body);
    let mut pick = Pick::new(3);
    let seat = seat_to_act(&s, off).await.unwrap();
    let r = s.random_move(off, &tokens[seat], &mut pick).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let moves = s.moves(off, &tokens[seat]).await;
    assert_eq!(moves.body["can_undo"], false);
    let r = undo(&s, off, &tokens[seat]).await;
    assert_refused(&r, 422, "undo_off");
    // Its commands are not judged for what they revealed once the server has read that the
    // game allows no take-back (every append tells it, the set-up's first): `reveals` stays
    // NULL.
    for _ in 0..4 {
        let seat = seat_to_act(&s, off).await.unwrap();
        let r = s.random_move(off, &tokens[seat], &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let judged: Vec<Option<bool>> = s
        .db()
        .await
        .query(
            "SELECT reveals FROM commands
             WHERE game_id = $1 AND seat IS NOT NULL AND body->>'type' <> 'Setup' ORDER BY id",
            &[&off],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(judged.len(), 5, "{judged:?}");
    assert!(judged.iter().all(Option::is_none), "{judged:?}");

    // Somebody else acted after the caller's command: the caller plays on until the turn
    // passes, the other seat moves, and the caller's last command is no longer the last.
    let found = play_until_undoable(&s, id, &tokens[..2], &mut pick).await;
    let other = 1 - found.seat;
    while seat_to_act(&s, id).await == Some(found.seat) {
        let r = s
            .random_move(id, &tokens[found.seat], &mut pick)
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = s.random_move(id, &tokens[other], &mut pick).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let r = undo(&s, id, &tokens[found.seat]).await;
    assert_refused(&r, 422, "others_acted");
    s.finish().await;
}

/// `/moves`' `can_undo` read from a process's memory of the last command it appended agrees,
/// at every step, with one read from the log: the same game followed through a second process
/// that appends nothing (so it always reads the last command from the database), for both
/// seats, through commands that reveal and that do not, take-backs (which the first process
/// does not remember: it reads the log after them) and the end.
#[actix_web::test]
async fn can_undo_from_memory_agrees_with_the_log() {
    let s = TestServer::start().await;
    let other = s.another(|_| {}).await;
    let tokens = s.players(&["fritz", "greta"]).await;
    let id = new_game(&s, &tokens[..2], json!({})).await;
    let mut pick = Pick::new(11);
    let (mut undoable, mut taken_back) = (0, 0);
    for step in 0..400 {
        let Some(seat) = seat_to_act(&s, id).await else {
            break;
        };
        let r = s.random_move(id, &tokens[seat], &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
        let mut agreed = None;
        for token in &tokens[..2] {
            let path = format!("/v1/games/{id}/moves");
            let (mine, theirs) = (
                s.get(&path, Some(token)).await,
                other.get(&path, Some(token)).await,
            );
            assert_eq!(mine.body["version"], theirs.body["version"], "step {step}");
            assert_eq!(
                mine.body["can_undo"], theirs.body["can_undo"],
                "step {step}"
            );
            if token == &tokens[seat] {
                agreed = mine.body["can_undo"].as_bool();
            } else {
                assert_eq!(mine.body["can_undo"], false, "not the other seat's command");
            }
        }
        if agreed == Some(true) {
            undoable += 1;
            if step % 3 == 0 {
                let r = undo(&s, id, &tokens[seat]).await;
                assert_eq!(r.status, 200, "{}", r.body);
                taken_back += 1;
                for token in &tokens[..2] {
                    let moves = s.moves(id, token).await;
                    assert_eq!(moves.body["can_undo"], false, "after a take-back");
                }
            }
        }
    }
    assert!(undoable > 5 && taken_back > 1, "{undoable} {taken_back}");
    s.finish().await;
}
