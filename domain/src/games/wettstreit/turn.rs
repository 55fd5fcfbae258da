//! The course of a turn and of the game: whose step it is, the automatic events that follow a
//! command (payment, the announcement of a face-down card's kind, a sabotaged card going under
//! the lower stack, the open stack's new top card, the next turn), the final round and the end.
//!
//! When a player auctions a stack's last card, they still build or sabotage; then the final
//! round begins with the next player and ends with them: each lays up to three cards (a first
//! build still needs three). Then the game is scored.

use crate::contract::{RuleError, Seat, Status};

use super::commands::*;
use super::events::*;
use super::evolve::evolve;
use super::options::*;
use super::state::*;
use super::{auction, payment, scoring};

/// Ends step 3 (building is optional) and so the turn.
pub fn finish_build_step(state: &State, seat: Seat) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_step(state, seat, Phase::Build)?;
    Ok(vec![next_turn(state)])
}

/// Both stacks are equally low: the chooser (the saboteur's owner) puts the waiting card under
/// either.
pub fn put_card_under_stack(
    state: &State,
    seat: Seat,
    cmd: &PutCardUnderStack,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    let Some(under) = state
        .card_under
        .as_ref()
        .filter(|_| state.phase == Phase::CardUnder)
    else {
        return Err(RuleError::new(
            "no_card_to_put_under",
            "No card waits to go under a stack.",
        ));
    };
    if under.chooser != seat {
        return Err(RuleError::not_your_turn());
    }
    if let Some(lower) = state.lower_stack() {
        if lower != cmd.stack {
            return Err(RuleError::new(
                "under_the_lower_stack",
                "The card goes under the lower stack.",
            ));
        }
    }
    Ok(vec![put_under(under, cmd.stack)])
}

fn put_under(under: &CardUnder, stack: Stack) -> WettstreitEvent {
    CardPutUnderStack {
        stack,
        card: under.card,
    }
    .into()
}

/// The event that starts the next turn, or ends the game after the final round.
fn next_turn(state: &State) -> WettstreitEvent {
    let next = state.next_seat(state.turn);
    match state.final_trigger {
        Some(last) if state.final_round && state.turn == last => scoring::game_ended(state).into(),
        Some(_) => WettstreitTurnBegan {
            seat: next,
            final_round: true,
        }
        .into(),
        None => WettstreitTurnBegan {
            seat: next,
            final_round: false,
        }
        .into(),
    }
}

/// The automatic event owed in this state, if any.
fn automatic(state: &State) -> Option<WettstreitEvent> {
    if state.phase == Phase::Ended {
        return None;
    }
    if state.phase != Phase::NotStarted && state.open.last().copied() != state.open_top_shown {
        return Some(
            OpenStackTopShown {
                card: state.open.last().copied(),
            }
            .into(),
        );
    }
    match state.phase {
        Phase::Bidding => auction::announcement_due(state),
        Phase::AuctionClosing => payment::settle_payment(state),
        Phase::CardUnder => {
            let under = state.card_under.as_ref()?;
            state.lower_stack().map(|stack| put_under(under, stack))
        }
        Phase::TurnOver => Some(next_turn(state)),
        _ => None,
    }
}

/// The command's events followed by every automatic event they make due.
pub fn settle(state: &State, mut events: Vec<WettstreitEvent>) -> Vec<WettstreitEvent> {
    let mut scratch = state.clone();
    for event in &events {
        evolve(&mut scratch, event);
    }
    // Each automatic event moves the game on (cards and phases are finite), so this ends.
    while let Some(event) = automatic(&scratch) {
        evolve(&mut scratch, &event);
        events.push(event);
    }
    events
}

/// Who must act, and the result once the game has ended.
pub(crate) fn status(state: &State) -> Status {
    if let Some(ended) = &state.ended {
        return Status {
            to_act: Vec::new(),
            finished: true,
            scores: Some(ended.scores.iter().map(|s| s.total).collect()),
            winners: ended.winners.clone(),
        };
    }
    let to_act = match state.phase {
        Phase::NotStarted | Phase::Ended | Phase::AuctionClosing | Phase::TurnOver => Vec::new(),
        Phase::Income | Phase::TakeSaboteur | Phase::Auction | Phase::OpeningBid | Phase::Build => {
            vec![state.turn]
        }
        Phase::Bidding => state.auction.iter().map(|a| a.next).collect(),
        Phase::OwnerChoice => state.ransom.iter().map(|r| r.owner).collect(),
        Phase::CardUnder => state.card_under.iter().map(|u| u.chooser).collect(),
    };
    Status {
        to_act,
        finished: false,
        scores: None,
        winners: Vec::new(),
    }
}
