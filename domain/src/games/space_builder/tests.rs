//! Space Builder's rules as given / when / then, the rulebook's worked round, and random games.

use super::blueprints::{revealed, target};
use super::game::apply;
use super::model::Face::{A, B};
use super::model::*;
use super::SpaceBuilder;
use crate::contract::{Ctx, Game, Seat, Viewer};
use crate::testing::{given, viewers};

type E = SpaceBuilderEvent;

// ---- helpers --------------------------------------------------------------------------------

fn started(players: u8, timing: Timing, deadline_minutes: Option<u32>) -> E {
    SpaceBuilderGameStarted {
        players,
        timing,
        deadline_minutes,
        starting_hand: vec![1, 2, 3, 4],
    }
    .into()
}

fn reveal(round: u32, number: u8, turn: u8, at_ms: i64, deadline_ms: Option<i64>) -> E {
    BlueprintRevealed {
        round,
        at_ms,
        deadline_ms,
        blueprint: Some(revealed(number, turn)),
    }
    .into()
}

/// A game of `players` in round 1 on blueprint 1 lying at `turn`.
fn game(players: u8, turn: u8) -> Vec<E> {
    vec![
        started(players, Timing::Arrival, None),
        reveal(1, 1, turn, 0, None),
    ]
}

fn elapsed_game(players: u8, deadline_minutes: Option<u32>) -> Vec<E> {
    vec![
        started(players, Timing::Elapsed, deadline_minutes),
        reveal(1, 1, 0, 0, deadline_minutes.map(|m| i64::from(m) * 60_000)),
    ]
}

fn at(card: Card, slot: Slot, face: Face, rotation: u8) -> Placement {
    Placement {
        card,
        slot,
        face,
        rotation,
    }
}

fn placed(seat: Seat, round: u32, p: Placement, at_ms: i64) -> E {
    BuildingCardPlaced {
        seat,
        round,
        at_ms,
        placement: Some(p),
    }
    .into()
}

fn place_cmd(p: Placement) -> PlaceBuildingCard {
    PlaceBuildingCard {
        card: p.card,
        slot: p.slot,
        face: p.face,
        rotation: p.rotation,
    }
}

/// Where `card` belongs on the board for blueprint `number` lying at `turn`.
fn correct(number: u8, turn: u8, card: Card) -> Placement {
    target(&revealed(number, turn))[usize::from(card - 1)]
}

/// `seat` builds the given cards exactly as blueprint 1 at `turn` wants them.
fn builds_correctly(seat: Seat, cards: &[Card], turn: u8) -> Vec<E> {
    cards
        .iter()
        .map(|&c| placed(seat, 1, correct(1, turn, c), 0))
        .collect()
}

fn finished(seat: Seat, at_ms: i64) -> E {
    CityDeclaredFinished {
        seat,
        round: 1,
        at_ms,
        elapsed_ms: None,
    }
    .into()
}

fn state_of(events: &[E]) -> State {
    let mut state = State::default();
    for e in events {
        apply(&mut state, e);
    }
    state
}

fn decide_at(
    state: &State,
    seat: Seat,
    command: impl Into<SpaceBuilderCommand>,
    now_ms: i64,
) -> Result<Vec<E>, crate::RuleError> {
    SpaceBuilder::decide(state, seat, &command.into(), &mut Ctx::new(1, now_ms))
}

fn result_of(events: &[E]) -> RoundResult {
    events
        .iter()
        .find_map(|e| match e {
            E::CitiesChecked(c) => Some(c.result.clone()),
            _ => None,
        })
        .expect("the round was checked")
}

fn with(mut events: Vec<E>, more: impl IntoIterator<Item = E>) -> Vec<E> {
    events.extend(more);
    events
}

// ---- setup ----------------------------------------------------------------------------------

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
    assert_eq!(blueprint.cards, super::plan(blueprint.number));
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

// ---- building -------------------------------------------------------------------------------

#[test]
fn a_player_places_a_hand_card_on_an_empty_slot() {
    let p = at(2, 4, B, 3);
    given::<SpaceBuilder>(game(2, 0))
        .when(0, place_cmd(p))
        .then([placed(0, 1, p, 0)]);
}

#[test]
fn only_released_cards_may_be_built() {
    given::<SpaceBuilder>(game(2, 0))
        .when(0, place_cmd(at(5, 4, A, 0)))
        .then_error("card_not_released");
    given::<SpaceBuilder>(game(2, 0))
        .when(0, place_cmd(at(9, 4, A, 0)))
        .then_error("no_such_card");
}

