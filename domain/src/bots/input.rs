//! What a bot is given: its seat's view of the game and nothing more.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::contract::{Seat, Viewer};
use crate::dynamic::{DynGame, GameState};

/// Everything a bot knows when it chooses. Every field is what the seat's player could read
/// through the API (`GET /v1/games/{id}` and its event log): the board as the seat sees it, the
/// log with what the seat may not see removed, and the seat's legal commands. The game's state
/// is not in it, so a bot cannot peek at other players' hidden cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotInput {
    /// The game kind (`burgbaumeister`).
    pub kind: String,
    pub seat: Seat,
    /// The seat's view, as `GET /v1/games/{id}` gives it.
    pub view: Value,
    /// The game's events as the seat may see them, oldest first.
    pub log: Vec<Value>,
    /// The commands the seat may send now.
    pub moves: Vec<Value>,
}

impl BotInput {
    /// What `seat` may see of a game whose state is `state` after the events `events` (the full
    /// log, as stored): the one way a bot's input is made from a game.
    ///
    /// The log is the one that still counts: events taken back, and the take-backs, are left
    /// out (see [`crate::take_back::standing`]), so the bot folds exactly what was played.
    pub fn observe(game: &dyn DynGame, state: &GameState, events: &[Value], seat: Seat) -> Self {
        let viewer = game.effective_viewer(state, Viewer::Seat(seat));
        let events = crate::take_back::standing(events).unwrap_or_else(|_| events.iter().collect());
        BotInput {
            kind: game.kind().to_string(),
            seat,
            view: game.view(state, viewer),
            log: events
                .into_iter()
                .filter_map(|event| game.redact(state, event, viewer))
                .collect(),
            moves: game.legal_commands(state, seat),
        }
    }
}
