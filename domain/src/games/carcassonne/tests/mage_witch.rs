//! Magier & Hexe: the figure step after a magic tile or a tile joining the figures' features,
//! its targets, the no-target cases, the mage's +1 per tile, the witch's halving (rounded up),
//! and the figures leaving completed features.

use crate::contract::Game;
use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

use MagicFigure::{Mage, Witch};

/// The road L(-2,0)–U(-1,0)–D–U(1,0), seat 0's thief on it, `figure` on the start tile's
/// stretch; L at (2,0) is about to close it at 5 tiles.
fn five_tile_road(figure: MagicFigure) -> Table {
    Table::expansions(2)
        .lay(0, "U", -1, 0, 0)
        .follower(0, -1, 0, 0)
        .lay(1, "L", -2, 0, 0)
        .lay(0, "U", 1, 0, 0)
        .figure(figure, 0, 0, 1)
        .lay(1, "L", 2, 0, 0)
}

fn closing_the_road(figure: MagicFigure, points: u32) -> Vec<CarcassonneEvent> {
    vec![
        FeatureScored {
            feature: FeatureKind::Road,
            completed: true,
            tiles: positions(&[(0, 0), (-1, 0), (-2, 0), (1, 0), (2, 0)]),
            pennants: 0,
            base_points: 5,
            figure: Some(figure),
            points,
            seats: vec![0],
        }
        .into(),
        follower_returned(0, -1, 0, 0),
        MageOrWitchRemoved {
            figure,
            reason: RemovalReason::FeatureCompleted,
        }
        .into(),
    ]
}

#[test]
fn the_mage_on_a_five_tile_road_adds_5() {
    let (events, state) = given::<Carcassonne>(five_tile_road(Mage).events)
        .when(1, SkipFollower {})
        .accepted();
    assert_eq!(until_next_turn(events)[1..], closing_the_road(Mage, 10));
    assert_eq!(state.scores, vec![10, 0]);
    assert_eq!(state.mage, None, "back in the supply");
}

#[test]
fn the_witch_halves_an_odd_total_rounding_up() {
    let (events, state) = given::<Carcassonne>(five_tile_road(Witch).events)
        .when(1, SkipFollower {})
        .accepted();
    assert_eq!(until_next_turn(events)[1..], closing_the_road(Witch, 3));
    assert_eq!(state.scores, vec![3, 0]);
}

#[test]
fn a_figure_leaves_a_completed_feature_even_without_followers() {
    let table = Table::expansions(2)
        .figure(Witch, 0, 0, 0)
        .lay(0, "E", 0, -1, 180);
    given::<Carcassonne>(table.events)
        .when(0, SkipFollower {})
        .then([
            FollowerSkipped { seat: 0 }.into(),
            MageOrWitchRemoved {
                figure: Witch,
                reason: RemovalReason::FeatureCompleted,
            }
            .into(),
            tile_drawn(1, "B"),
        ]);
}

#[test]
fn a_magic_tile_calls_for_a_figure_before_the_follower() {
    let table = Table::expansions(2).drawn(0, "MW1");
    let state = given::<Carcassonne>(table.clone())
        .when(0, place_tile(1, 0, 0))
        .then([placed(0, "MW1", 1, 0, 0)]);
    assert_eq!(phase(&state), Phase::PlaceMageOrWitch);
    // Every segment of an unfinished road or city, mage first: the start tile's city and road,
    // then MW1's city and its three roads (the west one is the start tile's road).
    let targets = [
        (0, 0, 0),
        (0, 0, 1),
        (1, 0, 0),
        (1, 0, 1),
        (1, 0, 2),
        (1, 0, 3),
    ];
    let expected: Vec<CarcassonneCommand> = [Mage, Witch]
        .into_iter()
        .flat_map(|figure| {
            targets.iter().map(move |&(x, y, segment)| {
                PlaceMageOrWitch {
                    figure,
                    x,
                    y,
                    segment,
                }
                .into()
            })
        })
        .collect();
    assert_eq!(Carcassonne::legal_commands(&state, 0), expected);
    assert_eq!(
        Carcassonne::default_command(&state, 0),
        Some(expected[0].clone())
    );
    let mut events = table;
    events.push(placed(0, "MW1", 1, 0, 0));
    given::<Carcassonne>(events.clone())
        .when(0, SkipFollower {})
        .then_error("not_this_step");
    let state = given::<Carcassonne>(events)
        .when(
            0,
            PlaceMageOrWitch {
                figure: Witch,
                x: 1,
                y: 0,
                segment: 2,
            },
        )
        .then([MageOrWitchPlaced {
            seat: 0,
            figure: Witch,
            x: 1,
            y: 0,
            segment: 2,
        }
        .into()]);
    assert_eq!(phase(&state), Phase::PlaceFollower);
}