#[test]
fn a_slot_holds_one_card() {
    given::<SpaceBuilder>(with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]))
        .when(0, place_cmd(at(2, 4, A, 0)))
        .then_error("slot_taken");
}

#[test]
fn slots_and_rotations_must_exist() {
    given::<SpaceBuilder>(game(2, 0))
        .when(0, place_cmd(at(1, 9, A, 0)))
        .then_error("no_such_slot");
    given::<SpaceBuilder>(game(2, 0))
        .when(0, place_cmd(at(1, 0, A, 4)))
        .then_error("no_such_rotation");
}

#[test]
fn a_card_on_the_board_is_moved_not_placed_again() {
    given::<SpaceBuilder>(with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]))
        .when(0, place_cmd(at(1, 5, A, 0)))
        .then_error("card_already_placed");
}

#[test]
fn each_player_builds_on_their_own_board() {
    // Seat 1's slot 4 is free although seat 0 built there.
    let p = at(2, 4, A, 0);
    given::<SpaceBuilder>(with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]))
        .when(1, place_cmd(p))
        .then([placed(1, 1, p, 0)]);
}

#[test]
fn a_card_is_moved_turned_or_flipped() {
    let events = with(
        game(2, 0),
        [
            placed(0, 1, at(1, 4, A, 0), 0),
            placed(0, 1, at(2, 5, A, 0), 0),
        ],
    );
    let moved = |to: Placement| -> E {
        BuildingCardMoved {
            seat: 0,
            round: 1,
            at_ms: 0,
            from_slot: Some(4),
            placement: Some(to),
        }
        .into()
    };
    let to = at(1, 0, B, 1);
    let state = given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 0,
                face: B,
                rotation: 1,
            },
        )
        .then([moved(to)]);
    assert_eq!(state.players[0].placed(1), Some(&to));
    // Turning in place is a move to its own slot.
    given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 4,
                face: A,
                rotation: 2,
            },
        )
        .then([moved(at(1, 4, A, 2))]);
    given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 4,
                face: A,
                rotation: 0,
            },
        )
        .then_error("nothing_changes");
    given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 5,
                face: A,
                rotation: 0,
            },
        )
        .then_error("slot_taken");
    given::<SpaceBuilder>(events)
        .when(
            0,
            MoveBuildingCard {
                card: 3,
                slot: 0,
                face: A,
                rotation: 0,
            },
        )
        .then_error("card_not_placed");
}

#[test]
fn a_card_is_taken_back_into_the_hand() {
    let state = given::<SpaceBuilder>(with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]))
        .when(0, TakeBackBuildingCard { card: 1 })
        .then([BuildingCardTakenBack {
            seat: 0,
            round: 1,
            at_ms: 0,
            card: Some(1),
            slot: Some(4),
        }
        .into()]);
    assert!(state.players[0].city.is_empty());
    given::<SpaceBuilder>(game(2, 0))
        .when(0, TakeBackBuildingCard { card: 1 })
        .then_error("card_not_placed");
}

#[test]
fn finishing_needs_every_hand_card_on_the_board() {
    given::<SpaceBuilder>(with(game(3, 0), builds_correctly(0, &[1, 2, 3], 0)))
        .when(0, DeclareCityFinished {})
        .then_error("hand_not_all_placed");
    given::<SpaceBuilder>(with(game(3, 0), builds_correctly(0, &[1, 2, 3, 4], 0)))
        .when(0, DeclareCityFinished {})
        .then([finished(0, 0)]);
}

#[test]
fn a_finished_city_cannot_change() {
    let events = with(
        with(game(3, 0), builds_correctly(0, &[1, 2, 3, 4], 0)),
        [finished(0, 0)],
    );
    given::<SpaceBuilder>(events.clone())
        .when(0, TakeBackBuildingCard { card: 1 })
        .then_error("city_finished");
    given::<SpaceBuilder>(events.clone())
        .when(0, DeclareCityFinished {})
        .then_error("city_finished");
    let state = state_of(&events);
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![1, 2]);
    assert!(SpaceBuilder::legal_commands(&state, 0).is_empty());
}

