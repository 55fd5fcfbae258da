//! Step 3 of a turn, instead of building: one saboteur, never against oneself, not in the final
//! round (which only lays cards).
//!
//! Against a built card: the target is a card of the opponent with the fewest shields among
//! those with at least one built card (on a tie, any of them). The die decides: saboteur face =
//! the card is removed and goes under the lower stack; 1–2 = no effect; 3–5 = the owner pays the
//! card's value to the saboteur's owner to keep it, or loses it (`PayToKeepBuilding` /
//! `LetBuildingFall`, commands of the owner). Against a hand of 5 or more cards: a random card
//! is shown to all and goes under the lower stack. The saboteur always returns to the supply.

use crate::contract::{Ctx, RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::*;

pub fn sabotage_building(
    state: &State,
    seat: Seat,
    cmd: &SabotageBuilding,
    ctx: &mut Ctx,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    check_may_sabotage(state, seat, cmd.target)?;
    if !building_targets(state, seat).contains(&cmd.target) {
        return Err(RuleError::new(
            "target_has_more_shields",
            "A saboteur must attack the player with the fewest shields among those who have built.",
        ));
    }
    if !state.cities[cmd.target as usize].contains(&Some(cmd.card)) {
        return Err(RuleError::new(
            "card_not_in_city",
            "That card is not built in the target's city.",
        ));
    }
    let die = DieFace::from_index(ctx.rng.below(6));
    let mut events = vec![WettstreitEvent::from(BuildingSabotaged {
        by: seat,
        target: cmd.target,
        card: cmd.card,
        die,
    })];
    if die == DieFace::Saboteur {
        events.push(
            BuildingRemoved {
                owner: cmd.target,
                card: cmd.card,
            }
            .into(),
        );
    }
    Ok(events)
}

pub fn sabotage_hand(
    state: &State,
    seat: Seat,
    cmd: &SabotageHand,
    ctx: &mut Ctx,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    check_may_sabotage(state, seat, cmd.target)?;
    let hand = &state.hands[cmd.target as usize];
    if hand.len() < HAND_SABOTAGE_MIN {
        return Err(RuleError::new(
            "hand_too_small",
            "Only a hand of five or more cards may be sabotaged.",
        ));
    }
    let card = hand[ctx.rng.index(hand.len())].card;
    Ok(vec![HandSabotaged {
        by: seat,
        target: cmd.target,
        card,
    }
    .into()])
}

pub fn pay_to_keep_building(state: &State, seat: Seat) -> Result<Vec<WettstreitEvent>, RuleError> {
    let ransom = expect_owner(state, seat)?;
    let amount = u32::from(value_of(ransom.card));
    if state.purses[seat as usize] < amount {
        return Err(RuleError::new(
            "cannot_afford_ransom",
            format!("You do not have the {amount} Taler to keep the building."),
        ));
    }
    Ok(vec![BuildingRansomed {
        owner: seat,
        paid_to: ransom.saboteur,
        card: ransom.card,
        amount,
    }
    .into()])
}

pub fn let_building_fall(state: &State, seat: Seat) -> Result<Vec<WettstreitEvent>, RuleError> {
    let ransom = expect_owner(state, seat)?;
    Ok(vec![BuildingRemoved {
        owner: seat,
        card: ransom.card,
    }
    .into()])
}

/// Opponents whose built cards a saboteur of `seat` may attack: the fewest shields among
/// opponents with at least one built card.
pub fn building_targets(state: &State, seat: Seat) -> Vec<Seat> {
    let built: Vec<Seat> = (0..state.players)
        .filter(|&s| s != seat && !state.cities[s as usize].is_empty())
        .collect();
    let Some(fewest) = built.iter().map(|&s| state.shields(s)).min() else {
        return Vec::new();
    };
    built
        .into_iter()
        .filter(|&s| state.shields(s) == fewest)
        .collect()
}

/// Opponents whose hands may be sabotaged.
pub fn hand_targets(state: &State, seat: Seat) -> Vec<Seat> {
    (0..state.players)
        .filter(|&s| s != seat && state.hands[s as usize].len() >= HAND_SABOTAGE_MIN)
        .collect()
}

/// Whether `seat` could send a saboteur now (before choosing a target).
pub fn may_sabotage_now(state: &State, seat: Seat) -> bool {
    state.phase == Phase::Build
        && state.turn == seat
        && !state.final_round
        && state.built_this_turn == 0
        && state.saboteurs[seat as usize] > 0
}

fn check_may_sabotage(state: &State, seat: Seat, target: Seat) -> Result<(), RuleError> {
    expect_step(state, seat, Phase::Build)?;
    if state.final_round {
        return Err(RuleError::new(
            "no_sabotage_in_final_round",
            "In the final round players only lay cards.",
        ));
    }
    if state.built_this_turn > 0 {
        return Err(RuleError::new(
            "build_or_sabotage",
            "You built this turn: sabotage is instead of building.",
        ));
    }
    if state.saboteurs[seat as usize] == 0 {
        return Err(RuleError::new("no_saboteur", "You have no saboteur."));
    }
    if target == seat {
        return Err(RuleError::new(
            "not_against_yourself",
            "A saboteur may not be sent against yourself.",
        ));
    }
    if target >= state.players {
        return Err(RuleError::new(
            "no_such_seat",
            "There is no player in that seat.",
        ));
    }
    Ok(())
}

fn expect_owner(state: &State, seat: Seat) -> Result<&Ransom, RuleError> {
    match (&state.ransom, state.phase) {
        (Some(r), Phase::OwnerChoice) if r.owner == seat => Ok(r),
        (Some(_), Phase::OwnerChoice) => Err(RuleError::new(
            "not_the_owner",
            "Only the owner of the sabotaged building decides whether to pay.",
        )),
        _ => Err(RuleError::new(
            "no_sabotaged_building",
            "No sabotaged building awaits its owner's choice.",
        )),
    }
}
