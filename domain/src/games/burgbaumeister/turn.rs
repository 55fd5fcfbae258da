//! A turn: turn up a face-down store card, then add it to the right end of the wall (higher than
//! the last card) or return it face down; play passes to the left (the next seat).

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::outcome::Outcome;
use super::scoring::is_cannon;
use super::state::phase;
use super::state::*;
use super::{cannon, end};

/// The start tower's value: every wall begins with it.
pub const START_TOWER: Card = 1;

/// The last card of a wall, the start tower when it has none.
pub fn last_card(wall: &[Card]) -> Card {
    wall.last().copied().unwrap_or(START_TOWER)
}

pub fn next_seat(state: &State, seat: Seat) -> Seat {
    (seat + 1) % state.players.max(1)
}

fn cannon_waiting() -> RuleError {
    RuleError::new(
        "fire_or_decline_cannon",
        "Your cannon waits: fire it at a card in another player's wall (FireCannon) or decline (DeclineCannon).",
    )
}

pub fn turn_up(
    state: &State,
    seat: Seat,
    command: &TurnUpCard,
) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
    match phase(state) {
        Phase::Place => {
            return Err(RuleError::new(
                "card_already_turned_up",
                "You have already turned up a card this turn: add it to your wall or return it.",
            ))
        }
        Phase::Cannon => return Err(cannon_waiting()),
        _ => {}
    }
    let Some(slot) = state.store.get(command.slot as usize) else {
        return Err(RuleError::new(
            "slot_out_of_range",
            format!("The store has slots 0 to {}.", STORE_SLOTS - 1),
        ));
    };
    let Some(card) = *slot else {
        return Err(RuleError::new(
            "no_card_in_slot",
            "That slot of the store holds no card any more.",
        ));
    };
    Ok(vec![CardTurnedUp {
        seat,
        slot: command.slot,
        card,
    }
    .into()])
}

/// The card turned up this turn, or why there is none to place.
pub fn turned_up_card(state: &State) -> Result<TurnedUp, RuleError> {
    match phase(state) {
        Phase::Cannon => Err(cannon_waiting()),
        _ => state.turned_up.clone().ok_or_else(|| {
            RuleError::new("no_card_turned_up", "First turn up a card of the store.")
        }),
    }
}

/// May the turned-up `card` go to the right end of `wall`?
pub fn can_add(wall: &[Card], card: Card) -> bool {
    card > last_card(wall)
}

pub fn add(state: &State, seat: Seat) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
    let TurnedUp { card, .. } = turned_up_card(state)?;
    let wall = &state.walls[seat as usize];
    if !can_add(wall, card) {
        return Err(RuleError::new(
            "card_too_low",
            format!(
                "A new card must be higher than your wall's last card ({}); {card} is not.",
                last_card(wall)
            ),
        ));
    }
    let mut out = Outcome::new(state);
    out.push(CardAddedToWall {
        seat,
        card,
        position: wall.len() as u8,
        by_wizard: false,
    });
    Ok(after_placing(out, seat, card))
}

/// Named `give_back` because `return` is a keyword: the card goes back face down to its slot.
pub fn give_back(state: &State, seat: Seat) -> Result<Vec<BurgbaumeisterEvent>, RuleError> {
    let TurnedUp { slot, .. } = turned_up_card(state)?;
    let mut out = Outcome::new(state);
    out.push(CardReturned { seat, slot });
    finish_turn(&mut out, seat);
    Ok(out.events)
}

/// After a card joined the wall (added or by the wizard): a cannon may fire first (the same
/// player now sends `FireCannon` or `DeclineCannon`), or lapses without a target; then the turn
/// ends. A 9th-card cannon fires too, before the game ends and is scored (rules page
/// **Decision**).
pub fn after_placing(mut out: Outcome, seat: Seat, card: Card) -> Vec<BurgbaumeisterEvent> {
    if out.state.variant && is_cannon(card) {
        if !cannon::targets(&out.state, seat).is_empty() {
            return out.events;
        }
        out.push(CannonLapsed { seat });
    }
    finish_turn(&mut out, seat);
    out.events
}