#[test]
fn without_the_expansion_a_magic_symbol_does_nothing() {
    // The option decides: a base game never calls for figures (its pile has no MW tiles; a
    // hand-built one shows the rule).
    let events = Table::new(2).lay(0, "MW1", 1, 0, 0).events;
    assert_eq!(
        phase(&given::<Carcassonne>(events).state),
        Phase::PlaceFollower
    );
}

#[test]
fn a_figure_must_leave_its_feature_and_never_joins_the_other() {
    let events = Table::expansions(2)
        .figure(Mage, 0, 0, 1)
        .figure(Witch, 0, 0, 0)
        .lay(0, "MW1", 1, 0, 0)
        .events;
    let state = given::<Carcassonne>(events.clone()).state;
    let listed = Carcassonne::legal_commands(&state, 0);
    assert_eq!(
        listed.len(),
        2 * 3,
        "MW1's city and its east and south roads"
    );
    for (figure, x, y, segment, code) in [
        (Mage, 0, 0, 1, "figure_feature"),  // stays on its road
        (Mage, 1, 0, 3, "figure_feature"),  // the same road on the new tile
        (Mage, 0, 0, 0, "figure_feature"),  // the witch's city
        (Witch, 0, 0, 1, "figure_feature"), // the mage's road
        (Witch, 1, 0, 4, "not_road_or_city"),
        (Witch, 1, 0, 9, "no_such_segment"),
        (Witch, 5, 5, 0, "no_such_segment"),
    ] {
        given::<Carcassonne>(events.clone())
            .when(
                0,
                PlaceMageOrWitch {
                    figure,
                    x,
                    y,
                    segment,
                },
            )
            .then_error(code);
    }
    given::<Carcassonne>(events)
        .when(
            0,
            PlaceMageOrWitch {
                figure: Mage,
                x: 1,
                y: 0,
                segment: 1,
            },
        )
        .accepted();
}

#[test]
fn completed_features_are_no_target() {
    let events = Table::expansions(2)
        .lay(1, "E", 0, -1, 180)
        .lay(0, "MW1", 1, 0, 0)
        .events;
    given::<Carcassonne>(events)
        .when(
            0,
            PlaceMageOrWitch {
                figure: Mage,
                x: 0,
                y: -1,
                segment: 0,
            },
        )
        .then_error("feature_completed");
}

/// The start tile's road (mage) and the curve V(2,0) (witch), joined by U at (1,0); cloisters
/// lead the board to (2,0), an E closes the start tile's city, and with `open_city` another E
/// at (-1,-1) offers the only unfinished city.
fn figures_about_to_meet(open_city: bool) -> Table {
    let mut table = Table::expansions(2)
        .lay(0, "E", 0, -1, 180)
        .lay(1, "B", 1, -1, 0)
        .lay(0, "B", 2, -1, 0)
        .lay(1, "V", 2, 0, 0)
        .lay(0, "U", -1, 0, 0);
    if open_city {
        table = table.lay(1, "E", -1, -1, 0);
    }
    table
        .figure(Mage, 0, 0, 1)
        .figure(Witch, 2, 0, 0)
        .lay(0, "U", 1, 0, 0)
}

#[test]
fn a_tile_joining_the_figures_makes_one_move_away_without_a_symbol() {
    let state = given::<Carcassonne>(figures_about_to_meet(true).events).state;
    assert_eq!(phase(&state), Phase::PlaceMageOrWitch);
    assert_eq!(
        Carcassonne::legal_commands(&state, 0),
        vec![
            PlaceMageOrWitch {
                figure: Mage,
                x: -1,
                y: -1,
                segment: 0
            }
            .into(),
            PlaceMageOrWitch {
                figure: Witch,
                x: -1,
                y: -1,
                segment: 0
            }
            .into(),
        ],
        "only the city at (-1,-1) is free: the joined road holds both"
    );
    let state = given::<Carcassonne>(figures_about_to_meet(true).events)
        .when(
            0,
            PlaceMageOrWitch {
                figure: Witch,
                x: -1,
                y: -1,
                segment: 0,
            },
        )
        .then([MageOrWitchPlaced {
            seat: 0,
            figure: Witch,
            x: -1,
            y: -1,
            segment: 0,
        }
        .into()]);
    assert_eq!(phase(&state), Phase::PlaceFollower);
}

