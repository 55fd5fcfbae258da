//! Where a tile may lie: on an empty place touching at least one tile, turned so that every
//! edge it shares matches (city to city, road to road, field to field).

use crate::contract::RuleError;

use super::board::{offset, Board};
use super::events::*;
use super::tiles::{self, opposite, step, TileKind};

/// Why `kind` turned `quarters` may not lie at `pos`, if it may not.
pub fn check(board: &Board, kind: TileKind, pos: Position, quarters: u8) -> Result<(), RuleError> {
    if !Board::on_board(pos) {
        // The board reaches further than a line of every tile: nothing ever lies next to it.
        return Err(RuleError::new(
            "not_adjacent",
            format!(
                "({}, {}) lies far from every placed tile: a tile must touch one along an edge.",
                pos.x, pos.y
            ),
        ));
    }
    if board.at(pos).is_some() {
        return Err(RuleError::new(
            "place_taken",
            format!("A tile already lies at ({}, {}).", pos.x, pos.y),
        ));
    }
    let ours = tiles::tile(kind).turned(quarters);
    let mut touches = false;
    for edge in 0..4u8 {
        let Some(other) = board.at(offset(pos, step(edge))) else {
            continue;
        };
        touches = true;
        let theirs = tiles::tile(other.kind).turned(other.quarters);
        if ours.edges[edge as usize] != theirs.edges[opposite(edge) as usize] {
            return Err(RuleError::new(
                "edges_do_not_match",
                format!(
                    "Its {} edge ({:?}) would meet the {:?} of the tile at ({}, {}).",
                    ["north", "east", "south", "west"][edge as usize],
                    ours.edges[edge as usize],
                    theirs.edges[opposite(edge) as usize],
                    other.pos.x,
                    other.pos.y
                ),
            ));
        }
    }
    if !touches {
        return Err(RuleError::new(
            "not_adjacent",
            "A tile must touch at least one placed tile along an edge.",
        ));
    }
    Ok(())
}

fn fits(board: &Board, kind: TileKind, pos: Position, quarters: u8) -> bool {
    let ours = tiles::tile(kind).turned(quarters);
    (0..4u8).all(|edge| match board.at(offset(pos, step(edge))) {
        None => true,
        Some(other) => {
            let theirs = tiles::tile(other.kind).turned(other.quarters);
            ours.edges[edge as usize] == theirs.edges[opposite(edge) as usize]
        }
    })
}

/// Every place and rotation where `kind` may lie, in reading order, rotations 0 to 270.
pub fn placements(board: &Board, kind: TileKind) -> Vec<(Position, u8)> {
    board
        .frontier()
        .iter()
        .flat_map(|&pos| (0..4u8).map(move |q| (pos, q)))
        .filter(|&(pos, q)| fits(board, kind, pos, q))
        .collect()
}

/// Whether `kind` fits anywhere (a tile that fits nowhere is discarded).
pub fn fits_somewhere(board: &Board, kind: TileKind) -> bool {
    board
        .frontier()
        .iter()
        .any(|&pos| (0..4u8).any(|q| fits(board, kind, pos, q)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::carcassonne::tests::test_support::{at, kind};

    fn start() -> Board {
        let mut board = Board::default();
        board.lay(kind("D"), at(0, 0), 0);
        board
    }

    #[test]
    fn a_tile_must_match_every_edge_it_touches() {
        let board = start();
        // North of the start tile lies its city: a field edge may not meet it.
        assert_eq!(
            check(&board, kind("B"), at(0, -1), 0).unwrap_err().code,
            "edges_do_not_match"
        );
        // E turned half way shows its city to the south.
        assert_eq!(check(&board, kind("E"), at(0, -1), 2), Ok(()));
        // East of the start tile runs the road.
        assert!(check(&board, kind("U"), at(1, 0), 0).is_ok());
        assert!(check(&board, kind("U"), at(1, 0), 1).is_err());
    }

    #[test]
    fn a_tile_must_touch_the_board_on_a_free_place() {
        let board = start();
        assert_eq!(
            check(&board, kind("B"), at(1, 1), 0).unwrap_err().code,
            "not_adjacent"
        );
        assert_eq!(
            check(&board, kind("D"), at(0, 0), 0).unwrap_err().code,
            "place_taken"
        );
        // Far off the board no tile lies, and none ever lies next to it.
        let far = check(&board, kind("B"), at(500, 0), 0).unwrap_err();
        assert_eq!(far.code, "not_adjacent");
        assert!(!far.message.contains("already lies"), "{}", far.message);
    }

    #[test]
    fn placements_list_every_fitting_place_and_rotation_in_reading_order() {
        let board = start();
        // The cloister B (all fields) fits only south of the start tile, in any rotation.
        assert_eq!(
            placements(&board, kind("B")),
            (0..4).map(|q| (at(0, 1), q)).collect::<Vec<_>>()
        );
        // C (city all round) fits only north.
        assert_eq!(
            placements(&board, kind("C")),
            (0..4).map(|q| (at(0, -1), q)).collect::<Vec<_>>()
        );
        for (pos, q) in placements(&board, kind("V")) {
            assert_eq!(check(&board, kind("V"), pos, q), Ok(()));
        }
        assert!(fits_somewhere(&board, kind("X")));
    }

    #[test]
    fn a_tile_can_fit_nowhere() {
        // Around a lone C every free place borders a city: a cloister with fields all round
        // and a crossroads fit nowhere; a one-sided city fits at each place, turned to face it.
        let mut board = Board::default();
        board.lay(kind("C"), at(0, 0), 0);
        assert!(!fits_somewhere(&board, kind("B")));
        assert!(placements(&board, kind("X")).is_empty());
        assert_eq!(
            placements(&board, kind("E")),
            vec![(at(0, -1), 2), (at(-1, 0), 1), (at(1, 0), 3), (at(0, 1), 0)]
        );
    }
}
