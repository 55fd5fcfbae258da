//! Closing and joining cities, on hand-built boards.

use super::super::commands::*;
use super::super::guild_cards::GuildCard;
use super::super::phase::{step, Step};
use super::super::pieces::HouseColour::*;
use super::super::pieces::TowerColour::*;
use super::super::tests::test_support::*;
use super::super::Mauerbauer;
use super::*;
use crate::contract::{Ctx, Game};
use crate::testing::given;

fn set(fields: &[FieldId]) -> FieldSet {
    fields.iter().fold(0, |s, &f| s | 1 << f)
}

// Field 20 has the sides 31, 33 and 35 and the corners 12, 13 and 18; field 21 (across line
// 35) has the sides 35, 36 and 47.

#[test]
fn a_single_field_closes_when_its_third_wall_is_built() {
    let events = Layout::new(2)
        .walls(&[31, 33])
        .towers(&[(12, White), (13, Grey), (18, Black)])
        .events();
    let state = given::<Mauerbauer>(events).state;
    assert!(!would_close(&state, 34));
    assert!(would_close(&state, 35));
    let (events, after) = build(&state, 35, 1);
    assert_eq!(
        events_of!(events, CityWalledIn),
        vec![CityWalledIn {
            city: 0,
            fields: vec![20],
            walls_returned: vec![],
            towers_returned: vec![],
        }]
    );
    let city = after.city(0).unwrap();
    assert_eq!(
        city.houses.iter().sum::<u8>(),
        1,
        "the house just placed is the city's"
    );
    assert_eq!(after.houses[20], [0; 5]);
    assert_eq!(
        after.houses[21].iter().sum::<u8>(),
        1,
        "the other side stays open"
    );
    assert_eq!(city_towers(&after, city).len(), 3);
    assert_eq!(
        ids128(city_walls(city)).collect::<Vec<_>>(),
        vec![31, 33, 35]
    );
    assert_eq!(after.city_at(20).map(|c| c.id), Some(0));
}

#[test]
fn a_city_along_the_rim_is_closed_only_by_its_rim_walls() {
    // Fields 0 and 1: rim lines 0 and 1, lines 4 and 15 to the fields beside them.
    let state = given::<Mauerbauer>(Layout::new(2).walls(&[0, 4, 15]).events()).state;
    let region = reach(state.walls, 0);
    assert_eq!(region, set(&[0, 1]));
    assert!(
        !enclosed(state.walls, region),
        "open to the water at line 1"
    );
    let (events, after) = build(&state, 1, 3);
    assert_eq!(events_of!(events, CityWalledIn)[0].fields, vec![0, 1]);
    let houses = events_of!(events, HousesPlaced);
    assert_eq!(houses[0].houses.len(), 1, "a rim wall takes one house");
    assert_eq!(after.city(0).unwrap().houses.iter().sum::<u8>(), 1);
}

#[test]
fn walls_and_towers_strictly_inside_go_back_to_the_supply() {
    // The six fields around vertex 7, with a wall on line 4 (from vertex 7 to 1) and a tower on
    // vertex 7 inside; the boundary is lines 2, 3, 7, 17, 22 and 31.
    let events = Layout::new(2)
        .walls(&[4, 2, 3, 7, 17, 22])
        .towers(&[(7, Grey), (1, White)])
        .events();
    let state = given::<Mauerbauer>(events).state;
    assert_eq!(state.supply.walls, 27);
    let (events, after) = build(&state, 31, 5);
    let closed = &events_of!(events, CityWalledIn)[0];
    assert_eq!(closed.fields, vec![1, 2, 3, 10, 11, 12]);
    assert_eq!(closed.walls_returned, vec![4]);
    assert_eq!(
        closed.towers_returned,
        vec![TowerPlacement {
            vertex: 7,
            colour: Grey
        }]
    );
    assert_eq!(after.supply.walls, 27, "one built, one back");
    assert_eq!(after.towers[7], None);
    assert_eq!(after.towers[1], Some(White), "a boundary tower stays");
    let on_board = after.towers.iter().filter(|t| **t == Some(Grey)).count();
    assert_eq!(usize::from(after.supply.towers[1]) + on_board, 10);
    // Inside the city no wall may be built any more.
    let refused = Mauerbauer::decide(
        &after,
        after.turn,
        &BuildWall { line: 4 }.into(),
        &mut ctx(),
    );
    assert_eq!(refused.unwrap_err().code, "line_inside_city");
}

