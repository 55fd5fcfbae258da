//! Wettstreit der Baumeister for bots. The secrets are the cards: the order of both stacks below
//! the open top, the face-down cards nobody has seen, and the hand cards a seat did not see
//! bought (money is secret too, but every payment is public and income is the die's pips plus
//! the gates' coins, capped by the bank: folding a log with those filled in gives every purse).
//!
//! A guess follows the 40 places the cards were shuffled into through the seat's log: which place
//! each auction took off which stack, into whose hand or out of the game, and which card each
//! place turned out to hold once it was shown (the open top, the auctioneer's look, a build, a
//! sabotaged hand) or what kind it was announced to be. The cards never shown are dealt at random
//! to the places never shown, an announced kind only to a place of that kind, and the log is
//! folded again with that shuffle and those incomes.

use serde_json::{json, Value};

use crate::bots::error::BotError;
use crate::bots::input::BotInput;
use crate::bots::rules::{replay, BotRules, Guesses};
use crate::contract::{Game, Seat};
use crate::dynamic::{DynGame, GameState};
use crate::erased::Erased;
use crate::games::wettstreit::{
    kind_of, score_city, value_of, Card, Kind, Phase, Stack, State, Wettstreit,
    WettstreitCardsShuffled, WettstreitCommand, WettstreitEvent, CARD_COUNT, MAX_BID,
};
use crate::rng::GameRng;
use crate::typed_command::TypedCommand;

/// A card in hand is worth this share of its value while it can still be built (it scores its
/// value once built, minus its value if still held at the end).
const IN_HAND: f64 = 0.6;
/// A Taler is worth about this many points: money buys cards and nothing else.
const TALER: f64 = 0.4;
/// A saboteur stone is worth about a point: it can take a building from a rival.
const SABOTEUR: f64 = 1.0;
/// Opening bids a searching bot considers (of 1 to 90): more would only spread its search thin.
const OPENING_BIDS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];
/// Raises over the high bid it considers.
const RAISES: [u32; 5] = [1, 2, 3, 5, 8];

pub struct Rules;

