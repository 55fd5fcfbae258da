//! Step 3 of a turn, building (and the whole of a final-round turn).
//!
//! One city per player, one row of cards. At most three cards per turn; a first build lays at
//! least three, so exactly three (`FoundCity`). Later cards are laid one by one (`BuildCard`),
//! each touching a card already laid (at either end or into a gap). Never two of a kind side
//! by side, towers and corner towers counting as one kind; one town hall per city; a left corner
//! tower only as the leftmost card and a right one only as the rightmost (nothing may be laid
//! beyond them); before the final round at most one corner tower per city.
//!
//! Decision: a city emptied by saboteurs is founded anew (three cards), since no card is left
//! to touch.

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::*;

pub fn found_city(
    state: &State,
    seat: Seat,
    cmd: &FoundCity,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_step(state, seat, Phase::Build)?;
    if !state.cities[seat as usize].is_empty() {
        return Err(RuleError::new(
            "city_already_founded",
            "Your city stands: lay further cards one by one next to it.",
        ));
    }
    if state.built_this_turn > 0 {
        return Err(RuleError::new(
            "already_acted",
            "You already built or sabotaged this turn.",
        ));
    }
    check_foundation(state, seat, &cmd.cards)?;
    Ok(vec![CityFounded {
        seat,
        cards: cmd.cards.clone(),
    }
    .into()])
}

pub fn build_card(
    state: &State,
    seat: Seat,
    cmd: &BuildCard,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_step(state, seat, Phase::Build)?;
    if state.cities[seat as usize].is_empty() {
        return Err(RuleError::new(
            "first_build_needs_three",
            "Your first build must lay three cards at once (FoundCity).",
        ));
    }
    if state.built_this_turn >= CARDS_PER_TURN {
        return Err(RuleError::new(
            "three_cards_per_turn",
            "At most three cards may be laid per turn.",
        ));
    }
    if !state.hand_has(seat, cmd.card) {
        return Err(RuleError::new(
            "card_not_in_hand",
            "That card is not in your hand.",
        ));
    }
    check_placement(
        &state.cities[seat as usize],
        cmd.card,
        cmd.slot,
        state.final_round,
    )?;
    Ok(vec![CardBuilt {
        seat,
        card: cmd.card,
        slot: cmd.slot,
    }
    .into()])
}

/// Three distinct hand cards, left to right, that make a valid city.
pub fn check_foundation(state: &State, seat: Seat, cards: &[Card]) -> Result<(), RuleError> {
    if cards.len() != CARDS_PER_TURN as usize {
        return Err(RuleError::new(
            "first_build_needs_three",
            "A first build lays exactly three cards (at least three, at most three a turn).",
        ));
    }
    for (i, &card) in cards.iter().enumerate() {
        if cards[..i].contains(&card) {
            return Err(RuleError::new(
                "card_twice",
                "Each card can be laid only once.",
            ));
        }
        if (card as usize) >= CARD_COUNT || !state.hand_has(seat, card) {
            return Err(RuleError::new(
                "card_not_in_hand",
                "That card is not in your hand.",
            ));
        }
    }
    let mut city: Vec<Option<Card>> = vec![Some(cards[0])];
    for &card in &cards[1..] {
        let slot = city.len() as i16;
        check_placement(&city, card, slot, state.final_round)?;
        city.push(Some(card));
    }
    if kind_of(cards[0]) == Kind::RightCornerTower {
        return Err(right_corner_misplaced());
    }
    Ok(())
}

/// May `card` be laid at `slot` of `city` (slot as in [`BuildCard`])?
pub fn check_placement(
    city: &[Option<Card>],
    card: Card,
    slot: i16,
    final_round: bool,
) -> Result<(), RuleError> {
    let len = city.len() as i16;
    if (card as usize) >= CARD_COUNT {
        return Err(RuleError::new(
            "card_not_in_hand",
            "That card is not in your hand.",
        ));
    }
    if slot < -1 || slot > len || (0..len).contains(&slot) && city[slot as usize].is_some() {
        return Err(RuleError::new(
            "slot_not_free",
            "Lay the card at an end of your city or into a gap.",
        ));
    }
    let at = |i: i16| -> Option<Card> {
        if (0..len).contains(&i) {
            city[i as usize]
        } else {
            None
        }
    };
    let left = at(slot - 1);
    let right = at(slot + 1);
    if left.is_none() && right.is_none() {
        return Err(RuleError::new(
            "must_touch_city",
            "A new card must touch a card already laid.",
        ));
    }
    let kind = kind_of(card);
    for neighbour in [left, right].into_iter().flatten() {
        if kind_of(neighbour).family() == kind.family() {
            return Err(RuleError::new(
                "same_kind_side_by_side",
                "Two buildings of the same kind may never stand side by side (towers and corner towers count as one kind).",
            ));
        }
    }
    if kind == Kind::TownHall && city.iter().flatten().any(|&c| kind_of(c) == Kind::TownHall) {
        return Err(RuleError::new(
            "one_town_hall",
            "A city may have only one town hall.",
        ));
    }
    if kind == Kind::LeftCornerTower && slot != -1 {
        return Err(RuleError::new(
            "left_corner_tower_at_left_end",
            "A left corner tower can only be the leftmost card of a city.",
        ));
    }
    if kind == Kind::RightCornerTower && slot != len {
        return Err(right_corner_misplaced());
    }
    if slot == -1 && at(0).is_some_and(|c| kind_of(c) == Kind::LeftCornerTower) {
        return Err(RuleError::new(
            "left_end_closed",
            "Nothing can be laid left of a left corner tower.",
        ));
    }
    if slot == len && at(len - 1).is_some_and(|c| kind_of(c) == Kind::RightCornerTower) {
        return Err(RuleError::new(
            "right_end_closed",
            "Nothing can be laid right of a right corner tower.",
        ));
    }
    check_corner_count(city, card, final_round)
}

fn check_corner_count(
    city: &[Option<Card>],
    card: Card,
    final_round: bool,
) -> Result<(), RuleError> {
    if kind_of(card).is_corner_tower()
        && !final_round
        && city.iter().flatten().any(|&c| kind_of(c).is_corner_tower())
    {
        return Err(RuleError::new(
            "second_corner_tower_only_in_final_round",
            "A city may hold its second corner tower only in the final round.",
        ));
    }
    Ok(())
}

fn right_corner_misplaced() -> RuleError {
    RuleError::new(
        "right_corner_tower_at_right_end",
        "A right corner tower can only be the rightmost card of a city.",
    )
}

/// Every slot a card could go to in this city (before the rules of kinds are checked).
pub fn candidate_slots(city: &[Option<Card>]) -> Vec<i16> {
    let len = city.len() as i16;
    let mut slots = vec![-1, len];
    slots.extend((0..len).filter(|&i| city[i as usize].is_none()));
    slots
}
