//! Mauerbauer's options, commands, events and state. The view's types are in `view.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::board::{FieldId, FieldSet, LineId, LineSet, VertexId};
use super::guild_cards::{Cards, GuildCard};
use super::pieces::{HouseColour, HouseDie, Supply, TowerColour};

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

// ---- commands -------------------------------------------------------------------------------

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

// ---- events ---------------------------------------------------------------------------------

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

// ---- state ----------------------------------------------------------------------------------

/// A closed city. Its walls are the walls around its fields; its towers those on its boundary.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct City {
    pub id: CityId,
    pub fields: FieldSet,
    /// Houses and palaces by colour (`Colour::ALL` order), for the city as a whole.
    pub houses: [u8; 5],
    pub palaces: [u8; 5],
}

/// What the dice showed this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerDice)]
pub struct Dice {
    /// `null` when the tower die was not rolled.
    pub tower: Option<TowerColour>,
    pub houses: [HouseDie; 2],
}

/// A scoring round in progress.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Round {
    pub city: CityId,
    pub order: Vec<Seat>,
    /// Index into `order` of the player to choose.
    pub next: usize,
    /// Cards each seat draws when the round ends: 1 after laying, 2 after discarding.
    pub draws: Vec<u8>,
}

/// The last-place swap in progress.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Swap {
    pub seats: Vec<Seat>,
    pub next: usize,
    /// Cards the swapping player has put away so far.
    pub owed: u8,
}

/// The final scoring in progress.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FinalScoring {
    pub order: Vec<Seat>,
    pub next: usize,
    /// The city chosen by the player to act.
    pub city: Option<CityId>,
}

/// The whole truth (views show what a viewer may see of it).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub started: bool,
    pub players: u8,
    #[serde(with = "crate::wide")]
    pub walls: LineSet,
    /// The tower on each vertex.
    pub towers: Vec<Option<TowerColour>>,
    /// Houses by colour in each field outside the closed cities (a city holds its own).
    pub houses: Vec<[u8; 5]>,
    pub cities: Vec<City>,
    pub next_city: CityId,
    pub supply: Supply,
    pub hands: Vec<Cards>,
    /// No order: a card is drawn at random from it when it is drawn.
    pub draw_pile: Cards,
    /// Face up, the last discarded last.
    pub discard_pile: Vec<GuildCard>,
    pub scores: Vec<i64>,
    pub turn: Seat,
    /// This turn's wall.
    pub built: Option<LineId>,
    pub dice: Option<Dice>,
    pub towers_placed: bool,
    pub houses_placed: bool,
    /// Cities closed this turn (a joined one under the id it kept).
    pub closed_this_turn: Vec<CityId>,
    pub join_decided: bool,
    pub scored_this_turn: Vec<CityId>,
    pub round: Option<Round>,
    pub swap: Option<Swap>,
    pub final_scoring: Option<FinalScoring>,
    /// The end has come (a supply emptied, or no line is free): the game ends with this turn.
    pub end: Option<EndReason>,
    pub ended: Option<MauerbauerGameEnded>,
}

impl State {
    pub fn city(&self, id: CityId) -> Option<&City> {
        self.cities.iter().find(|c| c.id == id)
    }

    /// The closed city holding `field`, if any.
    pub fn city_at(&self, field: FieldId) -> Option<&City> {
        self.cities.iter().find(|c| c.fields & 1 << field != 0)
    }

    /// The fields of all closed cities.
    pub fn city_fields(&self) -> FieldSet {
        self.cities.iter().fold(0, |set, c| set | c.fields)
    }

    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands.get(seat as usize).copied().unwrap_or_default()
    }

    pub fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players.max(1)
    }

    /// Every seat, from `first` clockwise.
    pub fn clockwise_from(&self, first: Seat) -> Vec<Seat> {
        (0..self.players)
            .map(|i| (first + i) % self.players)
            .collect()
    }
}
