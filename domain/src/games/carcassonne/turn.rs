//! A turn, step by step: place the drawn tile → the gold (Die Goldminen) → the mage or the
//! witch (Magier & Hexe) → a follower or none → scoring → the gold handed out; then the next
//! player draws. A step that leaves the player no choice happens by itself within the command
//! before it (the first ingot, the second when only one tile is next to the gold tile, the
//! last figure leaving when no road or city is free, the follower step when no follower can be
//! placed).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::{Ctx, RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::evolve::Outcome;
use super::followers::{self, majority};
use super::gold::{self, Claim};
use super::mage_witch;
use super::placement;
use super::state::State;
use super::tiles::{self, quarters};
use super::{end, pile, scoring};

/// The step of the turn the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CarcassonnePhase)]
pub enum Phase {
    NotStarted,
    /// Place the drawn tile (`PlaceTile`).
    PlaceTile,
    /// Choose the tile for the second ingot (`PlaceGoldIngot`).
    PlaceGoldIngot,
    /// Place or move the mage or the witch (`PlaceMageOrWitch`), or, with no free road or city,
    /// take one of them off (`RemoveMageOrWitch`).
    PlaceMageOrWitch,
    /// Place a follower on the new tile (`PlaceFollower`) or none (`SkipFollower`).
    PlaceFollower,
    Finished,
}

pub fn phase(state: &State) -> Phase {
    if state.ended.is_some() {
        Phase::Finished
    } else if !state.started {
        Phase::NotStarted
    } else if state.current.is_none() {
        Phase::PlaceTile
    } else if gold::choice_pending(state) {
        Phase::PlaceGoldIngot
    } else if mage_witch::choice_pending(state) {
        Phase::PlaceMageOrWitch
    } else {
        Phase::PlaceFollower
    }
}

/// The command does not belong to this step of the turn.
fn not_now(state: &State) -> RuleError {
    let now = match phase(state) {
        Phase::PlaceTile => "place the drawn tile",
        Phase::PlaceGoldIngot => "choose the tile for the second gold ingot",
        Phase::PlaceMageOrWitch => "place or move the mage or the witch",
        Phase::PlaceFollower => "place a follower on the new tile, or none",
        Phase::NotStarted | Phase::Finished => "nothing",
    };
    RuleError::new(
        "not_this_step",
        format!("That is not this step of the turn: now {now}."),
    )
}

fn expect(state: &State, step: Phase) -> Result<(), RuleError> {
    if phase(state) == step {
        Ok(())
    } else {
        Err(not_now(state))
    }
}

/// What follows a step's own event.
enum Then {
    /// The steps that leave no choice, up to the next choice.
    Advance,
    /// Scoring and the next draw.
    EndTurn,
}

/// A step of the turn: if it is this step, the event `rule` allows, then what follows.
fn act<E: Into<CarcassonneEvent>>(
    state: &State,
    seat: Seat,
    ctx: &mut Ctx,
    step: Phase,
    rule: impl FnOnce() -> Result<E, RuleError>,
    then: Then,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    expect(state, step)?;
    let event = rule()?;
    let mut outcome = Outcome::new(state);
    outcome.push(event);
    match then {
        Then::Advance => advance(&mut outcome, ctx, seat),
        Then::EndTurn => end_turn(&mut outcome, ctx, seat),
    }
    Ok(outcome.events)
}

pub fn place_tile(
    state: &State,
    seat: Seat,
    command: &PlaceTile,
    ctx: &mut Ctx,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    let rule = || {
        let kind = state.drawn.ok_or_else(|| not_now(state))?;
        let quarters = quarters(command.rotation).ok_or_else(|| {
            RuleError::new(
                "invalid_rotation",
                "A tile turns by 0, 90, 180 or 270 degrees.",
            )
        })?;
        let pos = Position::new(command.x, command.y);
        placement::check(&state.board, kind, pos, quarters)?;
        Ok(TilePlaced {
            seat,
            tile: tiles::tile(kind).id.clone(),
            x: pos.x,
            y: pos.y,
            rotation: command.rotation,
        })
    };
    act(state, seat, ctx, Phase::PlaceTile, rule, Then::Advance)
}

