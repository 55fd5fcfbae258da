//! When a card is worth taking, and the turns played by that rule: how the strong bot's
//! imagined players play the reduced game ([`super::race`]) to its end.
//!
//! A wall that needs `need` more cards above its last one has `room` cards in the store above
//! that last card (seen or not) to take them from. Taking a card costs the wall every store
//! card between its last card and the new one: those can never join it. A card is worth
//! taking when that cost, the card itself included, stays within `SPREAD` times the wall's
//! fair share of its room (`room / need`): a card just above the last one always, one far
//! above only when the room is wide or the wall nearly done (the 9th card is always taken).

use crate::games::burgbaumeister::Card;

use super::race::{Ended, Race};

/// How far above its fair share of the room a wall reaches for a card (1: exactly its share).
/// The strong bot hardly depends on it: at 0.7, 1.0, 1.4 and 2.0 it won 93 to 94 of 100 games
/// against random and 65 to 68 against greedy (an earlier version, same machine and load).
pub const SPREAD: f64 = 1.0;

/// Whether `seat` takes `card` (which lies in the store and fits its wall).
pub fn accepts(race: &Race, seat: u8, card: Card) -> bool {
    let last = race.last[seat as usize];
    if card <= last {
        return false;
    }
    let need = f64::from(race.need(seat));
    let (mut room, mut cost) = (0u32, 0u32);
    for &c in race.known.iter().chain(&race.unseen) {
        if c > last {
            room += 1;
            if c <= card {
                cost += 1;
            }
        }
    }
    f64::from(cost) <= SPREAD * f64::from(room) / need
}

/// Whether the seat to act, having turned up `card`, adds it: it fits, and the policy takes it.
pub fn keeps(race: &Race, card: Card) -> bool {
    accepts(race, race.turn, card)
}

/// One whole turn of the seat to act, played by the policy: it turns up the lowest known card
/// that fits if the policy takes it; else an unseen card, which it adds if it [`keeps`] it;
/// with nothing left unseen, the lowest known card that fits anyway (waiting only lets the
/// others move); else it can place nothing and passes.
pub fn turn(race: &mut Race) -> Ended {
    let seat = race.turn;
    let known = race.lowest_fitting_known(seat);
    if let Some(card) = known.filter(|&c| accepts(race, seat, c)) {
        return race.add(card);
    }
    if let Some(card) = race.draw() {
        if keeps(race, card) {
            return race.add(card);
        }
        return race.pass();
    }
    match known {
        Some(card) => race.add(card),
        None => race.pass(),
    }
}

/// Plays the game to its end by the policy; the winner. A game of the policy ends: each turn
/// adds a card, shows an unseen one, or (with all seen) finds nothing to add; the bound is only
/// a guard.
pub fn play_out(race: &mut Race) -> u8 {
    for _ in 0..1_000 {
        if let Ended::Won(seat) = turn(race) {
            return seat;
        }
    }
    race.leader()
}
