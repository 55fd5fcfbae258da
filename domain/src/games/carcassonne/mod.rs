//! Carcassonne (Hans im Glück, Klaus-Jürgen Wrede) for 2 to 5 players, with the mini
//! expansions Magier & Hexe (`mage_and_witch`) and Die Goldminen (`gold_mines`).
//! Rules as this server plays them, with every Decision: `docs/rules/carcassonne.md`.
//!
//! One file per rule area: [`tiles`] (the tile data and rotations), [`board`] and
//! [`features`] (the placed tiles and the union-find of their segments), [`placement`],
//! [`pile`] (drawing at random at the moment of drawing), [`followers`], [`scoring`],
//! [`farms`], [`mage_witch`], [`gold`], [`end`], the turn's steps in [`turn`], [`evolve`],
//! [`view`] and [`legal`]; [`rules`] ties them to the [`crate::contract::Game`] trait.

mod board;
pub(crate) mod bot;
pub(crate) mod end;
mod evolve;
mod farms;
mod features;
mod followers;
mod gold;
mod legal;
mod mage_witch;
mod model;
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
mod proptests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

pub use model::*;
pub use rules::Carcassonne;
pub use state::State;
pub use tiles::{FeatureKind, Terrain};
pub use turn::{phase, Phase};
pub use view::*;
