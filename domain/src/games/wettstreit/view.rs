//! What each viewer may see, in the board and in the event log.
//!
//! Secret: each player's money (and so the bank, whose count would tell the sum of the purses),
//! the cards in each hand and those out of the game (others see how many; the card when it
//! came from the open stack or was seen as the auctioneer; its kind when announced), the stacks'
//! cards below the open top, and the face-down stack's top card, which only its auctioneer sees
//! from the moment they put it up for auction. Bids, payments, dice, saboteurs and cities are
//! public, as at the table.

use crate::contract::{Seat, Viewer};

use super::events::*;
use super::options::*;
use super::state::*;
use super::turn::status;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A card as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCardFace)]
pub struct CardFace {
    pub card: Card,
    pub kind: Kind,
    pub value: u8,
}

impl CardFace {
    pub fn of(card: Card) -> Self {
        CardFace {
            card,
            kind: kind_of(card),
            value: value_of(card),
        }
    }
}

/// One printed card (the static list, so clients can draw any card id).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCatalogueEntry)]
pub struct CatalogueEntry {
    pub id: Card,
    pub kind: Kind,
    pub value: u8,
    pub shields: u8,
    pub coins: u8,
}

/// A stack as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitStackView)]
pub struct StackView {
    pub count: u8,
    /// The top card: always for the open stack; for the face-down stack only for its auctioneer
    /// during their auction (and auditors).
    pub top: Option<CardFace>,
}

/// The running auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitAuctionView)]
pub struct AuctionView {
    pub auctioneer: Seat,
    pub stack: Stack,
    /// The card, when the viewer may see it.
    pub top: Option<CardFace>,
    /// The kind named by the auctioneer of a face-down card.
    pub announced_kind: Option<Kind>,
    /// 0 until the auctioneer made the opening bid.
    pub high_bid: u32,
    /// The auctioneer until somebody outbids them.
    pub high_bidder: Seat,
    /// Whose bid it is (the auctioneer's, for the opening bid).
    pub next_bidder: Seat,
    /// Each seat's last bid (public: bids are spoken aloud).
    pub bids: Vec<Option<u32>>,
    pub passed: Vec<Seat>,
}

/// A sabotaged building whose owner must choose to pay or lose it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitRansomView)]
pub struct RansomView {
    pub saboteur: Seat,
    pub owner: Seat,
    pub building: CardFace,
    pub price: u32,
}

/// A sabotaged card waiting to go under a stack, both being equally low: `chooser` picks the
/// stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitCardUnderView)]
pub struct CardUnderView {
    pub chooser: Seat,
    pub card: CardFace,
}

/// The cards out of the game (auctioned cards nobody could pay for), as the viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitRemovedView)]
pub struct RemovedView {
    pub count: u8,
    /// The removed cards the viewer knows (open-stack cards; face-down ones they auctioned).
    pub cards: Vec<CardFace>,
    /// Kinds announced for removed cards the viewer does not know otherwise.
    pub announced_kinds: Vec<Kind>,
}

/// One player as the viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = WettstreitPlayerView)]
pub struct PlayerView {
    pub seat: Seat,
    /// Secret: only the owner (and auditors) see it.
    pub money: Option<u32>,
    pub saboteurs: u8,
    pub hand_count: u8,
    /// The hand cards the viewer knows (all of them for the owner; for others those bought
    /// from the open stack, or seen as the auctioneer).
    pub hand: Vec<CardFace>,
    /// Kinds announced for hand cards the viewer does not know otherwise.
    pub announced_kinds: Vec<Kind>,
    /// The city left to right; `null` is a gap left by a saboteur.
    pub city: Vec<Option<CardFace>>,
    pub shields: u8,
    pub gate_coins: u8,
    /// Sum of the built cards' values (bonuses and hand count only at the end).
    pub city_value: i64,
}

