//! The `Game` implementation: commands dispatched to their rule area, and the fold of events.

use super::model::*;
use super::timing::{current_deadline, round_limit_minutes};
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

/// The fold. Never fails and never panics, whatever the event (a redacted event, whose secrets
/// are absent, changes nothing secret).
pub fn apply(state: &mut State, event: &SpaceBuilderEvent) {
    use SpaceBuilderEvent as E;
    match event {
        E::SpaceBuilderGameStarted(e) => {
            let mut hand = e.starting_hand.clone();
            hand.sort_unstable();
            state.started = true;
            state.timing = e.timing;
            state.deadline_minutes = e.deadline_minutes;
            state.round_limit_minutes = e.round_limit_minutes;
            state.players = (0..e.players)
                .map(|_| PlayerState {
                    hand: hand.clone(),
                    ..PlayerState::default()
                })
                .collect();
            state.pile = (1..=BLUEPRINTS).collect();
        }
        E::BlueprintsReshuffled(_) => state.pile = (1..=BLUEPRINTS).collect(),
        E::BlueprintRevealed(e) => {
            state.round = e.round;
            state.round_started_ms = e.at_ms;
            state.deadline_ms = e.deadline_ms;
            if let Some(blueprint) = &e.blueprint {
                state.pile.retain(|n| *n != blueprint.number);
                state.blueprint = Some(blueprint.clone());
            }
            state.phase = Phase::Building;
            state.finish_order.clear();
            state.releasing = None;
            state.release_deadline_ms = None;
            for player in &mut state.players {
                player.city.clear();
                player.looked_at_ms = None;
                player.finished_at_ms = None;
                player.elapsed_ms = None;
                player.stopped = false;
                player.last_change_ms = None;
            }
        }
        E::BlueprintLookedAt(e) => {
            if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
                p.looked_at_ms = Some(e.at_ms);
            }
        }
        E::BuildingCardPlaced(e) => {
            if let (Some(p), Some(placement)) =
                (state.players.get_mut(usize::from(e.seat)), e.placement)
            {
                p.city.push(placement);
                p.last_change_ms = Some(e.at_ms);
            }
        }
        E::BuildingCardMoved(e) => {
            if let (Some(p), Some(to)) = (state.players.get_mut(usize::from(e.seat)), e.placement) {
                if let Some(card) = p.city.iter_mut().find(|c| c.card == to.card) {
                    *card = to;
                }
                p.last_change_ms = Some(e.at_ms);
            }
        }
        E::BuildingCardTakenBack(e) => {
            if let (Some(p), Some(card)) = (state.players.get_mut(usize::from(e.seat)), e.card) {
                p.city.retain(|c| c.card != card);
                p.last_change_ms = Some(e.at_ms);
            }
        }
        E::PlayerStoppedBuilding(e) => {
            if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
                p.stopped = true;
            }
        }
        E::CityDeclaredFinished(e) => {
            if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
                p.finished_at_ms = Some(e.at_ms);
                p.elapsed_ms = e.elapsed_ms;
                state.finish_order.push(e.seat);
            }
        }
        E::BuildingStopped(e) => {
            for seat in &e.stopped {
                if let Some(p) = state.players.get_mut(usize::from(*seat)) {
                    p.stopped = true;
                }
            }
            state.phase = Phase::Checking;
        }
        E::CitiesChecked(e) => {
            if let Some(p) = state.players.get_mut(usize::from(e.result.winner)) {
                p.rounds_won += 1;
            }
            state.releasing = Some(e.result.winner);
            state.release_deadline_ms = e.release_deadline_ms;
            state.last_round = Some(e.result.clone());
            state.phase = Phase::Releasing;
        }
        E::BuildingCardReleased(e) => {
            if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
                if !p.hand.contains(&e.card) {
                    p.hand.push(e.card);
                    p.hand.sort_unstable();
                }
            }
            state.releasing = None;
            state.release_deadline_ms = None;
        }
        E::SpaceBuilderGameWon(e) => {
            state.phase = Phase::Finished;
            state.releasing = None;
            state.winner = Some(e.seat);
        }
    }
}
