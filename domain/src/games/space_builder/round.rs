//! A round's life: a blueprint is revealed, everybody builds, the building ends (see
//! [`building_end_due`], or the deadline passes), every city is checked, and the winner releases
//! a card, which starts the next round, or wins the game holding all 8 cards.

use super::blueprints::{revealed, target};
use super::events::*;
use super::evolve::apply;
use super::faults::check_city;
use super::options::*;
use super::state::*;
use super::timing::{deadline_after, deadline_passed, finishing_order, round_minutes};
use crate::contract::{Ctx, RuleError, Seat};

/// The events that start `round`: a reshuffle when the pile ran out, then the reveal of a
/// blueprint drawn at random from the pile, lying at a random quarter turn.
pub fn start_round(state: &State, round: u32, ctx: &mut Ctx) -> Vec<SpaceBuilderEvent> {
    let mut events = Vec::new();
    let pile: Vec<u8> = if state.pile.is_empty() {
        events.push(BlueprintsReshuffled { round }.into());
        (1..=BLUEPRINTS).collect()
    } else {
        state.pile.clone()
    };
    let number = pile[ctx.rng.index(pile.len())];
    let turn = ctx.rng.below(u64::from(ROTATIONS)) as u8;
    events.push(
        BlueprintRevealed {
            round,
            at_ms: ctx.now_ms,
            deadline_ms: deadline_after(ctx.now_ms, round_minutes(state)),
            blueprint: Some(revealed(number, turn)),
        }
        .into(),
    );
    events
}

/// Whether the round's building ends now, after a finish or a stop: when nobody builds any more,
/// or, in `arrival` timing (the table's rule), when all but one have finished: the last one is
/// stopped. In `elapsed` timing nobody is stopped by the others' speed: each builds in their own
/// time, and the round waits for everyone (or its deadline). A player who stopped themselves
/// never counts as finished, so quitting cannot cut the others' round short.
pub fn building_end_due(state: &State) -> Option<StopReason> {
    let building = state
        .players
        .iter()
        .filter(|p| !p.finished() && !p.stopped)
        .count();
    if building == 0 {
        Some(StopReason::NobodyBuilding)
    } else if state.timing == Timing::Arrival && state.finish_order.len() + 1 >= state.players.len()
    {
        Some(StopReason::AllButOneFinished)
    } else {
        None
    }
}

/// The events that end the round's building in `state`: everybody still building is stopped,
/// the cities are checked, and the game ends if the winner held all 8 cards; otherwise the
/// winner's release gets its deadline (with `deadline_minutes`).
pub fn end_round(state: &State, reason: StopReason, now_ms: i64) -> Vec<SpaceBuilderEvent> {
    let stopped: Vec<Seat> = (0..state.players.len() as Seat)
        .filter(|s| {
            let p = &state.players[usize::from(*s)];
            !p.finished() && !p.stopped
        })
        .collect();
    let stop: SpaceBuilderEvent = BuildingStopped {
        round: state.round,
        reason,
        stopped,
        at_ms: now_ms,
    }
    .into();
    let mut after = state.clone();
    apply(&mut after, &stop);
    let Some(result) = check_round(&after) else {
        // No blueprint: cannot happen once the game has started.
        return vec![stop];
    };
    let winner = result.winner;
    let wins_game = after.players[usize::from(winner)].hand.len() == usize::from(CARDS);
    let checked: SpaceBuilderEvent = CitiesChecked {
        result,
        release_deadline_ms: if wins_game {
            None
        } else {
            deadline_after(now_ms, state.deadline_minutes)
        },
    }
    .into();
    apply(&mut after, &checked);
    let mut events = vec![stop, checked];
    if wins_game {
        events.push(
            SpaceBuilderGameWon {
                seat: winner,
                rounds: after.round,
                rounds_won: after.players.iter().map(|p| p.rounds_won).collect(),
            }
            .into(),
        );
    }
    events
}

