//! Farmers. Fields score only at the end of the game: 3 points for each distinct completed
//! city a field borders (a city it touches on several tiles counts once), to the players with
//! the most farmers in it. Farmers stay on their fields all game.

use super::events::*;
use super::features::Node;
use super::followers::majority;
use super::state::State;
use super::tiles::{self, FeatureKind};

/// Points per completed city bordering a field.
pub const POINTS_PER_CITY: u32 = 3;

/// The distinct completed cities the field of `node` borders (its segments' bordering city
/// segments, each looked up to its city).
pub fn completed_cities(state: &State, node: Node) -> u8 {
    let features = &state.board.features;
    let mut cities: Vec<Node> = Vec::new();
    for member in features.members(node) {
        let (tile, segment) = features.place_of(member);
        let placed = &state.board.placed[tile as usize];
        for &city in &tiles::tile(placed.kind).segments[segment as usize].cities {
            let root = features.find(placed.node(city));
            if features.get(root).closed() && !cities.contains(&root) {
                cities.push(root);
            }
        }
    }
    cities.len() as u8
}

/// Every field with farmers, scored.
pub fn final_scoring(state: &State) -> Vec<FarmScored> {
    let features = &state.board.features;
    features
        .roots()
        .filter(|&node| features.get(node).kind == FeatureKind::Field)
        .filter_map(|node| {
            let seats = majority(state, node);
            if seats.is_empty() {
                return None;
            }
            let cities = completed_cities(state, node);
            Some(FarmScored {
                tiles: state.board.positions(features.get(node).tiles),
                cities,
                points: POINTS_PER_CITY * u32::from(cities),
                seats,
            })
        })
        .collect()
}
