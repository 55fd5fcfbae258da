//! The `Game` implementation: commands dispatched to their rule area, and the fold of events.

use super::commands::*;
use super::events::*;
use super::evolve::apply;
use super::options::*;
use super::state::*;
use super::timing::{current_deadline, round_limit_minutes};
use super::view::*;
use super::{building, legal, round, view};
use crate::contract::{check_setup, Ctx, Game, RuleError, Seat, Status, Viewer};

/// Space Builder (Djeco, Jonathan Favre-Godal).
pub struct SpaceBuilder;

impl Game for SpaceBuilder {
    const KIND: &'static str = "space-builder";
    const TITLE: &'static str = "Space Builder";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;
    const RULES: &'static str = include_str!("../../../../docs/rules/space-builder.md");
    const RULES_DE: Option<&'static str> =
        Some(include_str!("../../../../docs/rules/space-builder.de.md"));
    type Options = SpaceBuilderOptions;
    type State = State;
    type Command = SpaceBuilderCommand;
    type Event = SpaceBuilderEvent;
    type View = SpaceBuilderView;

    fn validate_options(options: &SpaceBuilderOptions, _seats: u8) -> Result<(), RuleError> {
        match options.deadline_minutes {
            Some(m) if m == 0 || m > MAX_DEADLINE_MINUTES => Err(RuleError::new(
                "bad_deadline",
                format!("A round's deadline is 1 to {MAX_DEADLINE_MINUTES} minutes."),
            )),
            _ => Ok(()),
        }
    }

    fn initial() -> State {
        State::default()
    }

    fn setup(
        options: &SpaceBuilderOptions,
        seats: u8,
        ctx: &mut Ctx,
    ) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
        Self::setup_with_turn_clock(options, seats, None, ctx)
    }

    fn setup_with_turn_clock(
        options: &SpaceBuilderOptions,
        seats: u8,
        move_minutes: Option<u64>,
        ctx: &mut Ctx,
    ) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
        check_setup::<Self>(options, seats)?;
        let started: SpaceBuilderEvent = SpaceBuilderGameStarted {
            players: seats,
            timing: options.timing,
            deadline_minutes: options.deadline_minutes,
            round_limit_minutes: round_limit_minutes(options.deadline_minutes, move_minutes),
            starting_hand: STAR_CARDS.to_vec(),
        }
        .into();
        let mut state = State::default();
        apply(&mut state, &started);
        let mut events = vec![started];
        events.extend(round::start_round(&state, 1, ctx));
        Ok(events)
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &SpaceBuilderCommand,
        ctx: &mut Ctx,
    ) -> Result<Vec<SpaceBuilderEvent>, RuleError> {
        if !state.started {
            return Err(RuleError::new(
                "not_started",
                "The game has not started yet.",
            ));
        }
        if state.phase == Phase::Finished {
            return Err(RuleError::game_over());
        }
        if usize::from(seat) >= state.players.len() {
            return Err(RuleError::new(
                "no_such_seat",
                "There is no such seat at this table.",
            ));
        }
        match command {
            SpaceBuilderCommand::LookAtBlueprint(_) => building::look(state, seat, ctx),
            SpaceBuilderCommand::PlaceBuildingCard(c) => building::place(state, seat, c, ctx),
            SpaceBuilderCommand::MoveBuildingCard(c) => building::move_card(state, seat, c, ctx),
            SpaceBuilderCommand::TakeBackBuildingCard(c) => {
                building::take_back(state, seat, c.card, ctx)
            }
            SpaceBuilderCommand::DeclareCityFinished(_) => building::finish(state, seat, ctx),
            SpaceBuilderCommand::StopBuilding(_) => building::stop(state, seat, ctx),
            SpaceBuilderCommand::ReleaseBuildingCard(c) => round::release(state, seat, c.card, ctx),
        }
    }

    fn evolve(state: &mut State, event: &SpaceBuilderEvent) {
        apply(state, event);
    }

    fn view(state: &State, viewer: Viewer) -> SpaceBuilderView {
        view::view(state, viewer)
    }

    fn redact(
        state: &State,
        event: &SpaceBuilderEvent,
        viewer: Viewer,
    ) -> Option<SpaceBuilderEvent> {
        Some(view::redact(state, event, viewer))
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<SpaceBuilderCommand> {
        legal::legal_commands(state, seat)
    }

    fn status(state: &State) -> Status {
        legal::status(state)
    }

    fn default_command(state: &State, seat: Seat) -> Option<SpaceBuilderCommand> {
        legal::default_command(state, seat)
    }

    fn deadline(state: &State) -> Option<i64> {
        current_deadline(state)
    }

    /// The building's deadline: everybody still building is stopped as if last, and the round is
    /// checked. The release's deadline: the winner's lowest card is released.
    fn on_deadline(state: &State, ctx: &mut Ctx) -> Vec<SpaceBuilderEvent> {
        match state.phase {
            Phase::Building => round::building_deadline_passed(state, ctx.now_ms),
            Phase::Releasing => round::release_deadline_passed(state, ctx),
            _ => Vec::new(),
        }
    }
}
