//! Mauerbauer's events: what happened, as the log records it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::board::{FieldId, LineId};
use super::guild_cards::GuildCard;
use super::pieces::{HouseColour, HouseDie, TowerColour};

use super::options::*;

/// The game began: who plays and who starts (drawn at random). Every piece is in the supply,
/// every guild card in the draw pile; score markers stand on 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MauerbauerGameStarted {
    pub players: u8,
    pub starting_seat: Seat,
}

/// A player drew guild cards, each at random from the cards left in the draw pile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuildCardsDrawn {
    pub seat: Seat,
    pub count: u8,
    /// The cards, in catalogue order. `null` for everyone but that player (and auditors) until
    /// the game ends.
    pub cards: Option<Vec<GuildCard>>,
}

/// The draw pile ran out: the discard pile became the new draw pile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuildDiscardsReshuffled {
    /// How many cards the new draw pile holds.
    pub cards: u8,
}

/// A wall was built on a free line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WallBuilt {
    pub seat: Seat,
    pub line: LineId,
}

/// The server rolled the dice for the wall just built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MauerbauerDiceRolled {
    pub seat: Seat,
    /// The tower die; `null` when it was not rolled (both ends of the wall had towers).
    pub tower: Option<TowerColour>,
    /// The two house dice.
    pub houses: [HouseDie; 2],
}

/// Towers went on the free ends of the new wall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TowersPlaced {
    pub seat: Seat,
    pub towers: Vec<TowerPlacement>,
}

/// Houses went into the fields beside the new wall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HousesPlaced {
    pub seat: Seat,
    pub houses: Vec<HousePlacement>,
}

/// The new wall closed a city: its fields are enclosed by walls. The walls and towers strictly
/// inside went back to the supply; the houses of its fields now belong to the city as a whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CityWalledIn {
    pub city: CityId,
    pub fields: Vec<FieldId>,
    pub walls_returned: Vec<LineId>,
    pub towers_returned: Vec<TowerPlacement>,
}

/// Each named colour's two houses in the city became a palace of that colour (the houses went
/// back to the supply).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PalacesBuilt {
    pub city: CityId,
    pub palaces: Vec<HouseColour>,
}

/// The player joined two neighbouring closed cities: the walls between them (and towers left
/// strictly inside) went back to the supply, and `joined` is now part of `city`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WalledCitiesJoined {
    pub seat: Seat,
    /// The older city, which keeps its id.
    pub city: CityId,
    /// The city that became part of it.
    pub joined: CityId,
    pub walls_returned: Vec<LineId>,
    pub towers_returned: Vec<TowerPlacement>,
}

/// The player chose not to join the city (or cities) just closed with a neighbour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CitiesKeptApart {
    pub seat: Seat,
}

/// A scoring round for a city closed this turn began; players choose in `order` (from the
/// player who closed it, clockwise; players without cards are left out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuildScoringStarted {
    pub city: CityId,
    pub order: Vec<Seat>,
}

/// A player laid guild cards and scored them (onto the discard pile, face up).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuildCardsLaid {
    pub seat: Seat,
    /// The city the city cards scored (`null`: none chosen in the final scoring).
    pub city: Option<CityId>,
    pub cards: Vec<ScoredCard>,
    /// The sum.
    pub points: i64,
}

/// A player discarded a card without scoring (face up), to draw 2 at the end of the round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuildCardDiscarded {
    pub seat: Seat,
    pub card: GuildCard,
}

/// A scoring round ended, everybody's cards drawn. The players in last place who hold cards may
/// now swap, in `last_place` order (empty once the game's end has come).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuildScoringEnded {
    pub city: CityId,
    pub last_place: Vec<Seat>,
}

/// A player in last place put a hand card on the discard pile (face up) to swap it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GuildCardSwappedOut {
    pub seat: Seat,
    pub card: GuildCard,
}

/// A player finished swapping (the replacements are drawn just before).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardSwapFinished {
    pub seat: Seat,
}

/// The turn passed: `seat` builds next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DiceHandedOn {
    pub seat: Seat,
}

/// The game's end came without a city closed in the last turn: each player in `order` may lay
/// 1 or 2 cards once more, the city cards for a closed city of their choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FinalScoringStarted {
    pub order: Vec<Seat>,
}

/// In the final scoring, a player chose the city their city cards score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FinalCityChosen {
    pub seat: Seat,
    pub city: CityId,
}

/// In the final scoring, a player laid no cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FinalScoringPassed {
    pub seat: Seat,
}

/// The game ended. Most points win; a tie goes to the most cards in hand; still tied, a shared
/// win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MauerbauerGameEnded {
    pub reason: EndReason,
    pub scores: Vec<i64>,
    pub cards_in_hand: Vec<u8>,
    pub winners: Vec<Seat>,
}

tagged_union! {
    /// An event of Mauerbauer.
    pub enum MauerbauerEvent {
        MauerbauerGameStarted,
        GuildCardsDrawn,
        GuildDiscardsReshuffled,
        WallBuilt,
        MauerbauerDiceRolled,
        TowersPlaced,
        HousesPlaced,
        CityWalledIn,
        PalacesBuilt,
        WalledCitiesJoined,
        CitiesKeptApart,
        GuildScoringStarted,
        GuildCardsLaid,
        GuildCardDiscarded,
        GuildScoringEnded,
        GuildCardSwappedOut,
        CardSwapFinished,
        DiceHandedOn,
        FinalScoringStarted,
        FinalCityChosen,
        FinalScoringPassed,
        MauerbauerGameEnded,
    }
}
