//! The 60 guild cards: 30 kinds, each with its number of copies (the mix is ours, the kinds the
//! rulebook's), and the multisets of cards that hands and piles are.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::board::Region;
use super::pieces::{HouseColour, TowerColour};

/// Declares the card kinds once: the enum and `GuildCard::ALL` in the same order.
macro_rules! card_kinds {
    ($($kind:ident),+ $(,)?) => {
        /// A kind of guild card. `city_…` cards score the city being scored, `board_…` cards what
        /// stands outside every closed city, `closed_cities` neither.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
        )]
        #[serde(rename_all = "snake_case")]
        #[schema(as = MauerbauerGuildCard)]
        pub enum GuildCard {
            $($kind),+
        }

        impl GuildCard {
            /// Every kind, in catalogue order.
            pub const ALL: [GuildCard; KINDS] = [$(GuildCard::$kind),+];
        }
    };
}

card_kinds! {
    CityOfOneField,
    CityOfTwoFields,
    CityOfThreeFields,
    CityOfSevenOrMoreFields,
    CityWhiteTowers,
    CityGreyTowers,
    CityBlackTowers,
    CityYellowBuildings,
    CityGreenBuildings,
    CityBlueBuildings,
    CityPinkBuildings,
    CityRedBuildings,
    CityColourVariety,
    CityPalaces,
    CityTowers,
    BoardYellowHouses,
    BoardGreenHouses,
    BoardBlueHouses,
    BoardPinkHouses,
    BoardRedHouses,
    BoardRegionAHouses,
    BoardRegionBHouses,
    BoardRegionCHouses,
    BoardWhiteTowers,
    BoardGreyTowers,
    BoardBlackTowers,
    BoardWalls,
    BoardTowers,
    BoardTowersAtWater,
    ClosedCities,
}

pub const KINDS: usize = 30;
#[cfg(test)]
pub const CARDS: u8 = 60;
pub const HAND_SIZE: u8 = 6;

/// What a card is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = MauerbauerCardScope)]
pub enum Scope {
    /// The city being scored (in the final scoring: the city the player chose).
    City,
    /// Pieces outside every closed city (not inside one, not on one's boundary).
    Board,
    /// Neither: the closed cities on the board.
    Neither,
}

/// How a card scores, in the rules' terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Rule {
    /// `points` when the city has exactly `fields` fields (or at least, when `or_more`).
    CitySize {
        fields: u32,
        or_more: bool,
        points: i64,
    },
    /// 2 per tower of the colour on the city's boundary.
    CityTowersOf(TowerColour),
    /// 3 per palace and 1 per house of the colour in the city.
    CityBuildingsOf(HouseColour),
    /// 4 for 2–3 colours among the city's houses and palaces, 7 for 4–5.
    CityColourVariety,
    /// 1 per palace in the city.
    CityPalaces,
    /// 1 per tower on the city's boundary.
    CityTowers,
    /// 1 per house of the colour outside the closed cities.
    BoardHousesOf(HouseColour),
    /// 1 per house in the region outside the closed cities.
    BoardHousesIn(Region),
    /// 2 per tower of the colour outside the closed cities.
    BoardTowersOf(TowerColour),
    /// 1 per wall outside the closed cities.
    BoardWalls,
    /// 1 per tower outside the closed cities.
    BoardTowers,
    /// 2 per tower at the water outside the closed cities.
    BoardTowersAtWater,
    /// 1 per closed city on the board.
    ClosedCities,
}

impl GuildCard {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn rule(self) -> Rule {
        use GuildCard::*;
        use HouseColour::*;
        use TowerColour::*;
        let size = |fields, or_more, points| Rule::CitySize {
            fields,
            or_more,
            points,
        };
        match self {
            CityOfOneField => size(1, false, 6),
            CityOfTwoFields => size(2, false, 7),
            CityOfThreeFields => size(3, false, 8),
            CityOfSevenOrMoreFields => size(7, true, 9),
            CityWhiteTowers => Rule::CityTowersOf(White),
            CityGreyTowers => Rule::CityTowersOf(Grey),
            CityBlackTowers => Rule::CityTowersOf(Black),
            CityYellowBuildings => Rule::CityBuildingsOf(Yellow),
            CityGreenBuildings => Rule::CityBuildingsOf(Green),
            CityBlueBuildings => Rule::CityBuildingsOf(Blue),
            CityPinkBuildings => Rule::CityBuildingsOf(Pink),
            CityRedBuildings => Rule::CityBuildingsOf(Red),
            CityColourVariety => Rule::CityColourVariety,
            CityPalaces => Rule::CityPalaces,
            CityTowers => Rule::CityTowers,
            BoardYellowHouses => Rule::BoardHousesOf(Yellow),
            BoardGreenHouses => Rule::BoardHousesOf(Green),
            BoardBlueHouses => Rule::BoardHousesOf(Blue),
            BoardPinkHouses => Rule::BoardHousesOf(Pink),
            BoardRedHouses => Rule::BoardHousesOf(Red),
            BoardRegionAHouses => Rule::BoardHousesIn(Region::A),
            BoardRegionBHouses => Rule::BoardHousesIn(Region::B),
            BoardRegionCHouses => Rule::BoardHousesIn(Region::C),
            BoardWhiteTowers => Rule::BoardTowersOf(White),
            BoardGreyTowers => Rule::BoardTowersOf(Grey),
            BoardBlackTowers => Rule::BoardTowersOf(Black),
            BoardWalls => Rule::BoardWalls,
            BoardTowers => Rule::BoardTowers,
            BoardTowersAtWater => Rule::BoardTowersAtWater,
            ClosedCities => Rule::ClosedCities,
        }
    }

