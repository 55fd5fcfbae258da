//! The strong level in the base game: flat Monte Carlo over guesses of the store. Each of the
//! seat's real choices (take a known card that fits, turn up an unseen card, pass by turning
//! up a known card that does not fit; or, with a card turned up, add it or return it) is played
//! to the game's end in every guess by the policy ([`super::policy`]) for every seat, and the
//! choice that wins the most of those games is sent. A guess is an order in which the unseen
//! cards come up; every choice is played in the same guesses, so their counts differ by the
//! choice and not by luck.
//!
//! Why not the generic search: the game is a race decided many turns later (who completes nine
//! cards, or has more when the store runs dry), which a search that judges positions a few
//! random moves ahead cannot see; whole games of the reduced game ([`super::race`]) cost
//! microseconds, so every guess can be played to the end.

use std::time::Instant;

use serde_json::Value;

use super::policy;
use super::race::{Ended, Race, MAX_SEATS, TOWER};
use crate::bots::budget::Budget;
use crate::contract::Seat;
use crate::games::burgbaumeister::{Card, State};
use crate::rng::GameRng;

/// One of the seat's choices, as the reduced game plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Turn up the known card (to add it).
    TakeKnown(Card),
    /// Turn up a card nobody has seen (and add it if the policy takes it).
    Explore,
    /// Turn up a known card that does not fit (and return it): a turn that shows nothing new.
    Pass,
    /// Add the turned-up card.
    Add(Card),
    /// Return the turned-up card.
    Return,
}

/// The reduced game of `state` (a guess, of which only what the seat sees is used: walls,
/// whose turn, which store cards are `known`) for the seat to act.
pub fn race(state: &State, known: &[Option<Card>]) -> Race {
    let mut count = [0; MAX_SEATS];
    let mut last = [TOWER; MAX_SEATS];
    for (seat, wall) in state.walls.iter().enumerate().take(MAX_SEATS) {
        count[seat] = wall.len() as u8;
        last[seat] = wall.last().copied().unwrap_or(TOWER);
    }
    let (mut seen, mut unseen) = (Vec::new(), Vec::new());
    for (slot, card) in state.store.iter().enumerate() {
        if let Some(card) = *card {
            if known.get(slot).copied().flatten().is_some() {
                seen.push(card);
            } else {
                unseen.push(card);
            }
        }
    }
    Race {
        players: state.players,
        turn: state.turn,
        count,
        last,
        known: seen,
        unseen,
    }
}

/// The seat's commands as choices: each with the command that makes it. Turning up a known
/// card that fits is a choice of its own per card; all unseen slots are alike (the first is
/// sent), and so are all known cards that do not fit. Those that add a card come first, then
/// turning up an unseen one, then waiting: on a tie the game moves on.
pub fn choices(
    state: &State,
    seat: Seat,
    known: &[Option<Card>],
    moves: &[Value],
) -> Vec<(Choice, Value)> {
    let last = state.walls[seat as usize].last().copied().unwrap_or(TOWER);
    let mut out: Vec<(Choice, Value)> = Vec::new();
    for m in moves {
        let choice = match m["type"].as_str() {
            Some("TurnUpCard") => {
                let slot = m["slot"].as_u64().unwrap_or(u64::MAX) as usize;
                match known.get(slot).copied().flatten() {
                    Some(card) if card > last => Choice::TakeKnown(card),
                    Some(_) => Choice::Pass,
                    None => Choice::Explore,
                }
            }
            Some("AddCardToWall") => match &state.turned_up {
                Some(t) => Choice::Add(t.card),
                None => continue,
            },
            Some("ReturnCard") => Choice::Return,
            _ => continue,
        };
        if !out.iter().any(|(c, _)| *c == choice) {
            out.push((choice, m.clone()));
        }
    }
    out.sort_by_key(|(c, _)| match c {
        Choice::TakeKnown(_) | Choice::Add(_) => 0,
        Choice::Explore => 1,
        Choice::Pass | Choice::Return => 2,
    });
    out
}

/// Plays `choice` for the seat to act in `race`, then the game to its end by the policy; the
/// winner.
pub fn play(mut race: Race, choice: Choice) -> u8 {
    let ended = match choice {
        Choice::TakeKnown(card) | Choice::Add(card) => race.add(card),
        Choice::Explore => match race.draw() {
            Some(card) if policy::keeps(&race, card) => race.add(card),
            _ => race.pass(),
        },
        Choice::Pass | Choice::Return => race.pass(),
    };
    match ended {
        Ended::Won(winner) => winner,
        Ended::Running => policy::play_out(&mut race),
    }
}

/// The index in `choices` that wins the most games from `race` (for its seat to act), within
/// the budget: each iteration is one guess, in which every choice is played.
pub fn best(race: &Race, choices: &[Choice], budget: Budget, rng: &mut GameRng) -> usize {
    let started = Instant::now();
    let seat = race.turn;
    let mut wins = vec![0u32; choices.len()];
    let mut guess = race.clone();
    for iteration in 0..budget.iterations {
        if let Some(limit) = budget.max_millis {
            if iteration % 8 == 0 && started.elapsed().as_millis() as u64 >= limit {
                break;
            }
        }
        rng.shuffle(&mut guess.unseen);
        for (i, &choice) in choices.iter().enumerate() {
            if play(guess.clone(), choice) == seat {
                wins[i] += 1;
            }
        }
    }
    // Of equals the first: the choices come in the order the seat's commands were listed.
    let mut best = 0;
    for i in 1..wins.len() {
        if wins[i] > wins[best] {
            best = i;
        }
    }
    best
}
