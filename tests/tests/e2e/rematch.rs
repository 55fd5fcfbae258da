//! Rematches: proposed by a player of a finished game, accepted by all (the new game starts with
//! the seats rotated, the same kind, options and rating flag, each game linking to the other),
//! declined, expired, refused to others and before the end; the players are told on their
//! streams.

use std::time::Duration;

use baumeister_tests::random_play::play_to_end;
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::sse::Stream;
use baumeister_tests::steps::assert_refused;
use baumeister_tests::TestServer;

const WAIT: Duration = Duration::from_secs(20);

async fn next_rematch(stream: &mut Stream) -> Value {
    loop {
        let m = stream.next(WAIT).await.expect("a rematch notice");
        if m.event == "rematch" {
            return m.data;
        }
    }
}

#[actix_web::test]
async fn a_rematch_is_proposed_answered_and_started_with_the_seats_rotated() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let (ada, bea, cyd) = (&tokens[0], &tokens[1], &tokens[2]);
    let options = json!({"mage_and_witch": true});
    let r = s
        .post(
            "/v1/games",
            Some(ada),
            &json!({"kind": "carcassonne", "seats": 2, "options": options, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    s.joined(id, bea).await;

    no_rematch_before_the_end(&s, id, ada).await;

    let pair = vec![ada.clone(), bea.clone()];
    let finished = play_to_end(&s, id, &pair, 11).await;
    let stored_options = finished["options"].clone();
    assert!(finished["rematch"].is_null());
    assert_eq!(finished["rematch_open"], false, "nothing proposed yet");
    only_its_players_propose_with_a_valid_seed(&s, id, ada, cyd).await;

    let mut bea_stream = s.stream("/v1/me/stream", Some(bea), None).await;
    assert_eq!(bea_stream.status, 200, "{}", bea_stream.problem);
    a_proposal_is_told_and_declined(&s, id, ada, bea, cyd, &mut bea_stream).await;
    a_proposal_expires_after_a_week(&s, id, ada, bea).await;
    let new_id = accepted_by_all_the_rematch_starts(&s, id, ada, bea, &mut bea_stream).await;
    the_rematch_has_the_seats_rotated_and_links_both_ways(
        &s,
        id,
        new_id,
        &stored_options,
        ada,
        bea,
    )
    .await;
    s.finish().await;
}

/// No rematch is proposed before the end, and none is there to read; a game never made is not
/// found.
async fn no_rematch_before_the_end(s: &TestServer, id: i64, ada: &str) {
    let path = format!("/v1/games/{id}/rematch");
    let r = s.post(&path, Some(ada), &json!({})).await;
    assert_refused(&r, 409, "game_not_finished");
    let r = s.get(&path, None).await;
    assert_refused(&r, 404, "no_rematch");
    let r = s.get("/v1/games/999999/rematch", None).await;
    assert_refused(&r, 404, "game_not_found");
}

/// Only the finished game's players propose a rematch, logged in, with a valid seed.
async fn only_its_players_propose_with_a_valid_seed(s: &TestServer, id: i64, ada: &str, cyd: &str) {
    let path = format!("/v1/games/{id}/rematch");
    let r = s.post(&path, Some(cyd), &json!({})).await;
    assert_refused(&r, 403, "not_seated");
    let r = s.post(&path, None, &json!({})).await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = s
        .post(&path, Some(ada), &json!({"client_seed": "not a seed!"}))
        .await;
    assert_refused(&r, 400, "invalid_client_seed");
}

/// Ada proposes (accepting it herself, the seats swapped); bea is told, the game shows it open,
/// nobody proposes twice or answers twice or from outside; bea declines and is told so.
async fn a_proposal_is_told_and_declined(
    s: &TestServer,
    id: i64,
    ada: &str,
    bea: &str,
    cyd: &str,
    bea_stream: &mut Stream,
) {
    let path = format!("/v1/games/{id}/rematch");
    let r = s.post(&path, Some(ada), &json!({})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["state"], "open");
    assert_eq!(r.body["proposed_by"], "ada");
    assert_eq!(
        r.body["players"],
        json!([
            {"player": "ada", "seat": 0, "new_seat": 1, "answer": "accepted"},
            {"player": "bea", "seat": 1, "new_seat": 0, "answer": null},
        ])
    );
    let told = next_rematch(bea_stream).await;
    assert_eq!(
        (&told["game_id"], &told["state"]),
        (&json!(id), &json!("open"))
    );
    // A page opened now learns of the proposal from the game itself.
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["rematch_open"], true, "{}", game.body);
    let r = s.post(&path, Some(bea), &json!({})).await;
    assert_refused(&r, 409, "rematch_exists");
    let r = s
        .post(&format!("{path}/accept"), Some(ada), &json!({}))
        .await;
    assert_refused(&r, 409, "rematch_already_answered");
    let r = s
        .post(&format!("{path}/accept"), Some(cyd), &json!({}))
        .await;
    assert_refused(&r, 403, "not_seated");
    let r = s
        .post(&format!("{path}/decline"), Some(bea), &json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["state"], "declined");
    assert_eq!(next_rematch(bea_stream).await["state"], "declined");
    let r = s
        .post(&format!("{path}/accept"), Some(bea), &json!({}))
        .await;
    assert_refused(&r, 409, "rematch_not_open");
}

/// A declined proposal may be followed by another, which expires after 7 days unanswered.
async fn a_proposal_expires_after_a_week(s: &TestServer, id: i64, ada: &str, bea: &str) {
    let path = format!("/v1/games/{id}/rematch");
    let r = s.post(&path, Some(bea), &json!({})).await;
    assert_eq!(
        r.status, 201,
        "a declined proposal may be followed by another: {}",
        r.body
    );
    s.store.advance_clock(7 * 24 * 3600 * 1000 + 1000);
    assert_eq!(s.get(&path, None).await.body["state"], "expired");
    let r = s
        .post(&format!("{path}/accept"), Some(ada), &json!({}))
        .await;
    assert_refused(&r, 409, "rematch_not_open");
}

/// An expired proposal may be followed by another; accepted by all (each with a seed), the
/// rematch starts and bea is told its id; the new game's id.
async fn accepted_by_all_the_rematch_starts(
    s: &TestServer,
    id: i64,
    ada: &str,
    bea: &str,
    bea_stream: &mut Stream,
) -> i64 {
    let path = format!("/v1/games/{id}/rematch");
    // Proposed once more, accepted by all: the rematch starts.
    let r = s
        .post(&path, Some(ada), &json!({"client_seed": "ada-seed"}))
        .await;
    assert_eq!(
        r.status, 201,
        "an expired proposal may be followed by another: {}",
        r.body
    );
    let r = s
        .post(
            &format!("{path}/accept"),
            Some(bea),
            &json!({"client_seed": "bea-seed"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["state"], "accepted");
    let new_id = r.body["new_game"].as_i64().expect("the new game");
    loop {
        let told = next_rematch(bea_stream).await;
        if told["state"] == "accepted" {
            assert_eq!(told["new_game"], new_id);
            break;
        }
    }
    new_id
}

/// The rematch is of the same kind, options and rating flag, with the seats (and seeds) rotated
/// by one, set up and playable; each game links to the other, and the old one takes no more
/// proposals or answers.
async fn the_rematch_has_the_seats_rotated_and_links_both_ways(
    s: &TestServer,
    id: i64,
    new_id: i64,
    stored_options: &Value,
    ada: &str,
    bea: &str,
) {
    let path = format!("/v1/games/{id}/rematch");
    let rematch = s.get(&format!("/v1/games/{new_id}"), Some(bea)).await;
    assert_eq!(rematch.status, 200, "{}", rematch.body);
    let game = &rematch.body;
    assert_eq!(game["kind"], "carcassonne");
    assert_eq!(game["status"], "active");
    assert_eq!(&game["options"], stored_options);
    assert_eq!(game["rated"], false);
    assert_eq!(game["rematch_of"], id);
    assert!(game["rematch"].is_null());
    let seated: Vec<&str> = game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"].as_str().unwrap())
        .collect();
    assert_eq!(seated, ["bea", "ada"], "the seats rotated by one");
    assert_eq!(
        game["fairness"]["client_seeds"],
        json!(["bea-seed", "ada-seed"]),
        "each player's seed at their new seat"
    );
    assert!(game["version"].as_i64().unwrap() > 0, "set up");
    let old = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(old.body["rematch"], new_id);
    assert_eq!(
        old.body["rematch_open"], false,
        "answered by all: no longer open"
    );
    assert!(old.body["rematch_of"].is_null());
    // Its players play it: the seat the game waits for has moves.
    let to_act = game["to_act"][0].as_u64().unwrap() as usize;
    let player = [bea, ada][to_act];
    let moves = s.moves(new_id, player).await;
    assert!(!moves.body["moves"].as_array().unwrap().is_empty());
    let r = s.post(&path, Some(bea), &json!({})).await;
    assert_refused(&r, 409, "rematch_exists");
    let r = s
        .post(&format!("{path}/decline"), Some(ada), &json!({}))
        .await;
    assert_refused(&r, 409, "rematch_not_open");
}
