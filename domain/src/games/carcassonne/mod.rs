//! Carcassonne (Hans im Glück, Klaus-Jürgen Wrede) for 2 to 5 players, with the mini
//! expansions Magier & Hexe (`mage_and_witch`) and Die Goldminen (`gold_mines`).
//! Rules as this server plays them, with every Decision: `docs/rules/carcassonne.md`.
//!
//! The folder, one line a file:
//! - `rules.rs`: the [`Game`](crate::contract::Game) implementation, each command to its step.
//! - `options.rs`: the options (the expansions), and the mage and the witch.
//! - `commands.rs`, `events.rs`: what a player may send, what the log records.
//! - `state.rs`: the whole truth of a game (there is no secret but the pile's order).
//! - `evolve.rs`: folding an event into the state.
//! - `view.rs`: what a viewer sees.
//! - `setup.rs`: the start tile and the pile.
//! - `tiles.rs` (and `tiles.json`): the landscape tiles and their rotations.
//! - `board.rs`, `features.rs`: the placed tiles, and the union-find of their segments.
//! - `placement.rs`: where a tile may lie.
//! - `pile.rs`: drawing at random at the moment of drawing.
//! - `turn.rs`: a turn, step by step, and the phase.
//! - `followers.rs`, `scoring.rs`, `farms.rs`: followers, and scoring roads, cities, cloisters, fields.
//! - `mage_witch.rs`, `gold.rs`: the two mini expansions.
//! - `end.rs`: the final scoring.
//! - `legal.rs`: the listed commands and the turn clock's default.
//! - `bot.rs`: how a bot judges a position.
//! - `tests/`: the rules as tests on hand-built boards, one module per rule area, and random play.

mod board;
pub(crate) mod bot;
mod commands;
pub(crate) mod end;
mod events;
mod evolve;
mod farms;
mod features;
mod followers;
mod gold;
mod legal;
mod mage_witch;
mod options;
mod pile;
mod placement;
mod rules;
mod scoring;
mod setup;
mod state;
mod tiles;
mod turn;
mod view;

#[cfg(test)]
mod tests;

pub use commands::*;
pub use events::*;
pub use options::*;
pub use rules::Carcassonne;
pub use state::State;
pub use tiles::{FeatureKind, Terrain};
pub use turn::{phase, Phase};
pub use view::*;
