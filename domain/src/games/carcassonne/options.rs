//! Carcassonne's options, and the pieces its commands, events and state name.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Options of Carcassonne: the two mini expansions, each adding its 8 tiles and its rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CarcassonneOptions {
    /// Magier & Hexe: 8 tiles with the magic symbol, the mage and the witch.
    pub mage_and_witch: bool,
    /// Die Goldminen: 8 tiles with the gold symbol and 16 gold ingots.
    pub gold_mines: bool,
}

/// The mage or the witch (Magier & Hexe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CarcassonneMagicFigure)]
pub enum MagicFigure {
    /// +1 point per tile of the road or city it stands on.
    Mage,
    /// Halves the points of the road or city it stands on (rounded up).
    Witch,
}