    pub fn scope(self) -> Scope {
        match self.rule() {
            Rule::CitySize { .. }
            | Rule::CityTowersOf(_)
            | Rule::CityBuildingsOf(_)
            | Rule::CityColourVariety
            | Rule::CityPalaces
            | Rule::CityTowers => Scope::City,
            Rule::ClosedCities => Scope::Neither,
            _ => Scope::Board,
        }
    }

    /// How many copies of the kind are in the game.
    pub fn copies(self) -> u8 {
        match self.rule() {
            Rule::CitySize { .. } | Rule::CityTowersOf(_) | Rule::CityBuildingsOf(_) => 2,
            Rule::CityColourVariety | Rule::CityPalaces | Rule::CityTowers => 3,
            Rule::BoardHousesOf(_) | Rule::BoardHousesIn(_) => 2,
            Rule::BoardTowersOf(_) => 1,
            Rule::BoardWalls | Rule::BoardTowers | Rule::BoardTowersAtWater => 2,
            Rule::ClosedCities => 2,
        }
    }

    /// What the card scores, in words (for clients to print).
    pub fn text(self) -> String {
        let towers = |c: TowerColour| format!("{c:?}").to_lowercase();
        let houses = |c: HouseColour| format!("{c:?}").to_lowercase();
        match self.rule() {
            Rule::CitySize {
                fields,
                or_more: false,
                points,
            } => format!(
                "{points} points if the city has exactly {fields} field{}",
                if fields == 1 { "" } else { "s" }
            ),
            Rule::CitySize { fields, points, .. } => {
                format!("{points} points if the city has {fields} or more fields")
            }
            Rule::CityTowersOf(c) => format!("2 points per {} tower of the city", towers(c)),
            Rule::CityBuildingsOf(c) => format!(
                "3 points per {0} palace and 1 per {0} house in the city",
                houses(c)
            ),
            Rule::CityColourVariety => "4 points if the city's houses and palaces show 2 or 3 \
                                        colours, 7 if they show 4 or 5"
                .into(),
            Rule::CityPalaces => "1 point per palace in the city (houses score nothing)".into(),
            Rule::CityTowers => "1 point per tower of the city, any colour".into(),
            Rule::BoardHousesOf(c) => {
                format!("1 point per {} house outside the closed cities", houses(c))
            }
            Rule::BoardHousesIn(r) => {
                format!("1 point per house in region {r:?} outside the closed cities")
            }
            Rule::BoardTowersOf(c) => {
                format!("2 points per {} tower outside the closed cities", towers(c))
            }
            Rule::BoardWalls => "1 point per wall outside the closed cities".into(),
            Rule::BoardTowers => "1 point per tower outside the closed cities".into(),
            Rule::BoardTowersAtWater => {
                "2 points per tower at the water outside the closed cities".into()
            }
            Rule::ClosedCities => "1 point per closed city on the board".into(),
        }
    }
}

/// A multiset of guild cards (a hand, the draw pile): how many of each kind. It has no order, so
/// a pile's order cannot leak: cards are drawn at random when they are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cards([u8; KINDS]);

impl Default for Cards {
    fn default() -> Self {
        Cards([0; KINDS])
    }
}

impl Cards {
    /// All 60 cards.
    pub fn full_deck() -> Cards {
        let mut cards = Cards::default();
        for card in GuildCard::ALL {
            cards.0[card.index()] = card.copies();
        }
        cards
    }

    pub fn count(&self, card: GuildCard) -> u8 {
        self.0[card.index()]
    }

