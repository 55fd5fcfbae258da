//! Scoring during play: a completed road 1 per tile, a city 2 per tile and 2 per pennant (a
//! two-tile city too), a cloister 9; for the players with the most followers on it.

use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

fn scored(events: &[CarcassonneEvent]) -> Vec<FeatureScored> {
    events
        .iter()
        .filter_map(|e| match e {
            CarcassonneEvent::FeatureScored(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_two_tile_city_scores_4() {
    let table = Table::new(2).follower(1, 0, 0, 0).lay(0, "E", 0, -1, 180);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(0, SkipFollower {})
        .accepted();
    assert_eq!(
        scored(&events),
        vec![FeatureScored {
            feature: FeatureKind::City,
            completed: true,
            tiles: positions(&[(0, 0), (0, -1)]),
            pennants: 0,
            base_points: 4,
            figure: None,
            points: 4,
            seats: vec![1],
        }]
    );
    assert_eq!(state.scores, vec![0, 4]);
}

#[test]
fn a_city_with_pennants_closed_by_a_merge_scores_2_per_tile_and_pennant_for_both_knights() {
    let table = city_in_two_parts(Table::new(3)).lay(2, "G", 1, -1, 0);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(2, SkipFollower {})
        .accepted();
    assert_eq!(
        until_next_turn(events)[1..],
        [
            FeatureScored {
                feature: FeatureKind::City,
                completed: true,
                tiles: positions(&[(0, 0), (0, -1), (2, 0), (2, -1), (1, -1)]),
                pennants: 2,
                base_points: 14,
                figure: None,
                points: 14,
                seats: vec![0, 1],
            }
            .into(),
            follower_returned(0, 0, -1, 0),
            follower_returned(1, 2, -1, 0),
        ]
    );
    assert_eq!(state.scores, vec![14, 14, 0]);
}

#[test]
fn the_merging_tile_cannot_take_a_knight_into_the_occupied_city() {
    let table = city_in_two_parts(Table::new(3)).lay(2, "G", 1, -1, 0);
    given::<Carcassonne>(table.events)
        .when(2, PlaceFollower { segment: 0 })
        .then_error("feature_occupied");
}

#[test]
fn a_cloister_with_all_eight_neighbours_scores_9() {
    let table = cloister_nearly_surrounded(Table::new(2)).lay(0, "E", 1, 2, 180);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(0, SkipFollower {})
        .accepted();
    assert_eq!(
        until_next_turn(events)[1..],
        [
            FeatureScored {
                feature: FeatureKind::Cloister,
                completed: true,
                tiles: positions(&[
                    (0, 0),
                    (0, 1),
                    (-1, 0),
                    (1, 0),
                    (-1, 1),
                    (1, 1),
                    (-1, 2),
                    (0, 2),
                    (1, 2)
                ]),
                pennants: 0,
                base_points: 9,
                figure: None,
                points: 9,
                seats: vec![1],
            }
            .into(),
            follower_returned(1, 0, 1, 1),
        ]
    );
    assert_eq!(state.scores, vec![0, 9]);
}

#[test]
fn a_completed_road_scores_1_per_tile() {
    // A road from the start tile's west end (cloister A, where it ends) to a junction L east.
    let table = Table::new(2)
        .lay(0, "A", -1, 0, 270)
        .lay(1, "U", 1, 0, 0)
        .follower(1, 1, 0, 0)
        .lay(0, "L", 2, 0, 0);
    let (events, _) = given::<Carcassonne>(table.events)
        .when(0, SkipFollower {})
        .accepted();
    let road = &scored(&events)[0];
    assert_eq!(
        (road.feature, road.points, road.seats.clone()),
        (FeatureKind::Road, 4, vec![1])
    );
    assert_eq!(road.tiles, positions(&[(0, 0), (-1, 0), (1, 0), (2, 0)]));
}

#[test]
fn a_completed_feature_without_followers_scores_for_nobody() {
    let table = Table::new(2).lay(0, "E", 0, -1, 180);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(0, SkipFollower {})
        .accepted();
    assert!(scored(&events).is_empty());
    assert_eq!(state.scores, vec![0, 0]);
}

#[test]
fn one_tile_may_complete_several_features_each_scored() {
    let table = city_and_cloister_open(Table::new(2)).lay(0, "E", 0, -1, 180);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(0, SkipFollower {})
        .accepted();
    let scored: Vec<(FeatureKind, u32, Vec<u8>)> = scored(&events)
        .into_iter()
        .map(|s| (s.feature, s.points, s.seats))
        .collect();
    assert_eq!(
        scored,
        vec![
            (FeatureKind::City, 4, vec![0]),
            (FeatureKind::Cloister, 9, vec![1])
        ]
    );
    assert_eq!(state.scores, vec![4, 9]);
    assert_eq!(state.home, vec![7, 7]);
}

#[test]
fn a_road_closed_into_a_loop_through_two_ends_of_the_tile_scores_once() {
    // Curves round (1,1), (1,2) and (0,2), seat 1's thief on the first; the junction W at
    // (0,1) meets the loop with its east and its south road: two segments of one road.
    let mut events = Table::new(2)
        .lay(0, "V", 1, 0, 90)
        .lay(1, "V", 1, 1, 0)
        .follower(1, 1, 1, 0)
        .lay(0, "V", 1, 2, 90)
        .lay(1, "V", 0, 2, 180)
        .drawn(0, "W");
    events.push(placed(0, "W", 0, 1, 0));
    let (events, state) = given::<Carcassonne>(events)
        .when(0, SkipFollower {})
        .accepted();
    assert_eq!(
        scored(&events),
        vec![FeatureScored {
            feature: FeatureKind::Road,
            completed: true,
            tiles: positions(&[(1, 1), (1, 2), (0, 2), (0, 1)]),
            pennants: 0,
            base_points: 4,
            figure: None,
            points: 4,
            seats: vec![1],
        }],
        "one road, scored once, each tile once"
    );
    assert_eq!(state.scores, vec![0, 4]);
    assert_eq!(state.home, vec![7, 7], "the thief is home");
}
