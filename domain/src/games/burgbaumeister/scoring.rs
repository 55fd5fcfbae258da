//! Which card shows which symbol, and the points a wall is worth.
//!
//! The rulebook does not print which numbers carry which symbol: the table is the rules page's
//! **Decision**. Symbols exist on the cards in both games but score only in the variant.

use super::options::*;
use super::state::*;

/// The wizard card (once per game, insert a card anywhere the numbers still rise).
pub const WIZARD: Card = 23;

/// The symbol card `card` shows, if any.
pub fn symbol(card: Card) -> Option<Symbol> {
    Some(match card {
        37 => Symbol::King,
        36 => Symbol::Queen,
        6 | 21 | 33 => Symbol::Knight,
        8 | 25 | 42 => Symbol::Maiden,
        4 | 17 | 44 => Symbol::Raven,
        12 | 31 => Symbol::TwoRavens,
        14 | 27 | 40 => Symbol::Cannon,
        9 | 19 | 29 | 39 => Symbol::Tower,
        WIZARD => Symbol::Wizard,
        _ => return None,
    })
}

pub fn is_cannon(card: Card) -> bool {
    symbol(card) == Some(Symbol::Cannon)
}

pub fn is_tower(card: Card) -> bool {
    symbol(card) == Some(Symbol::Tower)
}

/// Variant points of a wall: 1 per card (the start tower is not a card), King and Queen +3
/// each, knights and maidens +1 each and +1 per knight–maiden pair, +1 per raven shown.
pub fn variant_points(wall: &[Card]) -> i64 {
    let count = |s: Symbol| wall.iter().filter(|&&c| symbol(c) == Some(s)).count() as i64;
    let knights = count(Symbol::Knight);
    let maidens = count(Symbol::Maiden);
    wall.len() as i64
        + 3 * count(Symbol::King)
        + 3 * count(Symbol::Queen)
        + knights
        + maidens
        + knights.min(maidens)
        + count(Symbol::Raven)
        + 2 * count(Symbol::TwoRavens)
}

/// A seat's score now: points in the variant, cards in the wall in the base game.
pub fn score(state: &State, seat: usize) -> i64 {
    let wall = &state.walls[seat];
    if state.variant {
        variant_points(wall)
    } else {
        wall.len() as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules page's table, card by card, written out independently of `symbol`.
    #[test]
    fn the_symbol_table_is_the_rules_pages() {
        let table: &[(Symbol, &[Card])] = &[
            (Symbol::King, &[37]),
            (Symbol::Queen, &[36]),
            (Symbol::Knight, &[6, 21, 33]),
            (Symbol::Maiden, &[8, 25, 42]),
            (Symbol::Raven, &[4, 17, 44]),
            (Symbol::TwoRavens, &[12, 31]),
            (Symbol::Cannon, &[14, 27, 40]),
            (Symbol::Tower, &[9, 19, 29, 39]),
            (Symbol::Wizard, &[23]),
        ];
        for card in 2..=46 {
            let expected = table
                .iter()
                .find(|(_, cards)| cards.contains(&card))
                .map(|(s, _)| *s);
            assert_eq!(symbol(card), expected, "card {card}");
        }
    }

    #[test]
    fn the_symbol_table_has_the_rulebooks_counts() {
        let count = |s: Symbol| (2..=46).filter(|&c| symbol(c) == Some(s)).count();
        assert_eq!(count(Symbol::King), 1);
        assert_eq!(count(Symbol::Queen), 1);
        assert_eq!(count(Symbol::Knight), 3);
        assert_eq!(count(Symbol::Maiden), 3);
        assert_eq!(count(Symbol::Raven) + count(Symbol::TwoRavens), 5);
        assert_eq!(count(Symbol::TwoRavens), 2);
        assert_eq!(count(Symbol::Cannon), 3);
        assert_eq!(count(Symbol::Tower), 4);
        assert_eq!(count(Symbol::Wizard), 1);
        assert_eq!(symbol(1), None, "the start tower is not a card");
    }

    #[test]
    fn every_card_scores_one_point_and_the_start_tower_none() {
        assert_eq!(variant_points(&[]), 0);
        assert_eq!(variant_points(&[2, 3, 5]), 3);
    }

    #[test]
    fn king_and_queen_score_three_extra_each() {
        assert_eq!(variant_points(&[36]), 4);
        assert_eq!(variant_points(&[36, 37]), 8);
    }

    #[test]
    fn knights_and_maidens_score_one_each_and_one_per_pair() {
        // The rulebook's Valentin: 2 knights + 1 maiden = 4 extra points.
        assert_eq!(variant_points(&[6, 8, 21]) - 3, 4);
        assert_eq!(variant_points(&[6, 8, 21, 25]) - 4, 6);
        assert_eq!(variant_points(&[6, 21, 33]) - 3, 3);
    }

    #[test]
    fn ravens_score_one_per_raven_shown() {
        assert_eq!(variant_points(&[4]) - 1, 1);
        assert_eq!(variant_points(&[12]) - 1, 2);
        assert_eq!(variant_points(&[4, 12, 17, 31, 44]) - 5, 7);
    }

    #[test]
    fn cannons_towers_and_the_wizard_score_only_as_cards() {
        assert_eq!(variant_points(&[9, 14, 23]), 3);
    }
}
