//! Where in the turn the game is, derived from the state: what it waits for and from whom.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::{RuleError, Seat};

use super::cities::join_options;
use super::state::*;

/// What the game waits for (the view's `phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = MauerbauerPhase)]
pub enum Phase {
    NotStarted,
    /// The player whose turn it is builds a wall.
    BuildWall,
    /// …places the towers the tower die left open.
    PlaceTowers,
    /// …places the houses the house dice left open.
    PlaceHouses,
    /// …joins a city just closed with a neighbour, or not.
    JoinCities,
    /// Each player in turn lays 1 or 2 guild cards or discards 1.
    GuildScoring,
    /// The players in last place swap cards, one after the other.
    CardSwap,
    /// The game's end: each player in turn may lay 1 or 2 cards once more.
    FinalScoring,
    Finished,
}

/// The step, with the seat that acts in it; `Settle` and the `…Over` steps are passed through
/// by the server within a command (nobody acts in them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Step {
    NotStarted,
    BuildWall,
    PlaceTowers,
    PlaceHouses,
    JoinCities,
    GuildScoring(Seat),
    RoundOver,
    CardSwap(Seat),
    FinalScoring(Seat),
    FinalOver,
    /// Close cities, start the next scoring round, or end the turn.
    Settle,
    Finished,
}

pub fn step(state: &State) -> Step {
    if state.ended.is_some() {
        return Step::Finished;
    }
    if !state.started {
        return Step::NotStarted;
    }
    if let Some(f) = &state.final_scoring {
        return f
            .order
            .get(f.next)
            .map_or(Step::FinalOver, |&s| Step::FinalScoring(s));
    }
    if state.built.is_none() {
        return Step::BuildWall;
    }
    if !state.towers_placed {
        return Step::PlaceTowers;
    }
    if !state.houses_placed {
        return Step::PlaceHouses;
    }
    if let Some(round) = &state.round {
        return round
            .order
            .get(round.next)
            .map_or(Step::RoundOver, |&s| Step::GuildScoring(s));
    }
    if let Some(swap) = &state.swap {
        if let Some(&seat) = swap.seats.get(swap.next) {
            return Step::CardSwap(seat);
        }
    }
    if !state.join_decided && !join_options(state).is_empty() {
        return Step::JoinCities;
    }
    Step::Settle
}

impl Step {
    /// The seat whose command the game waits for.
    pub fn actor(self, state: &State) -> Option<Seat> {
        match self {
            Step::BuildWall | Step::PlaceTowers | Step::PlaceHouses | Step::JoinCities => {
                Some(state.turn)
            }
            Step::GuildScoring(s) | Step::CardSwap(s) | Step::FinalScoring(s) => Some(s),
            _ => None,
        }
    }

    pub fn phase(self) -> Phase {
        match self {
            Step::NotStarted => Phase::NotStarted,
            Step::BuildWall | Step::Settle => Phase::BuildWall,
            Step::PlaceTowers => Phase::PlaceTowers,
            Step::PlaceHouses => Phase::PlaceHouses,
            Step::JoinCities => Phase::JoinCities,
            Step::GuildScoring(_) | Step::RoundOver => Phase::GuildScoring,
            Step::CardSwap(_) => Phase::CardSwap,
            Step::FinalScoring(_) | Step::FinalOver => Phase::FinalScoring,
            Step::Finished => Phase::Finished,
        }
    }

    /// Why a command that does not belong to this step is refused.
    pub fn refusal(self) -> RuleError {
        let (code, message) = match self {
            Step::NotStarted => return RuleError::not_started(),
            Step::Finished => return RuleError::game_over(),
            Step::BuildWall | Step::Settle => (
                "awaiting_wall",
                "The turn begins with building a wall (BuildWall).",
            ),
            Step::PlaceTowers => (
                "awaiting_towers",
                "First place the towers the tower die asks for (PlaceTowers).",
            ),
            Step::PlaceHouses => (
                "awaiting_houses",
                "First place the houses the house dice ask for (PlaceHouses).",
            ),
            Step::JoinCities => (
                "awaiting_join_choice",
                "First decide whether to join the city just closed with a neighbour \
                 (JoinCities or KeepCitiesApart).",
            ),
            Step::GuildScoring(_) | Step::RoundOver => (
                "awaiting_guild_scoring",
                "A city is being scored: lay 1 or 2 guild cards (LayGuildCards) or discard 1 \
                 (DiscardGuildCard).",
            ),
            Step::CardSwap(_) => (
                "awaiting_card_swap",
                "The players in last place are swapping cards (SwapOutGuildCard, \
                 FinishCardSwap).",
            ),
            Step::FinalScoring(_) | Step::FinalOver => (
                "awaiting_final_scoring",
                "The final scoring is under way: ChooseFinalCity, LayGuildCards or \
                 PassFinalScoring.",
            ),
        };
        RuleError::new(code, message)
    }
}
