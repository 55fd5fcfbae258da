//! Followers: one on a segment of the new tile whose feature holds none, 7 per player, home
//! again when their feature is completed; the most followers on a feature score it, all tied
//! players in full.

use crate::contract::Game;
use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

#[test]
fn a_follower_goes_on_a_free_feature_of_the_new_tile() {
    let state = given::<Carcassonne>(Table::new(2).lay(0, "U", 1, 0, 0).events)
        .when(0, PlaceFollower { segment: 1 })
        .then([
            FollowerPlaced {
                seat: 0,
                x: 1,
                y: 0,
                segment: 1,
                feature: FeatureKind::Field,
            }
            .into(),
            tile_drawn(1, "B"),
        ]);
    assert_eq!(state.home, vec![6, 7]);
}

#[test]
fn a_feature_with_a_follower_takes_no_other() {
    // A thief stands on the start tile's road; the U east of it joins that road.
    let table = Table::new(2)
        .lay(1, "U", -1, 0, 0)
        .follower(1, -1, 0, 0)
        .lay(0, "U", 1, 0, 0);
    given::<Carcassonne>(table.events.clone())
        .when(0, PlaceFollower { segment: 0 })
        .then_error("feature_occupied");
    let state = given::<Carcassonne>(table.events.clone()).state;
    assert_eq!(
        Carcassonne::legal_commands(&state, 0),
        vec![
            SkipFollower {}.into(),
            PlaceFollower { segment: 1 }.into(),
            PlaceFollower { segment: 2 }.into(),
        ],
        "the fields north and south of the road are free"
    );
    given::<Carcassonne>(table.events)
        .when(0, PlaceFollower { segment: 3 })
        .then_error("no_such_segment");
}

#[test]
fn a_follower_may_go_on_a_feature_the_tile_completes_and_comes_home_at_once() {
    // E turned half way closes the start tile's city: a knight there scores 4 and goes home.
    let table = Table::new(2).lay(0, "E", 0, -1, 180);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(0, PlaceFollower { segment: 0 })
        .accepted();
    assert_eq!(
        until_next_turn(events),
        vec![
            FollowerPlaced {
                seat: 0,
                x: 0,
                y: -1,
                segment: 0,
                feature: FeatureKind::City
            }
            .into(),
            FeatureScored {
                feature: FeatureKind::City,
                completed: true,
                tiles: positions(&[(0, 0), (0, -1)]),
                pennants: 0,
                base_points: 4,
                figure: None,
                points: 4,
                seats: vec![0],
            }
            .into(),
            follower_returned(0, 0, -1, 0),
        ]
    );
    assert_eq!(state.home, vec![7, 7]);
    assert_eq!(state.scores, vec![4, 0]);
}

#[test]
fn a_player_with_all_followers_out_has_none_to_place() {
    let mut table = Table::new(2);
    for x in 1..=7 {
        table = table.lay(1, "U", x, 0, 0).follower(1, x, 0, 2);
    }
    let table = table.lay(1, "E", 0, -1, 180);
    given::<Carcassonne>(table.events.clone())
        .when(1, PlaceFollower { segment: 1 })
        .then_error("no_follower_left");
    let state = given::<Carcassonne>(table.events).state;
    assert_eq!(
        Carcassonne::legal_commands(&state, 1),
        vec![SkipFollower {}.into()]
    );
}

/// Two roads, each with a thief: L(-2,0)–U(-1,0)–D–U(1,0) (seat 0's) and the west arm of the
/// junction W(3,0) (`second`'s); the cloisters north of them only lead the board to (3,0).
fn two_roads(second: u8) -> Table {
    Table::new(3)
        .lay(0, "U", -1, 0, 0)
        .follower(0, -1, 0, 0)
        .lay(1, "L", -2, 0, 0)
        .lay(2, "U", 1, 0, 0)
        .lay(0, "B", 1, -1, 0)
        .lay(1, "B", 2, -1, 0)
        .lay(2, "B", 3, -1, 0)
        .lay(0, "W", 3, 0, 0)
        .follower(second, 3, 0, 2)
}

#[test]
fn tied_players_each_score_the_whole_feature() {
    // U at (2,0) joins the two roads into one closed road of 6 tiles.
    let table = two_roads(1).lay(2, "U", 2, 0, 0);
    assert_eq!(table.state.home, vec![6, 6, 7]);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(2, SkipFollower {})
        .accepted();
    assert_eq!(
        until_next_turn(events)[1..],
        [
            FeatureScored {
                feature: FeatureKind::Road,
                completed: true,
                tiles: positions(&[(0, 0), (-1, 0), (-2, 0), (1, 0), (3, 0), (2, 0)]),
                pennants: 0,
                base_points: 6,
                figure: None,
                points: 6,
                seats: vec![0, 1],
            }
            .into(),
            follower_returned(0, -1, 0, 0),
            follower_returned(1, 3, 0, 2),
        ]
    );
    assert_eq!(state.scores, vec![6, 6, 0]);
    assert_eq!(state.home, vec![7, 7, 7]);
}

#[test]
fn the_player_with_more_followers_scores_alone() {
    // Seat 0's thieves on both roads, seat 1's farmer beside: seat 0 alone scores the road.
    let table = two_roads(0).follower(1, 3, 0, 4).lay(2, "U", 2, 0, 0);
    let (events, state) = given::<Carcassonne>(table.events)
        .when(2, PlaceFollower { segment: 1 })
        .accepted();
    let scored: Vec<&CarcassonneEvent> = events
        .iter()
        .filter(|e| matches!(e, CarcassonneEvent::FeatureScored(_)))
        .collect();
    assert_eq!(scored.len(), 1);
    let CarcassonneEvent::FeatureScored(road) = scored[0] else {
        unreachable!()
    };
    assert_eq!((road.points, road.seats.clone()), (6, vec![0]));
    assert_eq!(state.scores, vec![6, 0, 0]);
    assert_eq!(state.home, vec![7, 6, 6], "the farmers stay");
}
