//! The end: as soon as the last wall, tower, house or palace of the supply is placed, the game
//! ends with that turn (so does it when no line is free any more; `evolve` notes each). A city closed in that turn is
//! scored as usual and ends the game; otherwise each player in turn may lay 1 or 2 cards once
//! more, city cards for a closed city of their choice. Most points win; a tie goes to the most
//! cards in hand; still tied, a shared win.

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::evolve::Outcome;
use super::options::*;
use super::scoring_round::{check_cards, needs_city, push_laid};
use super::state::*;

/// The turn is over: the dice go to the next player, or the game ends.
pub fn finish_turn(outcome: &mut Outcome) {
    let state = &outcome.state;
    let Some(reason) = state.end else {
        let seat = state.next_seat(state.turn);
        outcome.push(DiceHandedOn { seat });
        return;
    };
    let order: Vec<Seat> = state
        .clockwise_from(state.turn)
        .into_iter()
        .filter(|&s| !state.hand(s).is_empty())
        .collect();
    if state.closed_this_turn.is_empty() && !order.is_empty() {
        outcome.push(FinalScoringStarted { order });
    } else {
        outcome.push(result(state, reason));
    }
}

pub fn choose_city(
    outcome: &mut Outcome,
    seat: Seat,
    command: &ChooseFinalCity,
) -> Result<(), RuleError> {
    let state = &outcome.state;
    if state.final_scoring.as_ref().and_then(|f| f.city).is_some() {
        return Err(RuleError::new(
            "city_already_chosen",
            "You have chosen your city for the final scoring already.",
        ));
    }
    if state.city(command.city).is_none() {
        return Err(RuleError::new(
            "no_such_city",
            format!("There is no closed city {}.", command.city),
        ));
    }
    outcome.push(FinalCityChosen {
        seat,
        city: command.city,
    });
    Ok(())
}

pub fn lay(outcome: &mut Outcome, seat: Seat, command: &LayGuildCards) -> Result<(), RuleError> {
    let state = &outcome.state;
    check_cards(state, seat, &command.cards)?;
    let city = state.final_scoring.as_ref().and_then(|f| f.city);
    if city.is_none() && command.cards.iter().any(|&c| needs_city(c)) {
        return Err(RuleError::new(
            "choose_a_city_first",
            "City cards score a closed city: choose one first (ChooseFinalCity).",
        ));
    }
    push_laid(outcome, seat, &command.cards, city);
    Ok(())
}

pub fn pass(outcome: &mut Outcome, seat: Seat) {
    outcome.push(FinalScoringPassed { seat });
}

/// Everybody has had their last say.
pub fn finish_final(outcome: &mut Outcome) {
    // The final scoring only begins once the end has come, so the reason is known.
    let reason = outcome.state.end.unwrap_or(EndReason::LastWall);
    let event = result(&outcome.state, reason);
    outcome.push(event);
}

/// Scores, cards in hand and winners now.
pub fn result(state: &State, reason: EndReason) -> MauerbauerGameEnded {
    let cards_in_hand: Vec<u8> = (0..state.players).map(|s| state.hand(s).total()).collect();
    let best = (0..state.players)
        .map(|s| (state.scores[usize::from(s)], cards_in_hand[usize::from(s)]))
        .max()
        .unwrap_or_default();
    let winners = (0..state.players)
        .filter(|&s| (state.scores[usize::from(s)], cards_in_hand[usize::from(s)]) == best)
        .collect();
    MauerbauerGameEnded {
        reason,
        scores: state.scores.clone(),
        cards_in_hand,
        winners,
    }
}

#[cfg(test)]
#[path = "tests/end.rs"]
mod tests;
