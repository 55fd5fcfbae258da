//! Burgbaumeister for bots. The one secret is the store: which card lies face down in which
//! slot. A seat knows every card that was ever turned up and where (a returned card goes back to
//! its own slot), so a guess keeps those and shuffles the other cards into the other slots.

use serde_json::Value;

use super::rules::replay;
use super::{BotError, BotInput, BotRules};
use crate::contract::{Game, Seat};
use crate::dynamic::{DynGame, GameState};
use crate::games::burgbaumeister::{Burgbaumeister, Card, State, STORE_SLOTS, WALL_TO_WIN};
use crate::registry;
use crate::rng::GameRng;

/// The highest card number (cards run 2..=46).
const TOP: Card = 46;

pub struct Rules;

impl BotRules for Rules {
    fn game(&self) -> &'static dyn DynGame {
        registry::find("burgbaumeister").expect("burgbaumeister is offered")
    }

    fn determinize(&self, input: &BotInput, rng: &mut GameRng) -> Result<GameState, BotError> {
        let mut known: Vec<Option<Card>> = vec![None; STORE_SLOTS];
        for event in &input.log {
            if event["type"] == "CardTurnedUp" {
                let slot = event["slot"].as_u64().unwrap_or(u64::MAX) as usize;
                let card = event["card"].as_u64().unwrap_or(0) as Card;
                if slot < STORE_SLOTS {
                    known[slot] = Some(card);
                }
            }
        }
        let mut unseen: Vec<Card> = (2..=TOP).filter(|c| !known.contains(&Some(*c))).collect();
        rng.shuffle(&mut unseen);
        let mut unseen = unseen.into_iter();
        let store: Vec<Card> = known
            .iter()
            .map(|k| k.or_else(|| unseen.next()).unwrap_or(0))
            .collect();
        let log: Vec<Value> = input
            .log
            .iter()
            .map(|event| {
                if event["type"] == "StoreLaidOut" && event["cards"].is_null() {
                    serde_json::json!({"type": "StoreLaidOut", "cards": store})
                } else {
                    event.clone()
                }
            })
            .collect();
        replay(self.game(), &log)
    }

    /// The score, plus how much room the wall has left to grow: a wall whose last card is low
    /// for the cards it still needs can take many cards; one near the top is stuck. When the
    /// seat has a card turned up to place, the better of placing it or not counts.
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let Some(state) = state.downcast::<State>() else {
            return 0.0;
        };
        let score = score(state, seat);
        let wall = &state.walls[seat as usize];
        let now = room(wall);
        let placing = match &state.turned_up {
            Some(t) if state.turn == seat && t.card > wall.last().copied().unwrap_or(1) => {
                let mut longer = wall.clone();
                longer.push(t.card);
                room(&longer) + 1.0
            }
            _ => now,
        };
        score + now.max(placing)
    }

    fn seats(&self, state: &GameState) -> u8 {
        state.downcast::<State>().map_or(0, |s| s.players)
    }

    fn scale(&self) -> f64 {
        3.0
    }

    /// A card that can go into the wall goes in: returning it is not weighed then. Searching
    /// bots that returned every card to keep their wall's room stalled games for ever (a game
    /// is not blocked while somebody could still place a card), two of them as surely as one
    /// with a person who could not place.
    fn candidates(&self, _state: &GameState, _seat: Seat, legal: Vec<Value>) -> Vec<Value> {
        let places = legal
            .iter()
            .any(|m| m["type"] == "AddCardToWall" || m["type"] == "InsertCardWithWizard");
        if places {
            legal
                .into_iter()
                .filter(|m| m["type"] != "ReturnCard")
                .collect()
        } else {
            legal
        }
    }
}

/// Between 0 and 1.5: how easily the wall can still take the cards it needs to finish.
fn room(wall: &[Card]) -> f64 {
    let need = WALL_TO_WIN.saturating_sub(wall.len());
    if need == 0 {
        return 1.5;
    }
    let last = wall.last().copied().unwrap_or(1);
    let free = f64::from(TOP - last.min(TOP));
    1.5 * (free / (5.0 * need as f64)).min(1.0)
}

/// The seat's score as the game's status gives it (points in the variant, cards otherwise).
fn score(state: &State, seat: Seat) -> f64 {
    Burgbaumeister::status(state)
        .scores
        .and_then(|s| s.get(seat as usize).copied())
        .unwrap_or(0) as f64
}
