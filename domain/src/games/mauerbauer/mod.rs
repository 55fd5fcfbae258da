//! Mauerbauer (Hans im Glück 2006, Leo Colovini; "Masons" in English), for 2 to 4 players.
//! Rules as this server plays them: `docs/rules/mauerbauer.md`, with every decision where the
//! rulebook is silent.
//!
//! A turn: build a wall (`BuildWall`); the server rolls the dice and the player places the
//! towers and houses they leave open (`PlaceTowers`, `PlaceHouses`; placed automatically when
//! there is no choice); a wall that closes a city returns what lies inside, turns pairs of
//! houses into palaces and may join the city with a neighbour (`JoinCities`,
//! `KeepCitiesApart`); every closed city is scored by all players with their guild cards
//! (`LayGuildCards`, `DiscardGuildCard`), after which the players in last place may swap cards
//! (`SwapOutGuildCard`, `FinishCardSwap`). When a supply runs out the game ends, with a final
//! scoring (`ChooseFinalCity`, `LayGuildCards`, `PassFinalScoring`) unless that turn closed a
//! city.
//!
//! The folder, one line a file:
//! - `rules.rs`: the [`Game`](crate::contract::Game) implementation, each command to its step.
//! - `options.rs`: the options, and the placements and results the commands and events name.
//! - `commands.rs`, `events.rs`: what a player may send, what the log records.
//! - `state.rs`: what the events fold into.
//! - `evolve.rs`: folding an event into the state.
//! - `view.rs`: what each viewer sees, and the redaction of events.
//! - `phase.rs`: what the game waits for, and from whom.
//! - `turn.rs`: the steps nobody chooses.
//! - `board.rs` (and `board.json`): the board; `pieces.rs`: towers, houses and their supplies.
//! - `dice.rs`, `walls.rs`, `towers.rs`, `houses.rs`: the dice, and building each piece.
//! - `cities.rs`: closing a city, palaces, joining cities.
//! - `guild_cards.rs`, `card_points.rs`, `deck.rs`: the guild cards, what they score, drawing.
//! - `scoring_round.rs`, `swap.rs`, `end.rs`: a scoring round, the last-place swap, the end.
//! - `legal.rs`: the listed commands and the turn clock's default.
//! - `bot.rs`: how a bot imagines the hidden guild cards and judges a position.
//! - `tests/`: each rule file's tests (its child module), worked checks, random play, fixtures.

mod board;
pub(crate) mod bot;
mod card_points;
mod cities;
mod commands;
mod deck;
mod dice;
mod end;
mod events;
mod evolve;
mod guild_cards;
mod houses;
mod legal;
mod options;
mod phase;
mod pieces;
mod rules;
mod scoring_round;
mod state;
mod swap;
mod towers;
mod turn;
mod view;
mod walls;

#[cfg(test)]
mod tests;

pub use board::{board, Board, Field, FieldId, Line, LineId, Points, Region, Vertex, VertexId};
pub use commands::*;
pub use events::*;
pub use guild_cards::{Cards, GuildCard, Scope};
pub use options::*;
pub use phase::Phase;
pub use pieces::{HouseColour, HouseCounts, HouseDie, TowerColour, TowerCounts};
pub use rules::Mauerbauer;
pub use state::*;
pub use view::*;