fn ctx() -> Ctx {
    Ctx::new(0, 0)
}

#[test]
fn no_wall_on_a_wall_inside_a_city_or_off_the_board() {
    let state = given::<Mauerbauer>(Layout::new(2).city(&[1, 2, 3, 10, 11, 12]).events()).state;
    let wall = |line| {
        Mauerbauer::decide(&state, 0, &BuildWall { line }.into(), &mut ctx())
            .map(|_| ())
            .map_err(|e| e.code)
    };
    assert_eq!(wall(4), Err("line_inside_city"));
    assert_eq!(wall(2), Err("line_has_wall"));
    assert_eq!(wall(77), Err("no_such_line"));
    assert_eq!(wall(5), Ok(()));
    assert_eq!(
        Mauerbauer::decide(&state, 1, &BuildWall { line: 5 }.into(), &mut ctx())
            .unwrap_err()
            .code,
        "not_your_turn"
    );
}

#[test]
fn every_two_houses_of_a_colour_become_a_palace() {
    let state = Layout::new(2)
        .houses(&[
            (20, Red),
            (20, Red),
            (20, Blue),
            (20, Blue),
            (20, Blue),
            (20, Green),
        ])
        .city(&[20])
        .state()
        .clone();
    let city = state.city(0).unwrap();
    assert_eq!(city.palaces, [0, 0, 1, 0, 1], "a blue and a red palace");
    assert_eq!(
        city.houses,
        [0, 1, 1, 0, 0],
        "a green and a blue house left"
    );
    assert_eq!(state.supply.houses, [12, 11, 11, 12, 12]);
    assert_eq!(state.supply.palaces, [3, 3, 2, 3, 2]);
}

#[test]
fn palaces_are_built_only_while_the_supply_has_them() {
    let state = Layout::new(2)
        .houses(&[(20, Red), (20, Red), (20, Red), (20, Red)])
        .city(&[20])
        .houses(&[(22, Red), (22, Red), (22, Red), (22, Red), (22, Red)])
        .city(&[22])
        .state()
        .clone();
    assert_eq!(state.city(0).unwrap().palaces[4], 2);
    let second = state.city(1).unwrap();
    assert_eq!(second.palaces[4], 1, "the last red palace");
    assert_eq!(second.houses[4], 3, "the other houses stay");
    assert_eq!(state.supply.palaces[4], 0);
    assert_eq!(
        palaces_for(second, &state.supply),
        vec![],
        "none left to build"
    );
}

#[test]
fn a_new_city_may_join_a_neighbour_and_then_builds_palaces_again() {
    // City 0 is field 20 with a red house; field 21 gets a red house and is closed by line 47.
    let events = Layout::new(2)
        .houses(&[(20, Red)])
        .city(&[20])
        .walls(&[36])
        .towers(&[(13, White), (18, White), (19, White)])
        .houses(&[(21, Red)])
        .events();
    let state = given::<Mauerbauer>(events).state;
    let (_, closing) = build(&state, 47, 11);
    assert_eq!(step(&closing), Step::JoinCities);
    assert_eq!(
        Mauerbauer::legal_commands(&closing, 0),
        vec![
            JoinCities { city: 1, with: 0 }.into(),
            KeepCitiesApart {}.into()
        ]
    );
    let (events, joined) = act(&closing, 0, JoinCities { city: 1, with: 0 });
    assert_eq!(
        events_of!(events, GuildScoringStarted)[0].city,
        0,
        "the joined city is scored"
    );
    assert_eq!(
        events_of!(events, WalledCitiesJoined),
        vec![WalledCitiesJoined {
            seat: 0,
            city: 0,
            joined: 1,
            walls_returned: vec![35],
            towers_returned: vec![],
        }]
    );
    assert_eq!(joined.cities.len(), 1);
    let city = joined.city(0).unwrap();
    assert_eq!(city.fields, set(&[20, 21]));
    assert!(city.palaces[4] >= 1, "the two red houses met: {city:?}");
    assert!(
        city.houses.iter().all(|&h| h < 2),
        "every pair became a palace"
    );
    assert_eq!(joined.walls & 1 << 35, 0);
    assert_eq!(joined.supply.walls, closing.supply.walls + 1);
}

