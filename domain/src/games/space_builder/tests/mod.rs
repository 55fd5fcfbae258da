//! Space Builder's rules as tests, one module per rule area like the code: given / when / then,
//! the rulebook's worked round, and random games. The fixtures below are shared by all of them.

mod bot;
mod building;
mod clock;
mod hidden;
mod random;
mod round;
mod schemas;
mod setup;
mod timing;

use super::blueprints::{revealed, target};
use super::commands::*;
use super::events::*;
use super::evolve::apply;
use super::options::Face::{A, B};
use super::options::*;
use super::state::*;
use super::SpaceBuilder;
use crate::contract::{Ctx, Game, Seat, Viewer};
use crate::testing::{given, viewers};

type E = SpaceBuilderEvent;

fn started(players: u8, timing: Timing, deadline_minutes: Option<u32>) -> E {
    SpaceBuilderGameStarted {
        players,
        timing,
        deadline_minutes,
        round_limit_minutes: None,
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

/// `seat` looked at round 1's blueprint at `at_ms` (the log's copy: the plan is in the state).
fn looked(seat: Seat, at_ms: i64) -> E {
    BlueprintLookedAt {
        seat,
        round: 1,
        at_ms,
        blueprint: None,
    }
    .into()
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

/// `seat` declared its city finished at `at_ms`, `elapsed_ms` after it looked (elapsed timing).
fn finished_after(seat: Seat, at_ms: i64, elapsed_ms: i64) -> E {
    CityDeclaredFinished {
        seat,
        round: 1,
        at_ms,
        elapsed_ms: Some(elapsed_ms),
    }
    .into()
}

/// Building in round 1 stopped at `at_ms` for `reason`, stopping the seats `stopped`.
fn stopped(reason: StopReason, stopped: &[Seat], at_ms: i64) -> E {
    BuildingStopped {
        round: 1,
        reason,
        stopped: stopped.to_vec(),
        at_ms,
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
