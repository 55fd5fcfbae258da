//! The rulebook's worked scoring (page 8): player A closes the 7-field city X, and the four
//! players lay their cards in turn.
//!
//! Our board: X is fields 0, 1, 2, 9, 10, 11, 12 (region A, at the left water), closed by A with
//! the rim wall on line 0, whose ends already hold towers; seven towers stand on X's boundary.
//! Three more cities (fields 22, 34 and 42) make four. Outside every city: five towers at the
//! water, six walls, six red houses, and seven houses in region C.

use super::super::commands::*;
use super::super::events::*;
use super::super::guild_cards::GuildCard::{self, *};
use super::super::pieces::HouseColour::*;
use super::super::pieces::TowerColour::*;
use super::super::state::*;
use super::super::Mauerbauer;
use super::test_support::*;
use crate::testing::given;

fn city_x_about_to_close() -> State {
    let layout = Layout::new(4)
        .walls(&[1, 2, 6, 16, 18, 22, 29, 31])
        .towers(&[
            (0, White),
            (1, Grey),
            (2, Black),
            (6, White),
            (7, Grey),
            (8, Black),
            (11, White),
        ])
        .city(&[22])
        .houses(&[(34, Red)])
        .city(&[34])
        .city(&[42])
        .towers(&[
            (5, Grey),
            (10, Grey),
            (16, Black),
            (28, White),
            (32, Black),
            (4, White),
        ])
        .walls(&[11, 24, 27, 40, 57, 72])
        .houses(&[
            (8, Red),
            (8, Red),
            (16, Red),
            (16, Red),
            (26, Red),
            (44, Red),
            (7, Yellow),
        ])
        .hand(
            0,
            &[CityOfSevenOrMoreFields, BoardTowersAtWater, CityPalaces],
        )
        .hand(1, &[BoardWalls, CityOfOneField])
        .hand(2, &[ClosedCities, BoardRedHouses])
        .hand(3, &[BoardRegionCHouses, CityTowers, BoardGreyTowers]);
    assert_eq!(layout.state().cities.len(), 3);
    given::<Mauerbauer>(layout.events()).state
}

fn lay(state: &State, seat: u8, cards: &[GuildCard]) -> (i64, State) {
    let (events, after) = act(
        state,
        seat,
        LayGuildCards {
            cards: cards.to_vec(),
        },
    );
    let laid = &events_of!(events, GuildCardsLaid)[0];
    assert_eq!(laid.seat, seat);
    (laid.points, after)
}

#[test]
fn the_scoring_of_city_x() {
    let state = city_x_about_to_close();
    let (events, state) = build(&state, 0, 1);
    let dice = &events_of!(events, MauerbauerDiceRolled)[0];
    assert_eq!(
        dice.tower, None,
        "towers stand on both ends: the tower die is not rolled"
    );
    let x = &events_of!(events, CityWalledIn)[0];
    assert_eq!(x.fields, vec![0, 1, 2, 9, 10, 11, 12]);
    assert_eq!(state.round.as_ref().unwrap().order, vec![0, 1, 2, 3]);

    // A: the city has 7 fields (9) and five towers stand at the water outside (10).
    let (a, state) = lay(&state, 0, &[CityOfSevenOrMoreFields, BoardTowersAtWater]);
    assert_eq!(a, 9 + 10);
    // B: six walls outside the closed cities.
    let (b, state) = lay(&state, 1, &[BoardWalls]);
    assert_eq!(b, 6);
    // C: six red houses outside (6) and four closed cities (4). Cards are listed in catalogue
    // order, whatever order they are played in at the table.
    let (c, state) = lay(&state, 2, &[BoardRedHouses, ClosedCities]);
    assert_eq!(c, 4 + 6);
    // D: seven houses in region C outside the cities (7), seven towers in city X (7).
    let (d, state) = lay(&state, 3, &[CityTowers, BoardRegionCHouses]);
    assert_eq!(d, 7 + 7);
    assert_eq!(state.scores, vec![20, 7, 11, 15], "each started on 1");
}
