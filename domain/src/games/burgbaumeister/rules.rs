//! The [`Game`] implementation: the guard every command passes (the contract's), then each rule area's file.

use crate::contract::{check_turn, Ctx, Game, RuleError, Seat, Status, Viewer};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::*;
use super::view::*;
use super::{cannon, evolve, legal, scoring, setup, turn, view, wizard};

pub struct Burgbaumeister;

impl Game for Burgbaumeister {
    const KIND: &'static str = "burgbaumeister";
    const TITLE: &'static str = "Der Wettkampf der Burgbaumeister";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;
    const RULES: &'static str = include_str!("../../../../docs/rules/burgbaumeister.md");
    const RULES_DE: Option<&'static str> =
        Some(include_str!("../../../../docs/rules/burgbaumeister.de.md"));
    type Options = BurgbaumeisterOptions;
    type State = State;
    type Command = BurgbaumeisterCommand;
    type Event = BurgbaumeisterEvent;
    type View = BurgbaumeisterView;

    fn initial() -> State {
        State::default()
    }

    fn setup(
        options: &BurgbaumeisterOptions,
        seats: u8,
        ctx: &mut Ctx,
    ) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
        setup::setup(options, seats, ctx)
    }

    fn decide(
        state: &State,
        seat: Seat,
        command: &BurgbaumeisterCommand,
        _ctx: &mut Ctx,
    ) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
        check_turn(state.ended.is_some(), state.started, state.turn, seat)?;
        match command {
            BurgbaumeisterCommand::TurnUpCard(c) => turn::turn_up(state, seat, c),
            BurgbaumeisterCommand::AddCardToWall(_) => turn::add(state, seat),
            BurgbaumeisterCommand::ReturnCard(_) => turn::give_back(state, seat),
            BurgbaumeisterCommand::InsertCardWithWizard(c) => wizard::insert(state, seat, c),
            BurgbaumeisterCommand::FireCannon(c) => cannon::fire(state, seat, c),
            BurgbaumeisterCommand::DeclineCannon(_) => cannon::decline(state, seat),
        }
    }

    fn evolve(state: &mut State, event: &BurgbaumeisterEvent) {
        evolve::evolve(state, event)
    }

    fn view(state: &State, viewer: Viewer) -> BurgbaumeisterView {
        view::view(state, viewer)
    }

    fn judged_view(state: &State, viewer: Viewer) -> Option<BurgbaumeisterView> {
        Some(view::judged_view(state, viewer))
    }

    /// Nobody holds a hand: the face-down cards are hidden from every seat and the spectators
    /// alike, and everything else is public (`view.rs`).
    const VIEWERS_SEE_ALIKE: bool = true;

    fn redact(
        state: &State,
        event: &BurgbaumeisterEvent,
        viewer: Viewer,
    ) -> Option<BurgbaumeisterEvent> {
        view::redact(state, event, viewer)
    }

    fn legal_commands(state: &State, seat: Seat) -> Vec<BurgbaumeisterCommand> {
        legal::legal_commands(state, seat)
    }

    fn default_command(state: &State, seat: Seat) -> Option<BurgbaumeisterCommand> {
        legal::default_command(state, seat)
    }

    fn status(state: &State) -> Status {
        let running = state.started && state.ended.is_none();
        Status {
            to_act: if running { vec![state.turn] } else { vec![] },
            finished: state.ended.is_some(),
            scores: Some(
                (0..state.walls.len())
                    .map(|seat| scoring::score(state, seat))
                    .collect(),
            ),
            winners: state
                .ended
                .as_ref()
                .map(|e| e.winners.clone())
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamic::DynGame;
    use crate::erased::Erased;
    use crate::testing::given;

    use super::super::tests::test_support::*;

    #[test]
    fn nobody_acts_out_of_turn() {
        given::<Burgbaumeister>(table(2, false, &[&[], &[]], 0))
            .when(1, TurnUpCard { slot: 0 })
            .then_error("not_your_turn");
    }

    #[test]
    fn nothing_happens_before_setup() {
        given::<Burgbaumeister>([])
            .when(0, TurnUpCard { slot: 0 })
            .then_error("game_not_started");
    }

    #[test]
    fn the_game_waits_for_the_seat_whose_turn_it_is() {
        let state = given::<Burgbaumeister>(table(3, false, &[&[2], &[], &[5, 7]], 2)).state;
        let status = Burgbaumeister::status(&state);
        assert_eq!(status.to_act, vec![2]);
        assert!(!status.finished);
        assert_eq!(status.scores, Some(vec![1, 0, 2]));
        assert!(status.winners.is_empty());
    }

    #[test]
    fn the_game_registers_with_named_schemas() {
        let game = Erased::<Burgbaumeister>::new();
        let info = game.info();
        assert_eq!(info.kind, "burgbaumeister");
        assert_eq!(info.options_schema, "BurgbaumeisterOptions");
        let schemas = game.schemas();
        assert_eq!(schemas.view, "BurgbaumeisterView");
        let names: Vec<&str> = schemas.schemas.iter().map(|(n, _)| n.as_str()).collect();
        for tag in schemas.commands.iter().chain(&schemas.events) {
            assert!(names.contains(tag), "{tag} has a named schema");
        }
        for helper in [
            "BurgbaumeisterSlot",
            "BurgbaumeisterWall",
            "BurgbaumeisterPhase",
        ] {
            assert!(names.contains(&helper), "{helper} has a named schema");
        }
    }
}
