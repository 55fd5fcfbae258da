//! What a searching bot must know of a kind beyond its rules: how to imagine the hidden part of
//! the game from what its seat sees, and how good a position is.

use crate::contract::Seat;
use crate::dynamic::{DynGame, GameState};
use crate::rng::GameRng;

use super::{BotError, BotInput};

/// A kind's bot rules.
pub trait BotRules: Send + Sync {
    fn game(&self) -> &'static dyn DynGame;

    /// A whole state that the seat's input could have come from: everything the seat sees is as
    /// it sees it; what it does not see (others' hands, face-down cards) is drawn at random from
    /// what could be there. Reads nothing but `input`.
    fn determinize(&self, input: &BotInput, rng: &mut GameRng) -> Result<GameState, BotError>;

    /// How good `state` is for `seat`, higher better, on the scale of the game's points: the
    /// search compares these between seats and moves.
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64;

    /// How many seats the game in `state` has.
    fn seats(&self, state: &GameState) -> u8;

    /// How many points make a clear lead (scales evaluations to rewards between 0 and 1).
    fn scale(&self) -> f64 {
        10.0
    }
}

static BURGBAUMEISTER: super::burgbaumeister::Rules = super::burgbaumeister::Rules;
static CARCASSONNE: super::carcassonne::Rules = super::carcassonne::Rules;
static MAUERBAUER: super::mauerbauer::Rules = super::mauerbauer::Rules;

/// The bot rules of a kind; `None` for a kind whose hidden part bots cannot imagine yet (only
/// its random level plays: see [`super::supports`]).
pub fn rules_for(kind: &str) -> Option<&'static dyn BotRules> {
    match kind {
        "burgbaumeister" => Some(&BURGBAUMEISTER),
        "carcassonne" => Some(&CARCASSONNE),
        "mauerbauer" => Some(&MAUERBAUER),
        _ => None,
    }
}

/// Folds a seat's log (with its hidden parts filled in) into a state, from the initial one.
pub fn replay(game: &dyn DynGame, log: &[serde_json::Value]) -> Result<GameState, BotError> {
    game.replay(log)
        .map_err(|e| BotError::BadLog(e.to_string()))
}
