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

/// A game set up through the registry, as the server does, at time 0: the events folded.
fn set_up(options: serde_json::Value) -> (&'static dyn crate::DynGame, crate::GameState) {
    let (game, options) = crate::registry::validate_new_game("space-builder", 2, &options).unwrap();
    let mut state = game.initial();
    for event in game.setup(&options, 2, &mut Ctx::new(3, 0)).unwrap() {
        game.evolve(&mut state, &event).unwrap();
    }
    (game, state)
}

/// Seat 0's next building act that neither finishes nor stops: a card placed, moved or taken
/// back, each of which restarts its turn clock.
fn keep_building(game: &dyn crate::DynGame, state: &crate::GameState) -> serde_json::Value {
    game.legal_commands(state, 0)
        .into_iter()
        .find(|c| {
            [
                "PlaceBuildingCard",
                "MoveBuildingCard",
                "TakeBackBuildingCard",
            ]
            .contains(&c["type"].as_str().unwrap())
        })
        .expect("a builder can always change their city")
}

const MINUTE: i64 = 60_000;

#[test]
fn with_the_turn_clock_a_seat_that_keeps_acting_cannot_hold_the_round_open() {
    for timing in ["elapsed", "arrival"] {
        // Ten minutes per act and no round deadline: the round's building ends 30 minutes
        // after the reveal at the latest.
        let (game, mut state) = set_up(serde_json::json!({"timing": timing, "move_minutes": 10}));
        assert_eq!(game.deadline(&state), Some(30 * MINUTE), "{timing}");
        let act =
            |state: &mut crate::GameState, seat: Seat, command: serde_json::Value, at: i64| {
                let events = game.decide(state, seat, &command, &mut Ctx::new(at as u64, at));
                for event in events.clone().unwrap_or_default() {
                    game.evolve(state, &event).unwrap();
                }
                events
            };
        if timing == "elapsed" {
            act(
                &mut state,
                0,
                serde_json::json!({"type": "LookAtBlueprint"}),
                MINUTE,
            )
            .unwrap();
        }
        // Seat 1 is stopped by its clock; seat 0 acts every 9 minutes, within its own clock.
        act(
            &mut state,
            1,
            serde_json::json!({"type": "StopBuilding"}),
            10 * MINUTE,
        )
        .unwrap();
        let mut at = 2 * MINUTE;
        while at < 30 * MINUTE {
            let command = keep_building(game, &state);
            act(&mut state, 0, command, at).unwrap();
            assert_eq!(
                game.status(&state).to_act,
                vec![0],
                "{timing}: still building"
            );
            at += 9 * MINUTE;
        }
        // Past the bound, building is refused and the deadline ends the round.
        let command = keep_building(game, &state);
        let refused = act(&mut state, 0, command, at);
        assert!(
            matches!(&refused, Err(crate::DomainError::Rule(r)) if r.code == "deadline_passed"),
            "{timing}: {refused:?}"
        );
        let ended = game.on_deadline(&state, &mut Ctx::new(1, 30 * MINUTE));
        assert_eq!(ended[0]["type"], "BuildingStopped", "{timing}");
        assert_eq!(ended[0]["reason"], "deadline_passed", "{timing}");
        for event in &ended {
            game.evolve(&mut state, event).unwrap();
        }
        let state = state.downcast::<State>().unwrap();
        assert_eq!(
            state.phase,
            Phase::Releasing,
            "{timing}: the round was checked"
        );
        assert_eq!(
            state.release_deadline_ms, None,
            "the turn clock bounds the release"
        );
        // The next round is bounded alike, from its own reveal.
        let winner = state.releasing.unwrap();
        let card = crate::games::space_builder::round::lowest_unreleased(state, winner).unwrap();
        let next = SpaceBuilder::decide(
            state,
            winner,
            &ReleaseBuildingCard { card }.into(),
            &mut Ctx::new(5, 40 * MINUTE),
        )
        .unwrap();
        let mut after = state.clone();
        for event in &next {
            SpaceBuilder::evolve(&mut after, event);
        }
        assert_eq!(after.deadline_ms, Some(70 * MINUTE), "{timing}");
    }
}

#[test]
fn the_round_limit_is_the_games_own_deadline_when_it_has_one_and_none_without_a_clock() {
    let (game, state) = set_up(serde_json::json!({"deadline_minutes": 60, "move_minutes": 10}));
    assert_eq!(game.deadline(&state), Some(60 * MINUTE));
    let (game, state) = set_up(serde_json::json!({"timing": "elapsed"}));
    assert_eq!(
        game.deadline(&state),
        None,
        "without the turn clock the table decides"
    );
    // The bound is recorded in the set-up's event only when there is one, so the events of
    // games without the turn clock are what they were.
    let event = SpaceBuilder::setup(&SpaceBuilderOptions::default(), 2, &mut Ctx::new(1, 0))
        .unwrap()
        .remove(0);
    let json = serde_json::to_value(&event).unwrap();
    assert!(json.get("round_limit_minutes").is_none(), "{json}");
}
