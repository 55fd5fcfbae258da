//! Whole games by random legal moves: every game ends, replay equals state, money (bank + purses
//! = 90), cards (40, each exactly once) and saboteurs (5) are conserved, and at every step no
//! seat's view or event log shows another seat's money, a hand card it was not shown, a
//! face-down card, or the kind of a card before it was announced; the auctioneer alone sees the
//! face-down card from the moment they put it up for auction.
//!
//! Two players: one like a person at the table (bids near the price, builds), and the uniform
//! one every game must survive: it picks among all listed commands alike, bids included, so it
//! overbids wildly and nearly every auction ends in insolvency.

use std::collections::HashSet;

use proptest::prelude::*;
use serde_json::Value;

use super::super::commands::*;
use super::super::events::*;
use super::super::options::*;
use super::super::state::*;
use super::super::view::*;
use super::super::Wettstreit;
use crate::contract::{Ctx, Game, Seat, Viewer};
use crate::rng::GameRng;
use crate::schema::TaggedUnion;
use crate::testing::{check_judged_view, random_game, viewers};

/// Chooses like a player rather than uniformly: bids stay near the price, cities get built. A
/// uniform choice bids 90 almost always, and so nearly every auction ends in insolvency. A
/// player knows their own money (`purse`) and mostly bids within it, but not always.
fn choose(rng: &mut GameRng, legal: &[WettstreitCommand], purse: u32) -> usize {
    use WettstreitCommand as C;
    let find = |f: &dyn Fn(&C) -> bool| -> Vec<usize> {
        legal
            .iter()
            .enumerate()
            .filter(|(_, c)| f(c))
            .map(|(i, _)| i)
            .collect()
    };
    let pick = |rng: &mut GameRng, v: &[usize]| v[rng.index(v.len())];
    let roll = rng.below(100);
    if matches!(legal[0], C::PassBid(_)) {
        // Pass often, and mostly when the price passes the purse; otherwise raise by 1 to 3.
        let over_purse = matches!(legal[1..].first(), Some(C::RaiseBid(r)) if r.amount > purse);
        if roll < 60 || legal.len() == 1 || (over_purse && roll < 95) {
            return 0;
        }
        return 1 + rng.index((legal.len() - 1).min(3));
    }
    if matches!(legal[0], C::MakeOpeningBid(_)) {
        let low = find(&|c| matches!(c, C::MakeOpeningBid(b) if b.amount <= 6));
        return pick(rng, &low);
    }
    let builds = find(&|c| matches!(c, C::FoundCity(_) | C::BuildCard(_)));
    let sabotage = find(&|c| matches!(c, C::SabotageBuilding(_) | C::SabotageHand(_)));
    if !sabotage.is_empty() && roll < 25 {
        return pick(rng, &sabotage);
    }
    if !builds.is_empty() && roll < 85 {
        return pick(rng, &builds);
    }
    if let Some(finish) = find(&|c| matches!(c, C::FinishBuildStep(_))).first() {
        if roll < 95 || builds.is_empty() {
            return *finish;
        }
    }
    rng.index(legal.len())
}

fn check_conservation(state: &State) {
    assert_eq!(
        state.bank + state.purses.iter().sum::<u32>(),
        TOTAL_TALER,
        "money is conserved"
    );
    assert_eq!(
        state.supply + state.saboteurs.iter().sum::<u8>(),
        SABOTEURS,
        "saboteurs are conserved"
    );
    // Each card once: 40 cards counted, and 40 distinct bits set.
    let mut count = 0;
    let mut seen = 0u64;
    let mut see = |card: Card| {
        count += 1;
        seen |= 1 << card;
    };
    state
        .open
        .iter()
        .chain(&state.face_down)
        .for_each(|&c| see(c));
    for hand in &state.hands {
        hand.iter().for_each(|h| see(h.card));
    }
    for city in &state.cities {
        city.iter().flatten().for_each(|&c| see(c));
        assert!(city.first() != Some(&None) && city.last() != Some(&None));
    }
    state.card_under.iter().for_each(|u| see(u.card));
    state.removed.iter().for_each(|r| see(r.card));
    assert_eq!(
        (count, seen),
        (CARD_COUNT, (1u64 << CARD_COUNT) - 1),
        "40 cards, each once"
    );
}

