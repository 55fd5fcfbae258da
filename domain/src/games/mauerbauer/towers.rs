//! Step 2, towers: with no tower at either end of the new wall, one of the die's colour goes on
//! one end and one of free choice on the other; with a tower at one end, the die's colour goes
//! on the other; with towers at both ends the die is not rolled. A run-out colour is replaced by
//! one of the player's choice.

use crate::contract::{RuleError, Seat};

use super::board::{board, LineId, VertexId};
use super::commands::*;
use super::dice::placements;
use super::events::*;
use super::evolve::Outcome;
use super::options::*;
use super::state::*;

/// The ends of `line` without a tower.
pub fn free_ends(state: &State, line: LineId) -> Vec<VertexId> {
    board().lines[usize::from(line)]
        .vertices
        .into_iter()
        .filter(|&v| {
            state
                .towers
                .get(usize::from(v))
                .copied()
                .flatten()
                .is_none()
        })
        .collect()
}

/// Every placement the die leaves open (empty when no tower is to be placed).
pub fn options(state: &State) -> Vec<Vec<TowerPlacement>> {
    let (
        Some(line),
        Some(Dice {
            tower: Some(die), ..
        }),
    ) = (state.built, state.dice)
    else {
        return Vec::new();
    };
    let free_ends = free_ends(state, line);
    let dice = if free_ends.len() == 2 {
        vec![Some(die), None]
    } else {
        vec![Some(die)]
    };
    placements(&free_ends, &dice, &state.supply.towers)
        .into_iter()
        .map(|p| {
            p.into_iter()
                .map(|(vertex, colour)| TowerPlacement { vertex, colour })
                .collect()
        })
        .collect()
}

pub fn place(outcome: &mut Outcome, seat: Seat, command: &PlaceTowers) -> Result<(), RuleError> {
    if !options(&outcome.state).contains(&command.towers) {
        return Err(RuleError::new(
            "towers_not_allowed",
            "Those towers do not fit the roll: the die's colour goes on a free end of the new \
             wall (with no tower at either end, a tower of free choice on the other), a run-out \
             colour is replaced by one in the supply, and towers are listed by ascending vertex.",
        ));
    }
    outcome.push(TowersPlaced {
        seat,
        towers: command.towers.clone(),
    });
    Ok(())
}

#[cfg(test)]
#[path = "tests/towers.rs"]
mod tests;
