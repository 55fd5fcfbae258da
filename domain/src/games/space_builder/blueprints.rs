//! The 20 blueprint cards: fixed data, generated once with a seeded generator (see
//! `the_table_is_what_the_seeded_generator_made` below) and committed. Never regenerate: stored
//! games name blueprints by number, and a changed table would change their history.
//!
//! Also the geometry of a blueprint lying at a quarter turn: what counts is the plan turned into
//! the boards' frame.

use super::events::*;
use super::options::*;

use Face::{A, B};

/// The seed the table was generated with (xoshiro256** of [`crate::rng::GameRng`]).
pub const GENERATOR_SEED: u64 = 0x5ACE_B01D;

/// Blueprint `n` (1-based) is `TABLE[n - 1]`; entry `c - 1` is card `c` as
/// (slot, face, quarter turns clockwise), in the blueprint's own frame.
#[rustfmt::skip]
pub const TABLE: [[(Slot, Face, u8); CARDS as usize]; BLUEPRINTS as usize] = [
    // blueprint 1
    [(6, A, 1), (1, B, 3), (5, B, 3), (7, A, 3), (2, A, 1), (3, B, 0), (8, A, 0), (0, B, 2)],
    // blueprint 2
    [(6, A, 3), (2, A, 3), (0, A, 3), (3, B, 2), (8, A, 3), (4, A, 3), (1, B, 0), (5, B, 3)],
    // blueprint 3
    [(2, B, 1), (7, A, 2), (6, A, 3), (5, B, 3), (3, B, 2), (0, A, 0), (8, B, 2), (1, B, 1)],
    // blueprint 4
    [(1, B, 0), (5, A, 3), (2, B, 2), (6, A, 1), (8, A, 3), (3, A, 1), (0, A, 2), (4, B, 0)],
    // blueprint 5
    [(7, B, 1), (6, A, 1), (4, A, 3), (8, B, 1), (5, A, 0), (3, A, 2), (2, A, 0), (1, A, 2)],
    // blueprint 6
    [(6, A, 3), (7, A, 1), (4, B, 1), (5, A, 3), (0, A, 3), (1, A, 1), (8, B, 0), (3, A, 1)],
    // blueprint 7
    [(2, B, 0), (7, B, 2), (5, B, 0), (1, A, 3), (4, A, 2), (3, A, 1), (8, B, 3), (0, B, 2)],
    // blueprint 8
    [(2, A, 0), (1, A, 3), (8, B, 0), (5, B, 1), (7, A, 0), (0, B, 3), (6, A, 1), (4, B, 2)],
    // blueprint 9
    [(4, B, 2), (1, A, 1), (5, A, 0), (0, B, 1), (8, B, 3), (7, B, 2), (3, A, 3), (2, B, 2)],
    // blueprint 10
    [(1, A, 0), (2, B, 3), (4, B, 3), (0, B, 2), (8, A, 0), (7, B, 0), (6, B, 2), (3, A, 1)],
    // blueprint 11
    [(2, B, 2), (0, B, 1), (1, A, 1), (8, A, 1), (4, B, 2), (6, A, 1), (7, A, 0), (5, A, 3)],
    // blueprint 12
    [(4, A, 1), (2, A, 3), (3, B, 1), (6, A, 0), (5, B, 0), (7, A, 2), (8, B, 1), (0, B, 2)],
    // blueprint 13
    [(8, B, 0), (6, B, 2), (1, B, 2), (4, B, 1), (7, A, 3), (0, A, 3), (5, B, 2), (3, B, 1)],
    // blueprint 14
    [(0, B, 2), (4, A, 3), (7, B, 1), (1, A, 3), (6, B, 3), (5, B, 1), (2, A, 2), (3, A, 0)],
    // blueprint 15
    [(0, B, 1), (5, B, 2), (7, A, 3), (6, A, 3), (4, B, 3), (3, B, 2), (2, A, 0), (1, A, 2)],
    // blueprint 16
    [(3, A, 3), (4, B, 3), (7, A, 3), (8, A, 3), (0, B, 0), (6, B, 0), (5, A, 3), (2, B, 2)],
    // blueprint 17
    [(1, A, 0), (3, B, 3), (4, A, 3), (8, B, 2), (6, B, 2), (7, B, 3), (2, A, 1), (0, A, 0)],
    // blueprint 18
    [(2, B, 1), (6, A, 2), (3, A, 3), (5, A, 2), (7, B, 3), (0, B, 3), (4, B, 2), (8, B, 0)],
    // blueprint 19
    [(7, A, 1), (6, A, 0), (4, B, 2), (8, B, 3), (3, B, 3), (2, A, 2), (1, B, 0), (5, A, 3)],
    // blueprint 20
    [(0, B, 3), (2, B, 3), (8, A, 3), (3, B, 1), (5, B, 1), (7, B, 3), (4, B, 0), (6, B, 3)],
];