/// The board of Wettstreit der Baumeister as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WettstreitView {
    pub phase: Phase,
    /// The seat whose turn it is (absent before start and after the end).
    pub turn: Option<Seat>,
    /// Who must act now: the player whose turn it is, or the bidder, or the owner of a sabotaged
    /// building, or who chooses a stack.
    pub to_act: Vec<Seat>,
    /// The final round is being played.
    pub final_round: bool,
    /// The seat who auctioned a stack's last card: the final round ends with their turn.
    pub final_round_ends_with: Option<Seat>,
    /// Cards laid this turn (at most 3).
    pub built_this_turn: u8,
    pub open_stack: StackView,
    pub face_down_stack: StackView,
    pub saboteur_supply: u8,
    /// The bank's Taler; only auditors count it (it would tell the sum of the purses).
    pub bank: Option<u32>,
    /// The last income roll.
    pub last_die: Option<DieFace>,
    pub auction: Option<AuctionView>,
    pub ransom: Option<RansomView>,
    pub card_under: Option<CardUnderView>,
    /// Cards out of the game.
    pub removed: RemovedView,
    pub players: Vec<PlayerView>,
    /// Scores once the game has ended.
    pub result: Option<WettstreitResult>,
    /// Every card id with its kind, value, shields and coins.
    pub catalogue: Vec<CatalogueEntry>,
}

fn sees_all(viewer: Viewer) -> bool {
    viewer == Viewer::Everyone
}

fn is(viewer: Viewer, seat: Seat) -> bool {
    viewer == Viewer::Seat(seat) || sees_all(viewer)
}

/// Once the game has ended everything is public (the server does this too; being explicit here
/// keeps the rule in one place for any other caller).
fn effective(state: &State, viewer: Viewer) -> Viewer {
    if state.phase == Phase::Ended {
        Viewer::Everyone
    } else {
        viewer
    }
}

pub fn view(state: &State, viewer: Viewer) -> WettstreitView {
    WettstreitView {
        catalogue: catalogue(),
        ..judged_view(state, viewer)
    }
}

/// The view without the cards' catalogue (left empty), which is the same for every viewer in
/// every game: what undo's judgement compares (see `Game::judged_view`).
pub fn judged_view(state: &State, viewer: Viewer) -> WettstreitView {
    let viewer = effective(state, viewer);
    let running = !matches!(state.phase, Phase::NotStarted | Phase::Ended);
    let auction = state.auction.as_ref().map(|a| AuctionView {
        auctioneer: a.auctioneer,
        stack: a.stack,
        top: (a.stack == Stack::Open || is(viewer, a.auctioneer)).then(|| CardFace::of(a.card)),
        announced_kind: a.announced.then(|| kind_of(a.card)),
        high_bid: a.high_bid,
        high_bidder: a.high_bidder,
        next_bidder: a.next,
        bids: a.bids.clone(),
        passed: (0..state.players)
            .filter(|&s| a.passed[s as usize])
            .collect(),
    });
    let face_down_top = match &state.auction {
        Some(a) if a.stack == Stack::FaceDown && is(viewer, a.auctioneer) => {
            state.face_down.last().map(|&c| CardFace::of(c))
        }
        _ if sees_all(viewer) => state.face_down.last().map(|&c| CardFace::of(c)),
        _ => None,
    };
    let players = (0..state.players)
        .map(|s| {
            let hand = &state.hands[s as usize];
            let owner = is(viewer, s);
            let (known, announced_kinds) = known_cards(hand, viewer, owner);
            PlayerView {
                seat: s,
                money: owner.then(|| state.purses[s as usize]),
                saboteurs: state.saboteurs[s as usize],
                hand_count: hand.len() as u8,
                hand: known,
                announced_kinds,
                city: state.cities[s as usize]
                    .iter()
                    .map(|c| c.map(CardFace::of))
                    .collect(),
                shields: state.shields(s),
                gate_coins: state.gate_coins(s),
                city_value: state.cities[s as usize]
                    .iter()
                    .flatten()
                    .map(|&c| i64::from(value_of(c)))
                    .sum(),
            }
        })
        .collect();
    WettstreitView {
        phase: state.phase,
        turn: running.then_some(state.turn),
        to_act: status(state).to_act,
        final_round: state.final_round,
        final_round_ends_with: state.final_trigger,
        built_this_turn: state.built_this_turn,
        open_stack: StackView {
            count: state.open.len() as u8,
            top: state.open.last().map(|&c| CardFace::of(c)),
        },
        face_down_stack: StackView {
            count: state.face_down.len() as u8,
            top: face_down_top,
        },
        saboteur_supply: state.supply,
        bank: sees_all(viewer).then_some(state.bank),
        last_die: state.last_die,
        auction,
        ransom: state.ransom.as_ref().map(|r| RansomView {
            saboteur: r.saboteur,
            owner: r.owner,
            building: CardFace::of(r.card),
            price: u32::from(value_of(r.card)),
        }),
        card_under: state.card_under.as_ref().map(|u| CardUnderView {
            chooser: u.chooser,
            card: CardFace::of(u.card),
        }),
        removed: {
            let (cards, announced_kinds) = known_cards(&state.removed, viewer, sees_all(viewer));
            RemovedView {
                count: state.removed.len() as u8,
                cards,
                announced_kinds,
            }
        },
        players,
        result: state.ended.as_ref().map(WettstreitResult::from),
        catalogue: Vec::new(),
    }
}

