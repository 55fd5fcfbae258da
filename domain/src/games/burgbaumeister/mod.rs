//! Der Wettkampf der Burgbaumeister (moses. 2016, Dominique Ehrhard).
//! Rules as this server plays them, with every decision: `docs/rules/burgbaumeister.md`.
//!
//! The folder, one line a file:
//! - `rules.rs`: the [`Game`](crate::contract::Game) implementation, each command to its rule.
//! - `options.rs`: the options (the variant), cards, the store's size, symbols.
//! - `commands.rs`, `events.rs`: what a player may send, what the log records.
//! - `state.rs`: what the events fold into, and the step of the turn.
//! - `outcome.rs`: a command's events, each folded in as it is made.
//! - `evolve.rs`: folding an event into the state.
//! - `view.rs`: what each viewer sees, and the redaction of events.
//! - `setup.rs`: the store shuffled, the starting seat drawn.
//! - `turn.rs`: turn up, add, return, and the end of a turn.
//! - `wizard.rs`: inserting a card with the wizard (variant).
//! - `cannon.rs`: firing the cannon (variant).
//! - `end.rs`: the 9th card, the blocked game, tie-breaks.
//! - `scoring.rs`: symbols and points.
//! - `legal.rs`: the listed commands and the turn clock's default.
//! - `bot.rs` and `bot/`: how a bot imagines the store, and the strong level's own search.
//! - `tests/`: the rulebook's worked checks, random play, and the fixtures.
//!
//! `turn.rs` calls into `cannon.rs`, `wizard.rs` and `end.rs`, and they call back into it: a
//! card added (by hand or by the wizard) may arm the cannon and may end the game, and a shot or
//! an insertion ends the turn as an addition does. The rule files stay apart by rule, so those
//! imports go both ways on purpose.

pub(crate) mod bot;
mod cannon;
mod commands;
mod end;
mod events;
mod evolve;
mod legal;
mod options;
mod outcome;
mod rules;
mod scoring;
mod setup;
mod state;
mod turn;
mod view;
mod wizard;

#[cfg(test)]
pub(crate) mod tests;

pub use commands::*;
pub use end::could_place;
pub use events::*;
pub use options::*;
pub use rules::Burgbaumeister;
pub use scoring::symbol;
pub use state::*;
pub use view::{BurgbaumeisterView, SlotState, SlotView, WallCard, WallView};
