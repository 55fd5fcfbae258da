//! Carcassonne's events: what happened, as the log records it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::tiles::FeatureKind;

use super::options::*;

/// How many copies of a tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonneTileCount)]
pub struct TileCount {
    pub tile: String,
    pub count: u8,
}

/// The game began. `tile_counts` is what the draw pile holds, by kind (it has no order: each
/// tile is drawn at random from what is left at the moment it is drawn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CarcassonneGameStarted {
    pub players: u8,
    pub mage_and_witch: bool,
    pub gold_mines: bool,
    /// Drawn at random.
    pub starting_seat: Seat,
    /// Followers per player.
    pub followers: u8,
    /// Ingots in the supply (Die Goldminen; 0 without it).
    pub gold_ingots: u8,
    pub tile_counts: Vec<TileCount>,
}

/// The start tile was laid face up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct StartTilePlaced {
    pub tile: String,
    pub x: i32,
    pub y: i32,
    pub rotation: u16,
}

/// `seat`'s turn began with this tile, drawn at random from the pile (public from now on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TileDrawn {
    pub seat: Seat,
    pub tile: String,
}

/// A tile drawn for `seat` fitted nowhere on the board: it is out of the game; another is drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TileDiscarded {
    pub seat: Seat,
    pub tile: String,
}

/// The drawn tile was placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TilePlaced {
    pub seat: Seat,
    pub tile: String,
    pub x: i32,
    pub y: i32,
    pub rotation: u16,
}

/// An ingot went from the supply onto the tile at (`x`, `y`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GoldIngotPlaced {
    pub seat: Seat,
    pub x: i32,
    pub y: i32,
}

/// The mage or the witch was placed (from the supply) or moved onto a segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MageOrWitchPlaced {
    pub seat: Seat,
    pub figure: MagicFigure,
    pub x: i32,
    pub y: i32,
    pub segment: u8,
}

/// Why the mage or the witch left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CarcassonneRemovalReason)]
pub enum RemovalReason {
    /// No unfinished road or city was left to move to.
    NoTarget,
    /// Its road or city was completed.
    FeatureCompleted,
}

/// The mage or the witch went back to the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MageOrWitchRemoved {
    pub figure: MagicFigure,
    pub reason: RemovalReason,
}

/// A follower was put on segment `segment` of the tile at (`x`, `y`): a thief on a road, a
/// knight in a city, a monk in a cloister, a farmer in a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FollowerPlaced {
    pub seat: Seat,
    pub x: i32,
    pub y: i32,
    pub segment: u8,
    pub feature: FeatureKind,
}

/// The player placed no follower this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FollowerSkipped {
    pub seat: Seat,
}

/// A tile, by position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonnePosition)]
pub struct Position {
    pub x: i32,
    pub y: i32,
}

impl Position {
    pub const fn new(x: i32, y: i32) -> Self {
        Position { x, y }
    }
}

/// A road, city or cloister scored: when completed, or unfinished at the end of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FeatureScored {
    pub feature: FeatureKind,
    /// False for unfinished features scored at the end of the game.
    pub completed: bool,
    /// The feature's tiles (a cloister: itself and the placed tiles around it).
    pub tiles: Vec<Position>,
    /// Pennants in a city.
    pub pennants: u8,
    /// Points before the mage or the witch.
    pub base_points: u32,
    /// The mage or the witch on the feature, if one stands there.
    pub figure: Option<MagicFigure>,
    /// What each of `seats` scores.
    pub points: u32,
    /// The players with the most followers on the feature.
    pub seats: Vec<Seat>,
}

/// A follower went home from a completed feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FollowerReturned {
    pub seat: Seat,
    pub x: i32,
    pub y: i32,
    pub segment: u8,
}

/// `seat` took one ingot from the tile at (`x`, `y`) for a completed feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GoldIngotTaken {
    pub seat: Seat,
    pub x: i32,
    pub y: i32,
}

/// At the end of the game: a field with farmers scored 3 points per completed city it borders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FarmScored {
    pub tiles: Vec<Position>,
    /// Distinct completed cities bordering the field.
    pub cities: u8,
    pub points: u32,
    /// The players with the most farmers in the field.
    pub seats: Vec<Seat>,
}

/// At the end of the game: a player's ingots scored (1–3: 1 each, 4–6: 2, 7–9: 3, 10+: 4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct IngotsScored {
    pub seat: Seat,
    pub ingots: u8,
    pub points: u32,
}

/// The pile is empty: the game is over, after the final scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CarcassonneGameEnded {
    /// Points per seat.
    pub scores: Vec<i64>,
    /// The seats with the most points (several on a tie: they share the victory).
    pub winners: Vec<Seat>,
}

tagged_union! {
    /// An event of Carcassonne.
    pub enum CarcassonneEvent {
        CarcassonneGameStarted,
        StartTilePlaced,
        TileDrawn,
        TileDiscarded,
        TilePlaced,
        GoldIngotPlaced,
        MageOrWitchPlaced,
        MageOrWitchRemoved,
        FollowerPlaced,
        FollowerSkipped,
        FeatureScored,
        FollowerReturned,
        GoldIngotTaken,
        FarmScored,
        IngotsScored,
        CarcassonneGameEnded,
    }
}
