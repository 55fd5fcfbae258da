//! Burgbaumeister's state: what the events fold into.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;

use super::events::*;
use super::options::*;

/// The whole truth (the server's; views show what a viewer may see of it).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub started: bool,
    pub variant: bool,
    pub players: u8,
    /// The card in each slot; `None` once it left the store. The card turned up this turn stays
    /// in its slot until it joins a wall.
    pub store: Vec<Option<Card>>,
    /// Each seat's wall, left to right, without the start tower.
    pub walls: Vec<Vec<Card>>,
    /// Seats whose wizard power is spent.
    pub wizard_spent: Vec<bool>,
    pub turn: Seat,
    pub turned_up: Option<TurnedUp>,
    /// After a cannon joined the wall of the seat whose turn it is (variant): waiting for its
    /// builder to fire or decline. Cleared when it fires, is declined or lapses, or the turn or
    /// game ends.
    pub cannon_pending: bool,
    /// The wizard card joined the wall of the seat whose turn it is during this turn: its power
    /// is usable only from a later turn on.
    pub wizard_joined_this_turn: bool,
    /// Cards a cannon destroyed: out of the game, in the order they fell.
    pub destroyed: Vec<Card>,
    pub ended: Option<CastleGameEnded>,
}

/// The step of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterPhase)]
pub enum Phase {
    /// Waiting for the game to be set up.
    NotStarted,
    /// Turn up a store card.
    TurnUp,
    /// Add the turned-up card to the wall (or insert it with the wizard) or return it.
    Place,
    /// Variant: fire the cannon just added at a card, or decline.
    Cannon,
    Finished,
}

/// The step of the turn the game is in.
pub fn phase(state: &State) -> Phase {
    if state.ended.is_some() {
        Phase::Finished
    } else if !state.started {
        Phase::NotStarted
    } else if state.cannon_pending {
        Phase::Cannon
    } else if state.turned_up.is_some() {
        Phase::Place
    } else {
        Phase::TurnUp
    }
}

/// The card turned up this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = BurgbaumeisterTurnedUp)]
pub struct TurnedUp {
    pub slot: u8,
    pub card: Card,
}
