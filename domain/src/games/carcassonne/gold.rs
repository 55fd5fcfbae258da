//! Die Goldminen. After a tile with the gold symbol, one ingot goes onto it and one onto a
//! placed tile among its 8 neighbours (the player chooses when there are several), from a
//! supply of 16. When a road, city or cloister (its 3 × 3 tiles) is completed, the players with
//! the most followers on it take the gold on its tiles, one ingot each in turn, the active
//! player first, then in seat order. At the end each player's ingots score by bands.

use crate::contract::{RuleError, Seat};

use super::board::{around, reading};
use super::commands::*;
use super::events::*;
use super::features::TileSet;
use super::state::State;
use super::tiles;

/// This turn's gold tile, when the gold step applies to it.
fn gold_tile(state: &State) -> Option<Position> {
    let tile = state.current_tile()?;
    (state.options.gold_mines && tiles::tile(tile.kind).gold).then_some(tile.pos)
}

/// The placed tiles around this turn's gold tile, in reading order.
pub fn candidates(state: &State) -> Vec<Position> {
    let Some(pos) = gold_tile(state) else {
        return Vec::new();
    };
    around(pos)
        .filter(|p| state.board.at(*p).is_some())
        .collect()
}

fn placed_this_turn(state: &State) -> u8 {
    state.current.map_or(0, |c| c.ingots_placed)
}

/// The ingots that go down by themselves: the first onto the gold tile, the second onto the
/// only neighbour when there is just one. None when the supply is empty.
pub fn automatic(state: &State, seat: Seat) -> Option<GoldIngotPlaced> {
    let pos = gold_tile(state)?;
    if state.gold_supply == 0 {
        return None;
    }
    match placed_this_turn(state) {
        0 => Some(GoldIngotPlaced {
            seat,
            x: pos.x,
            y: pos.y,
        }),
        1 => match candidates(state)[..] {
            [only] => Some(GoldIngotPlaced {
                seat,
                x: only.x,
                y: only.y,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// The player must choose where the second ingot goes.
pub fn choice_pending(state: &State) -> bool {
    gold_tile(state).is_some()
        && state.gold_supply > 0
        && placed_this_turn(state) == 1
        && candidates(state).len() >= 2
}

pub fn place(
    state: &State,
    seat: Seat,
    command: &PlaceGoldIngot,
) -> Result<GoldIngotPlaced, RuleError> {
    let pos = Position::new(command.x, command.y);
    if !candidates(state).contains(&pos) {
        return Err(RuleError::new(
            "not_next_to_gold_tile",
            "The second ingot goes onto a placed tile among the 8 around the gold tile.",
        ));
    }
    Ok(GoldIngotPlaced {
        seat,
        x: pos.x,
        y: pos.y,
    })
}

pub fn choices(state: &State) -> Vec<CarcassonneCommand> {
    candidates(state)
        .into_iter()
        .map(|p| PlaceGoldIngot { x: p.x, y: p.y }.into())
        .collect()
}

/// A completed feature's claim: its majority players on its tiles.
pub struct Claim {
    pub tiles: TileSet,
    pub seats: Vec<Seat>,
}

/// Hands out the gold lying on the claimed tiles. Each tile's claimants are the majority
/// players of every feature completed this turn that lies on it. Starting with `active` and
/// going round in seat order, each claimant in turn takes one ingot — from the tile with the
/// most claimants that they may take from, then in reading order — until no claimed gold is
/// left; a player with nothing to take is passed over.
pub fn hand_out(state: &State, active: Seat, claims: &[Claim]) -> Vec<GoldIngotTaken> {
    // (tile index, claimants, gold left)
    let mut heaps: Vec<(u8, Vec<Seat>, u8)> = Vec::new();
    for claim in claims.iter().filter(|c| !c.seats.is_empty()) {
        for tile in claim.tiles.iter() {
            let gold = state.board.placed[tile as usize].gold;
            if gold == 0 {
                continue;
            }
            match heaps.iter_mut().find(|h| h.0 == tile) {
                Some(heap) => {
                    for &s in &claim.seats {
                        if !heap.1.contains(&s) {
                            heap.1.push(s);
                        }
                    }
                }
                None => heaps.push((tile, claim.seats.clone(), gold)),
            }
        }
    }
    heaps.sort_by_key(|(tile, seats, _)| {
        (
            std::cmp::Reverse(seats.len()),
            reading(&state.board.placed[*tile as usize].pos),
        )
    });
    let mut taken = Vec::new();
    while heaps.iter().any(|h| h.2 > 0) {
        for seat in state.seats_from(active) {
            if let Some(heap) = heaps.iter_mut().find(|h| h.2 > 0 && h.1.contains(&seat)) {
                heap.2 -= 1;
                let pos = state.board.placed[heap.0 as usize].pos;
                taken.push(GoldIngotTaken {
                    seat,
                    x: pos.x,
                    y: pos.y,
                });
            }
        }
    }
    taken
}

/// What `ingots` score at the end: 1–3 one point each, 4–6 two, 7–9 three, 10 or more four.
pub fn ingot_points(ingots: u8) -> u32 {
    let each = match ingots {
        0 => 0,
        1..=3 => 1,
        4..=6 => 2,
        7..=9 => 3,
        _ => 4,
    };
    u32::from(ingots) * each
}

/// The end of the game: every player's ingots score (the gold still on the board does not).
pub fn final_scoring(state: &State) -> Vec<IngotsScored> {
    if !state.options.gold_mines {
        return Vec::new();
    }
    (0..state.players)
        .filter(|&seat| state.ingots[seat as usize] > 0)
        .map(|seat| IngotsScored {
            seat,
            ingots: state.ingots[seat as usize],
            points: ingot_points(state.ingots[seat as usize]),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ingots_score_by_bands() {
        let points: Vec<u32> = (0..=12).map(ingot_points).collect();
        assert_eq!(points, vec![0, 1, 2, 3, 8, 10, 12, 21, 24, 27, 40, 44, 48]);
        assert_eq!(ingot_points(16), 64);
    }
}
