//! Wettstreit der Baumeister's options, and the pieces its commands, events and state name.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A building card's id, 0..=39 (see [`CARDS`] and the view's `catalogue`).
pub type Card = u8;

/// All the money in the game (bank and purses together).
pub const TOTAL_TALER: u32 = 90;
/// Every player's starting purse.
pub const STARTING_PURSE: u32 = 10;
/// Saboteur stones in the game.
pub const SABOTEURS: u8 = 5;
/// Cards in the game.
pub const CARD_COUNT: usize = 40;
/// The highest bid accepted: all the money in the game. Nobody can ever pay more, so a higher
/// bid could only end in insolvency; the bound keeps `/moves` listable value by value.
pub const MAX_BID: u32 = TOTAL_TALER;
/// At most this many cards are laid per turn (and a first build lays exactly this many).
pub const CARDS_PER_TURN: u8 = 3;
/// A hand this big may be sabotaged.
pub const HAND_SABOTAGE_MIN: usize = 5;

/// Options of Wettstreit der Baumeister (none yet: the rulebook has no variants).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct WettstreitOptions {}

/// The kind of a building.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitKind)]
pub enum Kind {
    /// Only the leftmost card of a city.
    LeftCornerTower,
    /// Only the rightmost card of a city.
    RightCornerTower,
    Tower,
    /// Brings income: its coin symbols pay 1 Taler each per turn once built.
    CityGate,
    /// At most one per city.
    TownHall,
    Church,
}

impl Kind {
    /// Towers and corner towers count as the same kind for "never two of a kind side by side".
    pub fn family(self) -> u8 {
        match self {
            Kind::LeftCornerTower | Kind::RightCornerTower | Kind::Tower => 0,
            Kind::CityGate => 1,
            Kind::TownHall => 2,
            Kind::Church => 3,
        }
    }

    pub fn is_corner_tower(self) -> bool {
        matches!(self, Kind::LeftCornerTower | Kind::RightCornerTower)
    }
}

/// One printed card: its kind and point value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CardSpec {
    pub kind: Kind,
    pub value: u8,
}

const fn spec(kind: Kind, value: u8) -> CardSpec {
    CardSpec { kind, value }
}

/// The 40 cards, by id.
pub const CARDS: [CardSpec; CARD_COUNT] = {
    use Kind::*;
    [
        spec(LeftCornerTower, 1),
        spec(LeftCornerTower, 1),
        spec(LeftCornerTower, 2),
        spec(LeftCornerTower, 2),
        spec(LeftCornerTower, 3),
        spec(RightCornerTower, 1),
        spec(RightCornerTower, 1),
        spec(RightCornerTower, 2),
        spec(RightCornerTower, 2),
        spec(RightCornerTower, 3),
        spec(Tower, 1),
        spec(Tower, 1),
        spec(Tower, 2),
        spec(Tower, 2),
        spec(Tower, 3),
        spec(Tower, 3),
        spec(CityGate, 2),
        spec(CityGate, 2),
        spec(CityGate, 3),
        spec(CityGate, 3),
        spec(CityGate, 3),
        spec(CityGate, 4),
        spec(CityGate, 4),
        spec(CityGate, 4),
        spec(CityGate, 5),
        spec(CityGate, 5),
        spec(TownHall, 5),
        spec(TownHall, 5),
        spec(TownHall, 6),
        spec(TownHall, 6),
        spec(TownHall, 7),
        spec(TownHall, 7),
        spec(Church, 4),
        spec(Church, 5),
        spec(Church, 5),
        spec(Church, 6),
        spec(Church, 6),
        spec(Church, 7),
        spec(Church, 8),
        spec(Church, 9),
    ]
};

pub fn kind_of(card: Card) -> Kind {
    CARDS[card as usize].kind
}

pub fn value_of(card: Card) -> u8 {
    CARDS[card as usize].value
}

/// Shields against the saboteur: one on every tower and corner tower.
pub fn shields_of(card: Card) -> u8 {
    u8::from(kind_of(card).family() == 0)
}

/// Coin symbols on a city gate (2 on values 2–3, 1 on values 4–5); none on other cards.
pub fn coins_of(card: Card) -> u8 {
    match CARDS[card as usize] {
        CardSpec {
            kind: Kind::CityGate,
            value,
        } if value <= 3 => 2,
        CardSpec {
            kind: Kind::CityGate,
            ..
        } => 1,
        _ => 0,
    }
}

/// The two stacks in the middle of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitStack)]
pub enum Stack {
    /// Face up: its top card is visible to all.
    Open,
    /// Face down: nobody sees its cards (the auctioneer sees the top card while auctioning it).
    FaceDown,
}

/// A face of the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitDieFace)]
pub enum DieFace {
    One,
    Two,
    Three,
    Four,
    Five,
    Saboteur,
}

impl DieFace {
    /// The face for a uniform draw 0..6.
    pub fn from_index(i: u64) -> DieFace {
        [
            DieFace::One,
            DieFace::Two,
            DieFace::Three,
            DieFace::Four,
            DieFace::Five,
            DieFace::Saboteur,
        ][i as usize]
    }

    /// The pips (the saboteur face has none).
    pub fn pips(self) -> u8 {
        match self {
            DieFace::One => 1,
            DieFace::Two => 2,
            DieFace::Three => 3,
            DieFace::Four => 4,
            DieFace::Five => 5,
            DieFace::Saboteur => 0,
        }
    }
}