impl BotRules for Rules {
    fn game(&self) -> &'static dyn DynGame {
        static GAME: Erased<Wettstreit> = Erased::new();
        &GAME
    }

    fn determinize(&self, input: &BotInput, rng: &mut GameRng) -> Result<GameState, BotError> {
        let shuffle = Places::follow(&input.log).deal(rng);
        replay(self.game(), &filled_in(&input.log, &shuffle))
    }

    /// The log read into the game's events once (incomes filled in), and each guess a new
    /// shuffle folded through them: no JSON per guess.
    fn guesser<'a>(&'a self, input: &'a BotInput) -> Result<Guesses<'a>, BotError> {
        let places = Places::follow(&input.log);
        let log = filled_in(&input.log, &places.clone().deal(&mut GameRng::from_seed(0)));
        let base = replay(self.game(), &log)?;
        let mut events = log
            .iter()
            .map(|e| serde_json::from_value::<WettstreitEvent>(e.clone()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| BotError::BadLog(e.to_string()))?;
        let shuffled = events
            .iter()
            .position(|e| matches!(e, WettstreitEvent::WettstreitCardsShuffled(_)));
        Ok(Box::new(move |rng| {
            let mut guess = base.clone();
            let Some(at) = shuffled else {
                return Ok(guess);
            };
            let shuffle = places.clone().deal(rng);
            let half = CARD_COUNT / 2;
            events[at] = WettstreitCardsShuffled {
                open: Some(shuffle[..half].to_vec()),
                face_down: Some(shuffle[half..].to_vec()),
            }
            .into();
            let mut state = Wettstreit::initial();
            for event in &events {
                Wettstreit::evolve(&mut state, event);
            }
            if let Some(slot) = guess.downcast_mut::<State>() {
                *slot = state;
            }
            Ok(guess)
        }))
    }

    /// Built cards as they would score now, hand cards at a share of their value (a loss once
    /// the final round has come), money and saboteurs at what they may still buy or take, and a
    /// running auction as if it closed now: its high bidder has the card and paid for it.
    fn evaluate(&self, state: &GameState, seat: Seat) -> f64 {
        let Some(state) = state.downcast::<State>() else {
            return 0.0;
        };
        let s = usize::from(seat);
        if s >= state.cities.len() {
            return 0.0;
        }
        let city = f64::from(score_city(seat, &state.cities[s], &[]).total as i32);
        let late = state.final_round || state.phase == Phase::Ended;
        let hand_share = if late { -1.0 } else { IN_HAND };
        let hand: f64 = state.hands[s]
            .iter()
            .map(|h| f64::from(value_of(h.card)))
            .sum::<f64>()
            * hand_share;
        let (money, stones) = if late {
            (0.0, 0.0)
        } else {
            (
                f64::from(state.purses[s]) * TALER,
                f64::from(state.saboteurs[s]) * SABOTEUR,
            )
        };
        let mut auction = 0.0;
        if let Some(a) = state.auction.as_ref().filter(|a| a.high_bid > 0) {
            let price = f64::from(a.high_bid);
            if a.high_bidder == seat {
                auction += if a.high_bid > state.purses[s] {
                    // Unpayable: the purse goes to the bank and the card to nobody here.
                    -f64::from(state.purses[s]) * TALER
                } else {
                    f64::from(value_of(a.card)) * hand_share - price * TALER
                };
            } else if a.auctioneer == seat {
                auction += (price / 2.0).floor() * TALER;
            }
        }
        city + hand + money + stones + auction
    }

    fn seats(&self, state: &GameState) -> u8 {
        state.downcast::<State>().map_or(0, |s| s.players)
    }

    /// Bids thinned to a few steps, and none the seat could not pay (an unpayable bid costs the
    /// whole purse and brings nothing).
    fn candidates(&self, state: &GameState, seat: Seat, legal: Vec<Value>) -> Vec<Value> {
        let Some(state) = state.downcast::<State>() else {
            return legal;
        };
        legal
            .into_iter()
            .filter(|command| bid_kept(state, seat, command["amount"].as_u64().map(|a| a as u32)))
            .collect()
    }

    fn moves(&self, state: &GameState, seat: Seat) -> Vec<TypedCommand> {
        let Some(typed) = state.downcast::<State>() else {
            return Vec::new();
        };
        Wettstreit::legal_commands(typed, seat)
            .into_iter()
            .filter(|command| {
                let amount = match command {
                    WettstreitCommand::MakeOpeningBid(bid) => Some(bid.amount),
                    WettstreitCommand::RaiseBid(bid) => Some(bid.amount),
                    _ => None,
                };
                bid_kept(typed, seat, amount)
            })
            .map(TypedCommand::new)
            .collect()
    }

    /// Greedy's one step, trusted longer: a few hundred descents over guessed stacks, hands
    /// and bids in steps are noisy, and with the default weight the search left greedy's choice
    /// for worse ones (against greedy at 300 iterations: 8 of 30 first places with weight 2,
    /// 12 of 30 with 8; three seats, so 10 is the fair share).
    fn prior_weight(&self) -> f64 {
        8.0
    }

    /// A long look ahead: an auction's price shows only once it closes, and a card bought pays
    /// only once built, a turn or two later (against greedy at 500 iterations, 45 games each on
    /// the same seeds: 19 first places with 12 moves, 33 with 24; fair share 15).
    fn playout_moves(&self) -> usize {
        24
    }

    /// Mostly greedy: an auction played out by random bids says little of what the card is
    /// worth (against greedy at 1,000 iterations, 45 games each: 12 first places with random
    /// playouts, 18 to 22 with a random share of 0.05 to 0.2; fair share 15).
    fn playout_randomness(&self) -> f64 {
        0.2
    }

    /// An iteration with 24 mostly greedy playout moves takes milliseconds on a loaded machine:
    /// eight of them ran past the second (129 of 142 benchmark games had a move over 1 s, most
    /// about 1.06 s, at load 11 to 13).
    fn clock_every(&self) -> u32 {
        1
    }

    fn scale(&self) -> f64 {
        8.0
    }
}

