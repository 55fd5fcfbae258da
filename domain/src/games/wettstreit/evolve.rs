//! The fold: every event changes the state in one obvious way, and sets the phase that follows.
//! Phases that never wait (`AuctionClosing`, `TurnOver`, `CardUnder` with unequal stacks) are
//! left by the automatic events `decide` appends (see `turn::settle`).

use crate::contract::Seat;

use super::events::*;
use super::options::*;
use super::state::*;

pub fn evolve(state: &mut State, event: &WettstreitEvent) {
    use WettstreitEvent as E;
    match event {
        E::WettstreitGameStarted(e) => wettstreit_game_started(state, e),
        E::WettstreitCardsShuffled(e) => wettstreit_cards_shuffled(state, e),
        E::OpenStackTopShown(e) => open_stack_top_shown(state, e),
        E::IncomeRolled(e) => income_rolled(state, e),
        E::SaboteurTaken(e) => saboteur_taken(state, e),
        E::CardPutUpForAuction(e) => card_put_up_for_auction(state, e),
        E::AuctionOpened(e) => auction_opened(state, e),
        E::BidRaised(e) => bid_raised(state, e),
        E::BidPassed(e) => bid_passed(state, e),
        E::CardKindAnnounced(e) => card_kind_announced(state, e),
        E::BidderInsolvent(e) => bidder_insolvent(state, e),
        E::AuctionWon(e) => auction_won(state, e),
        E::AuctionCardRemoved(e) => auction_card_removed(state, e),
        E::CardPutUnderStack(e) => card_put_under_stack(state, e),
        E::CityFounded(e) => city_founded(state, e),
        E::CardBuilt(e) => card_built(state, e),
        E::BuildingSabotaged(e) => building_sabotaged(state, e),
        E::BuildingRansomed(e) => building_ransomed(state, e),
        E::BuildingRemoved(e) => building_removed(state, e),
        E::HandSabotaged(e) => hand_sabotaged(state, e),
        E::WettstreitTurnBegan(e) => wettstreit_turn_began(state, e),
        E::WettstreitGameEnded(e) => wettstreit_game_ended(state, e),
    }
}

fn wettstreit_game_started(state: &mut State, e: &WettstreitGameStarted) {
    let n = e.players as usize;
    *state = State {
        players: e.players,
        phase: Phase::Income,
        turn: e.starting_seat,
        // Saturating: a forged event may claim more players than the bank can pay.
        bank: TOTAL_TALER.saturating_sub(STARTING_PURSE * u32::from(e.players)),
        purses: vec![STARTING_PURSE; n],
        hands: vec![Vec::new(); n],
        cities: vec![Vec::new(); n],
        saboteurs: vec![0; n],
        supply: SABOTEURS,
        ..State::default()
    };
}

fn wettstreit_cards_shuffled(state: &mut State, e: &WettstreitCardsShuffled) {
    state.open = e.open.clone().unwrap_or_default();
    state.face_down = e.face_down.clone().unwrap_or_default();
}

fn open_stack_top_shown(state: &mut State, e: &OpenStackTopShown) {
    state.open_top_shown = e.card;
}

fn income_rolled(state: &mut State, e: &IncomeRolled) {
    let taler = e.taler.unwrap_or(0).min(state.bank);
    state.bank -= taler;
    state.purses[e.seat as usize] += taler;
    state.last_die = Some(e.die);
    let others_hold = (0..state.players).any(|s| s != e.seat && state.saboteurs[s as usize] > 0);
    state.phase = if e.die == DieFace::Saboteur && state.supply == 0 && others_hold {
        Phase::TakeSaboteur
    } else {
        Phase::Auction
    };
}

fn saboteur_taken(state: &mut State, e: &SaboteurTaken) {
    match e.from {
        None => state.supply = state.supply.saturating_sub(1),
        Some(from) => {
            let held = &mut state.saboteurs[from as usize];
            *held = held.saturating_sub(1);
        }
    }
    state.saboteurs[e.seat as usize] += 1;
    state.phase = Phase::Auction;
}