/// Blueprint `number` (1..=20) in its own frame, cards 1..=8 in order.
pub fn plan(number: u8) -> Vec<Placement> {
    TABLE[usize::from(number) - 1]
        .iter()
        .zip(1..=CARDS)
        .map(|(&(slot, face, rotation), card)| Placement {
            card,
            slot,
            face,
            rotation,
        })
        .collect()
}

/// The blueprint as revealed: its own frame plus the quarter turn it lies at.
pub fn revealed(number: u8, turn: u8) -> RevealedBlueprint {
    RevealedBlueprint {
        number,
        turn,
        cards: plan(number),
    }
}

/// A slot turned clockwise by `turns` quarter turns around the board's centre: (row, column) goes
/// to (column, 2 − row) per quarter turn.
pub fn turn_slot(slot: Slot, turns: u8) -> Slot {
    let (mut row, mut col) = (slot / 3, slot % 3);
    for _ in 0..turns % ROTATIONS {
        (row, col) = (col, 2 - row);
    }
    row * 3 + col
}

/// The city to build: the blueprint turned into the boards' frame (the whole plan turns, so every
/// card's slot moves and its rotation grows by the same quarter turns; faces stay).
pub fn target(blueprint: &RevealedBlueprint) -> Vec<Placement> {
    blueprint
        .cards
        .iter()
        .map(|p| Placement {
            card: p.card,
            slot: turn_slot(p.slot, blueprint.turn),
            face: p.face,
            rotation: (p.rotation + blueprint.turn) % ROTATIONS,
        })
        .collect()
}

/// Where the target puts `card`.
pub fn target_of(target: &[Placement], card: Card) -> Option<&Placement> {
    target.iter().find(|p| p.card == card)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;
    use std::collections::HashSet;

    /// How the table was made: for each blueprint, shuffle the 9 slots and give cards 1..=8 the
    /// first 8; draw each card's face and rotation.
    fn generate() -> Vec<Vec<(Slot, Face, u8)>> {
        let mut rng = GameRng::from_seed(GENERATOR_SEED);
        (0..BLUEPRINTS)
            .map(|_| {
                let mut slots: Vec<Slot> = (0..9).collect();
                rng.shuffle(&mut slots);
                (0..usize::from(CARDS))
                    .map(|c| {
                        let face = if rng.below(2) == 0 { A } else { B };
                        let rotation = rng.below(4) as u8;
                        (slots[c], face, rotation)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_table_is_what_the_seeded_generator_made() {
        let table: Vec<Vec<_>> = TABLE.iter().map(|b| b.to_vec()).collect();
        assert_eq!(table, generate());
    }

    #[test]
    fn the_table_is_pinned() {
        // FNV-1a over every entry: changing any blueprint breaks the history of stored games.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for blueprint in TABLE {
            for (slot, face, rotation) in blueprint {
                for byte in [slot, face as u8, rotation] {
                    hash ^= u64::from(byte);
                    hash = hash.wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
        assert_eq!(hash, PINNED_HASH, "the blueprint table changed");
        assert_eq!(TABLE[0][0], (6, A, 1));
        assert_eq!(TABLE[19][7], (6, B, 3));
    }

    const PINNED_HASH: u64 = 0x44bb_3112_98ec_2dd8;

    #[test]
    fn every_blueprint_places_all_eight_cards_on_distinct_slots() {
        for number in 1..=BLUEPRINTS {
            let plan = plan(number);
            assert_eq!(plan.len(), 8);
            let slots: HashSet<_> = plan.iter().map(|p| p.slot).collect();
            assert_eq!(slots.len(), 8, "blueprint {number}");
            assert!(plan.iter().all(|p| p.slot < 9 && p.rotation < 4));
        }
        let distinct: HashSet<_> = TABLE.iter().collect();
        assert_eq!(distinct.len(), 20);
    }

    #[test]
    fn a_quarter_turn_moves_the_top_left_corner_to_the_top_right() {
        assert_eq!(turn_slot(0, 1), 2);
        assert_eq!(turn_slot(2, 1), 8);
        assert_eq!(turn_slot(4, 1), 4);
        assert_eq!(turn_slot(1, 1), 5);
        assert_eq!(turn_slot(0, 2), 8);
        assert_eq!(turn_slot(0, 3), 6);
        for slot in 0..9 {
            assert_eq!(turn_slot(slot, 4), slot);
        }
    }

    #[test]
    fn the_target_turns_slots_and_rotations_together() {
        let blueprint = revealed(1, 1);
        let target = target(&blueprint);
        // Card 1 lies on slot 6 (bottom left) at 1 quarter turn; turned once: slot 0, 2 turns.
        assert_eq!(
            target[0],
            Placement {
                card: 1,
                slot: 0,
                face: A,
                rotation: 2
            }
        );
        assert_eq!(super::target(&revealed(1, 0)), plan(1));
    }
}