/// Whether a command bidding `amount` (`None`: not a bid) is one the searching bots weigh: of
/// the bids, a few steps (see [`OPENING_BIDS`], [`RAISES`]) the seat can pay.
fn bid_kept(state: &State, seat: Seat, amount: Option<u32>) -> bool {
    let Some(amount) = amount else {
        return true;
    };
    let purse = state.purses.get(usize::from(seat)).copied().unwrap_or(0);
    let high = state.auction.as_ref().map_or(0, |a| a.high_bid);
    let step = match state.phase {
        Phase::OpeningBid => OPENING_BIDS.contains(&amount),
        Phase::Bidding => RAISES.iter().any(|r| high + r == amount),
        _ => return true,
    };
    step && (amount <= purse || amount == 1) && amount <= MAX_BID
}

/// The seat's log with the shuffle `shuffle` (the 40 places' cards) and every income filled in.
fn filled_in(log: &[Value], shuffle: &[Card]) -> Vec<Value> {
    let half = CARD_COUNT / 2;
    log.iter()
        .map(|event| match event["type"].as_str() {
            Some("WettstreitCardsShuffled") if event["open"].is_null() => json!({
                "type": "WettstreitCardsShuffled",
                "open": shuffle[..half],
                "face_down": shuffle[half..],
            }),
            Some("IncomeRolled") if event["taler"].is_null() => {
                let mut event = event.clone();
                // The fold caps it at what the bank holds, as the roll did.
                let owed = pips(&event["die"]) + event["gate_coins"].as_u64().unwrap_or(0);
                event["taler"] = json!(owed);
                event
            }
            _ => event.clone(),
        })
        .collect()
}

fn pips(die: &Value) -> u64 {
    match die.as_str() {
        Some("one") => 1,
        Some("two") => 2,
        Some("three") => 3,
        Some("four") => 4,
        Some("five") => 5,
        _ => 0,
    }
}

/// The places the cards were shuffled into, followed through a seat's log.
#[derive(Clone)]
struct Places {
    /// What each place holds, as far as shown: the 40 of the shuffle (open stack bottom to top,
    /// then the face-down one), then one per card put back under a stack (always shown).
    card: Vec<Option<Card>>,
    /// A kind announced for a place whose card was not shown.
    kind: Vec<Option<Kind>>,
    open: Vec<usize>,
    face_down: Vec<usize>,
    hands: Vec<Vec<usize>>,
    /// The card waiting to go under a stack (it was shown: built or taken from a hand openly).
    under: Option<Card>,
}

impl Places {
    fn follow(log: &[Value]) -> Places {
        let half = CARD_COUNT / 2;
        let mut p = Places {
            card: vec![None; CARD_COUNT],
            kind: vec![None; CARD_COUNT],
            open: (0..half).collect(),
            face_down: (half..CARD_COUNT).collect(),
            hands: Vec::new(),
            under: None,
        };
        let mut auction = Stack::Open;
        for e in log {
            let card = card_of(&e["card"]);
            match e["type"].as_str().unwrap_or("") {
                "WettstreitGameStarted" => {
                    p.hands = vec![Vec::new(); e["players"].as_u64().unwrap_or(0) as usize];
                }
                "WettstreitCardsShuffled" => {
                    for (stack, offset) in [("open", 0), ("face_down", half)] {
                        for (i, c) in e[stack].as_array().into_iter().flatten().enumerate() {
                            if let Some(place) = p.card.get_mut(offset + i) {
                                *place = card_of(c);
                            }
                        }
                    }
                }
                "OpenStackTopShown" => p.show(Stack::Open, card),
                "CardPutUpForAuction" | "AuctionOpened" => {
                    auction = stack_of(&e["stack"]);
                    p.show(auction, card);
                }
                "CardKindAnnounced" => {
                    if let Some(&top) = p.stack(auction).last() {
                        p.kind[top] = kind_from(&e["kind"]);
                    }
                }
                "AuctionWon" | "AuctionCardRemoved" => {
                    let stack = stack_of(&e["stack"]);
                    if let Some(place) = p.stack_mut(stack).pop() {
                        p.bind(place, card, kind_from(&e["kind"]));
                        if let Some(hand) = e["buyer"]
                            .as_u64()
                            .and_then(|b| p.hands.get_mut(b as usize))
                        {
                            hand.push(place);
                        }
                    }
                }
                "CityFounded" => {
                    let seat = e["seat"].as_u64().unwrap_or(u64::MAX) as usize;
                    for c in e["cards"].as_array().into_iter().flatten() {
                        p.take(seat, card_of(c));
                    }
                }
                "CardBuilt" => p.take(e["seat"].as_u64().unwrap_or(u64::MAX) as usize, card),
                "HandSabotaged" => {
                    p.take(e["target"].as_u64().unwrap_or(u64::MAX) as usize, card);
                    p.under = card;
                }
                "BuildingRemoved" => p.under = card,
                "CardPutUnderStack" => {
                    let shown = card.or(p.under.take());
                    p.card.push(shown);
                    p.kind.push(None);
                    let place = p.card.len() - 1;
                    p.stack_mut(stack_of(&e["stack"])).insert(0, place);
                }
                _ => {}
            }
        }
        p
    }

