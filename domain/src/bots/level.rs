//! How well a bot plays: the levels, by name.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

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
