//! Building at the same time: every player places, moves, turns, flips and takes back their own
//! hand cards on their own board, in any interleaving with the others, until they declare their
//! city finished (or stop building as it stands). When the building ends, see
//! `round::building_end_due`.

use super::commands::*;
use super::events::*;
use super::evolve::apply;
use super::options::*;
use super::round::{building_end_due, end_round};
use super::state::*;
use super::timing::deadline_passed;
use crate::contract::{Ctx, RuleError, Seat};

/// May `seat` change their city now? (The clock matters only for the deadline.)
pub fn may_build(state: &State, seat: Seat, now_ms: Option<i64>) -> Result<(), RuleError> {
    still_building(state, seat, now_ms)?;
    let player = &state.players[usize::from(seat)];
    if state.timing == Timing::Elapsed && player.looked_at_ms.is_none() {
        return Err(RuleError::new(
            "blueprint_not_looked_at",
            "Look at the blueprint first: your time starts when you do.",
        ));
    }
    Ok(())
}

/// The round's building runs and `seat` has neither finished nor stopped.
fn still_building(state: &State, seat: Seat, now_ms: Option<i64>) -> Result<(), RuleError> {
    building_runs(state, now_ms)?;
    let player = &state.players[usize::from(seat)];
    if player.finished() {
        return Err(RuleError::new(
            "city_finished",
            "You declared your city finished; it cannot change any more this round.",
        ));
    }
    if player.stopped {
        return Err(RuleError::new(
            "building_stopped",
            "The round's building is over for you.",
        ));
    }
    Ok(())
}

/// The round's building runs and (when a clock is given) its deadline has not passed.
pub fn building_runs(state: &State, now_ms: Option<i64>) -> Result<(), RuleError> {
    if state.phase != Phase::Building {
        return Err(RuleError::new(
            "round_over",
            "The round's building is over; the next round starts when the winner has released a card.",
        ));
    }
    if now_ms.is_some_and(|now| deadline_passed(state, now)) {
        return Err(RuleError::new(
            "deadline_passed",
            "The round's deadline has passed; nobody may build any more.",
        ));
    }
    Ok(())
}

fn check_card(card: Card) -> Result<(), RuleError> {
    if (1..=CARDS).contains(&card) {
        Ok(())
    } else {
        Err(RuleError::new(
            "no_such_card",
            "Building cards are numbered 1 to 8.",
        ))
    }
}

fn check_spot(slot: Slot, rotation: u8) -> Result<(), RuleError> {
    if slot >= SLOTS {
        return Err(RuleError::new(
            "no_such_slot",
            "A board has 9 slots, numbered 0 to 8 row by row from the top left.",
        ));
    }
    if rotation >= ROTATIONS {
        return Err(RuleError::new(
            "no_such_rotation",
            "A card lies at 0 to 3 quarter turns.",
        ));
    }
    Ok(())
}

pub fn look(state: &State, seat: Seat, ctx: &Ctx) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
    if state.timing != Timing::Elapsed {
        return Err(RuleError::new(
            "blueprint_already_shown",
            "With arrival timing the blueprint is shown to everybody when the round starts.",
        ));
    }
    building_runs(state, Some(ctx.now_ms))?;
    if state.players[usize::from(seat)].looked_at_ms.is_some() {
        return Err(RuleError::new(
            "blueprint_already_looked_at",
            "You already looked at this round's blueprint; your time is running.",
        ));
    }
    still_building(state, seat, Some(ctx.now_ms))?;
    Ok(vec![BlueprintLookedAt {
        seat,
        round: state.round,
        at_ms: ctx.now_ms,
        blueprint: state.blueprint.clone(),
    }
    .into()])
}

/// The board of `seat`, who lays a card as `to` says, once the seat may build now and the card
/// and its spot are the game's.
fn laying<'s>(
    state: &'s State,
    seat: Seat,
    now_ms: i64,
    to: &Placement,
) -> Result<&'s PlayerState, RuleError> {
    may_build(state, seat, Some(now_ms))?;
    check_card(to.card)?;
    check_spot(to.slot, to.rotation)?;
    Ok(&state.players[usize::from(seat)])
}

fn slot_taken() -> RuleError {
    RuleError::new("slot_taken", "Another card lies on that slot.")
}

