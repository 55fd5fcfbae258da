//! Mauerbauer's options, and the pieces its commands, events and state name.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::board::{FieldId, VertexId};
use super::guild_cards::GuildCard;
use super::pieces::{HouseColour, TowerColour};

/// A closed city's id: 0 for the first city closed, 1 for the next, …; a city joined into an
/// older one gives up its id.
pub type CityId = u8;

/// Options of Mauerbauer (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MauerbauerOptions {}

/// A tower on a vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerTower)]
pub struct TowerPlacement {
    #[schema(maximum = 32)]
    pub vertex: VertexId,
    pub colour: TowerColour,
}

/// A house in a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerHouse)]
pub struct HousePlacement {
    #[schema(maximum = 44)]
    pub field: FieldId,
    pub colour: HouseColour,
}

/// A laid guild card and what it scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerScoredCard)]
pub struct ScoredCard {
    pub card: GuildCard,
    pub points: i64,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = MauerbauerEndReason)]
pub enum EndReason {
    /// The last wall of the supply was built.
    LastWall,
    /// The last tower of the supply was placed.
    LastTower,
    /// The last house of the supply was placed.
    LastHouse,
    /// The last palace of the supply was placed.
    LastPalace,
    /// Every field lies in a closed city: no wall line is free any more.
    NoFreeLine,
}
