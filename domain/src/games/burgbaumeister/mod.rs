//! Der Wettkampf der Burgbaumeister (moses. 2016, Dominique Ehrhard).
//! Rules as this server plays them, with every decision: `docs/rules/burgbaumeister.md`.
//!
//! One file per rule area: [`setup`], [`turn`] (turn up, add, return, pass), [`wizard`],
//! [`cannon`], [`end`] (9th card, blocked game, tie-breaks), [`scoring`] (symbols, points),
//! [`evolve`], [`view`] (views and redaction) and [`legal`] (the listed commands and the turn
//! clock's default); [`rules`] ties them to the [`crate::contract::Game`] trait.

pub(crate) mod bot;
mod cannon;
mod end;
mod evolve;
mod legal;
mod model;
mod rules;
mod scoring;
mod setup;
mod turn;
mod view;
mod wizard;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod worked_checks;

pub use end::could_place;
pub use model::*;
pub use rules::Burgbaumeister;
pub use scoring::symbol;
