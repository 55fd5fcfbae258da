//! Bots: players the server seats for people who want an opponent now.
//!
//! Entry ([`choose`]) → the level's search ([`random`], [`greedy`], [`ismcts`]) → the kind's
//! rule module ([`rules_for`]: how to imagine the hidden part of the game and how good a
//! position is) → the game's own rules through [`crate::dynamic::DynGame`].
//!
//! A bot never peeks: all it is given is a [`BotInput`], which holds what its seat may see (the
//! seat's view, the log as the seat may see it, the seat's legal commands) and nothing else. The
//! only way to make one from a game is [`BotInput::observe`], which asks the game for exactly
//! those, so the state's hidden part cannot reach a bot even by mistake.

mod burgbaumeister;
mod carcassonne;
mod evaluate;
mod greedy;
mod input;
mod ismcts;
mod mauerbauer;
mod pace;
mod random;
mod rules;
mod simulate;
mod space_builder;
#[cfg(test)]
mod tests;
mod wettstreit;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::rng::GameRng;

pub use input::BotInput;
pub use pace::{act_millis, due_ms, gives_up};
pub use rules::{rules_for, BotRules};

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BotLevel)]
pub enum Level {
    /// Any legal command, uniformly at random.
    Random,
    /// The best command one step ahead, by the kind's evaluation, averaged over a few guesses of
    /// the hidden cards.
    Greedy,
    /// Information-set Monte Carlo tree search over guesses of the hidden cards.
    Strong,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Random, Level::Greedy, Level::Strong];

    /// The level's name, as in the API and the bot account's name (`bot-<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Strong => "strong",
        }
    }

    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// How long the strong bot may think about one move: whichever runs out first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search iterations (each: one guess of the hidden cards, one descent, one playout).
    pub iterations: u32,
    /// Wall-clock milliseconds; `None` for none (tests, where the choice must be reproducible).
    pub max_millis: Option<u64>,
}

impl Default for Budget {
    /// At most a second a move.
    fn default() -> Self {
        Budget {
            iterations: 2_000,
            max_millis: Some(1_000),
        }
    }
}

/// Why a bot could not choose.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("no game kind `{0}`")]
    UnknownKind(String),
    /// The level does not play the kind (see [`supports`]).
    #[error("the {} bot does not play {kind} yet", level.name())]
    LevelUnavailable { kind: String, level: Level },
    #[error("the seat has no legal command")]
    NothingToDo,
    /// The log the bot was given does not fold into a game (it was not a seat's log of one).
    #[error("the bot's log does not make a game: {0}")]
    BadLog(String),
}

/// Whether a bot of `level` plays games of `kind`. The random level plays every kind; the
/// searching ones the kinds whose hidden part they can imagine ([`rules_for`]), which is every
/// kind offered now. A kind added without bot rules would be refused (422
/// `bot_level_unavailable`) rather than played at random under a better name.
pub fn supports(kind: &str, level: Level) -> bool {
    match level {
        Level::Random => crate::registry::find(kind).is_some(),
        Level::Greedy | Level::Strong => rules_for(kind).is_some(),
    }
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
    if crate::registry::find(&input.kind).is_none() {
        return Err(BotError::UnknownKind(input.kind.clone()));
    }
    if input.moves.len() == 1 || level == Level::Random {
        return Ok(random::choose(input, rng));
    }
    let Some(rules) = rules_for(&input.kind) else {
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