#[test]
fn players_build_in_any_interleaving() {
    // Each seat's command is decided on the latest state, whoever sent the one before.
    let mut state = state_of(&game(3, 0));
    let order = [
        (2, 1),
        (0, 1),
        (1, 1),
        (0, 2),
        (2, 2),
        (1, 2),
        (1, 3),
        (0, 3),
        (2, 3),
    ];
    for (seat, card) in order {
        let events = decide_at(&state, seat, place_cmd(correct(1, 0, card)), 0).unwrap();
        for e in &events {
            apply(&mut state, e);
        }
    }
    assert!(state.players.iter().all(|p| p.city.len() == 3));
}

// ---- end of the round -------------------------------------------------------------------------

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
    assert_eq!(
        out[1],
        BuildingStopped {
            round: 1,
            reason: StopReason::AllButOneFinished,
            stopped: vec![2],
            at_ms: 0
        }
        .into()
    );
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

// ---- timing -----------------------------------------------------------------------------------

#[test]
fn elapsed_timing_hides_the_blueprint_until_the_player_looks() {
    let state = state_of(&elapsed_game(2, None));
    assert_eq!(
        SpaceBuilder::legal_commands(&state, 0),
        vec![LookAtBlueprint {}.into()]
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
    assert_eq!(
        out,
        vec![BlueprintLookedAt {
            seat: 0,
            round: 1,
            at_ms: 4_000
        }
        .into()]
    );
    let mut after = state.clone();
    apply(&mut after, &out[0]);
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
fn elapsed_timing_ranks_by_each_players_own_time() {
    // Seat 0 looks at once and needs 60 s; seat 1 looks an hour later and needs 20 s. Both build
    // perfectly: seat 1 finished later by the clock but faster by their own time, and wins.
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
        out[0],
        CityDeclaredFinished {
            seat: 1,
            round: 1,
            at_ms: 3_620_000,
            elapsed_ms: Some(20_000)
        }
        .into()
    );
    let result = result_of(&out);
    assert_eq!(result.winner, 1);
    let places: Vec<(Seat, u8)> = result
        .cities
        .iter()
        .map(|c| (c.seat, c.finishing_place))
        .collect();
    assert_eq!(places, vec![(1, 1), (0, 2), (2, 3)]);
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
    events.push(
        BlueprintLookedAt {
            seat: 0,
            round: 1,
            at_ms: 0,
        }
        .into(),
    );
    events.extend(builds_correctly(0, &[1, 2, 3, 4], 0));
    events.push(
        CityDeclaredFinished {
            seat: 0,
            round: 1,
            at_ms: 1_000,
            elapsed_ms: Some(1_000),
        }
        .into(),
    );
    events.push(
        BlueprintLookedAt {
            seat: 1,
            round: 1,
            at_ms: 0,
        }
        .into(),
    );
    events.push(placed(1, 1, correct(1, 0, 1), 5_000));
    let state = state_of(&events);
    assert_eq!(SpaceBuilder::deadline(&state), Some(120_000));
    let late = decide_at(&state, 1, place_cmd(correct(1, 0, 2)), 120_000).unwrap_err();
    assert_eq!(late.code, "deadline_passed");
    assert!(SpaceBuilder::on_deadline(&state, &mut Ctx::new(0, 119_999)).is_empty());
    let out = SpaceBuilder::on_deadline(&state, &mut Ctx::new(0, 120_000));
    assert_eq!(
        out[0],
        BuildingStopped {
            round: 1,
            reason: StopReason::DeadlinePassed,
            stopped: vec![1, 2],
            at_ms: 120_000
        }
        .into()
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
    assert_eq!(SpaceBuilder::deadline(&after), None);
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

// ---- hidden information -----------------------------------------------------------------------

#[test]
fn others_see_only_how_many_cards_are_placed_while_the_round_runs() {
    let p = at(1, 4, A, 0);
    let events = with(game(3, 0), [placed(0, 1, p, 0)]);
    let state = state_of(&events);
    let own = SpaceBuilder::view(&state, Viewer::Seat(0));
    assert_eq!(own.players[0].city, Some(vec![p]));
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let v = SpaceBuilder::view(&state, viewer);
        assert_eq!(v.players[0].city, None);
        assert_eq!(v.players[0].placed, 1);
        let redacted = SpaceBuilder::redact(&state, &events[2], viewer).unwrap();
        assert_eq!(
            redacted,
            BuildingCardPlaced {
                seat: 0,
                round: 1,
                at_ms: 0,
                placement: None
            }
            .into()
        );
    }
    assert_eq!(
        SpaceBuilder::redact(&state, &events[2], Viewer::Seat(0)).unwrap(),
        events[2]
    );
    assert_eq!(
        SpaceBuilder::redact(&state, &events[2], Viewer::Everyone).unwrap(),
        events[2]
    );
}

#[test]
fn everything_is_shown_when_the_round_ends() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let events = with(events, [placed(1, 1, at(1, 8, B, 2), 0)]);
    let (_, state) = given::<SpaceBuilder>(events.clone())
        .when(0, DeclareCityFinished {})
        .accepted();
    let v = SpaceBuilder::view(&state, Viewer::Spectator);
    assert_eq!(v.players[1].city, Some(vec![at(1, 8, B, 2)]));
    assert_eq!(
        SpaceBuilder::redact(&state, events.last().unwrap(), Viewer::Seat(0)).unwrap(),
        *events.last().unwrap()
    );
}

// ---- schemas ------------------------------------------------------------------------------------

#[test]
fn the_game_registers_with_named_schemas_and_unique_tags() {
    use crate::dynamic::{DynGame, Erased};
    let game = Erased::<SpaceBuilder>::new();
    let info = game.info();
    assert_eq!(info.kind, "space-builder");
    assert_eq!(info.options_schema, "SpaceBuilderOptions");
    let schemas = game.schemas();
    assert_eq!(schemas.view, "SpaceBuilderView");
    let names: Vec<&str> = schemas.schemas.iter().map(|(n, _)| n.as_str()).collect();
    for name in [
        "SpaceBuilderPlacement",
        "SpaceBuilderFace",
        "SpaceBuilderRoundResult",
        "PlaceBuildingCard",
        "CitiesChecked",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    // Helper types are named after the game, so that no schema name clashes with another game's.
    for name in &names {
        assert!(
            name.starts_with("SpaceBuilder")
                // utoipa names the aliases `Card`, `Slot` and `Seat` after their type, as it does
                // for every game.
                || *name == "u8"
                || schemas.commands.contains(name)
                || schemas.events.contains(name),
            "schema `{name}` is not named after the game"
        );
    }
    // Registered, so the registry's test keeps its tags unique across games.
    assert!(crate::registry::find(SpaceBuilder::KIND).is_some());
    let state = game
        .replay(
            &game
                .setup(&serde_json::Value::Null, 2, &mut Ctx::new(1, 0))
                .unwrap(),
        )
        .unwrap();
    let view = game.view(&state, Viewer::Seat(0));
    assert_eq!(view["type"], "SpaceBuilderView");
    let moves = game.legal_commands(&state, 0);
    assert!(moves.iter().all(|m| m["type"] == "PlaceBuildingCard"));
    assert_eq!(moves.len(), 4 * 9 * 8);
}

// ---- random games -------------------------------------------------------------------------------

mod random {
    use super::*;
    use crate::rng::GameRng;
    use crate::testing::random_game;
    use proptest::prelude::*;

    /// Events counted so far, for conservation.
    #[derive(Default)]
    struct Tally {
        released: usize,
        checked: usize,
    }

    impl Tally {
        fn add(&mut self, new: &[E]) {
            for e in new {
                match e {
                    E::BuildingCardReleased(_) => self.released += 1,
                    E::CitiesChecked(_) => self.checked += 1,
                    _ => {}
                }
            }
        }
    }

    /// What must hold after every step: cards are conserved, and no viewer sees a city or a
    /// blueprint the rules hide (in the view, and in the events `new` as redacted).
    fn check(state: &State, tally: &Tally, new: &[E]) {
        let held: usize = state.players.iter().map(|p| p.hand.len() - 4).sum();
        assert_eq!(
            held, tally.released,
            "a released card is in exactly one hand"
        );
        let won: u32 = state.players.iter().map(|p| p.rounds_won).sum();
        assert_eq!(won as usize, tally.checked);
        for p in &state.players {
            assert!(p.hand.starts_with(&[1, 2, 3, 4]) && p.hand.windows(2).all(|w| w[0] < w[1]));
            assert!(p.hand.iter().all(|c| (1..=8).contains(c)));
            let mut cards: Vec<Card> = p.city.iter().map(|c| c.card).collect();
            let mut slots: Vec<Slot> = p.city.iter().map(|c| c.slot).collect();
            assert!(
                cards.iter().all(|c| p.hand.contains(c)),
                "only hand cards on the board"
            );
            cards.sort_unstable();
            cards.dedup();
            slots.sort_unstable();
            slots.dedup();
            assert_eq!(cards.len(), p.city.len());
            assert_eq!(slots.len(), p.city.len());
            assert!(slots.iter().all(|s| *s < 9));
        }
        let building = state.phase == Phase::Building;
        for viewer in viewers(state.players.len() as u8) {
            let view = SpaceBuilder::view(state, viewer);
            for (i, p) in view.players.iter().enumerate() {
                let own = viewer == Viewer::Seat(i as Seat) || viewer == Viewer::Everyone;
                assert_eq!(
                    p.city.is_some(),
                    own || !building,
                    "city of {i} to {viewer:?}"
                );
                assert_eq!(usize::from(p.placed), state.players[i].city.len());
            }
            let may_see_plan = match viewer {
                _ if state.timing == Timing::Arrival || !building => true,
                Viewer::Everyone => true,
                Viewer::Seat(s) => state.players[usize::from(s)].looked_at_ms.is_some(),
                Viewer::Spectator => false,
            };
            assert_eq!(view.blueprint.is_some(), may_see_plan);
            for event in new {
                let shown = SpaceBuilder::redact(state, event, viewer).unwrap();
                let secret_of = match event {
                    E::BuildingCardPlaced(e) => Some((
                        e.seat,
                        matches!(&shown, E::BuildingCardPlaced(s) if s.placement.is_none()),
                    )),
                    E::BuildingCardMoved(e) => Some((
                        e.seat,
                        matches!(&shown, E::BuildingCardMoved(s) if s.placement.is_none() && s.from_slot.is_none()),
                    )),
                    E::BuildingCardTakenBack(e) => Some((
                        e.seat,
                        matches!(&shown, E::BuildingCardTakenBack(s) if s.card.is_none() && s.slot.is_none()),
                    )),
                    E::BlueprintRevealed(_) => {
                        assert_eq!(
                            matches!(&shown, E::BlueprintRevealed(s) if s.blueprint.is_some()),
                            may_see_plan
                        );
                        None
                    }
                    _ => {
                        assert_eq!(&shown, event);
                        None
                    }
                };
                if let Some((seat, hidden)) = secret_of {
                    let own = viewer == Viewer::Seat(seat) || viewer == Viewer::Everyone;
                    assert_eq!(hidden, building && !own, "{event:?} to {viewer:?}");
                }
            }
        }
    }

    /// Any command, legal or not, drawn from small ranges (to check that decide refuses exactly
    /// what legal_commands does not list).
    fn any_command(rng: &mut GameRng) -> SpaceBuilderCommand {
        let card = rng.below(10) as u8;
        let slot = rng.below(10) as u8;
        let face = if rng.below(2) == 0 { A } else { B };
        let rotation = rng.below(5) as u8;
        match rng.below(6) {
            0 => LookAtBlueprint {}.into(),
            1 => PlaceBuildingCard {
                card,
                slot,
                face,
                rotation,
            }
            .into(),
            2 => MoveBuildingCard {
                card,
                slot,
                face,
                rotation,
            }
            .into(),
            3 => TakeBackBuildingCard { card }.into(),
            4 => DeclareCityFinished {}.into(),
            _ => ReleaseBuildingCard { card }.into(),
        }
    }

    /// Plays a whole game: players act in random interleaving, mostly placing and finishing (as
    /// players do) but sometimes any legal command; time runs on by random steps so that
    /// deadlines pass. Returns the number of rounds.
    pub fn play(seed: u64, players: u8, options: &SpaceBuilderOptions) -> u32 {
        let mut rng = GameRng::from_seed(seed);
        let mut now: i64 = 1_700_000_000_000;
        let mut events = SpaceBuilder::setup(options, players, &mut Ctx::new(seed, now)).unwrap();
        let mut state = state_of(&events);
        let mut tally = Tally::default();
        check(&state, &tally, &events);
        for step in 0..100_000 {
            let status = SpaceBuilder::status(&state);
            if status.finished {
                assert_eq!(status.winners.len(), 1);
                assert!((0..players).all(|s| SpaceBuilder::legal_commands(&state, s).is_empty()));
                let winner = usize::from(status.winners[0]);
                assert_eq!(state.players[winner].hand.len(), 8);
                assert_eq!(state_of(&events), state, "replay(events) == state");
                return state.round;
            }
            let new = if SpaceBuilder::deadline(&state).is_some_and(|d| now >= d) {
                let out = SpaceBuilder::on_deadline(&state, &mut Ctx::new(rng.next_u64(), now));
                assert!(!out.is_empty(), "a passed deadline ends the round");
                out
            } else {
                assert!(!status.to_act.is_empty());
                let seat = status.to_act[rng.index(status.to_act.len())];
                let legal = SpaceBuilder::legal_commands(&state, seat);
                assert!(!legal.is_empty(), "seat {seat} must act but has no command");
                if step % 7 == 0 {
                    // Decide accepts exactly what is listed: probe the acting seat, and any seat
                    // (finished, stopped, not the round's winner...) now and then.
                    let probe_seat = if step % 3 == 0 {
                        rng.below(u64::from(players)) as Seat
                    } else {
                        seat
                    };
                    let listed = if probe_seat == seat {
                        legal.clone()
                    } else {
                        SpaceBuilder::legal_commands(&state, probe_seat)
                    };
                    let probe = if rng.below(2) == 0 && !listed.is_empty() {
                        listed[rng.index(listed.len())].clone()
                    } else {
                        any_command(&mut rng)
                    };
                    let outcome =
                        SpaceBuilder::decide(&state, probe_seat, &probe, &mut Ctx::new(0, now));
                    assert_eq!(
                        outcome.is_ok(),
                        listed.contains(&probe),
                        "{probe:?} by {probe_seat}: {outcome:?}"
                    );
                }
                let finish = SpaceBuilderCommand::from(DeclareCityFinished {});
                let places: Vec<&SpaceBuilderCommand> = legal
                    .iter()
                    .filter(|c| matches!(c, SpaceBuilderCommand::PlaceBuildingCard(_)))
                    .collect();
                let command = if legal.contains(&finish) && rng.below(4) != 0 {
                    finish
                } else if !places.is_empty() && rng.below(5) != 0 {
                    places[rng.index(places.len())].clone()
                } else {
                    legal[rng.index(legal.len())].clone()
                };
                SpaceBuilder::decide(&state, seat, &command, &mut Ctx::new(rng.next_u64(), now))
                    .unwrap_or_else(|e| panic!("listed {command:?} refused: {e:?}"))
            };
            for e in &new {
                let json = serde_json::to_value(e).unwrap();
                assert_eq!(&serde_json::from_value::<E>(json).unwrap(), e);
                apply(&mut state, e);
            }
            tally.add(&new);
            check(&state, &tally, &new);
            events.extend(new);
            now += rng.below(20_000) as i64;
        }
        panic!("the game did not end");
    }

    fn options(elapsed: bool, deadline: Option<u32>) -> SpaceBuilderOptions {
        SpaceBuilderOptions {
            timing: if elapsed {
                Timing::Elapsed
            } else {
                Timing::Arrival
            },
            deadline_minutes: deadline,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_legal_games_end_conserve_cards_and_keep_secrets(
            seed in any::<u64>(),
            players in 2u8..=4,
            elapsed in any::<bool>(),
            deadline in proptest::option::of(1u32..=3),
        ) {
            play(seed, players, &options(elapsed, deadline));
        }
    }

    /// Plays the games of `seeds` to the end: 2, 3 and 4 players, both timings, some with a
    /// one-minute deadline (which passes often: the driver's clock runs up to 20 s a move).
    fn play_seeds(seeds: std::ops::Range<u64>) {
        for seed in seeds {
            let players = 2 + (seed % 3) as u8;
            let deadline = (seed % 5 == 0).then_some(1);
            let rounds = play(seed, players, &options(seed % 2 == 1, deadline));
            assert!(
                rounds >= 5,
                "a game lasts at least 5 rounds: 4 releases, then a win with 8"
            );
        }
    }

    // Two halves, so that the test harness runs them on both cores.
    #[test]
    fn random_games_end_first_half() {
        play_seeds(0..1000);
    }

    #[test]
    fn random_games_end_second_half() {
        play_seeds(1000..2000);
    }

    #[test]
    fn the_shared_random_player_finds_every_listed_command_accepted() {
        // Uniform choice among hundreds of moves rarely finishes a city, so these games are
        // bounded; the full games are played above.
        for seed in 0..6 {
            let opts = options(seed % 2 == 0, None);
            let (mut seen, mut tally) = (0, Tally::default());
            let game = random_game::<SpaceBuilder>(
                &opts,
                2 + (seed % 3) as u8,
                seed,
                300,
                |state, events| {
                    let new = &events[seen..];
                    tally.add(new);
                    check(state, &tally, new);
                    seen = events.len();
                },
            );
            assert!(game.moves > 0);
        }
    }
}
