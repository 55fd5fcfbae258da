//! Wettstreit der Baumeister bots: they cannot see the stacks or others' unseen hand cards, their
//! guesses agree with the seat's view, and they finish games.

use serde_json::Value;

use super::super::State;
use crate::bots::test_support::{assert_blind, greedy_and_strong_finish, Played};
use crate::contract::Seat;
use crate::registry::bot_rules;
use crate::rng::GameRng;

/// A game of Wettstreit for three after `moves` random commands, observed by `seat` (the seat
/// to act next), and the same game with hidden cards exchanged: the two bottom cards of each
/// stack, and, when another seat holds a card `seat` never saw, that card with the face-down
/// stack's bottom card. The two differ only in what `seat` may not see.
fn twins(seed: u64, moves: usize) -> Option<(Played, Played, Seat)> {
    let mut a = Played::set_up("wettstreit", 3, Value::Null, seed);
    let commands = a.play_randomly(&mut GameRng::from_seed(seed), moves as u64, 500);
    let seat = a.to_act()?;
    let truth = a.state.downcast::<State>().unwrap().clone();
    if truth.open.len() < 3 || truth.face_down.len() < 3 {
        return None;
    }
    let mut events = a.events[..3].to_vec();
    let shuffled = events
        .iter_mut()
        .find(|e| e["type"] == "WettstreitCardsShuffled")
        .unwrap();
    for stack in ["open", "face_down"] {
        shuffled[stack].as_array_mut().unwrap().swap(0, 1);
    }
    // A card in another hand that `seat` has not seen, swapped with the face-down bottom card.
    let unseen = (0..3u8).filter(|&o| o != seat).find_map(|o| {
        truth.hands[o as usize]
            .iter()
            .find(|h| !h.known_to(seat))
            .map(|h| h.card)
    });
    if let Some(card) = unseen {
        let mut all: Vec<Value> = shuffled["open"].as_array().unwrap().clone();
        all.extend(shuffled["face_down"].as_array().unwrap().clone());
        let half = all.len() / 2;
        let at = all.iter().position(|c| *c == card).unwrap();
        all.swap(at, half);
        shuffled["open"] = Value::Array(all[..half].to_vec());
        shuffled["face_down"] = Value::Array(all[half..].to_vec());
    }
    let mut b = a.replayed(events);
    for (step, (s, command)) in commands.iter().enumerate() {
        b.play(*s, command, 500 + step as u64);
    }
    let other = b.state.downcast::<State>().unwrap();
    assert_ne!(&truth, other, "the twins differ in their hidden cards");
    // Only twins whose difference stayed hidden from `seat` (a sabotaged hand shows its card).
    (a.input(seat) == b.input(seat)).then_some((a, b, seat))
}

#[test]
fn wettstreit_bots_cannot_peek_at_the_stacks_or_other_hands() {
    let mut compared = 0;
    for seed in 0..8 {
        for moves in [4, 30, 80] {
            let Some((a, b, seat)) = twins(seed, moves) else {
                continue;
            };
            assert_blind(&a, &b, seat, seed);
            compared += 1;
        }
    }
    assert!(compared >= 8, "the test compared only {compared} pairs");
}

#[test]
fn wettstreit_guesses_show_the_seat_its_view_and_keep_every_card_once() {
    for seed in 0..4 {
        let mut game = Played::set_up("wettstreit", 3, Value::Null, seed);
        game.play_randomly(&mut GameRng::from_seed(seed), 120, 0);
        let truth = game.state.downcast::<State>().unwrap();
        for seat in 0..3 {
            let guesses = game.guesses(seat, seed);
            for guess in &guesses {
                let g = guess.downcast::<State>().unwrap();
                // The money is no secret to a fold: every purse as in the game.
                assert_eq!(g.purses, truth.purses);
                assert_eq!(g.bank, truth.bank);
                let mut cards: Vec<u8> = g
                    .open
                    .iter()
                    .chain(&g.face_down)
                    .copied()
                    .chain(g.hands.iter().flatten().map(|h| h.card))
                    .chain(g.removed.iter().map(|h| h.card))
                    .chain(g.cities.iter().flatten().flatten().copied())
                    .chain(g.card_under.iter().map(|u| u.card))
                    .collect();
                cards.sort();
                assert_eq!(cards, (0..40).collect::<Vec<u8>>(), "every card once");
            }
            let stacks: Vec<_> = guesses
                .iter()
                .map(|g| g.downcast::<State>().unwrap().face_down.clone())
                .collect();
            assert!(
                stacks.iter().any(|s| *s != stacks[0]),
                "guesses are guesses"
            );
        }
    }
}

#[test]
fn wettstreit_values_a_card_won_at_auction_against_its_price() {
    let rules = bot_rules("wettstreit").unwrap();
    let game = Played::set_up("wettstreit", 3, Value::Null, 4);
    let state = game.state.downcast::<State>().unwrap();
    let seat = state.turn;
    // At the start: ten Taler and nothing else.
    assert_eq!(rules.evaluate(&game.state, seat), 10.0 * 0.4);
}

#[test]
fn wettstreit_greedy_and_strong_bots_finish_games_against_random_players() {
    greedy_and_strong_finish("wettstreit", &[21, 22], 20_000);
}
