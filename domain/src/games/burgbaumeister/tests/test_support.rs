//! Boards for rule tests, laid out by events. The store is unshuffled: slot `i` holds card
//! `i + 2`, so [`slot_of`] finds a card.

use super::super::events::*;
use super::super::options::*;

pub fn slot_of(card: Card) -> u8 {
    card - 2
}

/// A started game whose walls hold `walls` (seat by seat), with the turn at `turn`.
pub fn table(players: u8, variant: bool, walls: &[&[Card]], turn: u8) -> Vec<BurgbaumeisterEvent> {
    let mut events: Vec<BurgbaumeisterEvent> = vec![
        CastleGameStarted {
            players,
            variant,
            starting_seat: 0,
        }
        .into(),
        StoreLaidOut {
            cards: Some((2..=46).collect()),
        }
        .into(),
    ];
    for (seat, wall) in walls.iter().enumerate() {
        for (position, &card) in wall.iter().enumerate() {
            events.push(turned_up(seat as u8, card));
            events.push(
                CardAddedToWall {
                    seat: seat as u8,
                    card,
                    position: position as u8,
                    by_wizard: false,
                }
                .into(),
            );
        }
    }
    // Clears what building left behind (a cannon waiting, a wizard "joined this turn").
    events.push(TurnPassed { seat: turn }.into());
    events
}

/// `card` joined `seat`'s wall at `position`, added (not by the wizard).
pub fn added(seat: u8, card: Card, position: u8) -> BurgbaumeisterEvent {
    CardAddedToWall {
        seat,
        card,
        position,
        by_wizard: false,
    }
    .into()
}

pub fn castle_ended(reason: EndReason, scores: &[i64], winners: &[u8]) -> BurgbaumeisterEvent {
    CastleGameEnded {
        reason,
        scores: scores.to_vec(),
        winners: winners.to_vec(),
    }
    .into()
}

/// `by`'s cannon shoots `card` out of `target`'s wall.
pub fn destroyed(by: u8, target: u8, card: Card) -> BurgbaumeisterEvent {
    CardDestroyed { by, target, card }.into()
}

/// `seat` returns the turned-up `card` to its slot.
pub fn returned(seat: u8, card: Card) -> BurgbaumeisterEvent {
    CardReturned {
        seat,
        slot: slot_of(card),
    }
    .into()
}

/// The command to fire the cannon at `target`'s `card`.
pub fn fire_at(target: u8, card: Card) -> super::super::commands::FireCannon {
    super::super::commands::FireCannon { target, card }
}

pub fn turned_up(seat: u8, card: Card) -> BurgbaumeisterEvent {
    CardTurnedUp {
        seat,
        slot: slot_of(card),
        card,
    }
    .into()
}

/// A table of `walls` (seat 0 to play) whose store holds only `left`: every other card lies in a
/// wall or left the game (laid out by events: joined seat 0's wall, then destroyed).
pub fn nearly_empty_store(
    variant: bool,
    walls: &[&[Card]],
    left: &[Card],
) -> Vec<BurgbaumeisterEvent> {
    let mut events = table(walls.len() as u8, variant, walls, 0);
    let in_play: Vec<Card> = walls.iter().flat_map(|w| w.iter().copied()).collect();
    for card in (2..=46).filter(|c| !in_play.contains(c) && !left.contains(c)) {
        events.push(
            CardAddedToWall {
                seat: 0,
                card,
                position: 99,
                by_wizard: false,
            }
            .into(),
        );
        events.push(
            CardDestroyed {
                by: 1,
                target: 0,
                card,
            }
            .into(),
        );
    }
    events.push(TurnPassed { seat: 0 }.into());
    events
}

/// The cards lying face down in the store of `everyone`'s view (the view of a game seen by
/// everyone), lowest first.
pub fn face_down_cards(everyone: &serde_json::Value) -> Vec<u64> {
    let mut cards: Vec<u64> = everyone["store"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["state"] == "face_down")
        .map(|s| s["card"].as_u64().unwrap())
        .collect();
    cards.sort();
    cards
}
