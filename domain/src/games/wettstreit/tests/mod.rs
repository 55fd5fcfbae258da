//! Wettstreit's rules as tests, one module per rule area like the code: given / when / then,
//! and the rulebook's worked scoring checks. The fixtures below are shared by all of them.

mod auction;
mod bot;
mod building;
mod clock;
mod end;
mod hidden;
mod income;
mod payment;
mod proptests;
mod sabotage;
mod schemas;
mod scoring;
mod setup;

use super::commands::*;
use super::events::*;
use super::options::*;
use super::state::*;
use super::view::*;
use super::Wettstreit;
use crate::contract::{Game, Viewer};
use crate::rng::GameRng;
use crate::testing::{given, Given};

// Card ids by kind and value (see `CARDS`); a trailing letter tells twins apart.
const LCT1: Card = 0;
const LCT2: Card = 2;
const LCT2B: Card = 3;
const LCT3: Card = 4;
const RCT1: Card = 5;
const RCT2: Card = 7;
const RCT3: Card = 9;
const TW1: Card = 10;
const TW1B: Card = 11;
const TW2: Card = 12;
const TW2B: Card = 13;
const TW3: Card = 14;
const G2: Card = 16;
const G3: Card = 18;
const G3B: Card = 19;
const G4: Card = 21;
const G5: Card = 24;
const TH5: Card = 26;
const TH6: Card = 28;
const TH7: Card = 30;
const CH4: Card = 32;
const CH5: Card = 33;
const CH6: Card = 35;
const CH7: Card = 37;
const CH8: Card = 38;
const CH9: Card = 39;

type E = WettstreitEvent;

/// A 3-player table, seat 0 to start; `open` and `face_down` bottom to top. Cards of neither
/// stack are simply out of play for the test.
fn table(open: &[Card], face_down: &[Card]) -> Vec<E> {
    vec![
        WettstreitGameStarted {
            players: 3,
            starting_seat: 0,
        }
        .into(),
        WettstreitCardsShuffled {
            open: Some(open.to_vec()),
            face_down: Some(face_down.to_vec()),
        }
        .into(),
        OpenStackTopShown {
            card: open.last().copied(),
        }
        .into(),
    ]
}

fn standard() -> Vec<E> {
    table(&[CH4, CH5, G2, TH6], &[TW1B, CH6, G3B, TH5])
}

/// A seed whose first die roll shows `face`.
fn seed_rolling(face: DieFace) -> u64 {
    (0..)
        .find(|&s| DieFace::from_index(GameRng::from_seed(s).below(6)) == face)
        .unwrap()
}

/// The given state, as it stands.
fn from(state: State) -> Given<Wettstreit> {
    let mut g = given::<Wettstreit>([]);
    g.state = state;
    g
}

fn hand(g: &mut Given<Wettstreit>, seat: u8, cards: &[Card]) {
    g.state.hands[seat as usize] = cards
        .iter()
        .map(|&card| HandCard {
            card,
            public: false,
            kind_public: false,
            seen_by: 0,
        })
        .collect();
}

fn city(g: &mut Given<Wettstreit>, seat: u8, cards: &[Option<Card>]) {
    g.state.cities[seat as usize] = cards.to_vec();
}

fn at_build(mut g: Given<Wettstreit>) -> Given<Wettstreit> {
    g.state.phase = Phase::Build;
    g
}

fn at_auction() -> Given<Wettstreit> {
    let mut g = given::<Wettstreit>(standard());
    g.state.phase = Phase::Auction;
    g
}

/// Seat 0 put the top card of `stack` up for auction and opened at `opening`.
fn bidding(stack: Stack, opening: u32) -> Given<Wettstreit> {
    bidding_from(at_auction(), stack, opening)
}

fn bidding_from(g: Given<Wettstreit>, stack: Stack, opening: u32) -> Given<Wettstreit> {
    let (_, state) = g.when(0, AuctionTopCard { stack }).accepted();
    let (_, state) = from(state)
        .when(0, MakeOpeningBid { amount: opening })
        .accepted();
    from(state)
}

/// Seat 0 holds a saboteur; seat 1 has one shield, seat 2 none.
fn saboteur_ready() -> Given<Wettstreit> {
    let mut g = at_build(given::<Wettstreit>(standard()));
    g.state.saboteurs[0] = 1;
    g.state.supply = 4;
    city(&mut g, 1, &[Some(TW1), Some(CH9), Some(G4)]);
    city(&mut g, 2, &[Some(G3), Some(CH8), Some(G5)]);
    g
}

/// A seed whose first draw among `len` items is `index`.
fn seed_drawing(index: usize, len: usize) -> u64 {
    (0..)
        .find(|&s| GameRng::from_seed(s).index(len) == index)
        .unwrap()
}

/// `saboteur_ready` with seat 1 holding five cards, none of them in a stack or a city.
fn hand_saboteur_ready() -> Given<Wettstreit> {
    let mut g = saboteur_ready().seed(seed_drawing(2, 5));
    hand(&mut g, 1, &[LCT3, TW3, CH7, TH7, RCT3]); // the seed draws CH7
    g
}

/// The event of this type among `events`.
/// Seat `seat`'s turn begins (in the final round or not).
fn turn_began(seat: u8, final_round: bool) -> E {
    WettstreitTurnBegan { seat, final_round }.into()
}

/// `card` goes under the `stack`.
fn put_under(stack: Stack, card: Card) -> E {
    CardPutUnderStack { stack, card }.into()
}

/// `by`'s saboteur, with `die` rolled, lands on `target`'s building `card`.
fn sabotaged(by: u8, target: u8, card: Card, die: DieFace) -> E {
    BuildingSabotaged {
        by,
        target,
        card,
        die,
    }
    .into()
}

/// `owner`'s building `card` leaves the city.
fn removed(owner: u8, card: Card) -> E {
    BuildingRemoved { owner, card }.into()
}

/// `by`'s hand saboteur takes `card` from `target`'s hand.
fn hand_sabotaged(by: u8, target: u8, card: Card) -> E {
    HandSabotaged { by, target, card }.into()
}

/// `seat` cannot pay its bid `bid` and forfeits `forfeited`.
fn insolvent(seat: u8, bid: u32, forfeited: u32) -> E {
    BidderInsolvent {
        seat,
        bid,
        forfeited: Some(forfeited),
    }
    .into()
}

/// `buyer` wins the open stack's town hall TH6, auctioned by `auctioneer`, for `price`: to the
/// auctioneer `to_auctioneer`, to the bank `to_bank`.
fn town_hall_won(auctioneer: u8, buyer: u8, price: u32, to_auctioneer: u32, to_bank: u32) -> E {
    AuctionWon {
        auctioneer,
        buyer,
        stack: Stack::Open,
        price,
        to_auctioneer,
        to_bank,
        kind_announced: false,
        card: Some(TH6),
        kind: Some(Kind::TownHall),
    }
    .into()
}

/// The command to sabotage `target`'s building `card`.
fn sabotage(target: u8, card: Card) -> SabotageBuilding {
    SabotageBuilding { target, card }
}

fn find<'a>(events: &'a [E], tag: &str) -> &'a E {
    use crate::schema::TaggedUnion;
    events
        .iter()
        .find(|e| e.tag() == tag)
        .unwrap_or_else(|| panic!("no {tag} in {events:?}"))
}

/// `event` as `viewer` sees it.
fn seen(state: &State, event: &E, viewer: Viewer) -> E {
    Wettstreit::redact(state, event, viewer).expect("every event is shown")
}
