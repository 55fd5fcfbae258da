//! Closed cities, found from the board graph: a city is a set of fields connected across lines
//! without walls whose every boundary line (rim lines included) holds a wall. It closes the
//! moment its last wall is built; then the walls and towers strictly inside go back to the
//! supply, pairs of houses become palaces, and the player may join it with one neighbouring
//! closed city.

use crate::contract::Seat;

use super::board::{board, ids, ids128, FieldId, FieldSet, LineId, LineSet, VertexSet};
use super::events::*;
use super::evolve::Outcome;
use super::options::*;
use super::pieces::{Colour, HouseColour, Supply};
use super::state::*;

/// The fields reachable from `field` across lines without walls.
pub fn reach(walls: LineSet, field: FieldId) -> FieldSet {
    let b = board();
    let mut reached: FieldSet = 1 << field;
    let mut frontier = vec![field];
    while let Some(f) = frontier.pop() {
        for &line in &b.fields[usize::from(f)].lines {
            if walls & 1 << line != 0 {
                continue;
            }
            if let Some(next) = b.across(line, f) {
                if reached & 1 << next == 0 {
                    reached |= 1 << next;
                    frontier.push(next);
                }
            }
        }
    }
    reached
}

/// Does every line around `fields` hold a wall?
pub fn enclosed(walls: LineSet, fields: FieldSet) -> bool {
    board().boundary(fields) & !walls == 0
}

/// The cities a wall on `line` closes now: the regions on its sides that walls enclose and
/// that are not closed cities yet, the one holding the lower field first.
pub fn newly_enclosed(state: &State, line: LineId) -> Vec<FieldSet> {
    enclosed_beside(state.walls, state.city_fields(), line)
}

/// Would a wall on `line` close a city?
pub fn would_close(state: &State, line: LineId) -> bool {
    !enclosed_beside(state.walls | 1 << line, state.city_fields(), line).is_empty()
}

fn enclosed_beside(walls: LineSet, in_cities: FieldSet, line: LineId) -> Vec<FieldSet> {
    let mut found: Vec<FieldSet> = Vec::new();
    for &field in &board().lines[usize::from(line)].fields {
        if in_cities & 1 << field != 0 {
            continue;
        }
        let region = reach(walls, field);
        if enclosed(walls, region) && !found.contains(&region) {
            found.push(region);
        }
    }
    found.sort_by_key(|region| region.trailing_zeros());
    found
}

/// The towers standing on `vertices`.
pub fn towers_on(state: &State, vertices: VertexSet) -> Vec<TowerPlacement> {
    ids(vertices)
        .filter_map(|vertex| {
            let colour = state.towers.get(usize::from(vertex)).copied().flatten()?;
            Some(TowerPlacement { vertex, colour })
        })
        .collect()
}

/// A city's towers: those on its boundary.
pub fn city_towers(state: &State, city: &City) -> Vec<TowerPlacement> {
    let b = board();
    towers_on(state, b.ends_of(b.boundary(city.fields)))
}

/// A city's walls: the lines around it.
pub fn city_walls(city: &City) -> LineSet {
    board().boundary(city.fields)
}

/// Closes the city of `fields`: it gets the next id, gives back the walls and towers strictly
/// inside, and builds its palaces.
pub fn close(outcome: &mut Outcome, fields: FieldSet) {
    let state = &outcome.state;
    let b = board();
    let city = state.next_city;
    let event = CityWalledIn {
        city,
        fields: ids(fields).collect(),
        walls_returned: ids128(b.lines_inside(fields) & state.walls).collect(),
        towers_returned: towers_on(state, b.vertices_inside(fields)),
    };
    outcome.push(event);
    build_palaces(outcome, city);
}

/// Every two houses of one colour become a palace of that colour, while the supply has one.
pub fn palaces_for(city: &City, supply: &Supply) -> Vec<HouseColour> {
    HouseColour::ALL
        .iter()
        .flat_map(|&colour| {
            let i = colour.index();
            let n = (city.houses[i] / 2).min(supply.palaces[i]);
            std::iter::repeat_n(colour, usize::from(n))
        })
        .collect()
}

fn build_palaces(outcome: &mut Outcome, city: CityId) {
    let Some(c) = outcome.state.city(city) else {
        return;
    };
    let palaces = palaces_for(c, &outcome.state.supply);
    if !palaces.is_empty() {
        outcome.push(PalacesBuilt { city, palaces });
    }
}

/// The closed cities sharing a wall with `city`.
pub fn neighbours(state: &State, city: &City) -> Vec<CityId> {
    let b = board();
    let lines = b.lines_of(city.fields);
    state
        .cities
        .iter()
        .filter(|other| other.id != city.id && b.lines_of(other.fields) & lines != 0)
        .map(|other| other.id)
        .collect()
}

/// The joins the player may choose now: a city closed this turn with one closed city sharing a
/// wall with it (two cities closed this turn are listed once, the lower id first).
pub fn join_options(state: &State) -> Vec<(CityId, CityId)> {
    let mut new: Vec<CityId> = state.closed_this_turn.clone();
    new.sort();
    let mut options = Vec::new();
    for &id in &new {
        let Some(city) = state.city(id) else { continue };
        for other in neighbours(state, city) {
            if !(new.contains(&other) && other < id) {
                options.push((id, other));
            }
        }
    }
    options
}

/// Joins `city` and `with` (the older keeps its id): the walls between them and the towers left
/// strictly inside go back to the supply, then palaces again.
pub fn join(outcome: &mut Outcome, seat: Seat, city: CityId, with: CityId) {
    let state = &outcome.state;
    let (kept, joined) = (city.min(with), city.max(with));
    let (Some(a), Some(b)) = (state.city(kept), state.city(joined)) else {
        return;
    };
    let board = board();
    let merged = a.fields | b.fields;
    let event = WalledCitiesJoined {
        seat,
        city: kept,
        joined,
        walls_returned: ids128(board.lines_inside(merged) & state.walls).collect(),
        towers_returned: towers_on(state, board.vertices_inside(merged)),
    };
    outcome.push(event);
    build_palaces(outcome, kept);
}

/// The city closed this turn (and not joined away) to be scored next: the one holding the lower
/// field first.
pub fn next_to_score(state: &State) -> Option<CityId> {
    state
        .closed_this_turn
        .iter()
        .filter(|id| !state.scored_this_turn.contains(id))
        .filter_map(|&id| state.city(id))
        .min_by_key(|city| city.fields.trailing_zeros())
        .map(|city| city.id)
}

#[cfg(test)]
#[path = "tests/cities.rs"]
mod tests;

#[cfg(test)]
#[path = "tests/city_joins.rs"]
mod join_tests;
