//! Paying for an auctioned card. The highest bidder pays their bid: half (rounded down, to the
//! auctioneer's disadvantage) to the auctioneer and the rest to the bank, or all to the bank
//! when the auctioneer bought it. A bidder who cannot pay reveals it and pays all their money to
//! the bank; the next highest bidder then gets the card for their last bid, and the auctioneer
//! gets no half if it was the auctioneer who could not pay.
//!
//! Decisions: if that bidder cannot pay either, the same happens to them, and so on down the
//! bids. When nobody who could get the card can pay (every bidder left is insolvent, or nobody
//! else bid), the card leaves the game face down, shown to nobody new. (Put back under a stack,
//! as an earlier version did, an unpayable card could come up again and again: random play
//! showed games that never ended.)

use super::events::*;
use super::options::*;
use super::state::*;

/// The next payment event of a closed auction (one per call: insolvencies come one by one).
pub fn settle_payment(state: &State) -> Option<WettstreitEvent> {
    let a = state.auction.as_ref()?;
    let best = (0..state.players)
        .filter_map(|s| a.bids[s as usize].map(|bid| (bid, s)))
        .max();
    let Some((price, buyer)) = best else {
        return Some(
            AuctionCardRemoved {
                auctioneer: a.auctioneer,
                stack: a.stack,
                kind_announced: a.announced,
                card: Some(a.card),
                kind: Some(kind_of(a.card)),
            }
            .into(),
        );
    };
    let purse = state.purses[buyer as usize];
    if purse < price {
        return Some(
            BidderInsolvent {
                seat: buyer,
                bid: price,
                forfeited: Some(purse),
            }
            .into(),
        );
    }
    let to_auctioneer = if buyer == a.auctioneer || a.auctioneer_insolvent {
        0
    } else {
        price / 2
    };
    Some(
        AuctionWon {
            auctioneer: a.auctioneer,
            buyer,
            stack: a.stack,
            price,
            to_auctioneer,
            to_bank: price - to_auctioneer,
            kind_announced: a.announced,
            card: Some(a.card),
            kind: Some(kind_of(a.card)),
        }
        .into(),
    )
}
