//! Burgbaumeister's bot: it sees no more than its seat, its guesses keep the store's cards, its
//! judgement of a wall, and the strong bot of the base game (the reduced game it plays forward,
//! the policy of its imagined players, its choice by whole games played out).

use serde_json::{json, Value};

use super::super::bot::flat::{self, Choice};
use super::super::bot::policy::{self, accepts};
use super::super::bot::race::{Ended, Race, TOWER};
use super::super::{BurgbaumeisterEvent, Card, CardAddedToWall};
use super::test_support::face_down_cards;
use crate::bots::test_support::{assert_blind, Played, TEST_BUDGET};
use crate::bots::{choose, Level};
use crate::contract::Viewer;
use crate::registry;
use crate::rng::GameRng;

/// A game of Burgbaumeister after `moves` random commands, and the same game with the store's
/// face-down cards that nobody has seen yet laid out differently: the two differ only in what no
/// seat may see.
fn twins(seed: u64, moves: usize) -> (Played, Played) {
    twins_with(json!({"variant": true}), seed, moves)
}

/// [`twins`] with the game's `options`.
fn twins_with(options: Value, seed: u64, moves: usize) -> (Played, Played) {
    let mut a = Played::set_up("burgbaumeister", 3, options, seed);
    let commands = a.play_randomly(&mut GameRng::from_seed(seed), moves as u64, 0);
    let seen: Vec<u64> = a
        .events
        .iter()
        .filter(|e| e["type"] == "CardTurnedUp")
        .map(|e| e["slot"].as_u64().unwrap())
        .collect();
    let mut events = a.events[..2].to_vec();
    let laid_out = events[1]["cards"].as_array().unwrap().clone();
    let hidden: Vec<usize> = (0..laid_out.len())
        .filter(|s| !seen.contains(&(*s as u64)))
        .collect();
    assert!(hidden.len() > 2, "the test needs unseen cards");
    let mut cards = laid_out.clone();
    // Rotate the unseen cards by one slot: every one of them moves.
    for (i, &slot) in hidden.iter().enumerate() {
        cards[slot] = laid_out[hidden[(i + 1) % hidden.len()]].clone();
    }
    events[1]["cards"] = Value::Array(cards);
    let mut b = a.replayed(events);
    for (step, (seat, command)) in commands.iter().enumerate() {
        b.play(*seat, command, step as u64);
    }
    assert_ne!(
        a.game.view(&a.state, Viewer::Everyone),
        b.game.view(&b.state, Viewer::Everyone),
        "the twins differ in their hidden cards"
    );
    (a, b)
}

#[test]
fn burgbaumeister_bots_cannot_peek_at_face_down_cards() {
    for seed in 0..4 {
        let (a, b) = twins(seed, 20);
        let Some(seat) = a.to_act() else { continue };
        assert_blind(&a, &b, seat, seed);
    }
}

#[test]
fn the_base_game_strong_bot_cannot_peek_at_face_down_cards() {
    for seed in 0..4 {
        let (a, b) = twins_with(Value::Null, seed, 20);
        let Some(seat) = a.to_act() else { continue };
        assert_blind(&a, &b, seat, seed);
    }
}

#[test]
fn burgbaumeister_guesses_agree_with_the_seat_and_keep_the_cards() {
    for seed in 0..4 {
        let (a, _) = twins(seed, 25);
        let truth = face_down_cards(&a.game.view(&a.state, Viewer::Everyone));
        for seat in 0..3 {
            // Everything the seat sees is as it sees it...
            let guesses = a.guesses(seat, seed);
            for guess in &guesses {
                // ...and the store holds the same number of face-down cards, every card once.
                let all = a.game.view(guess, Viewer::Everyone);
                assert_eq!(face_down_cards(&all), truth);
            }
            // The guesses are guesses: they do not all lay the store out alike.
            let layouts: Vec<Value> = guesses
                .iter()
                .map(|g| a.game.view(g, Viewer::Everyone)["store"].clone())
                .collect();
            assert!(layouts.iter().any(|l| *l != layouts[0]));
        }
    }
}