/// Every card id with its kind, value, shields and coins.
fn catalogue() -> Vec<CatalogueEntry> {
    (0..CARD_COUNT as u8)
        .map(|id| CatalogueEntry {
            id,
            kind: kind_of(id),
            value: value_of(id),
            shields: shields_of(id),
            coins: coins_of(id),
        })
        .collect()
}

/// Of `cards`, those `viewer` knows, and the announced kinds of the others (sorted, so that
/// their order tells nothing). `all` = the viewer knows every one (the owner of a hand).
fn known_cards(cards: &[HandCard], viewer: Viewer, all: bool) -> (Vec<CardFace>, Vec<Kind>) {
    let known =
        |h: &HandCard| all || h.public || matches!(viewer, Viewer::Seat(v) if h.known_to(v));
    let faces = cards
        .iter()
        .filter(|h| known(h))
        .map(|h| CardFace::of(h.card))
        .collect();
    let mut kinds: Vec<Kind> = cards
        .iter()
        .filter(|h| !known(h) && h.kind_public)
        .map(|h| kind_of(h.card))
        .collect();
    kinds.sort();
    (faces, kinds)
}

/// The event as `viewer` may see it: secrets set to `null`. Every event is shown (that
/// something happened is public at the table).
pub fn redact(state: &State, event: &WettstreitEvent, viewer: Viewer) -> WettstreitEvent {
    use WettstreitEvent as E;
    let viewer = effective(state, viewer);
    let mut event = event.clone();
    if sees_all(viewer) {
        return event;
    }
    match &mut event {
        E::WettstreitCardsShuffled(e) => {
            e.open = None;
            e.face_down = None;
        }
        E::IncomeRolled(e) if !is(viewer, e.seat) => e.taler = None,
        E::BidderInsolvent(e) if !is(viewer, e.seat) => e.forfeited = None,
        E::CardPutUpForAuction(e) if e.stack == Stack::FaceDown && !is(viewer, e.auctioneer) => {
            e.card = None
        }
        E::AuctionOpened(e) if e.stack == Stack::FaceDown && !is(viewer, e.auctioneer) => {
            e.card = None
        }
        E::AuctionWon(e)
            if e.stack == Stack::FaceDown && !is(viewer, e.buyer) && !is(viewer, e.auctioneer) =>
        {
            e.card = None;
            if !e.kind_announced {
                e.kind = None;
            }
        }
        E::AuctionCardRemoved(e) if e.stack == Stack::FaceDown && !is(viewer, e.auctioneer) => {
            e.card = None;
            if !e.kind_announced {
                e.kind = None;
            }
        }
        _ => {}
    }
    event
}
