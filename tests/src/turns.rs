//! Reading whose turn it is, for the tests of the turn clock and what runs on it.

use serde_json::Value;

/// A minute of the store's clock, in milliseconds.
pub const MINUTE: i64 = 60_000;

/// The seats a game's summary (`GET /v1/games/{id}`) says the game waits for.
pub fn to_act(game: &Value) -> Vec<u8> {
    game["to_act"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as u8)
        .collect()
}