/// How seat 0's position is judged in a new game for two whose walls (seat by seat) are
/// `walls`.
fn judged_with_walls(walls: &[&[u8]]) -> f64 {
    let rules = registry::bot_rules("burgbaumeister").unwrap();
    let game = Played::set_up("burgbaumeister", 2, Value::Null, 1);
    let mut state = game.state.clone();
    for (seat, cards) in walls.iter().enumerate() {
        for (position, &card) in cards.iter().enumerate() {
            let event = serde_json::to_value(BurgbaumeisterEvent::from(CardAddedToWall {
                seat: seat as u8,
                card,
                position: position as u8,
                by_wizard: false,
            }))
            .unwrap();
            game.game.evolve(&mut state, &event).unwrap();
        }
    }
    rules.evaluate(&state, 0)
}

#[test]
fn burgbaumeister_values_a_longer_wall_and_room_to_grow() {
    let with_wall = |cards: &[u8]| judged_with_walls(&[cards]);
    assert!(with_wall(&[3, 5]) > with_wall(&[3]), "one card more");
    assert!(with_wall(&[3, 5]) > with_wall(&[40, 45]), "room to grow");
}

#[test]
fn burgbaumeister_counts_the_cards_above_a_wall_that_are_still_in_the_store() {
    let walls = |mine: &[u8], theirs: &[u8]| judged_with_walls(&[mine, theirs]);
    // The same wall of 30, 31: with the cards above it in the store, or most of them in the
    // other wall (out of its reach).
    assert!(
        walls(&[30, 31], &[2, 3]) > walls(&[30, 31], &[32, 34, 36, 38, 40, 42, 44, 46]),
        "the cards the wall could take are gone"
    );
    // A card just above the last costs nothing; one far above costs the cards it jumps.
    assert!(walls(&[5, 6], &[]) > walls(&[5], &[]));
    assert!(walls(&[5, 40], &[]) < walls(&[5], &[]));
}

// ---- The base game's strong bot --------------------------------------------------------------

/// Two seats, seat 0 to act: walls of `counts` cards ending in `lasts`, the store's `known`
/// and `unseen` cards.
fn race(counts: [u8; 2], lasts: [Card; 2], known: &[Card], unseen: &[Card]) -> Race {
    Race {
        players: 2,
        turn: 0,
        count: [counts[0], counts[1], 0, 0],
        last: [lasts[0], lasts[1], TOWER, TOWER],
        known: known.to_vec(),
        unseen: unseen.to_vec(),
    }
}

#[test]
fn the_policy_takes_a_card_just_above_the_wall_and_leaves_one_far_above() {
    let all: Vec<Card> = (2..=46).collect();
    let r = race([0, 0], [TOWER, TOWER], &[], &all);
    assert!(accepts(&r, 0, 3), "one card of 45 skipped, for nine needed");
    assert!(
        !accepts(&r, 0, 30),
        "28 cards skipped for the first of nine"
    );
    // The ninth card is taken whatever it skips.
    let r = race([8, 0], [20, TOWER], &[], &all);
    assert!(accepts(&r, 0, 46));
    // A card that does not fit is never taken.
    assert!(!accepts(&r, 0, 20));
}

#[test]
fn the_policy_turns_up_a_known_card_that_fits_well_rather_than_an_unseen_one() {
    let unseen: Vec<Card> = (6..=46).filter(|&c| c != 40).collect();
    // Known: 5 fits just above 3 and is taken; no unseen card is turned up.
    let mut r = race([1, 0], [3, TOWER], &[5, 40], &unseen);
    assert_eq!(policy::turn(&mut r), Ended::Running);
    assert_eq!((r.count[0], r.last[0]), (2, 5));
    assert_eq!(r.unseen.len(), unseen.len(), "no unseen card turned up");
    assert_eq!(r.turn, 1);
    // Known 40 is far above 3: the policy turns up an unseen card instead (46, from the end),
    // which is no better, returns it, and it is known from then on.
    let mut r = race([1, 0], [3, TOWER], &[40], &unseen);
    policy::turn(&mut r);
    assert_eq!((r.count[0], r.last[0]), (1, 3));
    assert!(r.known.contains(&46) && !r.unseen.contains(&46));
}

