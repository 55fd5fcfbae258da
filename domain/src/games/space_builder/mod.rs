//! Space Builder (Djeco, Jonathan Favre-Godal): everybody builds a space city at once after a
//! blueprint; fewest faults wins the round, speed breaks ties.
//! Rules as this server plays them, with every decision: `docs/rules/space-builder.md`.
//!
//! The folder, one line a file:
//! - `rules.rs`: the [`Game`](crate::contract::Game) implementation, each command to its rule.
//! - `options.rs`: the options (timing, deadlines), cards, faces and placements.
//! - `commands.rs`, `events.rs`: what a player may send, what the log records.
//! - `state.rs`: what the events fold into, and what the game waits for.
//! - `evolve.rs`: folding an event into the state.
//! - `view.rs`: what each viewer sees, and the redaction of events.
//! - `blueprints.rs`: the fixed plans and their quarter turn.
//! - `building.rs`: look, place, move, take back, finish, stop.
//! - `round.rs`: reveal, end of the building, check, release, the end of the game.
//! - `faults.rs`: a city checked against the blueprint.
//! - `timing.rs`: the finishing order and the deadlines.
//! - `legal.rs`: the listed commands and the turn clock's default.
//! - `bot.rs`: how a bot imagines the hidden blueprint and judges a position.
//! - `tests/`: the rules as tests, one module per rule area, and random play.

mod blueprints;
pub(crate) mod bot;
mod building;
mod commands;
mod events;
mod evolve;
mod faults;
mod legal;
mod options;
mod round;
mod rules;
mod state;
mod timing;
mod view;

#[cfg(test)]
mod tests;

pub use blueprints::{plan, revealed, target, turn_slot, GENERATOR_SEED, TABLE as BLUEPRINT_TABLE};
pub use commands::*;
pub use events::*;
pub use faults::check_city;
pub use options::*;
pub use rules::SpaceBuilder;
pub use state::*;
pub use view::{PlayerView, SpaceBuilderView};
