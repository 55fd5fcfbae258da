//! Placeholder: the rules are being written (see the issue). Compiles so that the server can be
//! built against the model.

use crate::contract::{Ctx, Game, RuleError, Seat, Status, Viewer};

use super::model::*;

pub struct Burgbaumeister;

impl Game for Burgbaumeister {
    const KIND: &'static str = "burgbaumeister";
    const TITLE: &'static str = "Der Wettkampf der Burgbaumeister";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;
    type Options = BurgbaumeisterOptions;
    type State = State;
    type Command = BurgbaumeisterCommand;
    type Event = BurgbaumeisterEvent;
    type View = BurgbaumeisterView;

    fn initial() -> State {
        State::default()
    }
    fn setup(
        _: &BurgbaumeisterOptions,
        _: u8,
        _: &mut Ctx,
    ) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
        todo!()
    }
    fn decide(
        _: &State,
        _: Seat,
        _: &BurgbaumeisterCommand,
        _: &mut Ctx,
    ) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
        todo!()
    }
    fn evolve(_: &mut State, _: &BurgbaumeisterEvent) {
        todo!()
    }
    fn view(_: &State, _: Viewer) -> BurgbaumeisterView {
        todo!()
    }
    fn redact(_: &State, _: &BurgbaumeisterEvent, _: Viewer) -> Option<BurgbaumeisterEvent> {
        todo!()
    }
    fn legal_commands(_: &State, _: Seat) -> Vec<BurgbaumeisterCommand> {
        todo!()
    }
    fn status(_: &State) -> Status {
        todo!()
    }
}
