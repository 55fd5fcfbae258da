//! The fold of events into the state. Never fails and never draws randomness; lenient about
//! events out of the usual order so that tests can lay out a board directly.

use super::events::*;
use super::options::*;
use super::scoring::{is_cannon, WIZARD};
use super::state::*;

pub fn evolve(state: &mut State, event: &BurgbaumeisterEvent) {
    match event {
        BurgbaumeisterEvent::CastleGameStarted(e) => {
            *state = State {
                started: true,
                variant: e.variant,
                players: e.players,
                store: vec![None; STORE_SLOTS],
                walls: vec![Vec::new(); e.players as usize],
                wizard_spent: vec![false; e.players as usize],
                turn: e.starting_seat,
                ..State::default()
            };
        }
        BurgbaumeisterEvent::StoreLaidOut(e) => {
            // A redacted copy (no cards) is never folded by the server; it changes nothing.
            if let Some(cards) = &e.cards {
                state.store = cards.iter().copied().map(Some).collect();
            }
        }
        BurgbaumeisterEvent::CardTurnedUp(e) => {
            state.turned_up = Some(TurnedUp {
                slot: e.slot,
                card: e.card,
            });
        }
        BurgbaumeisterEvent::CardAddedToWall(e) => {
            for slot in state.store.iter_mut() {
                if *slot == Some(e.card) {
                    *slot = None;
                }
            }
            state.turned_up = None;
            let seat = e.seat as usize;
            if let Some(wall) = state.walls.get_mut(seat) {
                let position = (e.position as usize).min(wall.len());
                wall.insert(position, e.card);
            }
            if e.by_wizard {
                if let Some(spent) = state.wizard_spent.get_mut(seat) {
                    *spent = true;
                }
            }
            if state.variant && e.card == WIZARD {
                state.wizard_joined_this_turn = true;
            }
            state.cannon_pending = state.variant && is_cannon(e.card);
        }
        BurgbaumeisterEvent::CardReturned(_) => {
            state.turned_up = None;
        }
        BurgbaumeisterEvent::CardDestroyed(e) => {
            if let Some(wall) = state.walls.get_mut(e.target as usize) {
                wall.retain(|&c| c != e.card);
            }
            state.destroyed.push(e.card);
            state.cannon_pending = false;
        }
        BurgbaumeisterEvent::CannonLapsed(_) | BurgbaumeisterEvent::CannonDeclined(_) => {
            state.cannon_pending = false;
        }
        BurgbaumeisterEvent::TurnPassed(e) => {
            state.turn = e.seat;
            state.turned_up = None;
            state.cannon_pending = false;
            state.wizard_joined_this_turn = false;
        }
        BurgbaumeisterEvent::CastleGameEnded(e) => {
            state.ended = Some(e.clone());
            state.turned_up = None;
            state.cannon_pending = false;
        }
    }
}
