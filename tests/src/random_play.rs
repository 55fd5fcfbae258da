//! Games played to the end by random legal moves, for every kind alike (ratings, rematches).

use serde_json::Value;

use crate::{Pick, Reply, TestServer};

/// One random legal command of a seat the game waits for: `None` once the game has finished,
/// else the seat, the command and the server's answer to it (not checked: the caller judges).
pub async fn random_step(
    s: &TestServer,
    id: i64,
    tokens: &[String],
    pick: &mut Pick,
) -> Option<(usize, Value, Reply)> {
    let game = s.get(&format!("/v1/games/{id}"), Some(&tokens[0])).await;
    assert_eq!(game.status, 200, "{}", game.body);
    if game.body["status"] == "finished" {
        return None;
    }
    let to_act: Vec<usize> = game.body["to_act"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as usize)
        .collect();
    assert!(!to_act.is_empty(), "a running game waits for somebody");
    let seat = to_act[pick.below(to_act.len())];
    let moves = s.moves(id, &tokens[seat]).await;
    assert_eq!(moves.status, 200, "{}", moves.body);
    let moves = moves.body["moves"].as_array().unwrap().clone();
    assert!(!moves.is_empty(), "seat {seat} is to act and has no moves");
    let chosen = moves[pick.below(moves.len())].clone();
    let r = s.command(id, &tokens[seat], &chosen).await;
    Some((seat, chosen, r))
}

/// Plays the game to its end by random legal moves (`tokens` in seat order); returns the
/// finished game's summary.
pub async fn play_to_end(s: &TestServer, id: i64, tokens: &[String], seed: u64) -> Value {
    let mut pick = Pick::new(seed);
    for _ in 0..5000 {
        match random_step(s, id, tokens, &mut pick).await {
            None => return s.get(&format!("/v1/games/{id}"), None).await.body,
            Some((_, chosen, r)) => assert_eq!(r.status, 200, "{chosen} refused: {}", r.body),
        }
    }
    panic!("game {id} did not end");
}
