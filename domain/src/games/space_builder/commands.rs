//! Space Builder's commands: what a player may send.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::tagged_union;

use super::options::*;

/// Timing `elapsed` only: turn up this round's blueprint for yourself. Your time starts now; you
/// cannot build before. The response's `BlueprintLookedAt` carries the blueprint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LookAtBlueprint {}

/// Put a hand card that is not yet on your board onto an empty slot, with a face up and a
/// rotation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceBuildingCard {
    pub card: Card,
    pub slot: Slot,
    pub face: Face,
    /// Quarter turns clockwise, 0..=3.
    pub rotation: u8,
}

/// Move a card on your board to an empty slot, or leave it on its slot; either way it ends with
/// this face up and this rotation (turning or flipping a card in place is a move to its own slot).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveBuildingCard {
    pub card: Card,
    pub slot: Slot,
    pub face: Face,
    /// Quarter turns clockwise, 0..=3.
    pub rotation: u8,
}

/// Take a card from your board back into your hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TakeBackBuildingCard {
    pub card: Card,
}

/// Declare your city finished (tap the blueprint pile). Only when every hand card is on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DeclareCityFinished {}

/// Stop building this round: your city is checked as it stands (a hand card not on the board is
/// missing), ranked after every player who finished. Others still build; in `arrival` timing
/// your stop does not count towards the end of the round (only finishes do).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StopBuilding {}

/// The round's winner releases one more of their cards into their hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ReleaseBuildingCard {
    pub card: Card,
}

tagged_union! {
    /// A command of Space Builder.
    pub enum SpaceBuilderCommand {
        LookAtBlueprint,
        PlaceBuildingCard,
        MoveBuildingCard,
        TakeBackBuildingCard,
        DeclareCityFinished,
        StopBuilding,
        ReleaseBuildingCard,
    }
}
