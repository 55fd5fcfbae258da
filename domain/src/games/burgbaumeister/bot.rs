//! Burgbaumeister for bots. The one secret is the store: which card lies face down in which
//! slot. A seat knows every card that was ever turned up and where (a returned card goes back to
//! its own slot), so a guess keeps those and shuffles the other cards into the other slots.
//!
//! The strong level plays the base game by [`flat`] Monte Carlo over the reduced game of
//! [`race`], whose imagined players follow [`policy`]; the variant (points, cannons, the
//! wizard) is left to the generic search.

pub mod flat;
pub mod policy;
pub mod race;

use serde_json::Value;

use crate::bots::budget::Budget;
use crate::bots::error::BotError;
use crate::bots::input::BotInput;
use crate::bots::rules::{replay, BotRules, Guesses};
use crate::contract::{Game, Seat};
use crate::dynamic::{DynGame, GameState};
use crate::erased::Erased;
use crate::games::burgbaumeister::{
    could_place, Burgbaumeister, Card, State, STORE_SLOTS, WALL_TO_WIN,
};
use crate::rng::GameRng;

/// The highest card number (cards run 2..=46).
const TOP: Card = 46;
/// A card the wall can still hope to take is worth this share of a card in it.
const REACH: f64 = 0.5;

pub struct Rules;

impl BotRules for Rules {
    fn game(&self) -> &'static dyn DynGame {
        static GAME: Erased<Burgbaumeister> = Erased::new();
        &GAME
    }

    fn determinize(&self, input: &BotInput, rng: &mut GameRng) -> Result<GameState, BotError> {
        let known = known_cards(&input.log);
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

    /// The log folded once (with one guess of the store), and each guess a new shuffle of the
    /// cards in the slots nobody has seen: exactly the cards [`Self::determinize`] deals there.
    fn guesser<'a>(&'a self, input: &'a BotInput) -> Result<Guesses<'a>, BotError> {
        let base = self.determinize(input, &mut GameRng::from_seed(0))?;
        let known = known_cards(&input.log);
        let unseen: Vec<usize> = (0..STORE_SLOTS).filter(|&s| known[s].is_none()).collect();
        Ok(Box::new(move |rng| {
            let mut guess = base.clone();
            if let Some(state) = guess.downcast_mut::<State>() {
                let mut cards: Vec<Card> = unseen.iter().filter_map(|&s| state.store[s]).collect();
                rng.shuffle(&mut cards);
                let mut cards = cards.into_iter();
                for &slot in &unseen {
                    if state.store[slot].is_some() {
                        state.store[slot] = cards.next();
                    }
                }
            }
            Ok(guess)
        }))
    }

    /// The score, plus half a point for each card the wall can still hope to take: of the
    /// store's cards above its last card, its share (the others take the rest or are in the
    /// way), up to the cards it still needs. A card placed far above the last one costs the
    /// wall every card it jumps; one just above costs nothing while the store has plenty. When
    /// the seat has a card turned up to place, the better of placing it or not counts.
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let Some(state) = state.downcast::<State>() else {
            return 0.0;
        };
        let score = score(state, seat);
        let wall = &state.walls[seat as usize];
        let now = REACH * reach(state, wall, None);
        let placing = match &state.turned_up {
            Some(t) if state.turn == seat && t.card > wall.last().copied().unwrap_or(1) => {
                let mut longer = wall.clone();
                longer.push(t.card);
                1.0 + REACH * reach(state, &longer, Some(t.card))
            }
            _ => now,
        };
        score + now.max(placing)
    }

    /// The base game: the choice that wins the most games played to the end ([`flat`]), among
    /// the commands [`Self::keep_moving`] leaves, with one freedom more: a card turned up for
    /// the first time may go back even in a stalled game. That turn showed everybody a card
    /// nobody had seen, which can happen at most 45 times, so games still end; and being made
    /// to add whatever comes up cost the strong bot most of its lost games (against a random
    /// player, who rarely adds a card late in the game, it was stalled nearly every turn and
    /// built walls such as 21, 34, 39, 46 that blocked at four cards).
    fn strong_choice(
        &self,
        input: &BotInput,
        budget: Budget,
        rng: &mut GameRng,
    ) -> Option<Result<Value, BotError>> {
        let guess = match self.determinize(input, rng) {
            Ok(guess) => guess,
            Err(e) => return Some(Err(e)),
        };
        let state = guess.downcast::<State>()?;
        if state.variant || state.turn != input.seat {
            return None;
        }
        let moves = if first_sight(&input.log, state) {
            input.moves.clone()
        } else {
            self.keep_moving(input, &guess, input.moves.clone())
        };
        let known = known_cards(&input.log);
        let choices = flat::choices(state, input.seat, &known, &moves);
        if choices.is_empty() {
            return None;
        }
        let race = flat::race(state, &known);
        let plain: Vec<flat::Choice> = choices.iter().map(|(c, _)| *c).collect();
        let best = flat::best(&race, &plain, budget, rng);
        Some(Ok(choices[best].1.clone()))
    }

    fn seats(&self, state: &GameState) -> u8 {
        state.downcast::<State>().map_or(0, |s| s.players)
    }

    fn scale(&self) -> f64 {
        3.0
    }

    /// Once a whole round has passed without a card joining a wall, the seat stops waiting: a
    /// card it turned up and can place goes in (returning it is not weighed), and it turns up
    /// only cards it could place or has never seen. The rules let every seat return cards for
    /// ever while somebody could still place one (the game is blocked only when nobody can), and
    /// bots that judged waiting best did exactly that, together. While stalled, each turn of
    /// such a bot places a card, shows a card for the first time, or finds it can place nothing:
    /// so games between bots end (each of those happens at most 45 times before the store is
    /// empty, all known, or blocked).
    fn keep_moving(&self, input: &BotInput, guess: &GameState, moves: Vec<Value>) -> Vec<Value> {
        let Some(state) = guess.downcast::<State>() else {
            return moves;
        };
        if !stalled(&input.log, state.players) {
            return moves;
        }
        let places =
            |m: &Value| m["type"] == "AddCardToWall" || m["type"] == "InsertCardWithWizard";
        if moves.iter().any(places) {
            return moves
                .into_iter()
                .filter(|m| m["type"] != "ReturnCard")
                .collect();
        }
        let known = known_cards(&input.log);
        let worth: Vec<Value> = moves
            .iter()
            .filter(|m| {
                m["type"] == "TurnUpCard"
                    && m["slot"]
                        .as_u64()
                        .and_then(|slot| known.get(slot as usize).copied())
                        .is_some_and(|card| {
                            card.is_none_or(|card| could_place(state, input.seat, card))
                        })
            })
            .cloned()
            .collect();
        if worth.is_empty() {
            moves
        } else {
            worth
        }
    }
}

