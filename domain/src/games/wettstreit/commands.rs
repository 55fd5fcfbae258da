//! Wettstreit der Baumeister's commands: what a player may send.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::Seat;
use crate::tagged_union;

use super::options::*;

/// Step 1 of a turn: roll the die for income.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RollIncomeDie {}

/// After rolling the saboteur face with the supply empty: take a saboteur from that player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TakeSaboteurFrom {
    pub from: Seat,
}

/// Step 2, first half: put the top card of a non-empty stack up for auction. From the face-down
/// stack the card is then shown to you alone; `MakeOpeningBid` follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AuctionTopCard {
    pub stack: Stack,
}

/// Step 2, second half: the auctioneer's opening bid on the card put up for auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MakeOpeningBid {
    /// 1..=90. It may exceed your money (insolvency is found only at payment).
    #[schema(minimum = 1, maximum = 90)]
    pub amount: u32,
}

/// Outbid the highest bid of the running auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RaiseBid {
    /// Higher than the highest bid, at most 90.
    #[schema(minimum = 1, maximum = 90)]
    pub amount: u32,
}

/// Leave the running auction (a pass is final).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PassBid {}

/// Step 3, first build: found your city with exactly three cards (at most three may be laid per
/// turn and a first build needs at least three), listed left to right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FoundCity {
    pub cards: Vec<Card>,
}

/// Step 3: lay one hand card into your city (up to three per turn, one command each).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BuildCard {
    pub card: Card,
    /// The city slot, counted from the current leftmost card (0): `-1` extends the city to the
    /// left, the city's length extends it to the right, an empty slot in between fills a gap.
    pub slot: i16,
}

/// Step 3, instead of building: send a saboteur against a built card of another player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SabotageBuilding {
    pub target: Seat,
    pub card: Card,
}

/// Step 3, instead of building: send a saboteur against the hand of a player holding 5 or more
/// cards; a random card of it goes under the lower stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SabotageHand {
    pub target: Seat,
}

/// The owner of a sabotaged building (die 3–5) pays its value to the saboteur's owner to keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PayToKeepBuilding {}

/// The owner of a sabotaged building (die 3–5) will not pay: the building is removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LetBuildingFall {}

/// Both stacks are equally low: choose which one the removed card goes under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PutCardUnderStack {
    pub stack: Stack,
}

/// End step 3 (build or sabotage, which is optional) and so the turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FinishBuildStep {}

tagged_union! {
    /// A command of Wettstreit der Baumeister.
    pub enum WettstreitCommand {
        RollIncomeDie,
        TakeSaboteurFrom,
        AuctionTopCard,
        MakeOpeningBid,
        RaiseBid,
        PassBid,
        FoundCity,
        BuildCard,
        SabotageBuilding,
        SabotageHand,
        PayToKeepBuilding,
        LetBuildingFall,
        PutCardUnderStack,
        FinishBuildStep,
    }
}
