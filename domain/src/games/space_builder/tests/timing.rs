//! Playing by web: `elapsed` timing, the deadlines, replays.

use super::*;

#[test]
fn elapsed_timing_hides_the_blueprint_until_the_player_looks() {
    let state = state_of(&elapsed_game(2, None));
    assert_eq!(
        SpaceBuilder::legal_commands(&state, 0),
        vec![LookAtBlueprint {}.into(), StopBuilding {}.into()]
    );
    assert!(SpaceBuilder::view(&state, Viewer::Seat(0))
        .blueprint
        .is_none());
    assert!(SpaceBuilder::view(&state, Viewer::Spectator)
        .blueprint
        .is_none());
    assert!(SpaceBuilder::view(&state, Viewer::Everyone)
        .blueprint
        .is_some());
    let reveal_event = &elapsed_game(2, None)[1];
    let E::BlueprintRevealed(hidden) =
        SpaceBuilder::redact(&state, reveal_event, Viewer::Seat(0)).unwrap()
    else {
        panic!()
    };
    assert!(hidden.blueprint.is_none());
    let err = decide_at(&state, 0, place_cmd(correct(1, 0, 1)), 5).unwrap_err();
    assert_eq!(err.code, "blueprint_not_looked_at");
    let out = decide_at(&state, 0, LookAtBlueprint {}, 4_000).unwrap();
    // The looker's copy of the event (their command's response) carries the blueprint.
    let looked: E = BlueprintLookedAt {
        seat: 0,
        round: 1,
        at_ms: 4_000,
        blueprint: Some(revealed(1, 0)),
    }
    .into();
    assert_eq!(out, vec![looked.clone()]);
    let mut after = state.clone();
    apply(&mut after, &out[0]);
    assert_eq!(
        SpaceBuilder::redact(&after, &looked, Viewer::Seat(0)),
        Some(looked.clone())
    );
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(
            SpaceBuilder::redact(&after, &looked, viewer),
            Some(
                BlueprintLookedAt {
                    seat: 0,
                    round: 1,
                    at_ms: 4_000,
                    blueprint: None,
                }
                .into()
            ),
            "{viewer:?} does not get the plan with somebody else's look"
        );
    }
    assert!(SpaceBuilder::view(&after, Viewer::Seat(0))
        .blueprint
        .is_some());
    assert!(SpaceBuilder::view(&after, Viewer::Seat(1))
        .blueprint
        .is_none());
    assert!(
        SpaceBuilder::redact(&after, reveal_event, Viewer::Seat(0)) == Some(reveal_event.clone())
    );
    assert_eq!(
        decide_at(&after, 0, LookAtBlueprint {}, 5_000)
            .unwrap_err()
            .code,
        "blueprint_already_looked_at"
    );
}

#[test]
fn arrival_timing_shows_the_blueprint_to_all_at_once() {
    let state = state_of(&game(2, 0));
    assert!(SpaceBuilder::view(&state, Viewer::Spectator)
        .blueprint
        .is_some());
    assert_eq!(
        decide_at(&state, 0, LookAtBlueprint {}, 0)
            .unwrap_err()
            .code,
        "blueprint_already_shown"
    );
}

#[test]
fn elapsed_timing_ranks_by_each_players_own_time_and_waits_for_everyone() {
    // Seat 0 looks at once and needs 60 s; seat 1 looks an hour later and needs 20 s; seat 2
    // looks two hours in and needs 10 s. All build perfectly: the round waits for the last of
    // them, and seat 2, last by the clock but fastest by their own time, wins.
    let mut state = state_of(&elapsed_game(3, None));
    let mut run = |seat: Seat, cmd: SpaceBuilderCommand, now: i64| {
        for e in decide_at(&state, seat, cmd, now).unwrap() {
            apply(&mut state, &e);
        }
    };
    run(0, LookAtBlueprint {}.into(), 1_000);
    for card in 1..=4 {
        run(0, place_cmd(correct(1, 0, card)).into(), 2_000);
    }
    run(0, DeclareCityFinished {}.into(), 61_000);
    run(1, LookAtBlueprint {}.into(), 3_600_000);
    for card in 1..=4 {
        run(1, place_cmd(correct(1, 0, card)).into(), 3_600_010);
    }
    let out = decide_at(&state, 1, DeclareCityFinished {}, 3_620_000).unwrap();
    assert_eq!(
        out,
        vec![finished_after(1, 3_620_000, 20_000)],
        "the second-to-last finish stops nobody"
    );
    for e in &out {
        apply(&mut state, e);
    }
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![2]);
    let mut run = |seat: Seat, cmd: SpaceBuilderCommand, now: i64| {
        for e in decide_at(&state, seat, cmd, now).unwrap() {
            apply(&mut state, &e);
        }
    };
    run(2, LookAtBlueprint {}.into(), 7_200_000);
    for card in 1..=4 {
        run(2, place_cmd(correct(1, 0, card)).into(), 7_200_001);
    }
    let out = decide_at(&state, 2, DeclareCityFinished {}, 7_210_000).unwrap();
    assert_eq!(out[1], stopped(StopReason::NobodyBuilding, &[], 7_210_000));
    let result = result_of(&out);
    assert_eq!(result.winner, 2);
    let places: Vec<(Seat, u8, Option<i64>)> = result
        .cities
        .iter()
        .map(|c| (c.seat, c.finishing_place, c.elapsed_ms))
        .collect();
    assert_eq!(
        places,
        vec![
            (2, 1, Some(10_000)),
            (1, 2, Some(20_000)),
            (0, 3, Some(60_000))
        ]
    );
}

