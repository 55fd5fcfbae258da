//! Why a bot could not choose.

use super::level::Level;

/// Why a bot could not choose.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("no game kind `{0}`")]
    UnknownKind(String),
    /// The level does not play the kind (see [`super::supports`]).
    #[error("the {} bot does not play {kind} yet", level.name())]
    LevelUnavailable { kind: String, level: Level },
    #[error("the seat has no legal command")]
    NothingToDo,
    /// The log the bot was given does not fold into a game (it was not a seat's log of one).
    #[error("the bot's log does not make a game: {0}")]
    BadLog(String),
}
