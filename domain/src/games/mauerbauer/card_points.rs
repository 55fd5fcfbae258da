//! What a laid guild card scores. City cards look at one city (the one being scored, or in the
//! final scoring the one the player chose); board cards at the pieces outside every closed
//! city, that is neither inside one nor on one's boundary.

use super::board::{board, ids, Board, VertexId};
use super::cities::city_towers;
use super::guild_cards::{GuildCard, Rule};
use super::pieces::{Colour, TowerColour};
use super::state::*;

/// The points `card` scores now, for `city` (city cards score nothing without one).
pub fn points(state: &State, card: GuildCard, city: Option<&City>) -> i64 {
    let b = board();
    let n = |count: usize| count as i64;
    match card.rule() {
        Rule::CitySize {
            fields,
            or_more,
            points,
        } => city.map_or(0, |c| {
            let size = c.fields.count_ones();
            if size == fields || (or_more && size >= fields) {
                points
            } else {
                0
            }
        }),
        Rule::CityTowersOf(colour) => city.map_or(0, |c| {
            2 * n(city_towers(state, c)
                .iter()
                .filter(|t| t.colour == colour)
                .count())
        }),
        Rule::CityBuildingsOf(colour) => city.map_or(0, |c| {
            let i = colour.index();
            3 * i64::from(c.palaces[i]) + i64::from(c.houses[i])
        }),
        Rule::CityColourVariety => city.map_or(0, |c| {
            let colours = (0..5).filter(|&i| c.houses[i] + c.palaces[i] > 0).count();
            match colours {
                2..=3 => 4,
                4..=5 => 7,
                _ => 0,
            }
        }),
        Rule::CityPalaces => city.map_or(0, |c| c.palaces.iter().map(|&p| i64::from(p)).sum()),
        Rule::CityTowers => city.map_or(0, |c| n(city_towers(state, c).len())),
        Rule::BoardHousesOf(colour) => state
            .houses
            .iter()
            .map(|h| i64::from(h[colour.index()]))
            .sum(),
        Rule::BoardHousesIn(region) => ids(b.regions[region as usize])
            .map(|f| houses_outside(state, f))
            .sum(),
        Rule::BoardTowersOf(colour) => {
            2 * n(towers_outside(state, b)
                .filter(|&(_, c)| c == colour)
                .count())
        }
        Rule::BoardWalls => {
            n((state.walls & !b.lines_of(state.city_fields())).count_ones() as usize)
        }
        Rule::BoardTowers => n(towers_outside(state, b).count()),
        Rule::BoardTowersAtWater => {
            2 * n(towers_outside(state, b)
                .filter(|&(v, _)| b.water & 1 << v != 0)
                .count())
        }
        Rule::ClosedCities => n(state.cities.len()),
    }
}

/// Houses of a field outside the closed cities (a city's houses belong to the city).
fn houses_outside(state: &State, field: u8) -> i64 {
    state
        .houses
        .get(usize::from(field))
        .map_or(0, |h| h.iter().map(|&n| i64::from(n)).sum())
}

/// The towers on no closed city's boundary and inside none.
fn towers_outside<'a>(
    state: &'a State,
    b: &'a Board,
) -> impl Iterator<Item = (VertexId, TowerColour)> + 'a {
    let near_cities = b.vertices_of(state.city_fields());
    state
        .towers
        .iter()
        .enumerate()
        .filter(move |&(v, _)| near_cities & 1 << v == 0)
        .filter_map(|(v, t)| t.map(|colour| (v as VertexId, colour)))
}

#[cfg(test)]
#[path = "tests/card_points.rs"]
mod tests;
