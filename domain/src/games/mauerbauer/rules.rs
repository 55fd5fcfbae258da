//! The [`Game`] implementation: the guards every command shares, then each rule area's file,
//! then the steps nobody has a choice in (`turn::advance`).

use crate::contract::{check_setup, Ctx, Game, RuleError, Seat, Status, Viewer};

use super::commands::*;
use super::events::*;
use super::evolve::{evolve, Outcome};
use super::options::*;
use super::phase::{step, Step};
use super::state::*;
use super::view::MauerbauerView;
use super::{cities, end, houses, legal, scoring_round, swap, towers, turn, view, walls};

pub struct Mauerbauer;

impl Game for Mauerbauer {
    const KIND: &'static str = "mauerbauer";
    const TITLE: &'static str = "Mauerbauer";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;
    const RULES: &'static str = include_str!("../../../../docs/rules/mauerbauer.md");
    const RULES_DE: Option<&'static str> =
        Some(include_str!("../../../../docs/rules/mauerbauer.de.md"));
    type Options = MauerbauerOptions;
    type State = State;
    type Command = MauerbauerCommand;
    type Event = MauerbauerEvent;
    type View = MauerbauerView;

    fn initial() -> State {
        State::default()
    }

    fn setup(
        options: &MauerbauerOptions,
        seats: u8,
        ctx: &mut Ctx,
    ) -> Result<Vec<MauerbauerEvent>, RuleError> {
        check_setup::<Self>(options, seats)?;
        turn::setup(seats, ctx)
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &MauerbauerCommand,
        ctx: &mut Ctx,
    ) -> Result<Vec<MauerbauerEvent>, RuleError> {
        use MauerbauerCommand as C;
        let now = step(state);
        match now.actor(state) {
            None => return Err(now.refusal()),
            Some(actor) if actor != seat => return Err(RuleError::not_your_turn()),
            Some(_) => {}
        }
        let mut outcome = Outcome::new(state);
        let o = &mut outcome;
        match (now, command) {
            (Step::BuildWall, C::BuildWall(c)) => walls::build(o, seat, c, ctx)?,
            (Step::PlaceTowers, C::PlaceTowers(c)) => towers::place(o, seat, c)?,
            (Step::PlaceHouses, C::PlaceHouses(c)) => houses::place(o, seat, c)?,
            (Step::JoinCities, C::JoinCities(c)) => {
                if !cities::join_options(state).contains(&(c.city, c.with)) {
                    return Err(RuleError::new(
                        "join_not_allowed",
                        "Join a city closed this turn with one closed city sharing a wall with \
                         it (two cities closed this turn: the lower id first).",
                    ));
                }
                cities::join(o, seat, c.city, c.with);
            }
            (Step::JoinCities, C::KeepCitiesApart(_)) => o.push(CitiesKeptApart { seat }),
            (Step::GuildScoring(_), C::LayGuildCards(c)) => scoring_round::lay(o, seat, c)?,
            (Step::GuildScoring(_), C::DiscardGuildCard(c)) => scoring_round::discard(o, seat, c)?,
            (Step::CardSwap(_), C::SwapOutGuildCard(c)) => swap::swap_out(o, seat, c)?,
            (Step::CardSwap(_), C::FinishCardSwap(_)) => swap::finish(o, seat, ctx),
            (Step::FinalScoring(_), C::ChooseFinalCity(c)) => end::choose_city(o, seat, c)?,
            (Step::FinalScoring(_), C::LayGuildCards(c)) => end::lay(o, seat, c)?,
            (Step::FinalScoring(_), C::PassFinalScoring(_)) => end::pass(o, seat),
            _ => return Err(now.refusal()),
        }
        turn::advance(&mut outcome, ctx);
        Ok(outcome.events)
    }

    fn evolve(state: &mut State, event: &MauerbauerEvent) {
        evolve(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> MauerbauerView {
        view::view(state, viewer)
    }

    fn judged_view(state: &State, viewer: Viewer) -> Option<MauerbauerView> {
        Some(view::judged_view(state, viewer))
    }

    fn redact(state: &State, event: &MauerbauerEvent, viewer: Viewer) -> Option<MauerbauerEvent> {
        Some(view::redact(state, event, viewer))
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<MauerbauerCommand> {
        legal::legal_commands(state, seat)
    }

    fn default_command(state: &State, seat: Seat) -> Option<MauerbauerCommand> {
        legal::default_command(state, seat)
    }

    fn status(state: &State) -> Status {
        let scores = (!state.scores.is_empty()).then(|| state.scores.clone());
        match &state.ended {
            Some(ended) => Status {
                to_act: Vec::new(),
                finished: true,
                scores,
                winners: ended.winners.clone(),
            },
            None => Status {
                to_act: step(state).actor(state).into_iter().collect(),
                finished: false,
                scores,
                winners: Vec::new(),
            },
        }
    }
}

#[cfg(test)]
#[path = "tests/rules.rs"]
mod tests;
