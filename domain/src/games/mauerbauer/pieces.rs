//! The wooden pieces and the supply beside the board: 33 walls, 30 towers (10 white, grey and
//! black), 60 houses and 15 palaces (12 houses and 3 palaces in each of five colours).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub const WALLS: u8 = 33;
pub const TOWERS_PER_COLOUR: u8 = 10;
pub const HOUSES_PER_COLOUR: u8 = 12;
pub const PALACES_PER_COLOUR: u8 = 3;

/// A colour of pieces, for the rules shared by towers and houses (the dice, the supply).
pub trait Colour: Copy + Eq + Ord + std::fmt::Debug + 'static {
    const ALL: &'static [Self];
    fn index(self) -> usize;
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = MauerbauerTowerColour)]
pub enum TowerColour {
    White,
    Grey,
    Black,
}

impl Colour for TowerColour {
    const ALL: &'static [Self] = &[TowerColour::White, TowerColour::Grey, TowerColour::Black];
    fn index(self) -> usize {
        self as usize
    }
}

/// The colour of a house or palace.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[schema(as = MauerbauerHouseColour)]
pub enum HouseColour {
    Yellow,
    Green,
    Blue,
    Pink,
    Red,
}

impl Colour for HouseColour {
    const ALL: &'static [Self] = &[
        HouseColour::Yellow,
        HouseColour::Green,
        HouseColour::Blue,
        HouseColour::Pink,
        HouseColour::Red,
    ];
    fn index(self) -> usize {
        self as usize
    }
}

/// A face of a house die: a colour, or `any` (the "?", free choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = MauerbauerHouseDie)]
pub enum HouseDie {
    Yellow,
    Green,
    Blue,
    Pink,
    Red,
    Any,
}

impl HouseDie {
    pub const FACES: [HouseDie; 6] = [
        HouseDie::Yellow,
        HouseDie::Green,
        HouseDie::Blue,
        HouseDie::Pink,
        HouseDie::Red,
        HouseDie::Any,
    ];

    /// The colour the face asks for; `None` for the free choice.
    pub fn colour(self) -> Option<HouseColour> {
        HouseColour::ALL.get(self as usize).copied()
    }
}

/// How many of each colour (towers: white, grey, black).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerTowerCounts)]
pub struct TowerCounts {
    pub white: u8,
    pub grey: u8,
    pub black: u8,
}

impl From<[u8; 3]> for TowerCounts {
    fn from([white, grey, black]: [u8; 3]) -> Self {
        TowerCounts { white, grey, black }
    }
}

/// How many of each colour (houses and palaces).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerHouseCounts)]
pub struct HouseCounts {
    pub yellow: u8,
    pub green: u8,
    pub blue: u8,
    pub pink: u8,
    pub red: u8,
}

impl From<[u8; 5]> for HouseCounts {
    fn from([yellow, green, blue, pink, red]: [u8; 5]) -> Self {
        HouseCounts {
            yellow,
            green,
            blue,
            pink,
            red,
        }
    }
}

/// The pieces beside the board, by colour in `Colour::ALL` order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Supply {
    pub walls: u8,
    pub towers: [u8; 3],
    pub houses: [u8; 5],
    pub palaces: [u8; 5],
}

impl Default for Supply {
    /// Everything, before the first piece is placed.
    fn default() -> Self {
        Supply {
            walls: WALLS,
            towers: [TOWERS_PER_COLOUR; 3],
            houses: [HOUSES_PER_COLOUR; 5],
            palaces: [PALACES_PER_COLOUR; 5],
        }
    }
}

/// Takes one piece of `colour` from a supply (saturating: evolve never fails).
pub fn take<C: Colour>(supply: &mut [u8], colour: C) {
    if let Some(n) = supply.get_mut(colour.index()) {
        *n = n.saturating_sub(1);
    }
}

/// Puts one piece of `colour` back.
pub fn put_back<C: Colour>(supply: &mut [u8], colour: C) {
    if let Some(n) = supply.get_mut(colour.index()) {
        *n = n.saturating_add(1);
    }
}

pub fn total(counts: &[u8]) -> u32 {
    counts.iter().map(|&n| u32::from(n)).sum()
}
