//! Der Wettkampf der Burgbaumeister (moses. 2016, Dominique Ehrhard).
//! Rules as this server plays them: `shared/rules/burgbaumeister.md`.
//!
//! One file per rule area: [`setup`], [`turn`] (turn up, add, return, pass), [`wizard`],
//! [`cannon`], [`end`] (9th card, blocked game, tie-breaks), [`scoring`] (symbols, points),
//! [`evolve`], [`view`] (views and redaction) and [`legal`]; [`rules`] ties them to the
//! [`crate::contract::Game`] trait.
//!
//! Decisions where the rulebook is silent (also on the rules page where it decides them):
//! - The starting seat is drawn at random (the box says "the youngest").
//! - The start tower (1) is not a card: it scores nothing and does not count towards the 9.
//! - The symbol table (which numbers carry which symbol) is the rules page's.
//! - A cannon hits another player's wall, never the builder's own.
//! - A cannon inserted by the wizard fires like an added one.
//! - If the 9th card is a cannon, the game ends at once and the cannon does not fire.
//! - A wizard destroyed by a cannon is gone, and its power with it.
//! - The wizard's power is usable from the turn after it joined the wall (a turn places only
//!   one card, so this is the same as "on any later turn").
//! - A wizard insert at the right end of the wall is an ordinary addition (`AddCardToWall`) and
//!   does not spend the wizard.
//! - The game is blocked (and ends) when, after a turn, no player could add any card still in
//!   the store and no player with a ready wizard could insert one — or the store is empty.
//! - Tie on points (variant) or cards (base, blocked game): the highest last card wins (the
//!   start tower counts as 1); a tie on that too is a shared win. In the base game the player
//!   who adds the 9th card wins outright; in the variant points decide even then.
//! - Base game scores (status, `CastleGameEnded`, the view's `points`) are the cards in each
//!   wall; symbols score only in the variant. Walls show `protected` only in the variant.

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

pub use model::*;
pub use rules::Burgbaumeister;
pub use scoring::symbol;
