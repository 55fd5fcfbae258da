//! What each kind of guild card scores, on one hand-built board.
//!
//! City 0 is field 20 with a white, a grey and a black tower on its corners 12, 13, 18, and
//! three red houses (one red palace and a red house after closing), a blue and a green house.
//! Outside every city: a white tower at the water (vertex 0) and one inland (vertex 2), a black
//! one at the water (5), a grey one at the water (11); walls on lines 0 and 2; a yellow house in
//! field 0 (region A), two pink in field 4 (B) and a red one in field 8 (C).

use super::super::guild_cards::GuildCard::{self, *};
use super::super::pieces::HouseColour::{self, *};
use super::super::pieces::TowerColour::*;
use super::super::tests::test_support::*;
use super::*;

fn board_with_one_city() -> State {
    Layout::new(2)
        .towers(&[(12, White), (13, Grey), (18, Black)])
        .houses(&[(20, Red), (20, Red), (20, Red), (20, Blue), (20, Green)])
        .city(&[20])
        .towers(&[(0, White), (2, White), (5, Black), (11, Grey)])
        .walls(&[0, 2])
        .houses(&[(0, Yellow), (4, Pink), (4, Pink), (8, Red)])
        .state()
        .clone()
}

fn scores(state: &State, cards: &[GuildCard]) -> Vec<i64> {
    let city = state.city(0);
    cards.iter().map(|&c| points(state, c, city)).collect()
}

#[test]
fn size_cards_score_a_city_of_exactly_their_size() {
    let state = board_with_one_city();
    assert_eq!(
        scores(
            &state,
            &[
                CityOfOneField,
                CityOfTwoFields,
                CityOfThreeFields,
                CityOfSevenOrMoreFields
            ]
        ),
        vec![6, 0, 0, 0]
    );
    let two = Layout::new(2).city(&[20, 21]).state().clone();
    assert_eq!(scores(&two, &[CityOfOneField, CityOfTwoFields]), vec![0, 7]);
    let three = Layout::new(2).city(&[20, 21, 22]).state().clone();
    assert_eq!(scores(&three, &[CityOfThreeFields]), vec![8]);
    let seven = Layout::new(2)
        .city(&[10, 11, 12, 13, 20, 21, 22])
        .state()
        .clone();
    assert_eq!(
        scores(&seven, &[CityOfSevenOrMoreFields, CityOfThreeFields]),
        vec![9, 0]
    );
    let nine = Layout::new(2)
        .city(&[1, 2, 3, 10, 11, 12, 13, 20, 21])
        .state()
        .clone();
    assert_eq!(
        scores(&nine, &[CityOfSevenOrMoreFields]),
        vec![9],
        "or more"
    );
}

#[test]
fn tower_colour_cards_score_two_per_tower_of_the_colour_around_the_city() {
    let state = board_with_one_city();
    assert_eq!(
        scores(&state, &[CityWhiteTowers, CityGreyTowers, CityBlackTowers]),
        vec![2, 2, 2]
    );
}

#[test]
fn colour_cards_score_three_per_palace_and_one_per_house_of_the_colour() {
    let state = board_with_one_city();
    assert_eq!(
        scores(
            &state,
            &[
                CityYellowBuildings,
                CityGreenBuildings,
                CityBlueBuildings,
                CityPinkBuildings,
                CityRedBuildings
            ]
        ),
        vec![0, 1, 1, 0, 3 + 1]
    );
}

#[test]
fn the_variety_card_scores_four_for_two_or_three_colours_and_seven_for_four_or_five() {
    let state = board_with_one_city();
    assert_eq!(
        scores(&state, &[CityColourVariety]),
        vec![4],
        "red, blue, green"
    );
    let variety = |houses: &[(u8, HouseColour)]| {
        let state = Layout::new(2).houses(houses).city(&[20]).state().clone();
        scores(&state, &[CityColourVariety])[0]
    };
    assert_eq!(variety(&[]), 0);
    assert_eq!(variety(&[(20, Red), (20, Red)]), 0, "one colour (a palace)");
    assert_eq!(variety(&[(20, Red), (20, Blue)]), 4);
    assert_eq!(
        variety(&[(20, Red), (20, Blue), (20, Pink), (20, Yellow)]),
        7
    );
    assert_eq!(
        variety(&[(20, Red), (20, Blue), (20, Pink), (20, Yellow), (20, Green)]),
        7
    );
}

#[test]
fn palace_and_tower_cards_count_every_colour() {
    let state = board_with_one_city();
    assert_eq!(scores(&state, &[CityPalaces, CityTowers]), vec![1, 3]);
}

#[test]
fn house_cards_count_houses_outside_the_closed_cities() {
    let state = board_with_one_city();
    assert_eq!(
        scores(
            &state,
            &[
                BoardYellowHouses,
                BoardGreenHouses,
                BoardBlueHouses,
                BoardPinkHouses,
                BoardRedHouses
            ]
        ),
        vec![1, 0, 0, 2, 1],
        "the city's red, blue and green do not count"
    );
    assert_eq!(
        scores(
            &state,
            &[BoardRegionAHouses, BoardRegionBHouses, BoardRegionCHouses]
        ),
        vec![1, 2, 1],
        "field 20 is in region A but in a city"
    );
}

#[test]
fn tower_cards_count_towers_on_no_city_and_in_none() {
    let state = board_with_one_city();
    assert_eq!(
        scores(
            &state,
            &[BoardWhiteTowers, BoardGreyTowers, BoardBlackTowers]
        ),
        vec![4, 2, 2]
    );
    assert_eq!(
        scores(&state, &[BoardTowers, BoardTowersAtWater]),
        vec![4, 6]
    );
    // A tower on a city's boundary does not count, even at the water.
    let rim = Layout::new(2)
        .towers(&[(0, White), (5, White)])
        .city(&[0])
        .state()
        .clone();
    assert_eq!(scores(&rim, &[BoardTowersAtWater, BoardTowers]), vec![2, 1]);
}

#[test]
fn the_wall_card_counts_walls_outside_the_closed_cities() {
    let state = board_with_one_city();
    assert_eq!(
        scores(&state, &[BoardWalls]),
        vec![2],
        "not the city's three"
    );
}

#[test]
fn the_closed_cities_card_counts_every_closed_city() {
    let state = board_with_one_city();
    assert_eq!(scores(&state, &[ClosedCities]), vec![1]);
    let more = Layout::new(2)
        .city(&[20])
        .city(&[40])
        .city(&[0, 1])
        .state()
        .clone();
    assert_eq!(scores(&more, &[ClosedCities]), vec![3]);
}

#[test]
fn city_cards_score_nothing_without_a_city() {
    let state = board_with_one_city();
    for card in GuildCard::ALL {
        if card.scope() == super::super::guild_cards::Scope::City {
            assert_eq!(points(&state, card, None), 0, "{card:?}");
        }
    }
}
