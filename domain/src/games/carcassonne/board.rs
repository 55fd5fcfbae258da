//! The board: the placed tiles by position, the empty places next to them, and the features
//! their segments form. Laying a tile here only records it; whether it may lie there is
//! [`super::placement`]'s.

use super::events::*;
use super::features::{Features, Node};
use super::tiles::{self, facing_half, opposite, step, FeatureKind, TileKind};

/// Tiles lie within this many places of the start tile (a game places at most 88).
const REACH: i32 = 90;
const SIDE: i32 = 2 * REACH + 1;

/// A tile on the board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Placed {
    pub kind: TileKind,
    pub pos: Position,
    /// Quarter turns clockwise.
    pub quarters: u8,
    /// Its segments are nodes `first_node..first_node + segments`.
    pub first_node: Node,
    /// Placed tiles among its 8 neighbours (a cloister is complete at 8).
    pub neighbours: u8,
    /// Gold ingots lying on it.
    pub gold: u8,
}

impl Placed {
    pub fn node(&self, segment: u8) -> Node {
        self.first_node + Node::from(segment)
    }

    pub fn segments(&self) -> u8 {
        tiles::tile(self.kind).segments.len() as u8
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Board {
    /// Placement index + 1 of the tile at each place, 0 when empty (allocated on the first tile).
    cells: Vec<u8>,
    /// In placement order; the index is the tile's placement index.
    pub placed: Vec<Placed>,
    /// The empty places next to a tile, in reading order (north to south, west to east).
    frontier: Vec<Position>,
    pub features: Features,
}

/// Reading order: rows north to south, each west to east.
pub fn reading(p: &Position) -> (i32, i32) {
    (p.y, p.x)
}

pub fn offset(p: Position, (dx, dy): (i32, i32)) -> Position {
    Position {
        x: p.x + dx,
        y: p.y + dy,
    }
}

/// The 8 places around `p`, in reading order.
pub fn around(p: Position) -> impl Iterator<Item = Position> {
    (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(move |d| offset(p, d))
}

impl Board {
    fn cell(p: Position) -> Option<usize> {
        // Clients may name any i32: far places must not overflow on the way to "off the board".
        let (x, y) = (p.x.checked_add(REACH)?, p.y.checked_add(REACH)?);
        ((0..SIDE).contains(&x) && (0..SIDE).contains(&y)).then(|| (y * SIDE + x) as usize)
    }

    /// Whether a tile may ever lie at `p` (the board is large enough for every tile in a line).
    pub fn on_board(p: Position) -> bool {
        Self::cell(p).is_some()
    }

    /// The placement index of the tile at `p`.
    pub fn index_at(&self, p: Position) -> Option<u8> {
        let cell = Self::cell(p)?;
        match self.cells.get(cell).copied() {
            None | Some(0) => None,
            Some(i) => Some(i - 1),
        }
    }

    pub fn at(&self, p: Position) -> Option<&Placed> {
        self.index_at(p).map(|i| &self.placed[i as usize])
    }

    /// The empty places touching a tile, in reading order.
    pub fn frontier(&self) -> &[Position] {
        &self.frontier
    }

    /// The feature node of segment `segment` of the tile at `p`, if there is one.
    pub fn node_at(&self, p: Position, segment: u8) -> Option<Node> {
        let placed = self.at(p)?;
        (segment < placed.segments()).then(|| placed.node(segment))
    }

    /// The position and segment of a node.
    pub fn segment_of(&self, node: Node) -> (Position, u8) {
        let (tile, segment) = self.features.place_of(node);
        (self.placed[tile as usize].pos, segment)
    }

    /// Lays a tile and joins its segments to the features they meet. Assumes the place is free
    /// and on the board (placement checks it); returns the placement index.
    pub fn lay(&mut self, kind: TileKind, pos: Position, quarters: u8) -> u8 {
        let Some(cell) = Self::cell(pos) else {
            return u8::MAX;
        };
        if self.cells.is_empty() {
            self.cells = vec![0; (SIDE * SIDE) as usize];
        }
        let index = self.placed.len() as u8;
        let tile = tiles::tile(kind);
        let first_node = self.features.len() as Node;
        for (i, s) in tile.segments.iter().enumerate() {
            let open = match s.kind {
                FeatureKind::Road | FeatureKind::City => s.edges.count_ones() as u16,
                FeatureKind::Cloister | FeatureKind::Field => 0,
            };
            self.features.add(index, i as u8, s.kind, open, s.pennant);
        }
        let mut neighbours = 0;
        for p in around(pos) {
            if let Some(i) = self.index_at(p) {
                neighbours += 1;
                self.placed[i as usize].neighbours += 1;
            }
        }
        self.cells[cell] = index + 1;
        self.placed.push(Placed {
            kind,
            pos,
            quarters,
            first_node,
            neighbours,
            gold: 0,
        });
        self.connect(index);
        self.frontier.retain(|p| *p != pos);
        for edge in 0..4 {
            let p = offset(pos, step(edge));
            if Self::on_board(p) && self.index_at(p).is_none() {
                if let Err(at) = self.frontier.binary_search_by_key(&reading(&p), reading) {
                    self.frontier.insert(at, p);
                }
            }
        }
        index
    }

    /// Joins the new tile's segments to its orthogonal neighbours' across each shared edge.
    fn connect(&mut self, index: u8) {
        let this = self.placed[index as usize].clone();
        let ours = tiles::tile(this.kind).turned(this.quarters);
        for edge in 0..4u8 {
            let Some(other) = self.at(offset(this.pos, step(edge))).cloned() else {
                continue;
            };
            let theirs = tiles::tile(other.kind).turned(other.quarters);
            let back = opposite(edge);
            if let (Some(a), Some(b)) = (
                ours.edge_segment[edge as usize],
                theirs.edge_segment[back as usize],
            ) {
                self.features.connect_edge(this.node(a), other.node(b));
            }
            for half in [2 * edge, 2 * edge + 1] {
                if let (Some(a), Some(b)) = (
                    ours.half_segment[half as usize],
                    theirs.half_segment[facing_half(half) as usize],
                ) {
                    self.features.join(this.node(a), other.node(b));
                }
            }
        }
    }

    /// The placed tiles of a set, as positions.
    pub fn positions(&self, tiles: super::features::TileSet) -> Vec<Position> {
        tiles.iter().map(|i| self.placed[i as usize].pos).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::carcassonne::tests::test_support::{at, kind};

    #[test]
    fn the_frontier_is_the_empty_places_next_to_tiles_in_reading_order() {
        let mut board = Board::default();
        board.lay(kind("D"), at(0, 0), 0);
        assert_eq!(
            board.frontier(),
            &[at(0, -1), at(-1, 0), at(1, 0), at(0, 1)]
        );
        board.lay(kind("E"), at(0, -1), 2);
        assert_eq!(
            board.frontier(),
            &[
                at(0, -2),
                at(-1, -1),
                at(1, -1),
                at(-1, 0),
                at(1, 0),
                at(0, 1)
            ]
        );
    }

    #[test]
    fn two_city_caps_facing_each_other_close_a_two_tile_city() {
        let mut board = Board::default();
        board.lay(kind("D"), at(0, 0), 0);
        board.lay(kind("E"), at(0, -1), 2);
        let city = board.features.get(board.node_at(at(0, 0), 0).unwrap());
        assert_eq!(city.kind, FeatureKind::City);
        assert!(city.closed());
        assert_eq!(city.tiles.len(), 2);
        // The field north of the start tile's road runs on into the E tile's field.
        let d_north_field = board.node_at(at(0, 0), 2).unwrap();
        let e_field = board.node_at(at(0, -1), 1).unwrap();
        assert!(
            !board.features.same(d_north_field, e_field),
            "the city lies between them"
        );
    }

    #[test]
    fn roads_and_fields_join_across_an_edge() {
        let mut board = Board::default();
        board.lay(kind("D"), at(0, 0), 0);
        board.lay(kind("U"), at(1, 0), 0);
        let road = board.node_at(at(0, 0), 1).unwrap();
        assert!(board
            .features
            .same(road, board.node_at(at(1, 0), 0).unwrap()));
        assert_eq!(board.features.get(road).open, 2);
        assert_eq!(board.features.get(road).tiles.len(), 2);
        // North of the road: D's small field meets U's northern field; south likewise.
        assert!(board.features.same(
            board.node_at(at(0, 0), 2).unwrap(),
            board.node_at(at(1, 0), 1).unwrap()
        ));
        assert!(board.features.same(
            board.node_at(at(0, 0), 3).unwrap(),
            board.node_at(at(1, 0), 2).unwrap()
        ));
    }

    #[test]
    fn tiles_count_their_placed_neighbours_diagonals_too() {
        let mut board = Board::default();
        board.lay(kind("B"), at(0, 0), 0);
        for (x, y) in [(1, 0), (1, 1), (0, 1)] {
            board.lay(kind("B"), at(x, y), 0);
        }
        assert_eq!(board.at(at(0, 0)).unwrap().neighbours, 3);
        assert_eq!(board.at(at(1, 1)).unwrap().neighbours, 3);
        assert_eq!(board.at(at(0, 1)).unwrap().neighbours, 3);
    }

    #[test]
    fn places_far_out_are_off_the_board() {
        assert!(Board::on_board(at(88, -88)));
        assert!(!Board::on_board(at(91, 0)));
        assert_eq!(Board::default().at(at(0, 0)), None);
    }
}
