//! Scoring roads, cities and cloisters. Completed during play: a road 1 per tile, a city 2 per
//! tile and 2 per pennant (a two-tile city too), a cloister 9. Unfinished at the end: a road 1
//! per tile, a city 1 per tile and 1 per pennant, a cloister 1 and 1 per neighbour. The mage or
//! the witch then changes a road's or city's points. The players with the most followers on
//! the feature each score it; nobody scores a feature without followers.

use super::board::around;
use super::events::*;
use super::features::{Node, TileSet};
use super::followers::majority;
use super::mage_witch;
use super::options::*;
use super::state::State;
use super::tiles::FeatureKind;

/// A feature completed this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Completed {
    /// Its root.
    pub node: Node,
    pub kind: FeatureKind,
}

/// A cloister is completed when all 8 places around it hold tiles.
pub fn cloister_complete(state: &State, node: Node) -> bool {
    let (tile, _) = state.board.features.place_of(node);
    state.board.placed[tile as usize].neighbours == 8
}

/// The features this turn's tile completed: its roads and cities left with no open edge, then
/// the cloisters on it and around it (in reading order) that now have all 8 neighbours.
pub fn completed_this_turn(state: &State) -> Vec<Completed> {
    let Some(tile) = state.current_tile() else {
        return Vec::new();
    };
    let features = &state.board.features;
    let mut done: Vec<Completed> = Vec::new();
    for s in 0..tile.segments() {
        let node = features.find(tile.node(s));
        let feature = features.get(node);
        if feature.closed() && !done.iter().any(|c| c.node == node) {
            done.push(Completed {
                node,
                kind: feature.kind,
            });
        }
    }
    let mut places = vec![tile.pos];
    places.extend(around(tile.pos));
    places.sort_by_key(super::board::reading);
    for pos in places {
        let Some(placed) = state.board.at(pos) else {
            continue;
        };
        for s in 0..placed.segments() {
            let node = placed.node(s);
            if features.get(node).kind == FeatureKind::Cloister && cloister_complete(state, node) {
                done.push(Completed {
                    node,
                    kind: FeatureKind::Cloister,
                });
            }
        }
    }
    done
}

/// The tiles a feature covers: a road's or city's tiles; a cloister and the placed tiles around
/// it (where its gold lies too).
pub fn area(state: &State, node: Node) -> TileSet {
    let feature = state.board.features.get(node);
    if feature.kind != FeatureKind::Cloister {
        return feature.tiles;
    }
    let (tile, _) = state.board.features.place_of(node);
    let mut area = TileSet::of(tile);
    for p in around(state.board.placed[tile as usize].pos) {
        if let Some(i) = state.board.index_at(p) {
            area.insert(i);
        }
    }
    area
}

/// The points of a road, city or cloister before the mage or the witch.
pub fn base_points(state: &State, node: Node, completed: bool) -> u32 {
    let feature = state.board.features.get(node);
    let tiles = feature.tiles.len();
    let pennants = u32::from(feature.pennants);
    match (feature.kind, completed) {
        (FeatureKind::Road, _) => tiles,
        (FeatureKind::City, true) => 2 * (tiles + pennants),
        (FeatureKind::City, false) => tiles + pennants,
        (FeatureKind::Cloister, _) => {
            let (tile, _) = state.board.features.place_of(node);
            1 + u32::from(state.board.placed[tile as usize].neighbours)
        }
        (FeatureKind::Field, _) => 0,
    }
}

/// What a road, city or cloister would score now: completed during play (`completed`) or
/// unfinished at the end.
pub fn points(state: &State, node: Node, completed: bool) -> u32 {
    points_with(state, node, completed, &mage_witch::figures_on(state, node))
}

/// What a completed road, city or cloister gave when it was completed: the figure that stood
/// on it then counts, although it has gone back to the supply since.
pub fn points_given(state: &State, node: Node) -> u32 {
    let features = &state.board.features;
    let mut figures = mage_witch::figures_on(state, node);
    figures.extend(
        state
            .completed_with
            .iter()
            .filter(|(n, _)| features.same(*n, node))
            .map(|&(_, f)| f),
    );
    points_with(state, node, true, &figures)
}

fn points_with(state: &State, node: Node, completed: bool, figures: &[MagicFigure]) -> u32 {
    let feature = state.board.features.get(node);
    let base = base_points(state, node, completed);
    match feature.kind {
        FeatureKind::Road | FeatureKind::City => {
            mage_witch::apply(base, figures, feature.tiles.len())
        }
        _ => base,
    }
}

/// The scoring of a road, city or cloister, when it holds followers.
pub fn score(state: &State, node: Node, completed: bool) -> Option<FeatureScored> {
    let seats = majority(state, node);
    if seats.is_empty() {
        return None;
    }
    let feature = state.board.features.get(node);
    let figures = match feature.kind {
        FeatureKind::Road | FeatureKind::City => mage_witch::figures_on(state, node),
        _ => Vec::new(),
    };
    Some(FeatureScored {
        feature: feature.kind,
        completed,
        tiles: state.board.positions(area(state, node)),
        pennants: feature.pennants,
        base_points: base_points(state, node, completed),
        // Two figures never share a feature (a tile joining theirs makes one move away).
        figure: figures.first().copied(),
        points: points(state, node, completed),
        seats,
    })
}
