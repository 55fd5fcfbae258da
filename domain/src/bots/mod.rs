//! Bots: players the server seats for people who want an opponent now.
//!
//! Entry ([`choose`]) → the level's search ([`random`], [`greedy`], [`ismcts`]) → the kind's
//! rule module (its `bot.rs`, found by [`registry::bot_rules`]: how to imagine the hidden part of the game and how good a
//! position is) → the game's own rules through [`crate::dynamic::DynGame`].
//!
//! A bot never peeks: all it is given is a [`BotInput`], which holds what its seat may see (the
//! seat's view, the log as the seat may see it, the seat's legal commands) and nothing else. The
//! only way to make one from a game is [`BotInput::observe`], which asks the game for exactly
//! those, so the state's hidden part cannot reach a bot even by mistake.

pub mod budget;
pub mod error;
mod evaluate;
mod greedy;
pub mod input;
mod ismcts;
pub mod level;
mod pace;
mod random;
pub mod rules;
mod simulate;
#[cfg(test)]
pub(crate) mod test_support;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::registry;
use crate::rng::GameRng;

pub use budget::Budget;
pub use error::BotError;
pub use input::BotInput;
pub use level::Level;
pub use pace::{act_millis, due_ms, gives_up};
pub use rules::BotRules;

/// Whether a bot of `level` plays games of `kind` (see [`registry::plays`]).
pub fn supports(kind: &str, level: Level) -> bool {
    registry::plays(kind, level)
}

/// The command a bot of `level` sends for its seat, given only what its seat may see. The same
/// input, level, budget (without a clock) and rng give the same command.
pub fn choose(
    input: &BotInput,
    level: Level,
    budget: Budget,
    rng: &mut GameRng,
) -> Result<Value, BotError> {
    if input.moves.is_empty() {
        return Err(BotError::NothingToDo);
    }
    if registry::find(&input.kind).is_none() {
        return Err(BotError::UnknownKind(input.kind.clone()));
    }
    if input.moves.len() == 1 || level == Level::Random {
        return Ok(random::choose(input, rng));
    }
    let Some(rules) = registry::bot_rules(&input.kind) else {
        return Err(BotError::LevelUnavailable {
            kind: input.kind.clone(),
            level,
        });
    };
    match level {
        Level::Random => unreachable!("handled above"),
        Level::Greedy => greedy::choose(rules, input, rng),
        Level::Strong => rules
            .strong_choice(input, budget, rng)
            .unwrap_or_else(|| ismcts::choose(rules, input, budget, rng)),
    }
}