/// Every card id a JSON value names (fields `card`, `cards`, `open`, `face_down`).
fn card_ids(value: &Value, out: &mut Vec<Card>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("card", Value::Number(n)) => out.push(n.as_u64().unwrap() as Card),
                    ("cards" | "open" | "face_down", Value::Array(items))
                        if items.iter().all(Value::is_number) =>
                    {
                        out.extend(items.iter().map(|n| n.as_u64().unwrap() as Card))
                    }
                    _ => card_ids(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| card_ids(v, out)),
        _ => {}
    }
}

/// Every card id a view names (typed walk: serializing every view at every step is slow).
fn view_card_ids(view: &WettstreitView) -> Vec<Card> {
    let mut ids: Vec<Card> = Vec::new();
    let faces = [
        &view.open_stack.top,
        &view.face_down_stack.top,
        &view.auction.as_ref().and_then(|a| a.top.clone()),
        &view.ransom.as_ref().map(|r| r.building.clone()),
        &view.card_under.as_ref().map(|u| u.card.clone()),
    ];
    ids.extend(faces.iter().filter_map(|f| f.as_ref().map(|f| f.card)));
    ids.extend(view.removed.cards.iter().map(|f| f.card));
    for p in &view.players {
        ids.extend(p.hand.iter().map(|f| f.card));
        ids.extend(p.city.iter().flatten().map(|f| f.card));
    }
    ids
}

#[test]
fn the_typed_walk_finds_every_card_a_view_names() {
    // The typed walk must see what a JSON walk sees, bar the catalogue (which names ids as `id`).
    let mut ctx = Ctx::new(3, 0);
    let mut state = Wettstreit::initial();
    for e in Wettstreit::setup(&WettstreitOptions::default(), 3, &mut ctx).unwrap() {
        Wettstreit::evolve(&mut state, &e);
    }
    let view = Wettstreit::view(&state, Viewer::Everyone);
    let mut json = Vec::new();
    card_ids(&serde_json::to_value(&view).unwrap(), &mut json);
    let mut typed = view_card_ids(&view);
    json.sort();
    typed.sort();
    assert_eq!(json, typed);
}

/// What each seat may know, learnt the way a player at the table learns it.
struct Knowledge {
    public: HashSet<Card>,
    seat: Vec<HashSet<Card>>,
    /// Cards whose kind (not value) the auctioneer named to all.
    announced: HashSet<Card>,
    /// The card of the running auction (an announcement names no card).
    auction_card: Option<Card>,
}

impl Knowledge {
    fn new(players: u8) -> Self {
        Knowledge {
            public: HashSet::new(),
            seat: vec![HashSet::new(); players as usize],
            announced: HashSet::new(),
            auction_card: None,
        }
    }

    fn learn(&mut self, state: &State, events: &[WettstreitEvent]) {
        use WettstreitEvent as E;
        self.public.extend(state.open.last());
        for city in &state.cities {
            self.public.extend(city.iter().flatten());
        }
        for (s, hand) in state.hands.iter().enumerate() {
            self.seat[s].extend(hand.iter().map(|h| h.card));
        }
        if let Some(a) = &state.auction {
            if a.stack == Stack::FaceDown {
                self.seat[a.auctioneer as usize].insert(a.card);
            } else {
                self.public.insert(a.card);
            }
        }
        for event in events {
            match event {
                E::HandSabotaged(e) => {
                    self.public.insert(e.card);
                }
                E::CardPutUpForAuction(e) => {
                    self.auction_card = e.card;
                    if e.stack == Stack::FaceDown {
                        self.seat[e.auctioneer as usize].extend(e.card);
                    }
                }
                E::CardKindAnnounced(_) => self.announced.extend(self.auction_card),
                _ => {}
            }
        }
    }

    fn may_know(&self, viewer: Viewer, card: Card) -> bool {
        self.public.contains(&card)
            || matches!(viewer, Viewer::Seat(s) if self.seat[s as usize].contains(&card))
    }

    fn may_know_kind(&self, viewer: Viewer, card: Card) -> bool {
        self.may_know(viewer, card) || self.announced.contains(&card)
    }

