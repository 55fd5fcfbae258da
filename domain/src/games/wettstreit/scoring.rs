//! Scoring. Each built card scores its value. A complete city (no gap, a left corner tower at
//! its left end and a right one at its right end) earns extras: +10 for the town hall exactly in
//! the middle, +5 for as many churches left of the town hall as right of it (at least one a
//! side), +5 for corner towers of equal value. Each card in hand scores minus its value; money
//! and saboteurs count nothing. Decision: a tie for the highest total is a shared win.

use crate::contract::Seat;

use super::events::*;
use super::options::*;
use super::state::*;

/// One player's score for a city (left to right, `None` = gap) and the cards in hand.
pub fn score_city(seat: Seat, city: &[Option<Card>], hand: &[Card]) -> CityScore {
    let buildings: i64 = city.iter().flatten().map(|&c| i64::from(value_of(c))).sum();
    let hand_penalty: i64 = -hand.iter().map(|&c| i64::from(value_of(c))).sum::<i64>();
    let cards: Vec<Card> = city.iter().flatten().copied().collect();
    let complete = !city.is_empty()
        && cards.len() == city.len()
        && kind_of(cards[0]) == Kind::LeftCornerTower
        && kind_of(cards[cards.len() - 1]) == Kind::RightCornerTower;
    let (mut town_hall_centred, mut churches_balanced, mut corner_towers_matched) = (0, 0, 0);
    if complete {
        let town_hall = cards.iter().position(|&c| kind_of(c) == Kind::TownHall);
        if let Some(t) = town_hall {
            if cards.len() % 2 == 1 && t == cards.len() / 2 {
                town_hall_centred = 10;
            }
            let churches =
                |part: &[Card]| part.iter().filter(|&&c| kind_of(c) == Kind::Church).count();
            let (left, right) = (churches(&cards[..t]), churches(&cards[t + 1..]));
            if left == right && left >= 1 {
                churches_balanced = 5;
            }
        }
        if value_of(cards[0]) == value_of(cards[cards.len() - 1]) {
            corner_towers_matched = 5;
        }
    }
    CityScore {
        seat,
        buildings,
        complete,
        town_hall_centred,
        churches_balanced,
        corner_towers_matched,
        hand_penalty,
        total: buildings
            + town_hall_centred
            + churches_balanced
            + corner_towers_matched
            + hand_penalty,
    }
}

/// The end of the game: every player's score and the winners.
pub fn game_ended(state: &State) -> WettstreitGameEnded {
    let scores: Vec<CityScore> = (0..state.players)
        .map(|s| {
            let hand: Vec<Card> = state.hands[s as usize].iter().map(|h| h.card).collect();
            score_city(s, &state.cities[s as usize], &hand)
        })
        .collect();
    let best = scores.iter().map(|s| s.total).max().unwrap_or(0);
    let winners = scores
        .iter()
        .filter(|s| s.total == best)
        .map(|s| s.seat)
        .collect();
    WettstreitGameEnded { scores, winners }
}