pub fn place(
    state: &State,
    seat: Seat,
    cmd: &PlaceBuildingCard,
    ctx: &Ctx,
) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
    let to = Placement {
        card: cmd.card,
        slot: cmd.slot,
        face: cmd.face,
        rotation: cmd.rotation,
    };
    let player = laying(state, seat, ctx.now_ms, &to)?;
    if !player.hand.contains(&cmd.card) {
        return Err(RuleError::new(
            "card_not_released",
            "You may build only with the cards you have released (in your hand).",
        ));
    }
    if player.placed(cmd.card).is_some() {
        return Err(RuleError::new(
            "card_already_placed",
            "That card is already on your board; move it instead.",
        ));
    }
    if player.on_slot(cmd.slot).is_some() {
        return Err(slot_taken());
    }
    Ok(vec![BuildingCardPlaced {
        seat,
        round: state.round,
        at_ms: ctx.now_ms,
        placement: Some(to),
    }
    .into()])
}

pub fn move_card(
    state: &State,
    seat: Seat,
    cmd: &MoveBuildingCard,
    ctx: &Ctx,
) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
    let to = Placement {
        card: cmd.card,
        slot: cmd.slot,
        face: cmd.face,
        rotation: cmd.rotation,
    };
    let player = laying(state, seat, ctx.now_ms, &to)?;
    let Some(from) = player.placed(cmd.card) else {
        return Err(RuleError::new(
            "card_not_placed",
            "That card is not on your board.",
        ));
    };
    if *from == to {
        return Err(RuleError::new(
            "nothing_changes",
            "The card already lies like that.",
        ));
    }
    if player.on_slot(cmd.slot).is_some_and(|p| p.card != cmd.card) {
        return Err(slot_taken());
    }
    Ok(vec![BuildingCardMoved {
        seat,
        round: state.round,
        at_ms: ctx.now_ms,
        from_slot: Some(from.slot),
        placement: Some(to),
    }
    .into()])
}

pub fn take_back(
    state: &State,
    seat: Seat,
    card: Card,
    ctx: &Ctx,
) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
    may_build(state, seat, Some(ctx.now_ms))?;
    check_card(card)?;
    let Some(on) = state.players[usize::from(seat)].placed(card) else {
        return Err(RuleError::new(
            "card_not_placed",
            "That card is not on your board.",
        ));
    };
    Ok(vec![BuildingCardTakenBack {
        seat,
        round: state.round,
        at_ms: ctx.now_ms,
        card: Some(card),
        slot: Some(on.slot),
    }
    .into()])
}

/// Declaring the city finished; it may end the round's building at once.
pub fn finish(state: &State, seat: Seat, ctx: &Ctx) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
    may_build(state, seat, Some(ctx.now_ms))?;
    let player = &state.players[usize::from(seat)];
    if !player.all_placed() {
        return Err(RuleError::new(
            "hand_not_all_placed",
            "You may declare your city finished only when all your hand cards are on the board.",
        ));
    }
    let elapsed_ms = match state.timing {
        Timing::Arrival => None,
        Timing::Elapsed => player
            .looked_at_ms
            .map(|looked| ctx.now_ms.saturating_sub(looked)),
    };
    let finished: SpaceBuilderEvent = CityDeclaredFinished {
        seat,
        round: state.round,
        at_ms: ctx.now_ms,
        elapsed_ms,
    }
    .into();
    Ok(then_maybe_end(state, finished, ctx.now_ms))
}

/// Stopping before finishing, with the city as it stands (also before looking at the
/// blueprint: then every card is missing).
pub fn stop(state: &State, seat: Seat, ctx: &Ctx) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
    still_building(state, seat, Some(ctx.now_ms))?;
    let stopped: SpaceBuilderEvent = PlayerStoppedBuilding {
        seat,
        round: state.round,
        at_ms: ctx.now_ms,
    }
    .into();
    Ok(then_maybe_end(state, stopped, ctx.now_ms))
}

/// `event`, followed by the end of the round's building when it makes that due.
fn then_maybe_end(state: &State, event: SpaceBuilderEvent, now_ms: i64) -> Vec<SpaceBuilderEvent> {
    let mut after = state.clone();
    apply(&mut after, &event);
    let mut events = vec![event];
    if let Some(reason) = building_end_due(&after) {
        events.extend(end_round(&after, reason, now_ms));
    }
    events
}
