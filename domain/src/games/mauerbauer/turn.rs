//! The order of a turn: what the server does by itself between the players' choices. After each
//! command it places what the dice leave no choice about, closes the cities the wall enclosed,
//! runs the scoring rounds one city after the other (the one holding the lower field first),
//! and ends the turn: the dice pass clockwise, or the game ends.

use crate::contract::{Ctx, RuleError, Seat};

use super::cities::{close, newly_enclosed, next_to_score};
use super::deck::draw;
use super::events::*;
use super::evolve::Outcome;
use super::guild_cards::HAND_SIZE;
use super::phase::{step, Step};
use super::state::*;
use super::{end, houses, scoring_round, towers};

/// The game begins: a random starting player, 6 cards dealt to each.
pub fn setup(players: u8, ctx: &mut Ctx) -> Result<Vec<MauerbauerEvent>, RuleError> {
    let starting_seat = ctx.rng.below(u64::from(players)) as Seat;
    let mut outcome = Outcome::new(&State::default());
    outcome.push(MauerbauerGameStarted {
        players,
        starting_seat,
    });
    for seat in outcome.state.clockwise_from(starting_seat) {
        draw(&mut outcome, seat, HAND_SIZE, ctx);
    }
    advance(&mut outcome, ctx);
    Ok(outcome.events)
}

/// Runs every step nobody has a choice in, until the game waits for a player or has ended.
pub fn advance(outcome: &mut Outcome, ctx: &mut Ctx) {
    loop {
        match step(&outcome.state) {
            Step::PlaceTowers => {
                let options = towers::options(&outcome.state);
                if options.len() > 1 {
                    return;
                }
                let seat = outcome.state.turn;
                let towers = options.into_iter().next().unwrap_or_default();
                outcome.push(TowersPlaced { seat, towers });
            }
            Step::PlaceHouses => {
                let options = houses::options(&outcome.state);
                if options.len() > 1 {
                    return;
                }
                let seat = outcome.state.turn;
                let houses = options.into_iter().next().unwrap_or_default();
                outcome.push(HousesPlaced { seat, houses });
            }
            Step::RoundOver => scoring_round::finish(outcome, ctx),
            Step::FinalOver => end::finish_final(outcome),
            Step::Settle => settle(outcome),
            Step::NotStarted
            | Step::BuildWall
            | Step::JoinCities
            | Step::GuildScoring(_)
            | Step::CardSwap(_)
            | Step::FinalScoring(_)
            | Step::Finished => return,
        }
    }
}

/// After the pieces are placed: close what the wall enclosed, then score, then end the turn.
fn settle(outcome: &mut Outcome) {
    let enclosed = outcome
        .state
        .built
        .map(|line| newly_enclosed(&outcome.state, line))
        .unwrap_or_default();
    if !enclosed.is_empty() {
        for fields in enclosed {
            close(outcome, fields);
        }
    } else if let Some(city) = next_to_score(&outcome.state) {
        scoring_round::start(outcome, city);
    } else {
        end::finish_turn(outcome);
    }
}