    /// Whether every kind in `told` (a view's announced kinds of these cards) is the kind of a
    /// different one of `cards` whose kind `viewer` may know.
    fn may_be_told(
        &self,
        viewer: Viewer,
        told: &[Kind],
        cards: impl Iterator<Item = Card>,
    ) -> bool {
        let mut knowable: Vec<Kind> = cards
            .filter(|&c| self.may_know_kind(viewer, c))
            .map(kind_of)
            .collect();
        told.iter()
            .all(|kind| match knowable.iter().position(|k| k == kind) {
                Some(i) => {
                    knowable.swap_remove(i);
                    true
                }
                None => false,
            })
    }
}

fn check_hidden(state: &State, new_events: &[WettstreitEvent], knowledge: &Knowledge) {
    use WettstreitEvent as E;
    // Undo's judgement compares the view without the catalogue: it must be all that is left
    // out, and the same for every viewer.
    check_judged_view::<Wettstreit>(
        state,
        &viewers(state.players),
        |judged| judged.catalogue.is_empty(),
        |judged, everyone| WettstreitView {
            catalogue: everyone.catalogue.clone(),
            ..judged
        },
    );
    for viewer in viewers(state.players) {
        let view = Wettstreit::view(state, viewer);
        if viewer == Viewer::Everyone {
            continue;
        }
        for p in &view.players {
            if viewer != Viewer::Seat(p.seat) {
                assert_eq!(p.money, None, "{viewer:?} sees seat {}'s money", p.seat);
                assert!(p.hand.len() + p.announced_kinds.len() <= p.hand_count as usize);
                let hand = state.hands[p.seat as usize].iter().map(|h| h.card);
                assert!(
                    knowledge.may_be_told(viewer, &p.announced_kinds, hand),
                    "{viewer:?} is told the kinds {:?} of seat {}'s cards",
                    p.announced_kinds,
                    p.seat
                );
            }
        }
        let removed = state.removed.iter().map(|r| r.card);
        assert!(knowledge.may_be_told(viewer, &view.removed.announced_kinds, removed));
        if let (Some(shown), Some(a)) = (&view.auction, &state.auction) {
            if shown.announced_kind.is_some() {
                assert!(
                    knowledge.announced.contains(&a.card),
                    "{viewer:?} is told the kind before the announcement"
                );
            }
        }
        assert_eq!(view.bank, None, "{viewer:?} counts the bank");
        let auctioneer_of_face_down = state
            .auction
            .as_ref()
            .filter(|a| a.stack == Stack::FaceDown)
            .map(|a| Viewer::Seat(a.auctioneer));
        assert_eq!(
            view.face_down_stack.top.is_some(),
            auctioneer_of_face_down == Some(viewer),
            "only the auctioneer sees the face-down card, during the auction"
        );
        let mut ids = view_card_ids(&view);
        for event in new_events {
            let redacted = Wettstreit::redact(state, event, viewer).expect("every event is shown");
            assert_eq!(redacted.tag(), event.tag());
            match &redacted {
                WettstreitEvent::IncomeRolled(e) if viewer != Viewer::Seat(e.seat) => {
                    assert_eq!(e.taler, None)
                }
                WettstreitEvent::BidderInsolvent(e) if viewer != Viewer::Seat(e.seat) => {
                    assert_eq!(e.forfeited, None)
                }
                _ => {}
            }
            // A kind in the log: of a card the viewer knows, or whose kind was announced.
            let told_kind = match (event, &redacted) {
                (E::AuctionWon(e), E::AuctionWon(r)) => e.card.filter(|_| r.kind.is_some()),
                (E::AuctionCardRemoved(e), E::AuctionCardRemoved(r)) => {
                    e.card.filter(|_| r.kind.is_some())
                }
                _ => None,
            };
            if let Some(card) = told_kind {
                assert!(
                    knowledge.may_know_kind(viewer, card),
                    "{viewer:?} is told the kind of card {card}"
                );
            }
            card_ids(&serde_json::to_value(&redacted).unwrap(), &mut ids);
        }
        for id in ids {
            assert!(
                knowledge.may_know(viewer, id),
                "{viewer:?} is shown card {id} it may not know"
            );
        }
    }
}

