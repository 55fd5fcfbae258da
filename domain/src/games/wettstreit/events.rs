//! Wettstreit der Baumeister's events: what happened, as the log records it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::options::*;

/// The game began: 10 secret Taler each, the rest in the bank, 5 saboteurs in the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitGameStarted {
    pub players: u8,
    /// Drawn at random.
    pub starting_seat: Seat,
}

/// The 40 cards were shuffled into two stacks of 20 (each listed bottom to top).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitCardsShuffled {
    /// The open stack. `null` for all but auditors until the game ends (only its top card is
    /// visible, told by `OpenStackTopShown`).
    pub open: Option<Vec<Card>>,
    /// The face-down stack. `null` for all but auditors until the game ends.
    pub face_down: Option<Vec<Card>>,
}

/// The open stack shows a new top card (`null`: the open stack is empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct OpenStackTopShown {
    pub card: Option<Card>,
}

/// Income: the die and the coins on the player's built gates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct IncomeRolled {
    pub seat: Seat,
    pub die: DieFace,
    /// Coin symbols on the player's built city gates (1 Taler each).
    pub gate_coins: u8,
    /// Taler actually taken from the bank (less than pips + coins only when the bank runs
    /// short). Secret: `null` for everyone but this seat, since it tells about the bank.
    pub taler: Option<u32>,
}

/// A saboteur stone went in front of the player, from the supply (`from` null) or taken from
/// another player because the supply was empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SaboteurTaken {
    pub seat: Seat,
    pub from: Option<Seat>,
}

/// The auctioneer put the top card of a stack up for auction (the first half of step 2). The
/// opening bid follows as `AuctionOpened`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardPutUpForAuction {
    pub auctioneer: Seat,
    pub stack: Stack,
    /// The card. From the face-down stack only the auctioneer sees it (`null` for the others):
    /// they look at it before they bid.
    pub card: Option<Card>,
}

/// The auctioneer made the opening bid on the card put up for auction; bidding goes round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionOpened {
    pub auctioneer: Seat,
    pub stack: Stack,
    pub opening_bid: u32,
    /// The card. From the face-down stack only the auctioneer sees it (`null` for the others).
    pub card: Option<Card>,
}

/// A bidder outbid the highest bid. Bids are announced aloud at the table, so they are public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BidRaised {
    pub seat: Seat,
    pub amount: u32,
}

/// A bidder left the auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BidPassed {
    pub seat: Seat,
}

/// Bidding came back to the outbid auctioneer of a face-down card, who named its kind (not its
/// value) to all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardKindAnnounced {
    pub auctioneer: Seat,
    pub kind: Kind,
}

/// The highest remaining bidder could not pay their bid: they said so and paid all their money
/// to the bank; the next highest bidder is asked to pay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BidderInsolvent {
    pub seat: Seat,
    pub bid: u32,
    /// All the money they had, now in the bank. Secret: `null` for everyone but this seat.
    pub forfeited: Option<u32>,
}

/// The auction's card went into the buyer's hand against payment: half the price (rounded down)
/// to the auctioneer, the rest to the bank; all to the bank when the auctioneer bought it or
/// went insolvent in this auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionWon {
    pub auctioneer: Seat,
    pub buyer: Seat,
    pub stack: Stack,
    pub price: u32,
    pub to_auctioneer: u32,
    pub to_bank: u32,
    /// True when the auctioneer named the face-down card's kind during the bidding.
    pub kind_announced: bool,
    /// The card. From the face-down stack only the buyer and the auctioneer know it (`null` for
    /// the others).
    pub card: Option<Card>,
    /// Its kind: `null` for those who do not know the card, unless it was announced.
    pub kind: Option<Kind>,
}

