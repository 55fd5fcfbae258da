//! The end of a round's building in `arrival` timing, stopping, the check, the release, and the
//! end of the game.

use super::*;

#[test]
fn the_round_ends_when_the_second_to_last_player_finishes() {
    let events = with(
        with(game(3, 0), builds_correctly(0, &[1, 2, 3, 4], 0)),
        with(builds_correctly(1, &[1, 2, 3, 4], 0), [finished(0, 10)]),
    );
    let (out, state) = given::<SpaceBuilder>(events)
        .when(1, DeclareCityFinished {})
        .accepted();
    assert_eq!(out[0], finished(1, 0));
    assert_eq!(out[1], stopped(StopReason::AllButOneFinished, &[2], 0));
    let result = result_of(&out);
    assert_eq!(result.winner, 0);
    assert_eq!(state.phase, Phase::Releasing);
    assert!(state.players[2].stopped);
}

#[test]
fn the_last_player_may_not_build_any_more() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let (_, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    let err = decide_at(&state, 1, place_cmd(correct(1, 0, 1)), 0).unwrap_err();
    assert_eq!(err.code, "round_over");
    assert!(SpaceBuilder::legal_commands(&state, 1).is_empty());
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![0]);
}

#[test]
fn in_a_two_player_game_the_first_finish_ends_the_round() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let (out, _) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    let result = result_of(&out);
    assert_eq!(result.winner, 0);
    let loser = result.cities.iter().find(|c| c.seat == 1).unwrap();
    assert!(loser.stopped);
    assert_eq!(loser.faults, 4, "four cards missing, one fault each");
}

