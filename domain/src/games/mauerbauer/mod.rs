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
//! One file per rule area: the [`board`] (and its data file), [`pieces`], the [`dice`],
//! [`walls`], [`towers`], [`houses`], [`cities`] (closing, palaces, joining), the
//! [`guild_cards`] and what they score ([`card_points`]), the [`deck`] (drawing), the
//! [`scoring_round`], the last-place [`swap`], the [`end`]; [`phase`] says what the game waits
//! for, [`turn`] runs the steps nobody chooses, [`evolve`], [`view`] (views and redaction) and
//! [`legal`] (the moves and the turn clock's default); [`rules`] ties them to the
//! [`crate::contract::Game`] trait.

mod board;
pub(crate) mod bot;
mod card_points;
mod cities;
mod deck;
mod dice;
mod end;
mod evolve;
mod guild_cards;
mod houses;
mod legal;
mod model;
mod phase;
mod pieces;
mod rules;
mod scoring_round;
mod swap;
mod towers;
mod turn;
mod view;
mod walls;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod worked_checks;

pub use board::{board, Board, Field, FieldId, Line, LineId, Points, Region, Vertex, VertexId};
pub use guild_cards::{Cards, GuildCard, Scope};
pub use model::*;
pub use phase::Phase;
pub use pieces::{HouseColour, HouseCounts, HouseDie, TowerColour, TowerCounts};
pub use rules::Mauerbauer;
pub use view::*;
