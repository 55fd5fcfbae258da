//! Step 2 of a turn: the auction, in two steps. The auctioneer puts the top card of a non-empty
//! stack up for auction (`AuctionTopCard`); a face-down card is shown to them alone, so that
//! they know what they bid on ("schaut sich die oberste Karte an und muß ein erstes Gebot
//! machen"). Then they open with a bid of at least 1 (`MakeOpeningBid`). The open stack takes
//! the same two steps, so that every auction reads alike. Bidding then goes round in seat order
//! after the auctioneer, each one still in raising or passing (a pass is final), until one
//! bidder is left. Bids may exceed the bidder's money: that is found out only at payment (see
//! `payment`).
//!
//! A face-down card: when bidding comes back to the auctioneer (someone outbid them), they name
//! the card's kind to all (automatically: the rules leave them no choice), then bidding goes on.

use crate::contract::{RuleError, Seat};

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::*;

pub fn auction_top_card(
    state: &State,
    seat: Seat,
    cmd: &AuctionTopCard,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_step(state, seat, Phase::Auction)?;
    let Some(&card) = state.stack(cmd.stack).last() else {
        return Err(RuleError::new(
            "stack_empty",
            "That stack is empty; auction the top card of the other one.",
        ));
    };
    Ok(vec![CardPutUpForAuction {
        auctioneer: seat,
        stack: cmd.stack,
        card: Some(card),
    }
    .into()])
}

pub fn make_opening_bid(
    state: &State,
    seat: Seat,
    cmd: &MakeOpeningBid,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_step(state, seat, Phase::OpeningBid)?;
    let Some(auction) = &state.auction else {
        return Err(RuleError::new(
            "no_card_up_for_auction",
            "First put the top card of a stack up for auction.",
        ));
    };
    check_bid_bounds(cmd.amount, 1)?;
    Ok(vec![AuctionOpened {
        auctioneer: seat,
        stack: auction.stack,
        opening_bid: cmd.amount,
        card: Some(auction.card),
    }
    .into()])
}

pub fn raise_bid(
    state: &State,
    seat: Seat,
    cmd: &RaiseBid,
) -> Result<Vec<WettstreitEvent>, RuleError> {
    let auction = expect_bidder(state, seat)?;
    check_bid_bounds(cmd.amount, auction.high_bid + 1)?;
    Ok(vec![BidRaised {
        seat,
        amount: cmd.amount,
    }
    .into()])
}

pub fn pass_bid(state: &State, seat: Seat) -> Result<Vec<WettstreitEvent>, RuleError> {
    expect_bidder(state, seat)?;
    Ok(vec![BidPassed { seat }.into()])
}

/// The announcement owed now, if bidding just came back to the outbid auctioneer of a
/// face-down card.
pub fn announcement_due(state: &State) -> Option<WettstreitEvent> {
    let a = state.auction.as_ref()?;
    (state.phase == Phase::Bidding
        && a.stack == Stack::FaceDown
        && !a.announced
        && a.next == a.auctioneer
        && a.high_bidder != a.auctioneer)
        .then(|| {
            CardKindAnnounced {
                auctioneer: a.auctioneer,
                kind: kind_of(a.card),
            }
            .into()
        })
}

fn expect_bidder(state: &State, seat: Seat) -> Result<&Auction, RuleError> {
    match (&state.auction, state.phase) {
        (Some(a), Phase::Bidding) if a.next == seat => Ok(a),
        (Some(_), Phase::Bidding) => Err(RuleError::new(
            "not_your_bid",
            "It is another player's turn to bid.",
        )),
        _ => Err(RuleError::new(
            "no_bidding",
            "No auction is taking bids now.",
        )),
    }
}

fn check_bid_bounds(amount: u32, min: u32) -> Result<(), RuleError> {
    if amount < min {
        return Err(RuleError::new(
            "bid_too_low",
            format!("The bid must be at least {min} Taler."),
        ));
    }
    if amount > MAX_BID {
        return Err(RuleError::new(
            "bid_too_high",
            format!("No bid may exceed {MAX_BID} Taler, all the money in the game."),
        ));
    }
    Ok(())
}
