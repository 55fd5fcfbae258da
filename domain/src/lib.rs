//! Baumeister's games: pure rules, no I/O, no async, no database; deterministic given the
//! randomness and time in [`contract::Ctx`].

pub mod bots;
pub mod contract;
pub mod dynamic;
pub mod erased;
pub mod fairness;
pub mod games;
pub mod language;
pub mod registry;
pub mod rng;
#[cfg(test)]
mod rules_translations;
pub mod schema;
#[cfg(test)]
mod setup_checks;
pub mod take_back;
pub mod testing;
pub mod turn_clock;
pub mod typed_command;
pub mod view_tape;
pub mod wide;

pub use contract::{Ctx, Game, RuleError, Seat, Status, Viewer};
pub use dynamic::{DomainError, DynGame, GameState, KindInfo};
pub use language::Language;
pub use typed_command::TypedCommand;