fn card_put_up_for_auction(state: &mut State, e: &CardPutUpForAuction) {
    state.auction = Some(up_for_auction(state, e.auctioneer, e.stack));
    state.phase = Phase::OpeningBid;
}

fn auction_opened(state: &mut State, e: &AuctionOpened) {
    // Lenient, like every fold here: an opening bid with no card put up before it puts
    // up the top card itself.
    if state.auction.is_none() {
        state.auction = Some(up_for_auction(state, e.auctioneer, e.stack));
    }
    let next = state.next_seat(e.auctioneer);
    if let Some(a) = &mut state.auction {
        a.high_bid = e.opening_bid;
        a.bids[e.auctioneer as usize] = Some(e.opening_bid);
        a.next = next;
    }
    state.phase = Phase::Bidding;
}

fn bid_raised(state: &mut State, e: &BidRaised) {
    let players = state.players;
    if let Some(a) = &mut state.auction {
        a.high_bid = e.amount;
        a.high_bidder = e.seat;
        a.bids[e.seat as usize] = Some(e.amount);
        a.next = next_bidder(a, e.seat, players);
    }
}

fn bid_passed(state: &mut State, e: &BidPassed) {
    let players = state.players;
    if let Some(a) = &mut state.auction {
        a.passed[e.seat as usize] = true;
        if a.passed.iter().filter(|p| !**p).count() <= 1 {
            state.phase = Phase::AuctionClosing;
        } else {
            a.next = next_bidder(a, e.seat, players);
        }
    }
}

fn card_kind_announced(state: &mut State, _: &CardKindAnnounced) {
    if let Some(a) = &mut state.auction {
        a.announced = true;
    }
}

fn bidder_insolvent(state: &mut State, e: &BidderInsolvent) {
    let purse = &mut state.purses[e.seat as usize];
    state.bank += *purse;
    *purse = 0;
    if let Some(a) = &mut state.auction {
        a.bids[e.seat as usize] = None;
        if e.seat == a.auctioneer {
            a.auctioneer_insolvent = true;
        }
    }
}

fn auction_won(state: &mut State, e: &AuctionWon) {
    let Some(a) = state.auction.take() else {
        return;
    };
    let card = pop_auctioned(state, &a);
    let buyer = e.buyer as usize;
    state.purses[buyer] = state.purses[buyer].saturating_sub(e.price);
    state.purses[e.auctioneer as usize] += e.to_auctioneer;
    state.bank += e.to_bank;
    let public = a.stack == Stack::Open;
    state.hands[buyer].push(HandCard {
        card,
        public,
        kind_public: public || a.announced,
        seen_by: if public { 0 } else { 1 << a.auctioneer },
    });
    state.phase = Phase::Build;
}

fn auction_card_removed(state: &mut State, _: &AuctionCardRemoved) {
    let Some(a) = state.auction.take() else {
        return;
    };
    let card = pop_auctioned(state, &a);
    state.removed.push(HandCard {
        card,
        public: a.stack == Stack::Open,
        kind_public: a.stack == Stack::Open || a.announced,
        seen_by: 1 << a.auctioneer,
    });
    // The auctioneer still builds or sabotages.
    state.phase = Phase::Build;
}

fn card_put_under_stack(state: &mut State, e: &CardPutUnderStack) {
    if let Some(under) = state.card_under.take() {
        state.stack_mut(e.stack).insert(0, under.card);
        state.phase = Phase::TurnOver;
    }
}

fn city_founded(state: &mut State, e: &CityFounded) {
    for &card in &e.cards {
        state.take_from_hand(e.seat, card);
    }
    state.cities[e.seat as usize] = e.cards.iter().map(|&c| Some(c)).collect();
    state.built_this_turn += e.cards.len() as u8;
    after_building(state);
}

