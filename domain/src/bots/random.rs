//! The random level: any legal command, all equally likely.

use serde_json::Value;

use super::input::BotInput;
use crate::rng::GameRng;

/// One of the seat's legal commands, uniformly (the caller makes sure there is one).
pub fn choose(input: &BotInput, rng: &mut GameRng) -> Value {
    input.moves[rng.index(input.moves.len())].clone()
}
