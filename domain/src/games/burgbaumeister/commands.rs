//! Burgbaumeister's commands: what a player may send.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::options::*;

/// Turn up any face-down card of the store (first step of a turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TurnUpCard {
    /// The store slot, 0..=44 (row-major: row = slot / 9, column = slot % 9).
    #[schema(maximum = 44)]
    pub slot: u8,
}

/// Add the turned-up card to the right end of your wall (it must be higher than the last card).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AddCardToWall {}

/// Variant: spend your wizard to insert the turned-up card into your wall at `position`
/// (0 = right of the start tower), where the numbers still rise left to right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct InsertCardWithWizard {
    pub position: u8,
}

/// Return the turned-up card face down to its slot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ReturnCard {}

/// Variant: after adding a cannon, destroy an unprotected card in another player's wall.
/// Firing is a choice, made at once: `DeclineCannon` lets the chance go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FireCannon {
    /// The seat whose wall is hit.
    #[schema(maximum = 3)]
    pub target: Seat,
    /// The number of the card to destroy.
    #[schema(minimum = 2, maximum = 46)]
    pub card: Card,
}

/// Variant: after adding a cannon, do not fire it (the chance is gone for good).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DeclineCannon {}

tagged_union! {
    /// A command of Der Wettkampf der Burgbaumeister.
    pub enum BurgbaumeisterCommand {
        TurnUpCard,
        AddCardToWall,
        InsertCardWithWizard,
        ReturnCard,
        FireCannon,
        DeclineCannon,
    }
}
