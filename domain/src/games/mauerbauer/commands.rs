//! Mauerbauer's commands: what a player may send.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::tagged_union;

use super::board::LineId;
use super::guild_cards::GuildCard;

use super::options::*;

/// Build a wall on a free wall line (not inside a closed city); the server then rolls the dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildWall {
    #[schema(maximum = 76)]
    pub line: LineId,
}

/// Place the towers the tower die asks for on the free ends of the new wall, ascending by
/// vertex (one of the placements `/moves` lists).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceTowers {
    pub towers: Vec<TowerPlacement>,
}

/// Place the houses the house dice ask for in the fields beside the new wall, ascending by
/// field (one of the placements `/moves` lists).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlaceHouses {
    pub houses: Vec<HousePlacement>,
}

/// Join a city closed this turn with one neighbouring closed city (sharing a wall).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JoinCities {
    /// A city closed this turn (the lower id when both were).
    pub city: CityId,
    /// The neighbour it joins.
    pub with: CityId,
}

/// Join no cities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct KeepCitiesApart {}

/// Lay 1 or 2 guild cards from your hand and score them now (in catalogue order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LayGuildCards {
    #[schema(min_items = 1, max_items = 2)]
    pub cards: Vec<GuildCard>,
}

/// In a scoring round: discard 1 card without scoring, to draw 2 at the end of the round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DiscardGuildCard {
    pub card: GuildCard,
}

/// In last place after a scoring round: put one hand card on the discard pile, to be replaced
/// when you finish swapping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SwapOutGuildCard {
    pub card: GuildCard,
}

/// Finish swapping: draw as many cards as you swapped out (none: you keep your hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FinishCardSwap {}

/// In the final scoring: choose the closed city your city cards score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChooseFinalCity {
    pub city: CityId,
}

/// In the final scoring: lay no cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PassFinalScoring {}

tagged_union! {
    /// A command of Mauerbauer.
    pub enum MauerbauerCommand {
        BuildWall,
        PlaceTowers,
        PlaceHouses,
        JoinCities,
        KeepCitiesApart,
        LayGuildCards,
        DiscardGuildCard,
        SwapOutGuildCard,
        FinishCardSwap,
        ChooseFinalCity,
        PassFinalScoring,
    }
}