    fn stack(&self, stack: Stack) -> &Vec<usize> {
        match stack {
            Stack::Open => &self.open,
            Stack::FaceDown => &self.face_down,
        }
    }

    fn stack_mut(&mut self, stack: Stack) -> &mut Vec<usize> {
        match stack {
            Stack::Open => &mut self.open,
            Stack::FaceDown => &mut self.face_down,
        }
    }

    /// The top card of `stack` was shown to be `card`.
    fn show(&mut self, stack: Stack, card: Option<Card>) {
        if let Some(&top) = self.stack(stack).last() {
            self.bind(top, card, None);
        }
    }

    fn bind(&mut self, place: usize, card: Option<Card>, kind: Option<Kind>) {
        if card.is_some() {
            self.card[place] = card;
        }
        if kind.is_some() {
            self.kind[place] = kind;
        }
    }

    /// `card` left the hand of `seat`: the place holding it, or, when the seat never saw it
    /// there, a place of that hand not shown yet (and of the card's kind if one was announced).
    fn take(&mut self, seat: usize, card: Option<Card>) {
        let Some(card) = card else { return };
        let Some(hand) = self.hands.get(seat) else {
            return;
        };
        let at = hand
            .iter()
            .position(|&p| self.card[p] == Some(card))
            .or_else(|| {
                hand.iter().position(|&p| {
                    self.card[p].is_none() && self.kind[p].is_none_or(|k| k == kind_of(card))
                })
            });
        if let Some(at) = at {
            let place = self.hands[seat].remove(at);
            self.card[place] = Some(card);
        }
    }

    /// A shuffle (the 40 places' cards) in which every shown place holds what it showed and the
    /// cards never shown lie at random in the places never shown.
    fn deal(&mut self, rng: &mut GameRng) -> Vec<Card> {
        let shown: Vec<Card> = self.card[..CARD_COUNT].iter().flatten().copied().collect();
        let mut unseen: Vec<Card> = (0..CARD_COUNT as Card)
            .filter(|c| !shown.contains(c))
            .collect();
        rng.shuffle(&mut unseen);
        // Places of an announced kind first, each from the unseen cards of that kind.
        for place in 0..CARD_COUNT {
            if let (None, Some(kind)) = (self.card[place], self.kind[place]) {
                if let Some(at) = unseen.iter().position(|&c| kind_of(c) == kind) {
                    self.card[place] = Some(unseen.remove(at));
                }
            }
        }
        let mut unseen = unseen.into_iter();
        self.card[..CARD_COUNT]
            .iter()
            .map(|c| c.or_else(|| unseen.next()).unwrap_or(0))
            .collect()
    }
}

fn card_of(value: &Value) -> Option<Card> {
    value
        .as_u64()
        .filter(|&c| (c as usize) < CARD_COUNT)
        .map(|c| c as Card)
}

fn stack_of(value: &Value) -> Stack {
    if value == "face_down" {
        Stack::FaceDown
    } else {
        Stack::Open
    }
}

fn kind_from(value: &Value) -> Option<Kind> {
    serde_json::from_value(value.clone()).ok()
}