fn card_built(state: &mut State, e: &CardBuilt) {
    state.take_from_hand(e.seat, e.card);
    let city = &mut state.cities[e.seat as usize];
    if e.slot < 0 {
        city.insert(0, Some(e.card));
    } else if e.slot as usize >= city.len() {
        city.push(Some(e.card));
    } else {
        city[e.slot as usize] = Some(e.card);
    }
    state.built_this_turn += 1;
    after_building(state);
}

fn building_sabotaged(state: &mut State, e: &BuildingSabotaged) {
    // The saboteur always returns to the supply.
    state.saboteurs[e.by as usize] = state.saboteurs[e.by as usize].saturating_sub(1);
    state.supply += 1;
    state.phase = match e.die {
        DieFace::One | DieFace::Two => Phase::TurnOver,
        DieFace::Saboteur => Phase::Build, // BuildingRemoved follows at once
        _ => {
            state.ransom = Some(Ransom {
                saboteur: e.by,
                owner: e.target,
                card: e.card,
            });
            Phase::OwnerChoice
        }
    };
}

fn building_ransomed(state: &mut State, e: &BuildingRansomed) {
    let owner = e.owner as usize;
    state.purses[owner] = state.purses[owner].saturating_sub(e.amount);
    state.purses[e.paid_to as usize] += e.amount;
    state.ransom = None;
    state.phase = Phase::TurnOver;
}

fn building_removed(state: &mut State, e: &BuildingRemoved) {
    let city = &mut state.cities[e.owner as usize];
    for slot in city.iter_mut() {
        if *slot == Some(e.card) {
            *slot = None;
        }
    }
    while city.last() == Some(&None) {
        city.pop();
    }
    while city.first() == Some(&None) {
        city.remove(0);
    }
    state.ransom = None;
    state.card_under = Some(CardUnder {
        card: e.card,
        chooser: state.turn,
    });
    state.phase = Phase::CardUnder;
}

fn hand_sabotaged(state: &mut State, e: &HandSabotaged) {
    state.saboteurs[e.by as usize] = state.saboteurs[e.by as usize].saturating_sub(1);
    state.supply += 1;
    state.take_from_hand(e.target, e.card);
    state.card_under = Some(CardUnder {
        card: e.card,
        chooser: e.by,
    });
    state.phase = Phase::CardUnder;
}

fn wettstreit_turn_began(state: &mut State, e: &WettstreitTurnBegan) {
    state.turn = e.seat;
    state.final_round = e.final_round;
    state.built_this_turn = 0;
    state.phase = if e.final_round {
        Phase::Build
    } else {
        Phase::Income
    };
}

fn wettstreit_game_ended(state: &mut State, e: &WettstreitGameEnded) {
    state.ended = Some(e.clone());
    state.phase = Phase::Ended;
}

/// The auction of the top card of `stack`, before the opening bid.
fn up_for_auction(state: &State, auctioneer: Seat, stack: Stack) -> Auction {
    let n = state.players as usize;
    Auction {
        auctioneer,
        stack,
        card: state.stack(stack).last().copied().unwrap_or_default(),
        high_bid: 0,
        high_bidder: auctioneer,
        bids: vec![None; n],
        passed: vec![false; n],
        next: auctioneer,
        announced: false,
        auctioneer_insolvent: false,
    }
}

/// Takes the auctioned card off its stack; auctioning a stack's last card starts the end.
fn pop_auctioned(state: &mut State, auction: &Auction) -> Card {
    let stack = state.stack_mut(auction.stack);
    let card = stack.pop().unwrap_or(auction.card);
    if stack.is_empty() {
        state.final_trigger = Some(auction.auctioneer);
    }
    card
}

/// Three cards laid end the building for this turn.
fn after_building(state: &mut State) {
    if state.built_this_turn >= CARDS_PER_TURN {
        state.phase = Phase::TurnOver;
    }
}

/// The next seat after `seat` still in the auction.
pub fn next_bidder(auction: &Auction, seat: u8, players: u8) -> u8 {
    let mut s = (seat + 1) % players;
    for _ in 0..players {
        if !auction.passed[s as usize] {
            return s;
        }
        s = (s + 1) % players;
    }
    seat
}
