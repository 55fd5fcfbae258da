//! Step 2, houses: the two house dice give two colours and the player decides which goes into
//! the field on which side of the new wall. A rim wall has one field: the player picks one of
//! the two colours for it. "?" is a free choice, and so is a colour that has run out.

use crate::contract::{RuleError, Seat};

use super::board::board;
use super::commands::*;
use super::dice::placements;
use super::events::*;
use super::evolve::Outcome;
use super::options::*;
use super::state::*;

/// Every placement the dice leave open.
pub fn options(state: &State) -> Vec<Vec<HousePlacement>> {
    let (Some(line), Some(dice)) = (state.built, state.dice) else {
        return Vec::new();
    };
    let fields = &board().lines[usize::from(line)].fields;
    let asked = dice.houses.map(|d| d.colour());
    placements(fields, &asked, &state.supply.houses)
        .into_iter()
        .map(|p| {
            p.into_iter()
                .map(|(field, colour)| HousePlacement { field, colour })
                .collect()
        })
        .collect()
}

pub fn place(outcome: &mut Outcome, seat: Seat, command: &PlaceHouses) -> Result<(), RuleError> {
    if !options(&outcome.state).contains(&command.houses) {
        return Err(RuleError::new(
            "houses_not_allowed",
            "Those houses do not fit the roll: one house of each rolled colour, one in each \
             field beside the new wall (a rim wall's one field takes one of the two colours), \
             \"?\" and run-out colours replaced by a colour in the supply, listed by ascending \
             field.",
        ));
    }
    outcome.push(HousesPlaced {
        seat,
        houses: command.houses.clone(),
    });
    Ok(())
}
