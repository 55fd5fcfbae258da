//! Space Builder (Djeco, Jonathan Favre-Godal): everybody builds a space city at once after a
//! blueprint; fewest faults wins the round, speed breaks ties.
//! Rules as this server plays them: `shared/rules/space-builder.md`.
//!
//! Decisions where the rules page is silent:
//! - Building is one command per physical act: place a hand card (slot, face, rotation), move it
//!   (which also turns or flips it in place), take it back. A finished city cannot change.
//! - A blueprint is drawn at random from the pile when its round starts (the same as a shuffled
//!   face-down pile, without keeping a secret order in the state); the winner's release starts
//!   the next round at once.
//! - Timing `elapsed`: looking at the blueprint is an explicit command (`LookAtBlueprint`); a
//!   player cannot build before it, and spectators see the blueprint only when building ends.
//!   The round still ends when all but one have finished (as the rules page says), or at the
//!   deadline.
//! - Per-round deadline (option, both timings): counted from the reveal; when it passes, everyone
//!   still building is stopped as if last. Several stopped players tie-break by who last changed
//!   their city earlier (never built: after those who did), then seat order.
//! - The result (`CitiesChecked`) lists the cities in rank order; `status().scores` are rounds won.
//! - Hidden information: while a round's building runs, others see of a city only how many cards
//!   are on it and whether its builder finished (also when they looked at the blueprint and their
//!   finish times); the released hands are public, as at the table. Everything shows once the
//!   round's building ends, in views and in the redacted event log alike.
//! - `legal_commands` has no clock: after a deadline has passed and before the server called
//!   `on_deadline`, it still lists building commands that `decide` refuses (`deadline_passed`).

mod blueprints;
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
