//! Space Builder (Djeco, Jonathan Favre-Godal): everybody builds a space city at once after a
//! blueprint; fewest faults wins the round, speed breaks ties.
//! Rules as this server plays them, with every decision: `docs/rules/space-builder.md`.
//!
//! One file per rule area: [`blueprints`] (the fixed plans and their quarter turn), [`building`]
//! (look, place, move, take back, finish, stop), [`round`] (reveal, end of the building, check,
//! release, the end of the game), [`faults`], [`timing`] (finishing order and deadlines),
//! [`view`] (views and redaction), [`legal`] (the listed commands and the turn clock's default)
//! and [`game`] (the `Game` trait and the fold).

mod blueprints;
pub(crate) mod bot;
mod building;
mod faults;
mod game;
mod legal;
mod model;
mod round;
mod timing;
mod view;

#[cfg(test)]
mod tests;

pub use blueprints::{plan, revealed, target, turn_slot, GENERATOR_SEED, TABLE as BLUEPRINT_TABLE};
pub use faults::check_city;
pub use game::SpaceBuilder;
pub use model::*;
