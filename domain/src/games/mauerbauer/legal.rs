//! Every command a seat may send now, and the turn clock's default among them. Derived from the
//! same rule functions decide uses, so that each listed command is accepted.

use crate::contract::Seat;

use super::cities::{join_options, would_close};
use super::commands::*;
use super::guild_cards::{Cards, GuildCard};
use super::phase::{step, Step};
use super::scoring_round::needs_city;
use super::state::*;
use super::walls::free_line_ids;
use super::{houses, towers};

pub fn legal_commands(state: &State, seat: Seat) -> Vec<MauerbauerCommand> {
    let now = step(state);
    if now.actor(state) != Some(seat) {
        return Vec::new();
    }
    let hand = state.hand(seat);
    match now {
        Step::BuildWall => free_line_ids(state)
            .map(|line| BuildWall { line }.into())
            .collect(),
        Step::PlaceTowers => towers::options(state)
            .into_iter()
            .map(|towers| PlaceTowers { towers }.into())
            .collect(),
        Step::PlaceHouses => houses::options(state)
            .into_iter()
            .map(|houses| PlaceHouses { houses }.into())
            .collect(),
        Step::JoinCities => join_options(state)
            .into_iter()
            .map(|(city, with)| JoinCities { city, with }.into())
            .chain([KeepCitiesApart {}.into()])
            .collect(),
        Step::GuildScoring(_) => lays(&hand, true)
            .chain(hand.kinds().map(|card| DiscardGuildCard { card }.into()))
            .collect(),
        Step::CardSwap(_) => hand
            .kinds()
            .map(|card| SwapOutGuildCard { card }.into())
            .chain([FinishCardSwap {}.into()])
            .collect(),
        Step::FinalScoring(_) => {
            let chosen = state.final_scoring.as_ref().and_then(|f| f.city).is_some();
            let choices = state
                .cities
                .iter()
                .filter(|_| !chosen)
                .map(|c| ChooseFinalCity { city: c.id }.into());
            choices
                .chain(lays(&hand, chosen))
                .chain([PassFinalScoring {}.into()])
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Every way to lay 1 or 2 cards of `hand` (city cards only `with_city`), in catalogue order.
fn lays(hand: &Cards, with_city: bool) -> impl Iterator<Item = MauerbauerCommand> + '_ {
    let kinds: Vec<GuildCard> = hand
        .kinds()
        .filter(|&k| with_city || !needs_city(k))
        .collect();
    let singles: Vec<Vec<GuildCard>> = kinds.iter().map(|&k| vec![k]).collect();
    let mut pairs = Vec::new();
    for (i, &a) in kinds.iter().enumerate() {
        for &b in &kinds[i..] {
            if a != b || hand.count(a) >= 2 {
                pairs.push(vec![a, b]);
            }
        }
    }
    singles
        .into_iter()
        .chain(pairs)
        .map(|cards| LayGuildCards { cards }.into())
}

/// The turn clock's move for an absent seat: the listed command that changes the least. A wall
/// on the lowest free line that closes no city (the lowest free line if every one does); the
/// first placement listed; no join; in a scoring round, discarding the first card of the hand
/// (it scores nothing for a player who is not there); no swap; no final cards.
pub fn default_command(state: &State, seat: Seat) -> Option<MauerbauerCommand> {
    let legal = legal_commands(state, seat);
    let first = legal.first().cloned()?;
    let pick =
        |wanted: &dyn Fn(&MauerbauerCommand) -> bool| legal.iter().find(|c| wanted(c)).cloned();
    let command = match step(state) {
        Step::BuildWall => {
            pick(&|c| matches!(c, MauerbauerCommand::BuildWall(b) if !would_close(state, b.line)))
        }
        Step::JoinCities => pick(&|c| matches!(c, MauerbauerCommand::KeepCitiesApart(_))),
        Step::GuildScoring(_) => pick(&|c| matches!(c, MauerbauerCommand::DiscardGuildCard(_))),
        Step::CardSwap(_) => pick(&|c| matches!(c, MauerbauerCommand::FinishCardSwap(_))),
        Step::FinalScoring(_) => pick(&|c| matches!(c, MauerbauerCommand::PassFinalScoring(_))),
        _ => None,
    };
    Some(command.unwrap_or(first))
}

#[cfg(test)]
#[path = "tests/legal.rs"]
mod tests;
