//! Farmers: at the end, 3 points per distinct completed city a field borders, for the players
//! with the most farmers in it.

use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

fn farms(events: &[CarcassonneEvent]) -> Vec<FarmScored> {
    events
        .iter()
        .filter_map(|e| match e {
            CarcassonneEvent::FarmScored(f) => Some(f.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_field_touching_the_same_city_twice_counts_it_once() {
    // The field north of the start tile's road runs round through U(1,0) and the cloister at
    // (1,-1) into the E north of the city: it borders the closed two-tile city on both tiles.
    let table = Table::with(2, CarcassonneOptions::default(), &[])
        .follower(0, 0, 0, 2)
        .lay(1, "E", 0, -1, 180)
        .lay(0, "U", 1, 0, 0)
        .lay(1, "B", 1, -1, 0);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .accepted();
    assert_eq!(
        farms(&events),
        vec![FarmScored {
            tiles: positions(&[(0, 0), (0, -1), (1, 0), (1, -1)]),
            cities: 1,
            points: 3,
            seats: vec![0],
        }]
    );
    assert_eq!(state.scores, vec![3, 0]);
}

#[test]
fn an_unfinished_city_earns_a_field_nothing() {
    let table = Table::with(2, CarcassonneOptions::default(), &[])
        .follower(0, 0, 0, 2)
        .lay(1, "U", 1, 0, 0);
    let (events, _) = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .accepted();
    let farm = &farms(&events)[0];
    assert_eq!(
        (farm.cities, farm.points, farm.seats.clone()),
        (0, 0, vec![0])
    );
}

#[test]
fn the_most_farmers_take_the_field() {
    // Three fields with one farmer each — seat 1 in the E north of the city and south of the
    // road, seat 0 north of the road — joined: the cloister at (1,-1) joins the first two, the
    // cloister-road tile A at (2,0), where the road ends, joins north and south of the road.
    let table = Table::with(2, CarcassonneOptions::default(), &[])
        .lay(0, "E", 0, -1, 180)
        .follower(1, 0, -1, 1)
        .lay(0, "U", 1, 0, 0)
        .follower(0, 1, 0, 1)
        .lay(0, "B", 0, 1, 0)
        .follower(1, 0, 1, 0)
        .lay(0, "B", 1, -1, 0)
        .lay(1, "A", 2, 0, 90);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .accepted();
    let farms = farms(&events);
    assert_eq!(farms.len(), 1, "one field");
    assert_eq!(
        (farms[0].cities, farms[0].points, farms[0].seats.clone()),
        (1, 3, vec![1])
    );
    assert_eq!(farms[0].tiles.len(), 6);
    assert_eq!(state.scores, vec![0, 3]);
}

#[test]
fn fields_score_only_at_the_end() {
    // The city closes during play: the farmer beside it scores nothing yet.
    let table = Table::new(2).follower(0, 0, 0, 2).lay(1, "E", 0, -1, 180);
    let (events, _) = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .accepted();
    assert!(farms(&events).is_empty());
}
