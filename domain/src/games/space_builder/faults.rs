//! Counting faults: every city is checked against the blueprint card by card over the player's
//! hand cards, with one verdict per card (faults of one card are never added up).

use super::blueprints::target_of;
use super::events::*;
use super::options::*;

impl Verdict {
    pub fn faults(self) -> u8 {
        match self {
            Verdict::Correct => 0,
            Verdict::Missing => 1,
            Verdict::WrongSlot | Verdict::WrongRotationOrFace => 2,
        }
    }
}

/// The verdict on one hand card. `target` is the blueprint in the boards' frame.
pub fn verdict(city: &[Placement], target: &[Placement], card: Card) -> Verdict {
    let Some(built) = city.iter().find(|p| p.card == card) else {
        return Verdict::Missing;
    };
    let Some(wanted) = target_of(target, card) else {
        // Every blueprint places all 8 cards, so this cannot happen; a card the plan does not
        // place is on a wrong slot wherever it lies.
        return Verdict::WrongSlot;
    };
    if built.slot != wanted.slot {
        Verdict::WrongSlot
    } else if built.face != wanted.face || built.rotation != wanted.rotation {
        Verdict::WrongRotationOrFace
    } else {
        Verdict::Correct
    }
}

/// One verdict per hand card, by card number, and the total.
pub fn check_city(city: &[Placement], hand: &[Card], target: &[Placement]) -> (Vec<CardCheck>, u8) {
    let mut cards: Vec<CardCheck> = hand
        .iter()
        .map(|&card| {
            let verdict = verdict(city, target, card);
            CardCheck {
                card,
                verdict,
                faults: verdict.faults(),
            }
        })
        .collect();
    cards.sort_by_key(|c| c.card);
    let total = cards.iter().map(|c| c.faults).sum();
    (cards, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::space_builder::options::Face::{A, B};

    fn at(card: Card, slot: u8, face: super::super::options::Face, rotation: u8) -> Placement {
        Placement {
            card,
            slot,
            face,
            rotation,
        }
    }

    fn target() -> Vec<Placement> {
        vec![
            at(1, 0, A, 0),
            at(2, 1, B, 1),
            at(3, 2, A, 2),
            at(4, 3, B, 3),
        ]
    }

    #[test]
    fn a_card_not_on_the_board_is_one_fault() {
        let city = [at(1, 0, A, 0), at(2, 1, B, 1), at(3, 2, A, 2)];
        let (cards, total) = check_city(&city, &[1, 2, 3, 4], &target());
        assert_eq!(cards[3].verdict, Verdict::Missing);
        assert_eq!(total, 1);
    }

    #[test]
    fn a_card_on_the_wrong_slot_is_two_faults() {
        let city = [
            at(1, 0, A, 0),
            at(2, 1, B, 1),
            at(3, 2, A, 2),
            at(4, 8, B, 3),
        ];
        let (cards, total) = check_city(&city, &[1, 2, 3, 4], &target());
        assert_eq!(cards[3].verdict, Verdict::WrongSlot);
        assert_eq!(total, 2);
    }

    #[test]
    fn a_wrongly_turned_card_is_two_faults() {
        let city = [
            at(1, 0, A, 1),
            at(2, 1, B, 1),
            at(3, 2, A, 2),
            at(4, 3, B, 3),
        ];
        assert_eq!(check_city(&city, &[1, 2, 3, 4], &target()).1, 2);
    }

    #[test]
    fn a_card_on_the_wrong_face_is_two_faults() {
        let city = [
            at(1, 0, B, 0),
            at(2, 1, B, 1),
            at(3, 2, A, 2),
            at(4, 3, B, 3),
        ];
        assert_eq!(check_city(&city, &[1, 2, 3, 4], &target()).1, 2);
    }

    #[test]
    fn faults_of_one_card_are_not_added_up() {
        // Wrong slot, wrong face and wrong rotation at once: still one verdict, 2 faults.
        let city = [
            at(1, 8, B, 3),
            at(2, 1, B, 1),
            at(3, 2, A, 2),
            at(4, 3, B, 3),
        ];
        let (cards, total) = check_city(&city, &[1, 2, 3, 4], &target());
        assert_eq!(cards[0].verdict, Verdict::WrongSlot);
        assert_eq!(total, 2);
        // Right slot, wrong face and wrong rotation: 2 faults.
        let city = [
            at(1, 0, B, 3),
            at(2, 1, B, 1),
            at(3, 2, A, 2),
            at(4, 3, B, 3),
        ];
        assert_eq!(check_city(&city, &[1, 2, 3, 4], &target()).1, 2);
    }

    #[test]
    fn only_hand_cards_are_checked() {
        let city = [at(1, 0, A, 0), at(2, 1, B, 1)];
        let (cards, total) = check_city(&city, &[1, 2], &target());
        assert_eq!(cards.len(), 2);
        assert_eq!(total, 0);
    }
}
