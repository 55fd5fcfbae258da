//! Burgbaumeister's events: what happened, as the log records it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::options::*;

/// The game began: who plays, which rules, who starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CastleGameStarted {
    pub players: u8,
    pub variant: bool,
    /// Drawn at random.
    pub starting_seat: Seat,
}

/// The 45 cards were shuffled face down into the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StoreLaidOut {
    /// The card in each slot, 0..=44. Absent (`null`) for everyone but auditors until the game
    /// ends: nobody may know a face-down card.
    pub cards: Option<Vec<Card>>,
}

/// A player turned up a store card; everyone sees its number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardTurnedUp {
    pub seat: Seat,
    pub slot: u8,
    pub card: Card,
}

/// The turned-up card joined the player's wall at `position` (0 = right of the start tower).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardAddedToWall {
    pub seat: Seat,
    pub card: Card,
    pub position: u8,
    /// True when the wizard's once-per-game insertion placed it.
    pub by_wizard: bool,
}

/// The turned-up card went back face down to its slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardReturned {
    pub seat: Seat,
    pub slot: u8,
}

/// A cannon destroyed a card; it leaves the game and the cards right of it close the gap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardDestroyed {
    pub by: Seat,
    pub target: Seat,
    pub card: Card,
}

/// A cannon was added but no other wall had an unprotected card: the action lapses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CannonLapsed {
    pub seat: Seat,
}

/// A cannon was added and could have fired, but its builder chose not to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CannonDeclined {
    pub seat: Seat,
}

/// The turn passed to the next seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TurnPassed {
    pub seat: Seat,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterEnd)]
pub enum EndReason {
    /// A player added the 9th card to their wall.
    WallComplete,
    /// No player can add any card still in the store.
    Blocked,
}

/// The game ended; scores per seat (variant: points; base game: cards in the wall) and winners.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CastleGameEnded {
    pub reason: EndReason,
    pub scores: Vec<i64>,
    pub winners: Vec<Seat>,
}

tagged_union! {
    /// An event of Der Wettkampf der Burgbaumeister.
    pub enum BurgbaumeisterEvent {
        CastleGameStarted,
        StoreLaidOut,
        CardTurnedUp,
        CardAddedToWall,
        CardReturned,
        CardDestroyed,
        CannonLapsed,
        CannonDeclined,
        TurnPassed,
        CastleGameEnded,
    }
}
