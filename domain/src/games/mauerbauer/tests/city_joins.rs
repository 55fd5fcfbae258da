//! Joining a city just closed with an older neighbour: the walls between them and every tower
//! the join leaves strictly inside go back to the supply.

use super::super::commands::*;
use super::super::phase::{step, Step};
use super::super::pieces::Colour;
use super::super::pieces::TowerColour::*;
use super::super::tests::test_support::*;
use super::super::Mauerbauer;
use super::*;
use crate::testing::given;

// The six fields around vertex 7: 1, 2, 3, 10, 11 and 12. Field 12 meets field 3 on line 18
// (vertices 7–8) and field 11 on line 20 (vertices 7–13); its third side is line 22 (8–13).

#[test]
fn a_join_returns_the_towers_it_leaves_strictly_inside() {
    // The old city: the five fields around vertex 7 but field 12; the grey tower on vertex 7
    // stands on its boundary, so closing it left the tower in place.
    let events = Layout::new(2)
        .towers(&[(7, Grey), (8, White), (13, Black)])
        .city(&[1, 2, 3, 10, 11])
        .events();
    let state = given::<Mauerbauer>(events).state;
    assert_eq!(state.towers[7], Some(Grey));
    let grey_in_supply = state.supply.towers[Grey.index()];
    let walls_in_supply = state.supply.walls;
    // Line 22 closes field 12, which shares lines 18 and 20 with the old city.
    let (events, closing) = build(&state, 22, 3);
    assert_eq!(events_of!(events, CityWalledIn)[0].fields, vec![12]);
    assert_eq!(step(&closing), Step::JoinCities);
    assert_eq!(join_options(&closing), vec![(1, 0)]);
    let (events, joined) = act(&closing, 0, JoinCities { city: 1, with: 0 });
    assert_eq!(
        events_of!(events, WalledCitiesJoined),
        vec![WalledCitiesJoined {
            seat: 0,
            city: 0,
            joined: 1,
            walls_returned: vec![18, 20],
            towers_returned: vec![TowerPlacement {
                vertex: 7,
                colour: Grey
            }],
        }]
    );
    assert_eq!(joined.towers[7], None);
    assert_eq!(joined.towers[8], Some(White), "a boundary tower stays");
    assert_eq!(joined.supply.towers[Grey.index()], grey_in_supply + 1);
    assert_eq!(
        joined.supply.walls,
        walls_in_supply - 1 + 2,
        "one built, two back"
    );
    let city = joined.city(0).expect("the joined city keeps the old id");
    assert_eq!(city.fields.count_ones(), 6);
    assert!(city_towers(&joined, city).iter().all(|t| t.vertex != 7));
    // Nobody holds cards: no scoring round, the next player builds, but never where the
    // returned walls stood.
    for line in [18, 20] {
        assert_eq!(
            refused(&joined, joined.turn, BuildWall { line }),
            "line_inside_city"
        );
    }
}
