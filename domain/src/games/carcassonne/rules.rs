//! The [`Game`] implementation: the guard every command passes (the contract's), then each rule area's file.

use crate::contract::{check_turn, Ctx, Game, RuleError, Seat, Status, Viewer};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::State;
use super::view::CarcassonneView;
use super::{evolve, legal, mage_witch, setup, turn, view};

pub struct Carcassonne;

impl Game for Carcassonne {
    const KIND: &'static str = "carcassonne";
    const TITLE: &'static str = "Carcassonne";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 5;
    const RULES: &'static str = include_str!("../../../../docs/rules/carcassonne.md");
    const RULES_DE: Option<&'static str> =
        Some(include_str!("../../../../docs/rules/carcassonne.de.md"));
    type Options = CarcassonneOptions;
    type State = State;
    type Command = CarcassonneCommand;
    type Event = CarcassonneEvent;
    type View = CarcassonneView;

    fn initial() -> State {
        State::default()
    }

    fn setup(
        options: &CarcassonneOptions,
        seats: u8,
        ctx: &mut Ctx,
    ) -> Result<Vec<CarcassonneEvent>, RuleError> {
        setup::setup(options, seats, ctx)
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &CarcassonneCommand,
        ctx: &mut Ctx,
    ) -> Result<Vec<CarcassonneEvent>, RuleError> {
        check_turn(state.ended.is_some(), state.started, state.turn, seat)?;
        match command {
            CarcassonneCommand::PlaceTile(c) => turn::place_tile(state, seat, c, ctx),
            CarcassonneCommand::PlaceGoldIngot(c) => turn::place_gold(state, seat, c, ctx),
            CarcassonneCommand::PlaceMageOrWitch(c) => turn::place_figure(state, seat, c, ctx),
            CarcassonneCommand::RemoveMageOrWitch(c) => turn::remove_figure(state, seat, c, ctx),
            CarcassonneCommand::PlaceFollower(c) => turn::place_follower(state, seat, c, ctx),
            CarcassonneCommand::SkipFollower(_) => turn::skip_follower(state, seat, ctx),
        }
    }

    fn evolve(state: &mut State, event: &CarcassonneEvent) {
        evolve::evolve(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> CarcassonneView {
        view::view(state, viewer)
    }

    /// Every viewer sees everything (see `view.rs`): undo's judgement has nothing to compare.
    fn judged_view(_: &State, _: Viewer) -> Option<CarcassonneView> {
        None
    }

    fn redact(state: &State, event: &CarcassonneEvent, viewer: Viewer) -> Option<CarcassonneEvent> {
        view::redact(state, event, viewer)
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<CarcassonneCommand> {
        legal::legal_commands(state, seat)
    }

    /// The first listed command: the first placement in reading order, the first ingot place,
    /// the first figure move, no follower.
    fn default_command(state: &State, seat: Seat) -> Option<CarcassonneCommand> {
        match turn::phase(state) {
            // The first target listed may hold followers: the figure would change their score.
            turn::Phase::PlaceMageOrWitch if seat == state.turn => {
                mage_witch::least_changing(state)
            }
            _ => legal::legal_commands(state, seat).into_iter().next(),
        }
    }

    fn status(state: &State) -> Status {
        let running = state.started && state.ended.is_none();
        Status {
            to_act: if running { vec![state.turn] } else { vec![] },
            finished: state.ended.is_some(),
            scores: Some(state.scores.clone()),
            winners: state.winners(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamic::DynGame;
    use crate::erased::Erased;

    use super::*;

    #[test]
    fn the_game_registers_with_named_schemas() {
        let game = Erased::<Carcassonne>::new();
        let info = game.info();
        assert_eq!(
            (info.kind, info.min_seats, info.max_seats),
            ("carcassonne", 2, 5)
        );
        assert_eq!(info.options_schema, "CarcassonneOptions");
        assert_eq!(
            info.default_options,
            serde_json::json!({"mage_and_witch": false, "gold_mines": false, "move_minutes": null})
        );
        let schemas = game.schemas();
        assert_eq!(schemas.view, "CarcassonneView");
        let names: Vec<&str> = schemas.schemas.iter().map(|(n, _)| n.as_str()).collect();
        for tag in schemas.commands.iter().chain(&schemas.events) {
            assert!(names.contains(tag), "{tag} has a named schema");
        }
        for helper in [
            "CarcassonneTile",
            "CarcassonneSegment",
            "CarcassonneFeature",
            "CarcassonnePhase",
            "CarcassonnePosition",
        ] {
            assert!(names.contains(&helper), "{helper} has a named schema");
        }
    }

    #[test]
    fn unknown_options_are_refused() {
        let game = Erased::<Carcassonne>::new();
        assert!(game
            .validate_options(&serde_json::json!({"mage_and_witch": true}), 3)
            .is_ok());
        assert!(game
            .validate_options(&serde_json::json!({"river": true}), 3)
            .is_err());
        assert!(game.validate_options(&serde_json::json!({}), 6).is_err());
    }
}
