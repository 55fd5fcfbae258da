//! The whole truth of a game of Carcassonne. There is no secret in it: the draw pile is only
//! a count of each tile left (a tile is drawn at random from it when a turn begins), so the
//! pile's order does not exist before a tile is drawn.

use crate::contract::Seat;

use super::board::{Board, Placed};
use super::events::*;
use super::features::Node;
use super::options::*;
use super::tiles::TileKind;

/// Followers per player.
pub const FOLLOWERS: u8 = 7;

/// A follower on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Follower {
    pub seat: Seat,
    pub node: Node,
}

/// What happened so far in the turn, once its tile lies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TurnSoFar {
    /// The placement index of this turn's tile.
    pub tile: u8,
    /// Ingots placed this turn (Die Goldminen).
    pub ingots_placed: u8,
    /// The mage or witch step is over (Magier & Hexe).
    pub figure_done: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub started: bool,
    pub players: u8,
    pub options: CarcassonneOptions,
    /// Copies left in the pile, per tile kind.
    pub pile: Vec<u8>,
    pub board: Board,
    /// On the board, in the order they were placed.
    pub followers: Vec<Follower>,
    /// Followers in each player's supply.
    pub home: Vec<u8>,
    pub scores: Vec<i64>,
    /// Ingots each player has taken.
    pub ingots: Vec<u8>,
    /// Ingots not yet placed on the board.
    pub gold_supply: u8,
    pub mage: Option<Node>,
    pub witch: Option<Node>,
    /// The figure that stood on each completed road or city when it was completed (it went back
    /// to the supply then), so that the feature's points stay what completion gave. Absent in
    /// snapshots written before it existed, and while empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub completed_with: Vec<(Node, MagicFigure)>,
    /// The seat whose turn it is.
    pub turn: Seat,
    /// The tile drawn for this turn, until it is placed.
    pub drawn: Option<TileKind>,
    /// Set once this turn's tile lies.
    pub current: Option<TurnSoFar>,
    /// Tiles drawn that fitted nowhere, in order.
    pub discarded: Vec<TileKind>,
    pub ended: Option<CarcassonneGameEnded>,
}

impl State {
    /// The winners of an ended game; none while it runs.
    pub fn winners(&self) -> Vec<Seat> {
        self.ended
            .as_ref()
            .map(|e| e.winners.clone())
            .unwrap_or_default()
    }

    pub fn tiles_left(&self) -> u32 {
        self.pile.iter().map(|&n| u32::from(n)).sum()
    }

    /// The tile placed this turn.
    pub fn current_tile(&self) -> Option<&Placed> {
        self.current.map(|c| &self.board.placed[c.tile as usize])
    }

    pub fn figure(&self, figure: MagicFigure) -> Option<Node> {
        match figure {
            MagicFigure::Mage => self.mage,
            MagicFigure::Witch => self.witch,
        }
    }

    pub fn figure_mut(&mut self, figure: MagicFigure) -> &mut Option<Node> {
        match figure {
            MagicFigure::Mage => &mut self.mage,
            MagicFigure::Witch => &mut self.witch,
        }
    }

    pub fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players.max(1)
    }

    /// The seats in turn order starting with `seat`.
    pub fn seats_from(&self, seat: Seat) -> impl Iterator<Item = Seat> + '_ {
        (0..self.players).map(move |i| (seat + i) % self.players)
    }
}
