//! Followers: after the tile (and the gold and figure steps), the player may put one follower
//! from their supply on a segment of that tile whose feature holds no follower yet: a thief on
//! a road, a knight in a city, a monk in a cloister, a farmer in a field. The players with the
//! most followers on a feature all score it in full.

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::features::Node;
use super::state::{Follower, State};
use super::tiles;

/// The followers on `node`'s feature.
pub fn on_feature(state: &State, node: Node) -> impl Iterator<Item = &Follower> {
    let root = state.board.features.find(node);
    state
        .followers
        .iter()
        .filter(move |f| state.board.features.find(f.node) == root)
}

pub fn occupied(state: &State, node: Node) -> bool {
    on_feature(state, node).next().is_some()
}

/// The players with the most followers on `node`'s feature, in seat order (none when empty).
pub fn majority(state: &State, node: Node) -> Vec<Seat> {
    let mut count = vec![0u8; state.players as usize];
    for f in on_feature(state, node) {
        count[f.seat as usize] += 1;
    }
    let most = count.iter().copied().max().unwrap_or(0);
    if most == 0 {
        return Vec::new();
    }
    (0..state.players)
        .filter(|&s| count[s as usize] == most)
        .collect()
}

/// The segments of this turn's tile where `seat` may put a follower now.
pub fn free_segments(state: &State, seat: Seat) -> Vec<u8> {
    let Some(tile) = state.current_tile() else {
        return Vec::new();
    };
    if state.home.get(seat as usize).copied().unwrap_or(0) == 0 {
        return Vec::new();
    }
    (0..tile.segments())
        .filter(|&s| !occupied(state, tile.node(s)))
        .collect()
}

/// The follower `seat` puts on this turn's tile, if the rules allow it.
pub fn place(
    state: &State,
    seat: Seat,
    command: &PlaceFollower,
) -> Result<FollowerPlaced, RuleError> {
    let Some(tile) = state.current_tile() else {
        return Err(RuleError::new("no_tile_placed", "Place the tile first."));
    };
    if state.home.get(seat as usize).copied().unwrap_or(0) == 0 {
        return Err(RuleError::new(
            "no_follower_left",
            "All your followers are on the board.",
        ));
    }
    if command.segment >= tile.segments() {
        return Err(RuleError::new(
            "no_such_segment",
            format!(
                "The tile placed this turn has segments 0 to {}.",
                tile.segments() - 1
            ),
        ));
    }
    if occupied(state, tile.node(command.segment)) {
        return Err(RuleError::new(
            "feature_occupied",
            "A follower already stands on that feature (it may be joined to it by another tile).",
        ));
    }
    Ok(FollowerPlaced {
        seat,
        x: tile.pos.x,
        y: tile.pos.y,
        segment: command.segment,
        feature: tiles::tile(tile.kind).segments[command.segment as usize].kind,
    })
}