#[test]
fn a_city_joins_exactly_one_of_its_neighbours() {
    // Fields 20 and 22 are cities; field 21 between them closes with line 47.
    let events = Layout::new(2)
        .city(&[20])
        .city(&[22])
        .towers(&[(13, White), (18, White), (19, White)])
        .events();
    let state = given::<Mauerbauer>(events).state;
    let (_, closing) = build(&state, 47, 2);
    assert_eq!(join_options(&closing), vec![(2, 0), (2, 1)]);
    let refused = |city, with| {
        Mauerbauer::decide(&closing, 0, &JoinCities { city, with }.into(), &mut ctx())
            .unwrap_err()
            .code
    };
    assert_eq!(
        refused(0, 2),
        "join_not_allowed",
        "the new city comes first"
    );
    assert_eq!(
        refused(0, 1),
        "join_not_allowed",
        "two old cities never join"
    );
    assert_eq!(refused(2, 9), "join_not_allowed");
    let (_, joined) = act(&closing, 0, JoinCities { city: 2, with: 1 });
    assert_eq!(joined.cities.len(), 2, "city 0 stays apart");
    assert_ne!(step(&joined), Step::JoinCities, "one join only");
}

#[test]
fn a_wall_can_close_a_city_on_each_side() {
    let events = Layout::new(2)
        .walls(&[31, 33, 36, 47])
        .towers(&[(13, White), (18, White)])
        .hand(0, &[GuildCard::ClosedCities])
        .hand(1, &[GuildCard::BoardWalls])
        .events();
    let state = given::<Mauerbauer>(events).state;
    let (events, closing) = build(&state, 35, 4);
    let closed = events_of!(events, CityWalledIn);
    assert_eq!(closed.len(), 2);
    assert_eq!((closed[0].city, &closed[0].fields), (0, &vec![20]));
    assert_eq!((closed[1].city, &closed[1].fields), (1, &vec![21]));
    assert_eq!(join_options(&closing), vec![(0, 1)]);
    // Kept apart, each is scored in its own round, the lower field first.
    let (events, apart) = act(&closing, 0, KeepCitiesApart {});
    assert_eq!(
        events_of!(events, GuildScoringStarted),
        vec![GuildScoringStarted {
            city: 0,
            order: vec![0, 1]
        }]
    );
    let (_, next) = act(
        &apart,
        0,
        LayGuildCards {
            cards: vec![GuildCard::ClosedCities],
        },
    );
    let (_, swapping) = act(
        &next,
        1,
        LayGuildCards {
            cards: vec![GuildCard::BoardWalls],
        },
    );
    assert_eq!(
        step(&swapping),
        Step::CardSwap(1),
        "the last player may swap first"
    );
    let (events, _) = act(&swapping, 1, FinishCardSwap {});
    let started = events_of!(events, GuildScoringStarted);
    assert_eq!(started[0].city, 1, "then the second city is scored");
}

#[test]
fn two_cities_closed_at_once_may_join_each_other() {
    let events = Layout::new(2)
        .walls(&[31, 33, 36, 47])
        .towers(&[(13, White), (18, White)])
        .events();
    let state = given::<Mauerbauer>(events).state;
    let (_, closing) = build(&state, 35, 4);
    let (events, joined) = act(&closing, 0, JoinCities { city: 0, with: 1 });
    assert_eq!(
        events_of!(events, WalledCitiesJoined)[0].walls_returned,
        vec![35],
        "the wall just built goes back"
    );
    assert_eq!(joined.city(0).unwrap().fields, set(&[20, 21]));
    let rounds = events_of!(events, GuildScoringStarted);
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0].city, 0);
}

#[test]
fn a_region_with_a_gap_in_its_walls_is_no_city() {
    let state = given::<Mauerbauer>(Layout::new(2).walls(&[31, 33, 36]).events()).state;
    let region = reach(state.walls, 20);
    assert_eq!(
        region & set(&[20, 21]),
        set(&[20, 21]),
        "connected across line 35"
    );
    assert!(!enclosed(state.walls, region));
    assert!(newly_enclosed(&state, 31).is_empty());
}
