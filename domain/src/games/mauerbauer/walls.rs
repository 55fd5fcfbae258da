//! Step 1 of a turn: build a wall on any free line (not inside a closed city; it need not touch
//! other walls), then step 2 begins: the server rolls the dice. The tower die is rolled only
//! when an end of the new wall is free of towers.

use crate::contract::{Ctx, RuleError, Seat};

use super::board::{board, ids128, LineId, LineSet, LINES};
use super::commands::*;
use super::dice::{roll_house_die, roll_tower_die};
use super::events::*;
use super::evolve::Outcome;
use super::state::*;
use super::towers::free_ends;

const ALL_LINES: LineSet = (1 << LINES) - 1;

/// The lines a wall may be built on: without a wall, and not inside (or around) a closed city.
pub fn free_lines(state: &State) -> LineSet {
    ALL_LINES & !state.walls & !board().lines_of(state.city_fields())
}

pub fn free_line_ids(state: &State) -> impl Iterator<Item = LineId> {
    ids128(free_lines(state))
}

pub fn build(
    outcome: &mut Outcome,
    seat: Seat,
    command: &BuildWall,
    ctx: &mut Ctx,
) -> Result<(), RuleError> {
    let state = &outcome.state;
    let line = command.line;
    if usize::from(line) >= LINES {
        return Err(RuleError::new(
            "no_such_line",
            format!("The board's wall lines are 0 to {}.", LINES - 1),
        ));
    }
    if state.walls & 1 << line != 0 {
        return Err(RuleError::new(
            "line_has_wall",
            format!("Line {line} already holds a wall."),
        ));
    }
    if free_lines(state) & 1 << line == 0 {
        return Err(RuleError::new(
            "line_inside_city",
            format!("Line {line} lies inside a closed city: no wall may be built there."),
        ));
    }
    let free_end = !free_ends(state, line).is_empty();
    outcome.push(WallBuilt { seat, line });
    let tower = free_end.then(|| roll_tower_die(&mut ctx.rng));
    let houses = [roll_house_die(&mut ctx.rng), roll_house_die(&mut ctx.rng)];
    outcome.push(MauerbauerDiceRolled {
        seat,
        tower,
        houses,
    });
    Ok(())
}
