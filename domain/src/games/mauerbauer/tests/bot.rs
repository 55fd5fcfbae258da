//! Mauerbauer's bot: it sees neither the other hands nor the draw pile, its guesses deal the
//! unseen cards, its judgement of a position, and that it finishes games.

use serde_json::Value;

use super::super::State;
use crate::bots::test_support::{assert_blind, greedy_and_strong_finish, Played};
use crate::contract::{Seat, Viewer};
use crate::registry;
use crate::rng::GameRng;

/// A game of Mauerbauer for three after `moves` random commands (observed by the seat `seat`
/// to act next), and the same game in which another seat holds one card less of a kind it drew
/// at the start and kept, and one more of a kind still in the draw pile (the draw pile the
/// other way round): the two differ only in what `seat` may not see.
fn twins(seed: u64, moves: usize) -> Option<(Played, Played, Seat)> {
    let mut a = Played::set_up("mauerbauer", 3, Value::Null, seed);
    a.play_randomly(&mut GameRng::from_seed(seed), moves as u64, 1_000);
    let seat = a.to_act()?;
    let other = (seat + 1) % 3;
    let truth = a.state.downcast::<State>().unwrap();
    let held = truth.hand(other).to_vec();
    let pile = truth.draw_pile.to_vec();
    let mut events = a.events.clone();
    let first_draw = events
        .iter_mut()
        .find(|e| e["type"] == "GuildCardsDrawn" && e["seat"] == other)
        .unwrap();
    let drawn = first_draw["cards"].as_array_mut().unwrap();
    let kept = held
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .find(|c| drawn.contains(c))?;
    let fresh = pile
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .find(|c| *c != kept)?;
    let at = drawn.iter().position(|c| *c == kept).unwrap();
    drawn[at] = fresh;
    let b = a.replayed(events);
    assert_ne!(
        a.game.view(&a.state, Viewer::Everyone),
        b.game.view(&b.state, Viewer::Everyone),
        "the twins differ in a hand"
    );
    Some((a, b, seat))
}

#[test]
fn mauerbauer_bots_cannot_peek_at_other_hands_or_the_draw_pile() {
    let mut compared = 0;
    for seed in 0..6 {
        for moves in [3, 40] {
            let Some((a, b, seat)) = twins(seed, moves) else {
                continue;
            };
            assert_blind(&a, &b, seat, seed);
            compared += 1;
        }
    }
    assert!(compared >= 6, "the test compared only {compared} pairs");
}

#[test]
fn mauerbauer_guesses_show_the_seat_its_view_and_deal_the_unseen_cards() {
    for seed in 0..4 {
        let mut game = Played::set_up("mauerbauer", 3, Value::Null, seed);
        game.play_randomly(&mut GameRng::from_seed(seed), 60, 0);
        let truth = game.state.downcast::<State>().unwrap();
        for seat in 0..3 {
            let guesses = game.guesses(seat, seed);
            for guess in &guesses {
                // Every card is somewhere, once: the hands and the pile hold the deck less the
                // discards, as in the game.
                let g = guess.downcast::<State>().unwrap();
                let unseen = |s: &State| {
                    let mut cards: Vec<_> = (0..3)
                        .filter(|&o| o != seat)
                        .flat_map(|o| s.hand(o).to_vec())
                        .chain(s.draw_pile.to_vec())
                        .collect();
                    cards.sort();
                    cards
                };
                assert_eq!(unseen(g), unseen(truth));
                assert_eq!(g.discard_pile, truth.discard_pile);
            }
            let hands: Vec<_> = guesses
                .iter()
                .map(|g| g.downcast::<State>().unwrap().hands.clone())
                .collect();
            assert!(hands.iter().any(|h| *h != hands[0]), "guesses are guesses");
        }
    }
}

#[test]
fn mauerbauer_values_points_and_cards_in_hand() {
    let rules = registry::bot_rules("mauerbauer").unwrap();
    let game = Played::set_up("mauerbauer", 2, Value::Null, 1);
    let state = game.state.downcast::<State>().unwrap();
    let expected = state.scores[0] as f64 + 2.0 * f64::from(state.hand(0).total());
    assert_eq!(rules.evaluate(&game.state, 0), expected);
    assert!(state.hand(0).total() > 0, "hands are dealt at the start");
}

#[test]
fn mauerbauer_greedy_and_strong_bots_finish_games_against_random_players() {
    greedy_and_strong_finish("mauerbauer", &[11, 12], 5_000);
}
