//! What a command makes: its events, each folded in as it is made.

use super::events::*;
use super::evolve;
use super::state::*;

/// The events a command produces, with the state they lead to, so that a rule applied after
/// an event (cannon targets, the blocked game) looks at the board as it then is.
pub struct Outcome {
    pub state: State,
    pub events: Vec<BurgbaumeisterEvent>,
}

impl Outcome {
    pub fn new(state: &State) -> Self {
        Outcome {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    pub fn push(&mut self, event: impl Into<BurgbaumeisterEvent>) {
        let event = event.into();
        evolve::evolve(&mut self.state, &event);
        self.events.push(event);
    }
}
