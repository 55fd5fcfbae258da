//! Step 3, scoring a closed city. From the player who closed it, clockwise, each player lays 1
//! or 2 guild cards and scores them, or discards 1 without scoring; then, in the same order,
//! each who laid draws 1 card and each who discarded draws 2. Then the players in last place may
//! swap cards (`swap.rs`).

use crate::contract::{Ctx, RuleError, Seat};

use super::card_points::points;
use super::commands::*;
use super::deck::draw;
use super::events::*;
use super::evolve::Outcome;
use super::guild_cards::{GuildCard, Scope};
use super::options::*;
use super::state::*;

/// Starts the scoring round of `city`: players without cards sit it out.
pub fn start(outcome: &mut Outcome, city: CityId) {
    let state = &outcome.state;
    let order = state
        .clockwise_from(state.turn)
        .into_iter()
        .filter(|&s| !state.hand(s).is_empty())
        .collect();
    outcome.push(GuildScoringStarted { city, order });
}

/// Checks that `cards` are 1 or 2 cards of the seat's hand, in catalogue order.
pub fn check_cards(state: &State, seat: Seat, cards: &[GuildCard]) -> Result<(), RuleError> {
    if !(1..=2).contains(&cards.len()) {
        return Err(RuleError::new(
            "lay_one_or_two_cards",
            "Lay 1 or 2 guild cards.",
        ));
    }
    if cards.windows(2).any(|w| w[0] > w[1]) {
        return Err(RuleError::new(
            "cards_out_of_order",
            "List the cards in catalogue order (as `/moves` does).",
        ));
    }
    if !state.hand(seat).contains_all(cards) {
        return Err(RuleError::new(
            "card_not_in_hand",
            "You do not hold those cards.",
        ));
    }
    Ok(())
}

/// The cards scored, each with its points, against `city`.
pub fn score(state: &State, cards: &[GuildCard], city: Option<&City>) -> Vec<ScoredCard> {
    cards
        .iter()
        .map(|&card| ScoredCard {
            card,
            points: points(state, card, city),
        })
        .collect()
}

/// Checks that `seat` holds `card`.
pub fn check_held(state: &State, seat: Seat, card: GuildCard) -> Result<(), RuleError> {
    if state.hand(seat).count(card) == 0 {
        return Err(RuleError::new(
            "card_not_in_hand",
            "You do not hold that card.",
        ));
    }
    Ok(())
}

/// Scores `cards` for `city` (and the board) and lays them.
pub fn push_laid(outcome: &mut Outcome, seat: Seat, cards: &[GuildCard], city: Option<CityId>) {
    let state = &outcome.state;
    let cards = score(state, cards, city.and_then(|id| state.city(id)));
    let points = cards.iter().map(|c| c.points).sum();
    outcome.push(GuildCardsLaid {
        seat,
        city,
        cards,
        points,
    });
}

pub fn lay(outcome: &mut Outcome, seat: Seat, command: &LayGuildCards) -> Result<(), RuleError> {
    check_cards(&outcome.state, seat, &command.cards)?;
    let city = outcome.state.round.as_ref().map(|r| r.city);
    push_laid(outcome, seat, &command.cards, city);
    Ok(())
}

pub fn discard(
    outcome: &mut Outcome,
    seat: Seat,
    command: &DiscardGuildCard,
) -> Result<(), RuleError> {
    check_held(&outcome.state, seat, command.card)?;
    outcome.push(GuildCardDiscarded {
        seat,
        card: command.card,
    });
    Ok(())
}

/// Everybody has chosen: the draws, in the round's order, then the round ends.
pub fn finish(outcome: &mut Outcome, ctx: &mut Ctx) {
    let Some(round) = outcome.state.round.clone() else {
        return;
    };
    for &seat in &round.order {
        let count = round.draws.get(usize::from(seat)).copied().unwrap_or(0);
        draw(outcome, seat, count, ctx);
    }
    let last_place = last_place(&outcome.state);
    outcome.push(GuildScoringEnded {
        city: round.city,
        last_place,
    });
}

/// The players in last place who hold cards, from the player whose turn it is, clockwise. Nobody
/// swaps once the game's end has come: the swap would change nothing that counts.
pub fn last_place(state: &State) -> Vec<Seat> {
    if state.end.is_some() {
        return Vec::new();
    }
    let Some(&lowest) = state.scores.iter().min() else {
        return Vec::new();
    };
    state
        .clockwise_from(state.turn)
        .into_iter()
        .filter(|&s| state.scores[usize::from(s)] == lowest && !state.hand(s).is_empty())
        .collect()
}

/// Is `card` about a city (and so needs one to score)?
pub fn needs_city(card: GuildCard) -> bool {
    card.scope() == Scope::City
}

#[cfg(test)]
#[path = "tests/scoring_round.rs"]
mod tests;
