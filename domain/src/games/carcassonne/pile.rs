//! The draw pile. It is kept as a count of each tile left, never as an order: when a turn
//! begins, one tile is drawn uniformly at random from those left, with the command's
//! randomness. So the order of the pile cannot leak from a view, the log or a replay: it does
//! not exist until a tile is drawn, and the drawn tile is public. A drawn tile that fits
//! nowhere is discarded (and recorded), and another is drawn.

use crate::contract::{Ctx, Seat};

use super::events::*;
use super::evolve::Outcome;
use super::options::*;
use super::placement::fits_somewhere;
use super::state::State;
use super::tiles::{catalogue, Set, TileKind};

/// What goes into the pile: every tile of the sets in play, less the start tile.
pub fn contents(options: &CarcassonneOptions) -> Vec<TileCount> {
    let catalogue = catalogue();
    catalogue
        .tiles
        .iter()
        .enumerate()
        .filter(|(_, t)| match t.set {
            Set::Base => true,
            Set::MageAndWitch => options.mage_and_witch,
            Set::GoldMines => options.gold_mines,
        })
        .map(|(kind, t)| TileCount {
            tile: t.id.clone(),
            count: t.count - u8::from(kind as TileKind == catalogue.start_tile),
        })
        .collect()
}

/// One tile at random from those left, each copy equally likely.
fn draw_one(state: &State, ctx: &mut Ctx) -> Option<TileKind> {
    let left = state.tiles_left();
    if left == 0 {
        return None;
    }
    let mut n = ctx.rng.below(u64::from(left)) as u32;
    for (kind, &count) in state.pile.iter().enumerate() {
        if n < u32::from(count) {
            return Some(kind as TileKind);
        }
        n -= u32::from(count);
    }
    None
}

/// Draws `seat`'s tile, discarding those that fit nowhere. False when the pile ran out first.
pub fn draw(outcome: &mut Outcome, ctx: &mut Ctx, seat: Seat) -> bool {
    while let Some(kind) = draw_one(&outcome.state, ctx) {
        let tile = catalogue().get(kind).id.clone();
        if fits_somewhere(&outcome.state.board, kind) {
            outcome.push(TileDrawn { seat, tile });
            return true;
        }
        outcome.push(TileDiscarded { seat, tile });
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(options: CarcassonneOptions) -> u32 {
        contents(&options).iter().map(|c| u32::from(c.count)).sum()
    }

    #[test]
    fn the_pile_holds_71_tiles_and_8_more_per_expansion() {
        let mut options = CarcassonneOptions::default();
        assert_eq!(total(options), 71);
        options.mage_and_witch = true;
        assert_eq!(total(options), 79);
        options.gold_mines = true;
        assert_eq!(total(options), 87);
        options.mage_and_witch = false;
        assert_eq!(total(options), 79);
        let d = contents(&options)
            .into_iter()
            .find(|c| c.tile == "D")
            .unwrap();
        assert_eq!(d.count, 3, "the fourth D is the start tile");
    }
}
