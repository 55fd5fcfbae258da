//! Setting up: the star cards, the first blueprint, the options.

use super::*;

#[test]
fn every_player_starts_with_the_four_star_cards_and_a_blueprint_is_revealed() {
    let events =
        SpaceBuilder::setup(&SpaceBuilderOptions::default(), 3, &mut Ctx::new(9, 500)).unwrap();
    assert_eq!(events[0], started(3, Timing::Arrival, None));
    let E::BlueprintRevealed(r) = &events[1] else {
        panic!("no reveal: {events:?}")
    };
    assert_eq!(r.round, 1);
    assert_eq!(r.at_ms, 500);
    let blueprint = r.blueprint.clone().unwrap();
    assert!(blueprint.turn < 4 && (1..=20).contains(&blueprint.number));
    assert_eq!(
        blueprint.cards,
        crate::games::space_builder::plan(blueprint.number)
    );
    let state = state_of(&events);
    assert!(state.players.iter().all(|p| p.hand == vec![1, 2, 3, 4]));
    assert_eq!(state.pile.len(), 19);
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![0, 1, 2]);
}

#[test]
fn the_blueprint_lies_at_a_random_quarter_turn() {
    let turns: std::collections::HashSet<u8> = (0..64)
        .map(|seed| {
            let events =
                SpaceBuilder::setup(&SpaceBuilderOptions::default(), 2, &mut Ctx::new(seed, 0))
                    .unwrap();
            state_of(&events).blueprint.unwrap().turn
        })
        .collect();
    assert_eq!(turns.len(), 4);
}

#[test]
fn options_reject_a_zero_deadline_and_unknown_fields() {
    let bad = SpaceBuilderOptions {
        timing: Timing::Arrival,
        deadline_minutes: Some(0),
    };
    assert_eq!(
        SpaceBuilder::validate_options(&bad, 2).unwrap_err().code,
        "bad_deadline"
    );
    assert!(serde_json::from_str::<SpaceBuilderOptions>(r#"{"speed": 1}"#).is_err());
    let parsed: SpaceBuilderOptions =
        serde_json::from_str(r#"{"timing": "elapsed", "deadline_minutes": 5}"#).unwrap();
    assert_eq!(parsed.timing, Timing::Elapsed);
}

#[test]
fn commands_need_a_started_game_and_a_seat_at_the_table() {
    given::<SpaceBuilder>([])
        .when(0, DeclareCityFinished {})
        .then_error("not_started");
    given::<SpaceBuilder>(game(2, 0))
        .when(2, DeclareCityFinished {})
        .then_error("no_such_seat");
    assert!(SpaceBuilder::legal_commands(&state_of(&game(2, 0)), 2).is_empty());
}