    pub fn total(&self) -> u8 {
        self.0.iter().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    pub fn add(&mut self, card: GuildCard) {
        self.0[card.index()] = self.0[card.index()].saturating_add(1);
    }

    /// Takes one card of the kind, if there is one (evolve never fails).
    pub fn remove(&mut self, card: GuildCard) {
        self.0[card.index()] = self.0[card.index()].saturating_sub(1);
    }

    /// Holds all of `cards` (counting repeats)?
    pub fn contains_all(&self, cards: &[GuildCard]) -> bool {
        GuildCard::ALL
            .iter()
            .all(|&k| cards.iter().filter(|&&c| c == k).count() <= usize::from(self.count(k)))
    }

    /// The kinds held, in catalogue order.
    pub fn kinds(&self) -> impl Iterator<Item = GuildCard> + '_ {
        GuildCard::ALL.into_iter().filter(|&k| self.count(k) > 0)
    }

    /// Every card, in catalogue order (repeats repeated).
    pub fn to_vec(self) -> Vec<GuildCard> {
        GuildCard::ALL
            .into_iter()
            .flat_map(|k| std::iter::repeat_n(k, usize::from(self.count(k))))
            .collect()
    }

    /// The `n`-th card (0-based) in catalogue order.
    pub fn nth(&self, mut n: u8) -> Option<GuildCard> {
        for k in GuildCard::ALL {
            if n < self.count(k) {
                return Some(k);
            }
            n -= self.count(k);
        }
        None
    }
}

impl FromIterator<GuildCard> for Cards {
    fn from_iter<I: IntoIterator<Item = GuildCard>>(iter: I) -> Self {
        let mut cards = Cards::default();
        for card in iter {
            cards.add(card);
        }
        cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copies_where(f: impl Fn(Rule) -> bool) -> u32 {
        GuildCard::ALL
            .iter()
            .filter(|c| f(c.rule()))
            .map(|c| u32::from(c.copies()))
            .sum()
    }

    #[test]
    fn the_mix_is_the_rules_pages() {
        assert_eq!(Cards::full_deck().total(), CARDS);
        let city = |r: Rule| matches!(r, Rule::CitySize { .. });
        assert_eq!(copies_where(city), 8, "sizes 1, 2, 3 and 7+: two each");
        assert_eq!(copies_where(|r| matches!(r, Rule::CityTowersOf(_))), 6);
        assert_eq!(copies_where(|r| matches!(r, Rule::CityBuildingsOf(_))), 10);
        assert_eq!(copies_where(|r| r == Rule::CityColourVariety), 3);
        assert_eq!(copies_where(|r| r == Rule::CityPalaces), 3);
        assert_eq!(copies_where(|r| r == Rule::CityTowers), 3);
        assert_eq!(copies_where(|r| matches!(r, Rule::BoardHousesOf(_))), 10);
        assert_eq!(copies_where(|r| matches!(r, Rule::BoardHousesIn(_))), 6);
        assert_eq!(copies_where(|r| matches!(r, Rule::BoardTowersOf(_))), 3);
        assert_eq!(copies_where(|r| r == Rule::BoardWalls), 2);
        assert_eq!(copies_where(|r| r == Rule::BoardTowers), 2);
        assert_eq!(copies_where(|r| r == Rule::BoardTowersAtWater), 2);
        assert_eq!(copies_where(|r| r == Rule::ClosedCities), 2);
        let by_scope = |s: Scope| -> u32 {
            GuildCard::ALL
                .iter()
                .filter(|c| c.scope() == s)
                .map(|c| u32::from(c.copies()))
                .sum()
        };
        assert_eq!(
            (
                by_scope(Scope::City),
                by_scope(Scope::Board),
                by_scope(Scope::Neither)
            ),
            (33, 25, 2)
        );
    }

    #[test]
    fn kinds_are_in_catalogue_order() {
        for (i, card) in GuildCard::ALL.iter().enumerate() {
            assert_eq!(card.index(), i);
        }
        let json = serde_json::to_value(GuildCard::BoardTowersAtWater).unwrap();
        assert_eq!(json, "board_towers_at_water");
        assert_eq!(
            GuildCard::CityOfSevenOrMoreFields.text(),
            "9 points if the city has 7 or more fields"
        );
    }

    #[test]
    fn a_multiset_counts_repeats() {
        let hand: Cards = [
            GuildCard::BoardWalls,
            GuildCard::CityTowers,
            GuildCard::BoardWalls,
        ]
        .into_iter()
        .collect();
        assert_eq!(hand.total(), 3);
        assert!(hand.contains_all(&[GuildCard::BoardWalls, GuildCard::BoardWalls]));
        assert!(!hand.contains_all(&[GuildCard::CityTowers, GuildCard::CityTowers]));
        assert_eq!(
            hand.to_vec(),
            vec![
                GuildCard::CityTowers,
                GuildCard::BoardWalls,
                GuildCard::BoardWalls
            ]
        );
        assert_eq!(hand.nth(1), Some(GuildCard::BoardWalls));
        assert_eq!(hand.nth(3), None);
    }
}
