//! Wettstreit der Baumeister's state: what the events fold into.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::{RuleError, Seat};

use super::events::*;
use super::options::*;

/// A card in a hand (or out of the game), and who knows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HandCard {
    pub card: Card,
    /// Everyone saw it (bought from the open stack).
    pub public: bool,
    /// Its kind was announced.
    pub kind_public: bool,
    /// Seats who saw it (a bit per seat): the auctioneer of a face-down card.
    pub seen_by: u8,
}

impl HandCard {
    pub fn known_to(&self, seat: Seat) -> bool {
        self.public || self.seen_by & (1 << seat) != 0
    }
}

/// The running auction.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Auction {
    pub auctioneer: Seat,
    pub stack: Stack,
    pub card: Card,
    pub high_bid: u32,
    pub high_bidder: Seat,
    /// Each seat's last bid; an insolvent bidder's is struck.
    pub bids: Vec<Option<u32>>,
    pub passed: Vec<bool>,
    pub next: Seat,
    pub announced: bool,
    /// The auctioneer could not pay their own bid: no half for them.
    pub auctioneer_insolvent: bool,
}

/// A sabotaged building awaiting its owner's choice.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ransom {
    pub saboteur: Seat,
    pub owner: Seat,
    pub card: Card,
}

/// A sabotaged card going under the lower stack (then the turn is over).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CardUnder {
    pub card: Card,
    /// Chooses the stack when both are equally low: the saboteur's owner.
    pub chooser: Seat,
}

/// The whole truth (the server's; views show what a viewer may see of it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub players: u8,
    pub phase: Phase,
    pub turn: Seat,
    /// Bottom to top.
    pub open: Vec<Card>,
    /// Bottom to top.
    pub face_down: Vec<Card>,
    /// The open top card as last announced by `OpenStackTopShown`.
    pub open_top_shown: Option<Card>,
    pub bank: u32,
    pub purses: Vec<u32>,
    pub hands: Vec<Vec<HandCard>>,
    /// Left to right; `None` is a gap. Never starts or ends with a gap.
    pub cities: Vec<Vec<Option<Card>>>,
    pub saboteurs: Vec<u8>,
    pub supply: u8,
    pub built_this_turn: u8,
    pub last_die: Option<DieFace>,
    pub auction: Option<Auction>,
    pub ransom: Option<Ransom>,
    pub card_under: Option<CardUnder>,
    /// Auctioned cards nobody could pay for: out of the game, face down.
    pub removed: Vec<HandCard>,
    /// Who auctioned a stack's last card (the final round ends with them).
    pub final_trigger: Option<Seat>,
    pub final_round: bool,
    pub ended: Option<WettstreitGameEnded>,
}

impl Default for State {
    fn default() -> Self {
        State {
            players: 0,
            phase: Phase::NotStarted,
            turn: 0,
            open: Vec::new(),
            face_down: Vec::new(),
            open_top_shown: None,
            bank: 0,
            purses: Vec::new(),
            hands: Vec::new(),
            cities: Vec::new(),
            saboteurs: Vec::new(),
            supply: 0,
            built_this_turn: 0,
            last_die: None,
            auction: None,
            ransom: None,
            card_under: None,
            removed: Vec::new(),
            final_trigger: None,
            final_round: false,
            ended: None,
        }
    }
}

impl State {
    pub fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players
    }

    pub fn stack(&self, stack: Stack) -> &Vec<Card> {
        match stack {
            Stack::Open => &self.open,
            Stack::FaceDown => &self.face_down,
        }
    }

    pub fn stack_mut(&mut self, stack: Stack) -> &mut Vec<Card> {
        match stack {
            Stack::Open => &mut self.open,
            Stack::FaceDown => &mut self.face_down,
        }
    }

    /// The lower stack, or `None` when both are equally high.
    pub fn lower_stack(&self) -> Option<Stack> {
        use std::cmp::Ordering::*;
        match self.open.len().cmp(&self.face_down.len()) {
            Less => Some(Stack::Open),
            Greater => Some(Stack::FaceDown),
            Equal => None,
        }
    }

    pub fn shields(&self, seat: Seat) -> u8 {
        self.cities[seat as usize]
            .iter()
            .flatten()
            .map(|&c| shields_of(c))
            .sum()
    }

    pub fn gate_coins(&self, seat: Seat) -> u8 {
        self.cities[seat as usize]
            .iter()
            .flatten()
            .map(|&c| coins_of(c))
            .sum()
    }

    pub fn hand_has(&self, seat: Seat, card: Card) -> bool {
        self.hands[seat as usize].iter().any(|h| h.card == card)
    }

    pub fn take_from_hand(&mut self, seat: Seat, card: Card) {
        self.hands[seat as usize].retain(|h| h.card != card);
    }
}

/// The step of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WettstreitPhase)]
pub enum Phase {
    NotStarted,
    /// The player whose turn it is rolls for income.
    Income,
    /// The saboteur face came up with the supply empty: take one from another player.
    TakeSaboteur,
    /// The player whose turn it is chooses the stack whose top card they auction.
    Auction,
    /// The auctioneer, having seen the card, makes the opening bid.
    OpeningBid,
    /// Bidding goes round.
    Bidding,
    /// Bidding is over; payment is settled at once (never waits).
    AuctionClosing,
    /// The owner of a sabotaged building chooses to pay or lose it.
    OwnerChoice,
    /// A sabotaged card is going under the lower stack (waits only when both are equally low).
    CardUnder,
    /// Build or sabotage (in the final round: build).
    Build,
    /// The turn is over; the next begins at once (never waits).
    TurnOver,
    Ended,
}

/// The command is this seat's to give in this phase of their turn.
pub fn expect_step(state: &State, seat: Seat, phase: Phase) -> Result<(), RuleError> {
    if state.phase != phase {
        return Err(RuleError::new(
            "wrong_step",
            format!("This is not the time for that: {}.", describe(state.phase)),
        ));
    }
    if state.turn != seat {
        return Err(RuleError::not_your_turn());
    }
    Ok(())
}

fn describe(phase: Phase) -> &'static str {
    match phase {
        Phase::NotStarted => "the game has not started",
        Phase::Income => "the player whose turn it is rolls for income",
        Phase::TakeSaboteur => "the player whose turn it is takes a saboteur from another player",
        Phase::Auction => "the player whose turn it is auctions a card",
        Phase::OpeningBid => "the auctioneer makes the opening bid",
        Phase::Bidding => "an auction is taking bids",
        Phase::AuctionClosing => "an auction is being paid",
        Phase::OwnerChoice => "the owner of a sabotaged building decides whether to pay",
        Phase::CardUnder => "a sabotaged card waits to go under a stack",
        Phase::Build => "the player whose turn it is builds or sabotages",
        Phase::TurnOver => "the turn is over",
        Phase::Ended => "the game has ended",
    }
}
