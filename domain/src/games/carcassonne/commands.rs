//! Carcassonne's commands: what a player may send.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::tagged_union;

use super::options::*;

/// Place the drawn tile at (`x`, `y`), turned `rotation` degrees clockwise. Every touching edge
/// must match and it must touch at least one tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceTile {
    /// Columns grow to the east; the start tile is at (0, 0).
    pub x: i32,
    /// Rows grow to the south.
    pub y: i32,
    /// 0, 90, 180 or 270.
    #[schema(minimum = 0, maximum = 270, multiple_of = 90)]
    pub rotation: u16,
}

/// Die Goldminen: put the second ingot on the placed tile at (`x`, `y`), one of the 8 around
/// the gold tile just placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceGoldIngot {
    pub x: i32,
    pub y: i32,
}

/// Magier & Hexe: place or move the mage or the witch onto segment `segment` of the tile at
/// (`x`, `y`): a segment of an unfinished road or city that neither figure stands on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceMageOrWitch {
    pub figure: MagicFigure,
    pub x: i32,
    pub y: i32,
    /// The segment's number on that tile (see the view's `segments`).
    pub segment: u8,
}

/// Magier & Hexe: with no segment to move to and both figures on the board, take one of them
/// off the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RemoveMageOrWitch {
    pub figure: MagicFigure,
}

/// Put one of your followers on segment `segment` of the tile placed this turn; its feature
/// must hold no follower.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceFollower {
    pub segment: u8,
}

/// Place no follower this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SkipFollower {}

tagged_union! {
    /// A command of Carcassonne.
    pub enum CarcassonneCommand {
        PlaceTile,
        PlaceGoldIngot,
        PlaceMageOrWitch,
        RemoveMageOrWitch,
        PlaceFollower,
        SkipFollower,
    }
}