/// The end of a turn: the 9th card in the wall ends the game; so does a blocked game; else play
/// passes to the next seat.
pub fn finish_turn(out: &mut Outcome, seat: Seat) {
    if out.state.walls[seat as usize].len() >= WALL_TO_WIN {
        let ended = end::game_ended(&out.state, EndReason::WallComplete, Some(seat));
        out.push(ended);
    } else if end::blocked(&out.state) {
        let ended = end::game_ended(&out.state, EndReason::Blocked, None);
        out.push(ended);
    } else {
        let next = next_seat(&out.state, seat);
        out.push(TurnPassed { seat: next });
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::test_support::*;
    use super::*;
    use crate::games::burgbaumeister::Burgbaumeister;
    use crate::testing::given;

    #[test]
    fn a_turn_begins_by_turning_up_a_face_down_card() {
        given::<Burgbaumeister>(table(2, false, &[&[], &[]], 0))
            .when(0, TurnUpCard { slot: slot_of(17) })
            .then([CardTurnedUp {
                seat: 0,
                slot: slot_of(17),
                card: 17,
            }
            .into()]);
    }

    #[test]
    fn the_store_has_45_slots() {
        given::<Burgbaumeister>(table(2, false, &[&[], &[]], 0))
            .when(0, TurnUpCard { slot: 45 })
            .then_error("slot_out_of_range");
    }

    #[test]
    fn a_slot_whose_card_left_the_store_cannot_be_turned_up() {
        given::<Burgbaumeister>(table(2, false, &[&[5], &[]], 0))
            .when(0, TurnUpCard { slot: slot_of(5) })
            .then_error("no_card_in_slot");
    }

    #[test]
    fn only_one_card_is_turned_up_per_turn() {
        let mut events = table(2, false, &[&[], &[]], 0);
        events.push(turned_up(0, 10));
        given::<Burgbaumeister>(events.clone())
            .when(0, TurnUpCard { slot: slot_of(11) })
            .then_error("card_already_turned_up");
        given::<Burgbaumeister>(events)
            .when(0, TurnUpCard { slot: slot_of(10) })
            .then_error("card_already_turned_up");
    }

    #[test]
    fn an_added_card_goes_to_the_right_end_and_play_passes_to_the_left() {
        let mut events = table(3, false, &[&[3, 7], &[], &[]], 0);
        events.push(turned_up(0, 10));
        let state = given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then([added(0, 10, 2), TurnPassed { seat: 1 }.into()]);
        assert_eq!(state.walls[0], vec![3, 7, 10]);
        assert_eq!(state.store[slot_of(10) as usize], None);
    }

    #[test]
    fn play_passes_from_the_last_seat_to_the_first() {
        let mut events = table(3, false, &[&[], &[], &[]], 2);
        events.push(turned_up(2, 10));
        given::<Burgbaumeister>(events)
            .when(2, ReturnCard {})
            .then([returned(2, 10), TurnPassed { seat: 0 }.into()]);
    }

    #[test]
    fn the_first_card_needs_only_to_beat_the_start_tower() {
        let mut events = table(2, false, &[&[], &[]], 0);
        events.push(turned_up(0, 2));
        given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .accepted();
    }

    #[test]
    fn an_added_card_must_be_higher_than_the_wall_s_last_card() {
        let mut events = table(2, false, &[&[3, 7], &[]], 0);
        events.push(turned_up(0, 5));
        given::<Burgbaumeister>(events)
            .when(0, AddCardToWall {})
            .then_error("card_too_low");
    }

    #[test]
    fn a_returned_card_goes_back_face_down_to_its_slot() {
        let mut events = table(2, false, &[&[3, 7], &[]], 0);
        events.push(turned_up(0, 5));
        let state = given::<Burgbaumeister>(events)
            .when(0, ReturnCard {})
            .then([returned(0, 5), TurnPassed { seat: 1 }.into()]);
        assert_eq!(state.store[slot_of(5) as usize], Some(5));
        assert_eq!(state.turned_up, None);
    }

    #[test]
    fn placing_needs_a_turned_up_card() {
        for command in [
            BurgbaumeisterCommand::from(AddCardToWall {}),
            ReturnCard {}.into(),
            InsertCardWithWizard { position: 0 }.into(),
        ] {
            given::<Burgbaumeister>(table(2, true, &[&[], &[]], 0))
                .when(0, command)
                .then_error("no_card_turned_up");
        }
    }
}