/// The worked round of the rulebook: B finishes first with one card wrongly oriented (2 faults),
/// C second with one card on the wrong face (2 faults), A is stopped with one card not placed
/// (1 fault). A wins the round.
#[test]
fn rulebook_worked_round_a_wins_with_one_fault() {
    let (a, b, c) = (0, 1, 2);
    let turn = 1; // the blueprint lies at a quarter turn: the builders turned it in their heads
    let mut events = game(3, turn);
    events.extend(builds_correctly(a, &[1, 2, 3], turn));
    events.extend(builds_correctly(b, &[1, 3, 4], turn));
    let mut wrong_turn = correct(1, turn, 2);
    wrong_turn.rotation = (wrong_turn.rotation + 1) % 4;
    events.push(placed(b, 1, wrong_turn, 0));
    events.extend(builds_correctly(c, &[1, 2, 4], turn));
    let mut wrong_face = correct(1, turn, 3);
    wrong_face.face = if wrong_face.face == A { B } else { A };
    events.push(placed(c, 1, wrong_face, 0));
    events.push(finished(b, 100));
    let (out, state) = given::<SpaceBuilder>(events)
        .when(c, DeclareCityFinished {})
        .accepted();
    let result = result_of(&out);
    let faults: Vec<(Seat, u8, u8, bool)> = result
        .cities
        .iter()
        .map(|city| (city.seat, city.faults, city.finishing_place, city.stopped))
        .collect();
    assert_eq!(
        faults,
        vec![(a, 1, 3, true), (b, 2, 1, false), (c, 2, 2, false)]
    );
    let city_a = &result.cities[0];
    assert_eq!(city_a.cards[3].verdict, Verdict::Missing);
    assert_eq!(
        result.cities[1].cards[1].verdict,
        Verdict::WrongRotationOrFace
    );
    assert_eq!(
        result.cities[2].cards[2].verdict,
        Verdict::WrongRotationOrFace
    );
    assert_eq!(result.winner, a);
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![a]);
    let releases: Vec<_> = SpaceBuilder::legal_commands(&state, a);
    assert_eq!(
        releases,
        (5..=8)
            .map(|card| ReleaseBuildingCard { card }.into())
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_blueprints_quarter_turn_counts() {
    // Built exactly as the blueprint is printed, but it lies turned: every card is wrong.
    let mut events = game(2, 1);
    events.extend([1, 2, 3, 4].map(|c| placed(0, 1, correct(1, 0, c), 0)));
    let (out, _) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    let city = result_of(&out)
        .cities
        .into_iter()
        .find(|c| c.seat == 0)
        .unwrap();
    assert_eq!(city.faults, 8);
}

#[test]
fn a_tie_in_faults_goes_to_the_earlier_finisher() {
    let mut events = game(3, 0);
    events.extend(builds_correctly(0, &[1, 2, 3, 4], 0));
    events.extend(builds_correctly(1, &[1, 2, 3, 4], 0));
    events.push(finished(1, 5));
    let (out, _) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    let result = result_of(&out);
    assert_eq!(result.winner, 1);
    assert_eq!(result.cities[1].seat, 0);
}

#[test]
fn the_winner_releases_a_card_of_their_choice_and_the_next_round_starts() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let (_, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    let not_winner = decide_at(&state, 1, ReleaseBuildingCard { card: 6 }, 0).unwrap_err();
    assert_eq!(not_winner.code, "not_round_winner");
    let held = decide_at(&state, 0, ReleaseBuildingCard { card: 2 }, 0).unwrap_err();
    assert_eq!(held.code, "card_already_released");
    let out = decide_at(&state, 0, ReleaseBuildingCard { card: 6 }, 777).unwrap();
    assert_eq!(out[0], BuildingCardReleased { seat: 0, card: 6 }.into());
    let E::BlueprintRevealed(next) = &out[1] else {
        panic!("{out:?}")
    };
    assert_eq!((next.round, next.at_ms), (2, 777));
    assert_ne!(
        next.blueprint.as_ref().unwrap().number,
        1,
        "drawn from the pile"
    );
    let mut after = state.clone();
    for e in &out {
        apply(&mut after, e);
    }
    assert_eq!(after.players[0].hand, vec![1, 2, 3, 4, 6]);
    assert!(after
        .players
        .iter()
        .all(|p| p.city.is_empty() && !p.finished() && !p.stopped));
    assert_eq!(after.phase, Phase::Building);
    assert_eq!(after.players[0].rounds_won, 1);
}

#[test]
fn building_is_refused_while_the_winner_releases() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let (_, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    assert_eq!(
        decide_at(&state, 0, TakeBackBuildingCard { card: 1 }, 0)
            .unwrap_err()
            .code,
        "round_over"
    );
    let early = decide_at(
        &state_of(&game(2, 0)),
        0,
        ReleaseBuildingCard { card: 5 },
        0,
    )
    .unwrap_err();
    assert_eq!(early.code, "not_releasing");
}

#[test]
fn winning_a_round_with_all_eight_cards_wins_the_game() {
    let mut events = game(2, 0);
    for card in 5..=8 {
        events.push(BuildingCardReleased { seat: 0, card }.into());
    }
    events.extend(builds_correctly(0, &[1, 2, 3, 4, 5, 6, 7, 8], 0));
    let (out, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    assert_eq!(
        out.last().unwrap(),
        &SpaceBuilderGameWon {
            seat: 0,
            rounds: 1,
            rounds_won: vec![1, 0]
        }
        .into()
    );
    let status = SpaceBuilder::status(&state);
    assert!(status.finished && status.to_act.is_empty());
    assert_eq!(status.winners, vec![0]);
    assert_eq!(
        decide_at(&state, 1, DeclareCityFinished {}, 0)
            .unwrap_err()
            .code,
        "game_over"
    );
}

#[test]
fn winning_a_round_with_fewer_cards_does_not_end_the_game() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let (out, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    assert!(!out.iter().any(|e| matches!(e, E::SpaceBuilderGameWon(_))));
    assert!(!SpaceBuilder::status(&state).finished);
}

#[test]
fn used_blueprints_are_reshuffled_when_the_pile_runs_out() {
    let mut events = game(2, 0);
    for n in 2..=20 {
        events.push(reveal(n as u32, n, 0, 0, None));
    }
    events.extend([1, 2, 3, 4].map(|c| placed(0, 20, correct(20, 0, c), 0)));
    let mut state = state_of(&events);
    assert!(state.pile.is_empty());
    let out = decide_at(&state, 0, DeclareCityFinished {}, 0).unwrap();
    for e in &out {
        apply(&mut state, e);
    }
    let out = decide_at(&state, 0, ReleaseBuildingCard { card: 5 }, 0).unwrap();
    assert_eq!(out[1], BlueprintsReshuffled { round: 21 }.into());
    assert!(matches!(out[2], E::BlueprintRevealed(_)));
    for e in &out {
        apply(&mut state, e);
    }
    assert_eq!(state.pile.len(), 19);
}

#[test]
fn a_round_loser_holding_all_eight_cards_does_not_end_the_game() {
    // Seat 1 released all their cards in earlier rounds, but seat 0 wins this one.
    let mut events = game(2, 0);
    for card in 5..=8 {
        events.push(BuildingCardReleased { seat: 1, card }.into());
    }
    events.extend(builds_correctly(0, &[1, 2, 3, 4], 0));
    let (out, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    assert_eq!(state.players[1].hand.len(), 8);
    assert_eq!(result_of(&out).winner, 0);
    assert!(!out.iter().any(|e| matches!(e, E::SpaceBuilderGameWon(_))));
    assert!(!SpaceBuilder::status(&state).finished);
    assert_eq!(state.phase, Phase::Releasing);
}

#[test]
fn a_player_may_stop_building_and_is_checked_as_the_city_stands() {
    let events = with(game(3, 0), builds_correctly(0, &[1, 2, 3], 0));
    let state = given::<SpaceBuilder>(events)
        .when(0, StopBuilding {})
        .then([PlayerStoppedBuilding {
            seat: 0,
            round: 1,
            at_ms: 0,
        }
        .into()]);
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![1, 2]);
    assert!(SpaceBuilder::legal_commands(&state, 0).is_empty());
    assert_eq!(
        decide_at(&state, 0, place_cmd(correct(1, 0, 4)), 0)
            .unwrap_err()
            .code,
        "building_stopped"
    );
    assert_eq!(
        decide_at(&state, 0, StopBuilding {}, 0).unwrap_err().code,
        "building_stopped"
    );
    assert!(SpaceBuilder::view(&state, Viewer::Seat(1)).players[0].stopped);
    // A stop is not a finish: the next finish does not end the round for the last builder.
    let mut state = state;
    for seat in [1, 2] {
        for e in builds_correctly(seat, &[1, 2, 3, 4], 0) {
            apply(&mut state, &e);
        }
    }
    let out = decide_at(&state, 1, DeclareCityFinished {}, 5).unwrap();
    assert_eq!(out.len(), 1, "seat 2 still builds");
    for e in &out {
        apply(&mut state, e);
    }
    let out = decide_at(&state, 2, DeclareCityFinished {}, 9).unwrap();
    assert_eq!(out[1], stopped(StopReason::NobodyBuilding, &[], 9));
    let ranks: Vec<(Seat, u8, bool)> = result_of(&out)
        .cities
        .iter()
        .map(|c| (c.seat, c.faults, c.stopped))
        .collect();
    assert_eq!(ranks, vec![(1, 0, false), (2, 0, false), (0, 1, true)]);
}

#[test]
fn stopping_does_not_cut_the_others_round_short() {
    // Two players: a stop must not end the round at once (a finish would).
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3], 0));
    let (out, state) = given::<SpaceBuilder>(events)
        .when(0, StopBuilding {})
        .accepted();
    assert_eq!(out.len(), 1);
    assert_eq!(state.phase, Phase::Building);
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![1]);
}
