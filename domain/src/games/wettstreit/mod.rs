//! Wettstreit der Baumeister (Kosmos, Jean du Poel), for 3 or 4 players.
//! Rules as this server plays them, with every decision: `docs/rules/wettstreit.md`.
//!
//! A turn: roll for income (`RollIncomeDie`), auction the top card of a stack
//! (`AuctionTopCard`, then the auctioneer's `MakeOpeningBid`, then `RaiseBid` / `PassBid` by
//! each bidder in turn), then build (`FoundCity`, `BuildCard`) or sabotage (`SabotageBuilding`,
//! `SabotageHand`) or neither (`FinishBuildStep`). Decisions that wait on another player are
//! that player's commands: the bidder's bid, the owner's `PayToKeepBuilding` /
//! `LetBuildingFall`, and `PutCardUnderStack` when both stacks are equally low.
//!
//! The folder, one line a file:
//! - `rules.rs`: the [`Game`](crate::contract::Game) implementation, each command to its rule.
//! - `options.rs`: the options, the 40 cards, the stacks and the die.
//! - `commands.rs`, `events.rs`: what a player may send, what the log records.
//! - `state.rs`: what the events fold into, and the step of the game.
//! - `view.rs`: what each viewer sees, and the redaction of events.
//! - `income.rs`: step 1, the income die and the saboteur face.
//! - `auction.rs`: step 2, putting a card up and bidding.
//! - `payment.rs`: paying for a won card, insolvency.
//! - `building.rs`: step 3, founding a city and laying cards.
//! - `sabotage.rs`: step 3 instead, saboteurs against buildings and hands, ransoms.
//! - `turn.rs`: the course of a turn, the final round, the end, who must act.
//! - `scoring.rs`: a city's points.
//! - `evolve.rs`: folding an event into the state.
//! - `legal.rs`: the listed commands and the turn clock's default.
//! - `bot.rs`: how a bot imagines the hidden cards and judges a position.
//! - `tests/`: the rules as tests, one module per rule area, and random play.

mod auction;
pub(crate) mod bot;
mod building;
mod commands;
mod events;
mod evolve;
mod income;
mod legal;
mod options;
mod payment;
mod rules;
mod sabotage;
mod scoring;
mod state;
mod turn;
mod view;

#[cfg(test)]
mod tests;

pub use commands::*;
pub use events::*;
pub use options::*;
pub use rules::Wettstreit;
pub use scoring::score_city;
pub use state::*;
pub use view::{
    AuctionView, CardFace, CardUnderView, CatalogueEntry, PlayerView, RansomView, RemovedView,
    StackView, WettstreitView,
};
