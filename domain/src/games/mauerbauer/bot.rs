//! Mauerbauer for bots. The one secret is the guild cards: what the others hold (a seat sees only
//! how many) and what the draw pile holds (it has no order; a card is drawn at random when it is
//! drawn). Every card is in a hand, the draw pile or the face-up discard pile, so the cards a
//! seat cannot see are the deck less its own hand and the discard pile; a guess deals the others
//! as many of those as they hold, at random, and leaves the rest in the draw pile.

use crate::bots::error::BotError;
use crate::bots::input::BotInput;
use crate::bots::rules::{replay, BotRules, Guesses};
use crate::contract::Seat;
use crate::dynamic::{DynGame, GameState};
use crate::erased::Erased;
use crate::games::mauerbauer::{Cards, GuildCard, Mauerbauer, State};
use crate::rng::GameRng;

/// A guild card in hand is worth about this many points: most score a few points in a city or
/// at the end, and the most cards in hand break a tie.
const CARD_IN_HAND: f64 = 2.0;

pub struct Rules;

impl BotRules for Rules {
    fn game(&self) -> &'static dyn DynGame {
        static GAME: Erased<Mauerbauer> = Erased::new();
        &GAME
    }

    fn determinize(&self, input: &BotInput, rng: &mut GameRng) -> Result<GameState, BotError> {
        let mut guess = replay(self.game(), &input.log)?;
        deal(&mut guess, input, rng)?;
        Ok(guess)
    }

    /// The log folded once, and each guess a new deal of the unseen cards.
    fn guesser<'a>(&'a self, input: &'a BotInput) -> Result<Guesses<'a>, BotError> {
        let base = replay(self.game(), &input.log)?;
        Ok(Box::new(move |rng| {
            let mut guess = base.clone();
            deal(&mut guess, input, rng)?;
            Ok(guess)
        }))
    }

    /// The score, plus the cards in hand: points still to come.
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let Some(state) = state.downcast::<State>() else {
            return 0.0;
        };
        let score = state.scores.get(usize::from(seat)).copied().unwrap_or(0) as f64;
        score + CARD_IN_HAND * f64::from(state.hand(seat).total())
    }

    fn seats(&self, state: &GameState) -> u8 {
        state.downcast::<State>().map_or(0, |s| s.players)
    }
}

/// Deals the cards `input`'s seat cannot see into `guess` (the seat's log folded): the others
/// as many as they hold, at random, the rest to the draw pile.
fn deal(guess: &mut GameState, input: &BotInput, rng: &mut GameRng) -> Result<(), BotError> {
    // Folded as the seat sees it, the game is right but for the others' hands (a redacted
    // draw adds nothing) and the draw pile (it lost only the seat's own draws).
    let hidden = input
        .log
        .iter()
        .any(|e| e["type"] == "GuildCardsDrawn" && e["cards"].is_null());
    if !hidden {
        return Ok(());
    }
    let counts: Vec<u8> = input.view["players"]
        .as_array()
        .map(|players| {
            players
                .iter()
                .map(|p| p["hand_count"].as_u64().unwrap_or(0) as u8)
                .collect()
        })
        .unwrap_or_default();
    let state = guess
        .downcast_mut::<State>()
        .ok_or_else(|| BotError::BadLog("not a Mauerbauer game".into()))?;
    let mut unseen = Cards::full_deck();
    for card in state.hand(input.seat).to_vec() {
        unseen.remove(card);
    }
    for &card in &state.discard_pile {
        unseen.remove(card);
    }
    let mut unseen: Vec<GuildCard> = unseen.to_vec();
    rng.shuffle(&mut unseen);
    let mut unseen = unseen.into_iter();
    for (seat, hand) in state.hands.iter_mut().enumerate() {
        if seat == usize::from(input.seat) {
            continue;
        }
        let mut dealt = Cards::default();
        for card in unseen
            .by_ref()
            .take(usize::from(counts.get(seat).copied().unwrap_or(0)))
        {
            dealt.add(card);
        }
        *hand = dealt;
    }
    let mut pile = Cards::default();
    for card in unseen {
        pile.add(card);
    }
    state.draw_pile = pile;
    Ok(())
}
