//! Burgbaumeister's options, and the pieces its commands, events and state name.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A card's number, 2..=46 (the start tower is 1 and is not a card).
pub type Card = u8;

/// Number of slots in the store (5 rows × 9 columns).
pub const STORE_SLOTS: usize = 45;
/// Cards in a wall (start tower not counted) that end the game.
pub const WALL_TO_WIN: usize = 9;

/// Options of Der Wettkampf der Burgbaumeister.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BurgbaumeisterOptions {
    /// Play the variant for experienced builders: special cards and points.
    pub variant: bool,
}

/// The symbol a card shows (scored and acted on only in the variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = BurgbaumeisterSymbol)]
pub enum Symbol {
    King,
    Queen,
    Knight,
    Maiden,
    Raven,
    TwoRavens,
    Cannon,
    Tower,
    Wizard,
}