/// Checks every city against the blueprint turned into the boards' frame. Fewest faults wins;
/// a tie goes to whoever finished earlier (stopped players count as last).
pub fn check_round(state: &State) -> Option<RoundResult> {
    let blueprint = state.blueprint.clone()?;
    let target = target(&blueprint);
    let order = finishing_order(state);
    let mut cities: Vec<CityCheck> = order
        .iter()
        .enumerate()
        .map(|(place, &seat)| {
            let player = &state.players[usize::from(seat)];
            let (cards, faults) = check_city(&player.city, &player.hand, &target);
            CityCheck {
                seat,
                city: player.city_by_slot(),
                cards,
                faults,
                stopped: !player.finished(),
                finished_at_ms: player.finished_at_ms,
                elapsed_ms: player.elapsed_ms,
                finishing_place: place as u8 + 1,
                rank: 0,
            }
        })
        .collect();
    cities.sort_by_key(|c| (c.faults, c.finishing_place));
    for (i, city) in cities.iter_mut().enumerate() {
        city.rank = i as u8 + 1;
    }
    let winner = cities.first()?.seat;
    let mut target = target;
    target.sort_by_key(|p| p.slot);
    Some(RoundResult {
        round: state.round,
        blueprint,
        target,
        cities,
        winner,
    })
}

/// The round's winner releases `card`; the next round starts at once.
pub fn release(
    state: &State,
    seat: Seat,
    card: Card,
    ctx: &mut Ctx,
) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
    if state.phase != Phase::Releasing {
        return Err(RuleError::new(
            "not_releasing",
            "A card is released only by a round's winner, after the cities were checked.",
        ));
    }
    if state.releasing != Some(seat) {
        return Err(RuleError::new(
            "not_round_winner",
            "Only the round's winner releases a card.",
        ));
    }
    if !(1..=CARDS).contains(&card) {
        return Err(RuleError::new(
            "no_such_card",
            "Building cards are numbered 1 to 8.",
        ));
    }
    if state.players[usize::from(seat)].hand.contains(&card) {
        return Err(RuleError::new(
            "card_already_released",
            "That card is already in your hand; release one you do not hold yet.",
        ));
    }
    if state
        .release_deadline_ms
        .is_some_and(|deadline| ctx.now_ms >= deadline)
    {
        return Err(RuleError::new(
            "deadline_passed",
            "The time to choose has passed; your lowest card is released for you.",
        ));
    }
    Ok(released(state, seat, card, ctx))
}

/// The winner's lowest card not yet in hand: what the server releases when they did not choose
/// in time.
pub fn lowest_unreleased(state: &State, seat: Seat) -> Option<Card> {
    let hand = &state.players.get(usize::from(seat))?.hand;
    (1..=CARDS).find(|card| !hand.contains(card))
}

/// The release deadline has passed: the server releases the winner's lowest card.
pub fn release_deadline_passed(state: &State, ctx: &mut Ctx) -> Vec<SpaceBuilderEvent> {
    let due = state.phase == Phase::Releasing
        && state
            .release_deadline_ms
            .is_some_and(|deadline| ctx.now_ms >= deadline);
    match (due, state.releasing) {
        (true, Some(seat)) => match lowest_unreleased(state, seat) {
            Some(card) => released(state, seat, card, ctx),
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The card joins the winner's hand and the next round starts.
fn released(state: &State, seat: Seat, card: Card, ctx: &mut Ctx) -> Vec<SpaceBuilderEvent> {
    let released: SpaceBuilderEvent = BuildingCardReleased { seat, card }.into();
    let mut after = state.clone();
    apply(&mut after, &released);
    let mut events = vec![released];
    events.extend(start_round(&after, state.round + 1, ctx));
    events
}

/// The building deadline has passed: everybody still building is stopped and the round checked.
pub fn building_deadline_passed(state: &State, now_ms: i64) -> Vec<SpaceBuilderEvent> {
    if state.phase == Phase::Building && deadline_passed(state, now_ms) {
        end_round(state, StopReason::DeadlinePassed, now_ms)
    } else {
        Vec::new()
    }
}
