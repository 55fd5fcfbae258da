//! After a scoring round, every player in last place (from the player whose turn it is,
//! clockwise) may swap any number of hand cards for as many new ones: one `SwapOutGuildCard` per
//! card put on the discard pile, then `FinishCardSwap` draws as many. A choice of any subset
//! is a sequence of small commands, so that `/moves` stays short.

use crate::contract::{Ctx, RuleError, Seat};

use super::commands::*;
use super::deck::draw;
use super::events::*;
use super::evolve::Outcome;
use super::scoring_round::check_held;

pub fn swap_out(
    outcome: &mut Outcome,
    seat: Seat,
    command: &SwapOutGuildCard,
) -> Result<(), RuleError> {
    check_held(&outcome.state, seat, command.card)?;
    outcome.push(GuildCardSwappedOut {
        seat,
        card: command.card,
    });
    Ok(())
}

pub fn finish(outcome: &mut Outcome, seat: Seat, ctx: &mut Ctx) {
    let owed = outcome.state.swap.as_ref().map_or(0, |s| s.owed);
    draw(outcome, seat, owed, ctx);
    outcome.push(CardSwapFinished { seat });
}