#[test]
fn with_nowhere_to_go_and_both_on_the_board_the_player_takes_one_off() {
    let state = given::<Carcassonne>(figures_about_to_meet(false).events).state;
    assert_eq!(
        Carcassonne::legal_commands(&state, 0),
        vec![
            RemoveMageOrWitch { figure: Mage }.into(),
            RemoveMageOrWitch { figure: Witch }.into(),
        ]
    );
    let state = given::<Carcassonne>(figures_about_to_meet(false).events)
        .when(0, RemoveMageOrWitch { figure: Witch })
        .then([MageOrWitchRemoved {
            figure: Witch,
            reason: RemovalReason::NoTarget,
        }
        .into()]);
    assert_eq!((state.mage.is_some(), state.witch), (true, None));
    assert_eq!(phase(&state), Phase::PlaceFollower);
    given::<Carcassonne>(figures_about_to_meet(true).events)
        .when(0, RemoveMageOrWitch { figure: Witch })
        .then_error("figure_has_target");
}

/// Every road and city closed by MW5 at (0,-1): its two city caps close the start tile's city
/// and the E above; cloister-road tiles A end the start tile's road both ways.
fn magic_tile_closing_everything(mage: bool) -> Vec<CarcassonneEvent> {
    let mut table = Table::expansions(2)
        .lay(0, "A", 1, 0, 90)
        .lay(1, "B", 1, -1, 0)
        .lay(0, "B", 1, -2, 0)
        .lay(1, "E", 0, -2, 180)
        .lay(0, "A", -1, 0, 270);
    if mage {
        table = table.figure(Mage, 0, 0, 0);
    }
    table.drawn(1, "MW5")
}

#[test]
fn with_nowhere_to_go_the_only_figure_on_the_board_leaves_by_itself() {
    let state = given::<Carcassonne>(magic_tile_closing_everything(true))
        .when(1, place_tile(0, -1, 0))
        .then([
            placed(1, "MW5", 0, -1, 0),
            MageOrWitchRemoved {
                figure: Mage,
                reason: RemovalReason::NoTarget,
            }
            .into(),
        ]);
    assert_eq!(phase(&state), Phase::PlaceFollower);
}

#[test]
fn with_nowhere_to_go_and_no_figure_on_the_board_nothing_happens() {
    let state = given::<Carcassonne>(magic_tile_closing_everything(false))
        .when(1, place_tile(0, -1, 0))
        .then([placed(1, "MW5", 0, -1, 0)]);
    assert_eq!(phase(&state), Phase::PlaceFollower);
}

/// The state once seat 0 has laid the magic tile MW1 at (1, 0) on `table`: the figure step.
fn after_laying_mw1(table: Table) -> State {
    let state = given::<Carcassonne>(table.drawn(0, "MW1"))
        .when(0, place_tile(1, 0, 0))
        .accepted()
        .1;
    assert_eq!(phase(&state), Phase::PlaceMageOrWitch);
    state
}

#[test]
fn the_clock_moves_a_figure_where_it_changes_nobodys_score() {
    // Seat 1's knight holds the start tile's city, the first target listed: the turn clock's
    // default is the first target whose feature holds no follower (the start tile's road), so
    // that no score changes by the mage's +1 per tile or the witch's halving.
    let state = after_laying_mw1(Table::expansions(2).follower(1, 0, 0, 0));
    let listed = Carcassonne::legal_commands(&state, 0);
    let first = PlaceMageOrWitch {
        figure: Mage,
        x: 0,
        y: 0,
        segment: 0,
    };
    assert_eq!(listed[0], first.into(), "the knight's city is listed first");
    assert_eq!(
        Carcassonne::default_command(&state, 0),
        Some(
            PlaceMageOrWitch {
                figure: Mage,
                x: 0,
                y: 0,
                segment: 1,
            }
            .into()
        )
    );
}

#[test]
fn the_clock_moves_the_figure_that_leaves_no_follower_behind() {
    // The mage stands on seat 1's road, the witch on an empty city, and the magic tile calls
    // for one of them to move: moving the witch changes nobody's score, moving the mage would
    // take its +1 per tile from seat 1.
    let state = after_laying_mw1(
        Table::expansions(2)
            .follower(1, 0, 0, 1)
            .figure(Mage, 0, 0, 1)
            .figure(Witch, 0, 0, 0),
    );
    let Some(CarcassonneCommand::PlaceMageOrWitch(chosen)) =
        Carcassonne::default_command(&state, 0)
    else {
        panic!("a figure is moved");
    };
    assert_eq!(chosen.figure, Witch);
}
