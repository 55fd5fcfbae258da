//! A round's life: a blueprint is revealed, everybody builds, the round ends when the
//! second-to-last player finishes (or the deadline passes), every city is checked, and the
//! winner releases a card, which starts the next round, or wins the game holding all 8 cards.

use super::blueprints::{revealed, target};
use super::faults::check_city;
use super::game::apply;
use super::model::*;
use super::timing::{deadline_after, finishing_order};
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
            deadline_ms: deadline_after(ctx.now_ms, state.deadline_minutes),
            blueprint: Some(revealed(number, turn)),
        }
        .into(),
    );
    events
}

/// The events that end the round's building in `state`: everybody not finished is stopped, the
/// cities are checked, and the game ends if the winner held all 8 cards.
pub fn end_round(state: &State, reason: StopReason, now_ms: i64) -> Vec<SpaceBuilderEvent> {
    let stopped: Vec<Seat> = (0..state.players.len() as Seat)
        .filter(|s| !state.players[usize::from(*s)].finished())
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
    let checked: SpaceBuilderEvent = CitiesChecked { result }.into();
    apply(&mut after, &checked);
    let mut events = vec![stop, checked];
    if after.players[usize::from(winner)].hand.len() == usize::from(CARDS) {
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
    let released: SpaceBuilderEvent = BuildingCardReleased { seat, card }.into();
    let mut after = state.clone();
    apply(&mut after, &released);
    let mut events = vec![released];
    events.extend(start_round(&after, state.round + 1, ctx));
    Ok(events)
}