pub fn place_gold(
    state: &State,
    seat: Seat,
    command: &PlaceGoldIngot,
    ctx: &mut Ctx,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    let rule = || gold::place(state, seat, command);
    act(state, seat, ctx, Phase::PlaceGoldIngot, rule, Then::Advance)
}

pub fn place_figure(
    state: &State,
    seat: Seat,
    command: &PlaceMageOrWitch,
    ctx: &mut Ctx,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    let rule = || mage_witch::place(state, seat, command);
    act(
        state,
        seat,
        ctx,
        Phase::PlaceMageOrWitch,
        rule,
        Then::Advance,
    )
}

pub fn remove_figure(
    state: &State,
    seat: Seat,
    command: &RemoveMageOrWitch,
    ctx: &mut Ctx,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    let rule = || mage_witch::remove(state, command);
    act(
        state,
        seat,
        ctx,
        Phase::PlaceMageOrWitch,
        rule,
        Then::Advance,
    )
}

pub fn place_follower(
    state: &State,
    seat: Seat,
    command: &PlaceFollower,
    ctx: &mut Ctx,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    let rule = || followers::place(state, seat, command);
    act(state, seat, ctx, Phase::PlaceFollower, rule, Then::EndTurn)
}

pub fn skip_follower(
    state: &State,
    seat: Seat,
    ctx: &mut Ctx,
) -> Result<Vec<CarcassonneEvent>, RuleError> {
    let rule = || Ok(FollowerSkipped { seat });
    act(state, seat, ctx, Phase::PlaceFollower, rule, Then::EndTurn)
}

/// Plays the steps that leave no choice, up to the next choice or the end of the turn.
fn advance(outcome: &mut Outcome, ctx: &mut Ctx, seat: Seat) {
    loop {
        let state = &outcome.state;
        if let Some(ingot) = gold::automatic(state, seat) {
            outcome.push(ingot);
            continue;
        }
        if gold::choice_pending(state) {
            return;
        }
        if let Some(removed) = mage_witch::automatic(state) {
            outcome.push(removed);
            continue;
        }
        if mage_witch::choice_pending(state) {
            return;
        }
        if followers::free_segments(state, seat).is_empty() {
            outcome.push(FollowerSkipped { seat });
            end_turn(outcome, ctx, seat);
        }
        return;
    }
}

/// Scores what the tile completed, sends the followers and figures on it home, hands out the
/// gold, and draws the next player's tile (or ends the game when the pile is empty).
fn end_turn(outcome: &mut Outcome, ctx: &mut Ctx, seat: Seat) {
    let state = &outcome.state;
    let completed = scoring::completed_this_turn(state);
    let nodes: Vec<_> = completed.iter().map(|c| c.node).collect();
    let mut events: Vec<CarcassonneEvent> = completed
        .iter()
        .filter_map(|c| scoring::score(state, c.node, true))
        .map(Into::into)
        .collect();
    let features = &state.board.features;
    for f in &state.followers {
        if nodes.contains(&features.find(f.node)) {
            let (pos, segment) = state.board.segment_of(f.node);
            events.push(
                FollowerReturned {
                    seat: f.seat,
                    x: pos.x,
                    y: pos.y,
                    segment,
                }
                .into(),
            );
        }
    }
    events.extend(
        mage_witch::leaving(state, &nodes)
            .into_iter()
            .map(Into::into),
    );
    if state.options.gold_mines {
        let claims: Vec<Claim> = completed
            .iter()
            .map(|c| Claim {
                tiles: scoring::area(state, c.node),
                seats: majority(state, c.node),
            })
            .collect();
        events.extend(
            gold::hand_out(state, seat, &claims)
                .into_iter()
                .map(Into::into),
        );
    }
    let next = state.next_seat(seat);
    for event in events {
        outcome.push(event);
    }
    if !pile::draw(outcome, ctx, next) {
        end::finish(outcome);
    }
}