/// Plays a whole game with [`choose`], checking at every step conservation and that exactly the
/// seat asked to act has commands, all accepted; `thorough` adds hidden information and the
/// JSON round trip of every event (the costly checks). Returns the number of moves.
fn play(seats: u8, seed: u64, thorough: bool) -> usize {
    let mut picker = GameRng::from_seed(seed ^ 0xbee);
    let mut ctx = Ctx::new(seed, 0);
    let mut state = Wettstreit::initial();
    let mut events = Wettstreit::setup(&WettstreitOptions::default(), seats, &mut ctx).unwrap();
    for e in &events {
        Wettstreit::evolve(&mut state, e);
    }
    let mut knowledge = Knowledge::new(seats);
    knowledge.learn(&state, &events);
    if thorough {
        check_hidden(&state, &events, &knowledge);
    }
    let mut moves = 0;
    loop {
        let status = Wettstreit::status(&state);
        if status.finished {
            assert!(status.to_act.is_empty());
            assert!((0..seats).all(|s| Wettstreit::legal_commands(&state, s).is_empty()));
            assert_eq!(status.scores.as_ref().unwrap().len(), seats as usize);
            assert!(!status.winners.is_empty());
            break;
        }
        assert!(moves < 5_000, "seed {seed}: the game does not end");
        assert_eq!(status.to_act.len(), 1, "one seat acts at a time");
        let seat: Seat = status.to_act[0];
        for other in (0..seats).filter(|&s| s != seat) {
            assert!(Wettstreit::legal_commands(&state, other).is_empty());
        }
        let legal = Wettstreit::legal_commands(&state, seat);
        assert!(!legal.is_empty(), "seat {seat} must act but has no command");
        let command = legal[choose(&mut picker, &legal, state.purses[seat as usize])].clone();
        let mut ctx = Ctx::new(picker.next_u64(), 0);
        let new = Wettstreit::decide(&state, seat, &command, &mut ctx)
            .unwrap_or_else(|e| panic!("seed {seed}: listed {command:?} refused: {e:?}"));
        for e in &new {
            if thorough {
                let back: WettstreitEvent =
                    serde_json::from_value(serde_json::to_value(e).unwrap()).unwrap();
                assert_eq!(&back, e, "events survive JSON");
            }
            Wettstreit::evolve(&mut state, e);
        }
        check_conservation(&state);
        if thorough {
            knowledge.learn(&state, &new);
            if !Wettstreit::status(&state).finished {
                check_hidden(&state, &new, &knowledge);
            }
        }
        events.extend(new);
        moves += 1;
    }
    let mut replayed = Wettstreit::initial();
    for e in &events {
        Wettstreit::evolve(&mut replayed, e);
    }
    assert_eq!(replayed, state, "replay(events) == state");
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_end_conserve_and_hide_what_the_rules_hide(seed in any::<u64>(), seats in 3u8..=4) {
        play(seats, seed, true);
    }
}

/// A plain loop over seeds (cheaper than proptest's machinery); every 40th game also checks
/// hidden information at every step.
fn many_games(seats: u8, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        play(seats, seed, seed % 40 == 0);
    }
}

#[test]
fn fifteen_hundred_random_three_player_games_end_with_everything_conserved() {
    many_games(3, 0..1500);
}

#[test]
fn fifteen_hundred_random_four_player_games_end_with_everything_conserved() {
    many_games(4, 0..1500);
}

/// The bound on a whole game's commands under uniformly random play, bids drawn uniformly from
/// the listed 1..=90. Measured over 20,000 games per table size (seeds 0..20000): the longest
/// took 424 commands with 3 players and 472 with 4 (means 345 and 387). A card nobody can pay
/// for leaves the game, so every auction takes a card off the stacks for good (into a hand or
/// out); only sabotage puts cards back, one per saboteur, and saboteurs come one per saboteur
/// roll.
const UNIFORM_BOUND: usize = 1_000;

fn uniform_games(seats: u8, seeds: std::ops::Range<u64>) -> usize {
    let mut longest = 0;
    for seed in seeds {
        let game = random_game::<Wettstreit>(
            &WettstreitOptions::default(),
            seats,
            seed,
            UNIFORM_BOUND,
            |state, _| check_conservation(state),
        );
        assert!(
            game.status.finished,
            "seed {seed}, {seats} players: no end after {UNIFORM_BOUND} uniformly random commands"
        );
        longest = longest.max(game.moves);
    }
    longest
}

#[test]
fn uniformly_random_play_ends_every_three_player_game_within_the_bound() {
    let longest = uniform_games(3, 0..1500);
    assert!(longest < UNIFORM_BOUND, "{longest}");
}

