//! Every command a seat may send now, each ready to send, and the turn clock's default among
//! them. Bids are listed value by value up to 90 Taler (all the money in the game).

use crate::contract::Seat;

use super::building::{candidate_slots, check_foundation, check_placement};
use super::commands::*;
use super::income::saboteur_holders;
use super::options::*;
use super::sabotage::{building_targets, hand_targets, may_sabotage_now};
use super::state::*;

pub fn legal_commands(state: &State, seat: Seat) -> Vec<WettstreitCommand> {
    if seat >= state.players {
        return Vec::new();
    }
    let mine = state.turn == seat;
    let mut out: Vec<WettstreitCommand> = Vec::with_capacity(2 * MAX_BID as usize);
    match state.phase {
        Phase::Income if mine => out.push(RollIncomeDie {}.into()),
        Phase::TakeSaboteur if mine => {
            for from in saboteur_holders(state, seat) {
                out.push(TakeSaboteurFrom { from }.into());
            }
        }
        Phase::Auction if mine => {
            for stack in [Stack::Open, Stack::FaceDown] {
                if !state.stack(stack).is_empty() {
                    out.push(AuctionTopCard { stack }.into());
                }
            }
        }
        Phase::OpeningBid if mine => {
            for amount in 1..=MAX_BID {
                out.push(MakeOpeningBid { amount }.into());
            }
        }
        Phase::Bidding => {
            if let Some(a) = state.auction.as_ref().filter(|a| a.next == seat) {
                out.push(PassBid {}.into());
                for amount in a.high_bid + 1..=MAX_BID {
                    out.push(RaiseBid { amount }.into());
                }
            }
        }
        Phase::OwnerChoice => {
            if let Some(r) = state.ransom.as_ref().filter(|r| r.owner == seat) {
                if state.purses[seat as usize] >= u32::from(value_of(r.card)) {
                    out.push(PayToKeepBuilding {}.into());
                }
                out.push(LetBuildingFall {}.into());
            }
        }
        Phase::CardUnder if state.card_under.as_ref().is_some_and(|u| u.chooser == seat) => {
            let stacks = match state.lower_stack() {
                Some(lower) => vec![lower],
                None => vec![Stack::Open, Stack::FaceDown],
            };
            for stack in stacks {
                out.push(PutCardUnderStack { stack }.into());
            }
        }
        Phase::Build if mine => build_step(state, seat, &mut out),
        _ => {}
    }
    out
}

/// The move the turn clock makes for a seat that did not act in time: the listed command that
/// changes the least. Roll (income is mandatory), take a saboteur from the first player listed,
/// auction the open stack's card (the face-down one when the open stack is empty) and open at
/// 1 Taler, pass a bid, let a sabotaged building fall (paying is spending), put a sabotaged card
/// under the open stack when both are equally low, and end the build step without building.
pub fn default_command(state: &State, seat: Seat) -> Option<WettstreitCommand> {
    let legal = legal_commands(state, seat);
    let preferred = |c: &&WettstreitCommand| {
        use WettstreitCommand as C;
        matches!(
            c,
            C::PassBid(_) | C::FinishBuildStep(_) | C::LetBuildingFall(_)
        )
    };
    // Otherwise the first listed: open before face-down, the lowest bid, the lowest seat.
    legal.iter().find(preferred).or(legal.first()).cloned()
}

fn build_step(state: &State, seat: Seat, out: &mut Vec<WettstreitCommand>) {
    let city = &state.cities[seat as usize];
    let hand: Vec<Card> = state.hands[seat as usize].iter().map(|h| h.card).collect();
    if city.is_empty() {
        if state.built_this_turn == 0 && hand.len() >= CARDS_PER_TURN as usize {
            for &a in &hand {
                for &b in &hand {
                    for &c in &hand {
                        let cards = vec![a, b, c];
                        if check_foundation(state, seat, &cards).is_ok() {
                            out.push(FoundCity { cards }.into());
                        }
                    }
                }
            }
        }
    } else if state.built_this_turn < CARDS_PER_TURN {
        for slot in candidate_slots(city) {
            for &card in &hand {
                if check_placement(city, card, slot, state.final_round).is_ok() {
                    out.push(BuildCard { card, slot }.into());
                }
            }
        }
    }
    if may_sabotage_now(state, seat) {
        for target in building_targets(state, seat) {
            for &card in state.cities[target as usize].iter().flatten() {
                out.push(SabotageBuilding { target, card }.into());
            }
        }
        for target in hand_targets(state, seat) {
            out.push(SabotageHand { target }.into());
        }
    }
    out.push(FinishBuildStep {}.into());
}