#[test]
fn in_elapsed_timing_a_two_player_round_does_not_end_at_the_first_finish() {
    let mut events = elapsed_game(2, None);
    events.push(looked(0, 0));
    events.extend(builds_correctly(0, &[1, 2, 3, 4], 0));
    let (out, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    assert_eq!(out.len(), 1);
    assert_eq!(state.phase, Phase::Building);
    assert_eq!(
        SpaceBuilder::legal_commands(&state, 1),
        vec![LookAtBlueprint {}.into(), StopBuilding {}.into()]
    );
    // The other player gives the round up without looking: it ends, and they miss every card.
    let out = decide_at(&state, 1, StopBuilding {}, 50).unwrap();
    assert_eq!(
        out[..2],
        [
            PlayerStoppedBuilding {
                seat: 1,
                round: 1,
                at_ms: 50
            }
            .into(),
            stopped(StopReason::NobodyBuilding, &[], 50)
        ]
    );
    let result = result_of(&out);
    assert_eq!(result.winner, 0);
    let city = &result.cities[1];
    assert_eq!((city.seat, city.faults, city.stopped), (1, 4, true));
    assert!(city.cards.iter().all(|c| c.verdict == Verdict::Missing));
}

#[test]
fn at_an_elapsed_deadline_who_never_looked_misses_every_card_and_who_did_counts_as_built() {
    // Seat 0 finished with one card turned wrongly (2 faults); seat 1 looked and laid two of
    // four cards right (2 missing: 2 faults) but did not finish; seat 2 never looked.
    let mut events = elapsed_game(3, Some(2));
    events.push(looked(0, 1_000));
    events.extend(builds_correctly(0, &[1, 2, 3], 0));
    let mut wrong = correct(1, 0, 4);
    wrong.rotation = (wrong.rotation + 1) % 4;
    events.push(placed(0, 1, wrong, 2_000));
    events.push(finished_after(0, 90_000, 89_000));
    events.push(looked(1, 500));
    events.push(placed(1, 1, correct(1, 0, 1), 3_000));
    events.push(placed(1, 1, correct(1, 0, 2), 4_000));
    let state = state_of(&events);
    let out = SpaceBuilder::on_deadline(&state, &mut Ctx::new(0, 120_000));
    assert_eq!(
        out[0],
        stopped(StopReason::DeadlinePassed, &[1, 2], 120_000)
    );
    let result = result_of(&out);
    let ranks: Vec<(Seat, u8, u8, bool)> = result
        .cities
        .iter()
        .map(|c| (c.seat, c.faults, c.finishing_place, c.stopped))
        .collect();
    // Equal faults: the finisher ranks before the one who did not finish.
    assert_eq!(
        ranks,
        vec![(0, 2, 1, false), (1, 2, 2, true), (2, 4, 3, true)]
    );
    assert_eq!(result.winner, 0);
    let never_looked = &result.cities[2];
    assert!(never_looked
        .cards
        .iter()
        .all(|c| c.verdict == Verdict::Missing));
    // With one wrong card fewer the unfinished city would have won, as at the table.
    let mut fewer = events.clone();
    fewer.push(placed(1, 1, correct(1, 0, 3), 5_000));
    let result = result_of(&SpaceBuilder::on_deadline(
        &state_of(&fewer),
        &mut Ctx::new(0, 120_000),
    ));
    assert_eq!(result.winner, 1);
}

#[test]
fn a_replay_ranks_exactly_as_the_live_game() {
    // The times are in the events: folding them again gives the same state and the same check.
    let mut state = state_of(&elapsed_game(2, None));
    let mut log = elapsed_game(2, None);
    for (seat, cmd, now) in [
        (1, SpaceBuilderCommand::from(LookAtBlueprint {}), 10),
        (1, place_cmd(correct(1, 0, 1)).into(), 20),
        (1, place_cmd(correct(1, 0, 2)).into(), 30),
        (1, place_cmd(correct(1, 0, 3)).into(), 40),
        (1, place_cmd(correct(1, 0, 4)).into(), 50),
        (1, DeclareCityFinished {}.into(), 60),
        (0, StopBuilding {}.into(), 70),
    ] {
        for e in decide_at(&state, seat, cmd, now).unwrap() {
            apply(&mut state, &e);
            log.push(e);
        }
    }
    assert_eq!(state_of(&log), state);
    assert_eq!(state.last_round.as_ref().unwrap().winner, 1);
}

#[test]
fn the_deadline_refuses_late_building_and_stops_everyone_still_building() {
    let mut events = elapsed_game(3, Some(2));
    events.push(looked(0, 0));
    events.extend(builds_correctly(0, &[1, 2, 3, 4], 0));
    events.push(finished_after(0, 1_000, 1_000));
    events.push(looked(1, 0));
    events.push(placed(1, 1, correct(1, 0, 1), 5_000));
    let state = state_of(&events);
    assert_eq!(SpaceBuilder::deadline(&state), Some(120_000));
    let late = decide_at(&state, 1, place_cmd(correct(1, 0, 2)), 120_000).unwrap_err();
    assert_eq!(late.code, "deadline_passed");
    assert!(SpaceBuilder::on_deadline(&state, &mut Ctx::new(0, 119_999)).is_empty());
    let out = SpaceBuilder::on_deadline(&state, &mut Ctx::new(0, 120_000));
    assert_eq!(
        out[0],
        stopped(StopReason::DeadlinePassed, &[1, 2], 120_000)
    );
    let result = result_of(&out);
    assert_eq!(result.winner, 0);
    // Seat 1 (3 cards missing, built at 5 s) before seat 2 (4 missing, never built).
    let order: Vec<(Seat, u8)> = result.cities.iter().map(|c| (c.seat, c.faults)).collect();
    assert_eq!(order, vec![(0, 0), (1, 3), (2, 4)]);
    let mut after = state.clone();
    for e in &out {
        apply(&mut after, e);
    }
    assert_eq!(
        SpaceBuilder::deadline(&after),
        Some(240_000),
        "now the winner's release runs against the clock"
    );
}

#[test]
fn stopped_players_tie_by_their_last_change() {
    let mut events = game(2, 0);
    events[0] = started(2, Timing::Arrival, Some(1));
    events[1] = reveal(1, 1, 0, 0, Some(60_000));
    events.push(placed(0, 1, correct(1, 0, 1), 9_000));
    events.push(placed(1, 1, correct(1, 0, 1), 4_000));
    let state = state_of(&events);
    let result = result_of(&SpaceBuilder::on_deadline(&state, &mut Ctx::new(0, 60_000)));
    assert_eq!(result.winner, 1);
}

#[test]
fn the_winners_release_has_the_same_deadline_then_their_lowest_card_is_released() {
    let mut events = game(2, 0);
    events[0] = started(2, Timing::Arrival, Some(1));
    events[1] = reveal(1, 1, 0, 0, Some(60_000));
    events.extend(builds_correctly(0, &[1, 2, 3, 4], 0));
    let state = state_of(&events);
    let out = decide_at(&state, 0, DeclareCityFinished {}, 10_000).unwrap();
    let E::CitiesChecked(checked) = &out[2] else {
        panic!("{out:?}")
    };
    assert_eq!(checked.release_deadline_ms, Some(70_000));
    let mut state = state;
    for e in &out {
        apply(&mut state, e);
    }
    assert_eq!(SpaceBuilder::deadline(&state), Some(70_000));
    assert_eq!(
        SpaceBuilder::view(&state, Viewer::Seat(1)).deadline_ms,
        Some(70_000)
    );
    assert!(SpaceBuilder::on_deadline(&state, &mut Ctx::new(3, 69_999)).is_empty());
    let late = decide_at(&state, 0, ReleaseBuildingCard { card: 7 }, 70_000).unwrap_err();
    assert_eq!(late.code, "deadline_passed");
    let out = SpaceBuilder::on_deadline(&state, &mut Ctx::new(3, 70_000));
    assert_eq!(out[0], BuildingCardReleased { seat: 0, card: 5 }.into());
    let E::BlueprintRevealed(next) = &out[1] else {
        panic!("{out:?}")
    };
    assert_eq!(
        (next.round, next.at_ms, next.deadline_ms),
        (2, 70_000, Some(130_000))
    );
}

#[test]
fn without_a_deadline_the_winner_takes_their_time_to_release() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let (out, state) = given::<SpaceBuilder>(events)
        .when(0, DeclareCityFinished {})
        .accepted();
    assert!(matches!(&out[2], E::CitiesChecked(c) if c.release_deadline_ms.is_none()));
    assert_eq!(SpaceBuilder::deadline(&state), None);
}

#[test]
fn a_game_won_leaves_no_release_deadline() {
    let mut events = game(2, 0);
    events[0] = started(2, Timing::Arrival, Some(1));
    events[1] = reveal(1, 1, 0, 0, Some(60_000));
    for card in 5..=8 {
        events.push(BuildingCardReleased { seat: 0, card }.into());
    }
    events.extend(builds_correctly(0, &[1, 2, 3, 4, 5, 6, 7, 8], 0));
    let out = decide_at(&state_of(&events), 0, DeclareCityFinished {}, 10).unwrap();
    assert!(matches!(&out[2], E::CitiesChecked(c) if c.release_deadline_ms.is_none()));
    assert!(matches!(out.last(), Some(E::SpaceBuilderGameWon(_))));
}