/// Nobody who could get the card can pay for it (every bidder left is insolvent, or nobody
/// else bid): the card leaves the game face down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionCardRemoved {
    pub auctioneer: Seat,
    pub stack: Stack,
    /// True when the auctioneer named the face-down card's kind during the bidding.
    pub kind_announced: bool,
    /// The card. From the face-down stack only the auctioneer knows it (`null` for the others).
    pub card: Option<Card>,
    /// Its kind: `null` for those who do not know the card, unless it was announced.
    pub kind: Option<Kind>,
}

/// A sabotaged card went under a stack (the lower one, or the chosen one when both were
/// equally low). It was shown to all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardPutUnderStack {
    pub stack: Stack,
    pub card: Card,
}

/// The player laid their first three cards, left to right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CityFounded {
    pub seat: Seat,
    pub cards: Vec<Card>,
}

/// The player laid a card into their city at `slot` (as counted before laying it: `-1` = new
/// leftmost card).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CardBuilt {
    pub seat: Seat,
    pub card: Card,
    pub slot: i16,
}

/// A saboteur attacked a built card and the die fell: saboteur face = removed; 1–2 = no effect;
/// 3–5 = the owner chooses to pay its value or lose it. The saboteur returns to the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingSabotaged {
    pub by: Seat,
    pub target: Seat,
    pub card: Card,
    pub die: DieFace,
}

/// The owner paid the building's value to the saboteur's owner and keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingRansomed {
    pub owner: Seat,
    pub paid_to: Seat,
    pub card: Card,
    pub amount: u32,
}

/// A building was removed from its city, leaving a gap (a removed end card shortens the city).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildingRemoved {
    pub owner: Seat,
    pub card: Card,
}

/// A saboteur drew a random card from a hand of 5 or more and showed it to all. The saboteur
/// returns to the supply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct HandSabotaged {
    pub by: Seat,
    pub target: Seat,
    pub card: Card,
}

/// A turn began. In the final round a turn is only laying up to three cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitTurnBegan {
    pub seat: Seat,
    pub final_round: bool,
}

/// One player's final score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCityScore)]
pub struct CityScore {
    pub seat: Seat,
    /// Sum of the built cards' values.
    pub buildings: i64,
    /// No gap and a corner tower at each end: only then the bonuses below count.
    pub complete: bool,
    /// +10: the town hall exactly in the middle.
    pub town_hall_centred: i64,
    /// +5: as many churches left of the town hall as right of it, at least one a side.
    pub churches_balanced: i64,
    /// +5: both corner towers of the same value.
    pub corner_towers_matched: i64,
    /// Minus the values of the cards still in hand.
    pub hand_penalty: i64,
    pub total: i64,
}

/// The final round is over: scores per seat and the winners (a tie is a shared win).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitGameEnded {
    pub scores: Vec<CityScore>,
    pub winners: Vec<Seat>,
}

/// The final scores, as the view shows them (the event's own schema carries its `type` tag, so
/// the view has a schema of its own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitResult {
    pub scores: Vec<CityScore>,
    pub winners: Vec<Seat>,
}

impl From<&WettstreitGameEnded> for WettstreitResult {
    fn from(e: &WettstreitGameEnded) -> Self {
        WettstreitResult {
            scores: e.scores.clone(),
            winners: e.winners.clone(),
        }
    }
}

tagged_union! {
    /// An event of Wettstreit der Baumeister.
    pub enum WettstreitEvent {
        WettstreitGameStarted,
        WettstreitCardsShuffled,
        OpenStackTopShown,
        IncomeRolled,
        SaboteurTaken,
        CardPutUpForAuction,
        AuctionOpened,
        BidRaised,
        BidPassed,
        CardKindAnnounced,
        BidderInsolvent,
        AuctionWon,
        AuctionCardRemoved,
        CardPutUnderStack,
        CityFounded,
        CardBuilt,
        BuildingSabotaged,
        BuildingRansomed,
        BuildingRemoved,
        HandSabotaged,
        WettstreitTurnBegan,
        WettstreitGameEnded,
    }
}