#[test]
fn uniformly_random_play_ends_every_four_player_game_within_the_bound() {
    let longest = uniform_games(4, 0..1500);
    assert!(longest < UNIFORM_BOUND, "{longest}");
}

/// Commands of every sort, legal or not, for the state: bids around the limits, every card at
/// every slot, every target.
fn candidates(state: &State, seat: Seat) -> Vec<WettstreitCommand> {
    let mut out: Vec<WettstreitCommand> = vec![
        RollIncomeDie {}.into(),
        PassBid {}.into(),
        PayToKeepBuilding {}.into(),
        LetBuildingFall {}.into(),
        FinishBuildStep {}.into(),
    ];
    let high = state.auction.as_ref().map_or(0, |a| a.high_bid);
    for stack in [Stack::Open, Stack::FaceDown] {
        out.push(PutCardUnderStack { stack }.into());
        out.push(AuctionTopCard { stack }.into());
    }
    for amount in [0, 1, 2, 45, 90, 91] {
        out.push(MakeOpeningBid { amount }.into());
    }
    for amount in [0, high, high + 1, high + 2, 90, 91] {
        out.push(RaiseBid { amount }.into());
    }
    for target in 0..=state.players {
        out.push(TakeSaboteurFrom { from: target }.into());
        out.push(SabotageHand { target }.into());
        for card in 0..CARD_COUNT as u8 {
            out.push(SabotageBuilding { target, card }.into());
        }
    }
    let len = state
        .cities
        .get(seat as usize)
        .map_or(0, |c| c.len() as i16);
    for card in 0..CARD_COUNT as u8 {
        for slot in -2..=len + 1 {
            out.push(BuildCard { card, slot }.into());
        }
    }
    let hand: Vec<Card> = state
        .hands
        .get(seat as usize)
        .map(|h| h.iter().map(|h| h.card).take(6).collect())
        .unwrap_or_default();
    for &a in &hand {
        for &b in &hand {
            out.push(FoundCity { cards: vec![a, b] }.into());
            for &c in &hand {
                out.push(
                    FoundCity {
                        cards: vec![a, b, c],
                    }
                    .into(),
                );
            }
        }
    }
    out.push(
        FoundCity {
            cards: vec![0, 1, 2],
        }
        .into(),
    );
    out.push(
        FoundCity {
            cards: hand.clone(),
        }
        .into(),
    );
    out
}

#[test]
fn decide_accepts_exactly_the_listed_commands_and_never_panics() {
    for seed in 0..8u64 {
        let mut picker = GameRng::from_seed(seed);
        let mut ctx = Ctx::new(seed, 0);
        let seats = 3 + (seed % 2) as u8;
        let mut state = Wettstreit::initial();
        for e in Wettstreit::setup(&WettstreitOptions::default(), seats, &mut ctx).unwrap() {
            Wettstreit::evolve(&mut state, &e);
        }
        let mut step = 0;
        while !Wettstreit::status(&state).finished {
            let to_act = Wettstreit::status(&state).to_act[0];
            if step % 3 == 0 {
                for seat in 0..=seats {
                    let legal = Wettstreit::legal_commands(&state, seat);
                    for command in candidates(&state, seat) {
                        let accepted =
                            Wettstreit::decide(&state, seat, &command, &mut Ctx::new(step, 0))
                                .is_ok();
                        let listed = legal.contains(&command);
                        assert_eq!(
                            accepted, listed,
                            "seat {seat} {command:?} in {:?}",
                            state.phase
                        );
                    }
                }
            }
            let legal = Wettstreit::legal_commands(&state, to_act);
            let command = legal[choose(&mut picker, &legal, state.purses[to_act as usize])].clone();
            let mut ctx = Ctx::new(picker.next_u64(), 0);
            for e in Wettstreit::decide(&state, to_act, &command, &mut ctx).unwrap() {
                Wettstreit::evolve(&mut state, &e);
            }
            step += 1;
        }
        // And once it has ended, everything is refused as `game_over`.
        for command in candidates(&state, 0) {
            let refused = Wettstreit::decide(&state, 0, &command, &mut Ctx::new(0, 0));
            assert_eq!(refused.unwrap_err().code, "game_over");
        }
    }
}
