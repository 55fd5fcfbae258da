//! Mauerbauer's state: what the events fold into.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;

use super::board::{FieldId, FieldSet, LineId, LineSet};
use super::guild_cards::{Cards, GuildCard};
use super::pieces::{HouseDie, Supply, TowerColour};

use super::events::*;
use super::options::*;

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
