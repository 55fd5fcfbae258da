//! Commands naming a place anywhere a client can write one — up to the ends of the integer
//! range — are refused with the rule they break, never a crash.

use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::given;

const FAR: [(i32, i32); 6] = [
    (i32::MAX, 0),
    (0, i32::MAX),
    (i32::MIN, 0),
    (0, i32::MIN),
    (i32::MAX, i32::MIN),
    (91, -91),
];

#[test]
fn a_tile_far_off_the_board_touches_no_tile() {
    let table = Table::new(2).drawn(0, "U");
    for (x, y) in FAR {
        given::<Carcassonne>(table.clone())
            .when(0, PlaceTile { x, y, rotation: 0 })
            .then_error("not_adjacent");
    }
}

#[test]
fn a_figure_far_off_the_board_finds_no_segment() {
    let mut events = Table::expansions(2).drawn(0, "MW1");
    events.push(placed(0, "MW1", 1, 0, 0));
    for (x, y) in FAR {
        for figure in [MagicFigure::Mage, MagicFigure::Witch] {
            given::<Carcassonne>(events.clone())
                .when(
                    0,
                    PlaceMageOrWitch {
                        figure,
                        x,
                        y,
                        segment: 0,
                    },
                )
                .then_error("no_such_segment");
        }
    }
}

#[test]
fn gold_far_off_the_board_is_not_next_to_the_gold_tile() {
    let mut events = Table::expansions(2).lay(0, "E", 0, -1, 180).drawn(1, "GM8");
    events.extend([
        placed(1, "GM8", 1, 0, 0),
        GoldIngotPlaced {
            seat: 1,
            x: 1,
            y: 0,
        }
        .into(),
    ]);
    for (x, y) in FAR {
        given::<Carcassonne>(events.clone())
            .when(1, PlaceGoldIngot { x, y })
            .then_error("not_next_to_gold_tile");
    }
}
