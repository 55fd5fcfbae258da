//! The turn clock's default move: one of the listed commands, the one that changes the least.

use super::*;

fn default_of(state: &State, seat: Seat) -> Option<SpaceBuilderCommand> {
    let default = SpaceBuilder::default_command(state, seat);
    if let Some(command) = &default {
        assert!(SpaceBuilder::legal_commands(state, seat).contains(command));
    }
    default
}

#[test]
fn the_clock_stops_a_builder_with_the_city_as_it_stands() {
    let state = state_of(&with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0)));
    for seat in [0, 1] {
        assert_eq!(default_of(&state, seat), Some(StopBuilding {}.into()));
    }
    let elapsed = state_of(&elapsed_game(2, None));
    assert_eq!(
        default_of(&elapsed, 0),
        Some(StopBuilding {}.into()),
        "without looking: every card will be missing"
    );
    let finished = state_of(&with(
        with(game(3, 0), builds_correctly(0, &[1, 2, 3, 4], 0)),
        [finished(0, 1)],
    ));
    assert_eq!(default_of(&finished, 0), None, "a finished city waits");
}

#[test]
fn the_clock_releases_the_winners_lowest_card() {
    let mut events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    events.push(BuildingCardReleased { seat: 0, card: 5 }.into());
    events.push(reveal(2, 2, 0, 0, None));
    events.extend([1, 2, 3, 4, 5].map(|c| placed(0, 2, correct(2, 0, c), 0)));
    let (_, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    assert_eq!(state.releasing, Some(0));
    assert_eq!(
        default_of(&state, 0),
        Some(ReleaseBuildingCard { card: 6 }.into())
    );
    assert_eq!(default_of(&state, 1), None);
}