#[test]
fn the_reduced_game_ends_as_the_game_does() {
    // The ninth card wins at once.
    let mut r = race([8, 8], [30, 40], &[35], &[2]);
    assert_eq!(r.add(35), Ended::Won(0));
    // A blocked game goes to the most cards, then the highest last card: after seat 0 adds the
    // 41, no store card fits either wall; eight cards each, and 41 beats 40.
    let mut r = race([7, 8], [20, 40], &[41], &[2, 3]);
    assert_eq!(r.add(41), Ended::Won(0));
    // Returning a card with a card left that fits someone blocks nothing.
    let mut r = race([7, 8], [20, 40], &[41], &[2, 3]);
    assert_eq!(r.pass(), Ended::Running);
    assert_eq!(r.turn, 1);
}

/// A worked position: seat 1 needs one card and will take the known 41, the only card above
/// its 40 (the unseen ones are all low). Seat 0 wins only by taking the 41 itself: then the game
/// is blocked, eight cards each, and its 41 beats the 40. Turning up an unseen card, or waiting,
/// loses every game.
#[test]
fn the_strong_choice_takes_the_card_the_opponent_needs() {
    let r = race([7, 8], [20, 40], &[41], &[2, 3, 4, 5, 6]);
    let choices = [Choice::Explore, Choice::Pass, Choice::TakeKnown(41)];
    for choice in choices {
        let won = flat::play(r.clone(), choice) == 0;
        assert_eq!(won, choice == Choice::TakeKnown(41), "{choice:?}");
    }
    let best = flat::best(&r, &choices, TEST_BUDGET, &mut GameRng::from_seed(1));
    assert_eq!(choices[best], Choice::TakeKnown(41));
}

/// The events of a base game for two after its set-up, the slot of each card, and the seat to
/// act first.
fn base_game(seed: u64) -> (Played, Vec<u64>, u8) {
    let played = Played::set_up("burgbaumeister", 2, Value::Null, seed);
    let laid_out = played.events[1]["cards"].as_array().unwrap().clone();
    let mut slot_of = vec![u64::MAX; 47];
    for (slot, card) in laid_out.iter().enumerate() {
        slot_of[card.as_u64().unwrap() as usize] = slot as u64;
    }
    let first = played.to_act().unwrap();
    (played, slot_of, first)
}

/// The strong bot's command for `seat` in `game`, at the tests' budget.
fn strong_move(game: &Played, seat: u8, seed: u64) -> Value {
    choose(
        &game.input(seat),
        Level::Strong,
        TEST_BUDGET,
        &mut GameRng::from_seed(seed),
    )
    .unwrap()
}

#[test]
fn the_strong_bot_does_not_turn_up_a_known_card_far_above_its_wall() {
    for seed in 0..3 {
        let (mut game, slot_of, first) = base_game(seed);
        game.play(
            first,
            &json!({"type": "TurnUpCard", "slot": slot_of[45]}),
            1,
        );
        game.play(first, &json!({"type": "ReturnCard"}), 2);
        let command = strong_move(&game, game.to_act().unwrap(), seed);
        assert_eq!(command["type"], "TurnUpCard");
        assert_ne!(command["slot"], json!(slot_of[45]), "seed {seed}");
    }
}

#[test]
fn the_strong_bot_turns_up_a_known_low_card_once_waiting_is_over() {
    for seed in 0..3 {
        let (mut game, slot_of, first) = base_game(seed);
        // Each seat turns up a card and returns it: a whole round without a card added, so an
        // unseen card turned up now would have to go in whatever it is.
        game.play(first, &json!({"type": "TurnUpCard", "slot": slot_of[3]}), 1);
        game.play(first, &json!({"type": "ReturnCard"}), 2);
        let second = game.to_act().unwrap();
        game.play(
            second,
            &json!({"type": "TurnUpCard", "slot": slot_of[44]}),
            3,
        );
        game.play(second, &json!({"type": "ReturnCard"}), 4);
        let command = strong_move(&game, first, seed);
        assert_eq!(
            command,
            json!({"type": "TurnUpCard", "slot": slot_of[3]}),
            "seed {seed}"
        );
    }
}