/// Whether a whole round (a turn of every seat) has passed since a card last joined a wall.
fn stalled(log: &[Value], players: u8) -> bool {
    let waited = log
        .iter()
        .rev()
        .take_while(|e| e["type"] != "CardAddedToWall")
        .filter(|e| e["type"] == "TurnPassed")
        .count();
    waited >= usize::from(players)
}

/// Whether the card turned up now was turned up for the first time (its slot's only
/// `CardTurnedUp` in the log).
fn first_sight(log: &[Value], state: &State) -> bool {
    let Some(turned) = &state.turned_up else {
        return false;
    };
    log.iter()
        .filter(|e| e["type"] == "CardTurnedUp" && e["slot"] == u64::from(turned.slot))
        .count()
        == 1
}

/// The card in each slot as far as the log showed it (a card turned up and returned keeps its
/// slot); `None` for a slot whose card nobody has seen.
fn known_cards(log: &[Value]) -> Vec<Option<Card>> {
    let mut known: Vec<Option<Card>> = vec![None; STORE_SLOTS];
    for event in log {
        if event["type"] == "CardTurnedUp" {
            let slot = event["slot"].as_u64().unwrap_or(u64::MAX) as usize;
            let card = event["card"].as_u64().unwrap_or(0) as Card;
            if slot < STORE_SLOTS {
                known[slot] = Some(card);
            }
        }
    }
    known
}

/// The cards `wall` can still hope to take (see [`Rules::evaluate`]); `placed` is a card of the
/// store already counted in the wall.
fn reach(state: &State, wall: &[Card], placed: Option<Card>) -> f64 {
    let need = WALL_TO_WIN.saturating_sub(wall.len());
    let last = wall.last().copied().unwrap_or(1);
    let above = state
        .store
        .iter()
        .flatten()
        .filter(|&&card| card > last && Some(card) != placed)
        .count();
    (above as f64 / f64::from(state.players.max(2))).min(need as f64)
}

/// The seat's score as the game's status gives it (points in the variant, cards otherwise).
fn score(state: &State, seat: Seat) -> f64 {
    Burgbaumeister::status(state)
        .scores
        .and_then(|s| s.get(seat as usize).copied())
        .unwrap_or(0) as f64
}
