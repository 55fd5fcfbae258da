//! One test per rule, given / when / then, and the rules page's worked scoring checks.

use super::model::*;
use super::{score_city, Wettstreit};
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

// ---- income ---------------------------------------------------------------------------------

#[test]
fn income_pays_the_die_and_one_taler_per_coin_on_built_gates() {
    let mut g = given::<Wettstreit>(standard()).seed(seed_rolling(DieFace::Four));
    city(&mut g, 0, &[Some(G2), Some(TW1), Some(G4)]); // 2 + 1 coins
    let state = g.when(0, RollIncomeDie {}).then([IncomeRolled {
        seat: 0,
        die: DieFace::Four,
        gate_coins: 3,
        taler: Some(7),
    }
    .into()]);
    assert_eq!(state.purses[0], 17);
    assert_eq!(state.bank, 60 - 7);
    assert_eq!(state.phase, Phase::Auction);
}

#[test]
fn the_saboteur_face_pays_only_the_gates_and_brings_a_saboteur_from_the_supply() {
    let mut g = given::<Wettstreit>(standard()).seed(seed_rolling(DieFace::Saboteur));
    city(&mut g, 0, &[Some(G5), Some(TW1), Some(G3)]);
    let state = g.when(0, RollIncomeDie {}).then([
        IncomeRolled {
            seat: 0,
            die: DieFace::Saboteur,
            gate_coins: 3,
            taler: Some(3),
        }
        .into(),
        SaboteurTaken {
            seat: 0,
            from: None,
        }
        .into(),
    ]);
    assert_eq!((state.saboteurs[0], state.supply), (1, 4));
}

#[test]
fn with_the_supply_empty_the_roller_takes_a_saboteur_from_a_player_of_their_choice() {
    let mut g = given::<Wettstreit>(standard()).seed(seed_rolling(DieFace::Saboteur));
    g.state.supply = 0;
    g.state.saboteurs = vec![0, 3, 2];
    let (_, state) = g.when(0, RollIncomeDie {}).accepted();
    assert_eq!(state.phase, Phase::TakeSaboteur);
    assert_eq!(
        Wettstreit::legal_commands(&state, 0),
        vec![
            TakeSaboteurFrom { from: 1 }.into(),
            TakeSaboteurFrom { from: 2 }.into()
        ]
    );
    let state = from(state)
        .when(0, TakeSaboteurFrom { from: 2 })
        .then([SaboteurTaken {
            seat: 0,
            from: Some(2),
        }
        .into()]);
    assert_eq!(state.saboteurs, vec![1, 3, 1]);
    assert_eq!(state.phase, Phase::Auction);
}

#[test]
fn a_saboteur_cannot_be_taken_from_oneself_or_from_a_player_without_one() {
    let mut g = given::<Wettstreit>(standard());
    g.state.phase = Phase::TakeSaboteur;
    g.state.supply = 0;
    g.state.saboteurs = vec![1, 4, 0];
    let s = g.state.clone();
    from(s.clone())
        .when(0, TakeSaboteurFrom { from: 0 })
        .then_error("saboteur_from_other_player");
    from(s)
        .when(0, TakeSaboteurFrom { from: 2 })
        .then_error("player_has_no_saboteur");
}

#[test]
fn with_all_saboteurs_in_the_rollers_hands_the_saboteur_face_brings_nothing() {
    let mut g = given::<Wettstreit>(standard()).seed(seed_rolling(DieFace::Saboteur));
    g.state.supply = 0;
    g.state.saboteurs = vec![5, 0, 0];
    let (events, state) = g.when(0, RollIncomeDie {}).accepted();
    assert_eq!(events.len(), 1);
    assert_eq!(state.phase, Phase::Auction);
}

#[test]
fn a_bank_that_cannot_pay_in_full_pays_what_it_has() {
    let mut g = given::<Wettstreit>(standard()).seed(seed_rolling(DieFace::Five));
    g.state.bank = 2;
    g.state.purses = vec![40, 24, 24];
    let state = g.when(0, RollIncomeDie {}).then([IncomeRolled {
        seat: 0,
        die: DieFace::Five,
        gate_coins: 0,
        taler: Some(2),
    }
    .into()]);
    assert_eq!((state.bank, state.purses[0]), (0, 42));
}

#[test]
fn only_the_player_whose_turn_it_is_rolls_and_only_once() {
    given::<Wettstreit>(standard())
        .when(1, RollIncomeDie {})
        .then_error("not_your_turn");
    let (_, state) = given::<Wettstreit>(standard())
        .when(0, RollIncomeDie {})
        .accepted();
    from(state)
        .when(0, RollIncomeDie {})
        .then_error("wrong_step");
}

// ---- auction --------------------------------------------------------------------------------

fn at_auction() -> Given<Wettstreit> {
    let mut g = given::<Wettstreit>(standard());
    g.state.phase = Phase::Auction;
    g
}

#[test]
fn the_auctioneer_opens_with_at_least_one_taler_and_bidding_goes_on_with_the_next_seat() {
    at_auction()
        .when(
            0,
            AuctionTopCard {
                stack: Stack::Open,
                opening_bid: 0,
            },
        )
        .then_error("bid_too_low");
    at_auction()
        .when(
            0,
            AuctionTopCard {
                stack: Stack::Open,
                opening_bid: 91,
            },
        )
        .then_error("bid_too_high");
    let state = at_auction()
        .when(
            0,
            AuctionTopCard {
                stack: Stack::Open,
                opening_bid: 3,
            },
        )
        .then([AuctionOpened {
            auctioneer: 0,
            stack: Stack::Open,
            opening_bid: 3,
            card: Some(TH6),
        }
        .into()]);
    assert_eq!(Wettstreit::status(&state).to_act, vec![1]);
    assert_eq!(Wettstreit::view(&state, Viewer::Seat(2)).to_act, vec![1]);
}

#[test]
fn an_empty_stack_cannot_be_auctioned() {
    let mut g = at_auction();
    g.state.face_down.clear();
    g.when(
        0,
        AuctionTopCard {
            stack: Stack::FaceDown,
            opening_bid: 1,
        },
    )
    .then_error("stack_empty");
}

fn bidding(stack: Stack, opening: u32) -> Given<Wettstreit> {
    let (_, state) = at_auction()
        .when(
            0,
            AuctionTopCard {
                stack,
                opening_bid: opening,
            },
        )
        .accepted();
    from(state)
}

#[test]
fn bids_go_round_in_seat_order_each_raising_above_the_highest_bid() {
    bidding(Stack::Open, 3)
        .when(2, RaiseBid { amount: 5 })
        .then_error("not_your_bid");
    bidding(Stack::Open, 3)
        .when(1, RaiseBid { amount: 3 })
        .then_error("bid_too_low");
    let (_, s) = bidding(Stack::Open, 3)
        .when(1, RaiseBid { amount: 4 })
        .accepted();
    assert_eq!(Wettstreit::status(&s).to_act, vec![2]);
    let listed = Wettstreit::legal_commands(&s, 2);
    assert_eq!(listed[0], PassBid {}.into());
    assert_eq!(listed[1], RaiseBid { amount: 5 }.into());
    assert_eq!(listed.len(), 1 + (MAX_BID - 4) as usize);
}

#[test]
fn a_pass_is_final() {
    let g = bidding(Stack::Open, 3);
    let (_, s) = g.when(1, PassBid {}).accepted();
    let (_, s) = from(s).when(2, RaiseBid { amount: 4 }).accepted();
    // Seat 1 passed: bidding skips them and comes back to the auctioneer.
    assert_eq!(Wettstreit::status(&s).to_act, vec![0]);
    from(s)
        .when(1, RaiseBid { amount: 9 })
        .then_error("not_your_bid");
}

#[test]
fn the_open_card_goes_to_the_highest_bidder_who_pays_half_rounded_down_to_the_auctioneer() {
    let (_, s) = bidding(Stack::Open, 3)
        .when(1, RaiseBid { amount: 7 })
        .accepted();
    let (_, s) = from(s).when(2, PassBid {}).accepted();
    let state = from(s).when(0, PassBid {}).then([
        BidPassed { seat: 0 }.into(),
        AuctionWon {
            auctioneer: 0,
            buyer: 1,
            stack: Stack::Open,
            price: 7,
            to_auctioneer: 3,
            to_bank: 4,
            kind_announced: false,
            card: Some(TH6),
            kind: Some(Kind::TownHall),
        }
        .into(),
        OpenStackTopShown { card: Some(G2) }.into(),
    ]);
    assert_eq!(state.purses, vec![13, 3, 10]);
    assert_eq!(state.bank, 64);
    assert_eq!(state.phase, Phase::Build);
    assert_eq!(state.hands[1][0].card, TH6);
}

#[test]
fn an_auctioneer_who_wins_pays_the_whole_sum_to_the_bank() {
    let (_, s) = bidding(Stack::Open, 5).when(1, PassBid {}).accepted();
    let (events, state) = from(s).when(2, PassBid {}).accepted();
    assert!(events.contains(
        &AuctionWon {
            auctioneer: 0,
            buyer: 0,
            stack: Stack::Open,
            price: 5,
            to_auctioneer: 0,
            to_bank: 5,
            kind_announced: false,
            card: Some(TH6),
            kind: Some(Kind::TownHall),
        }
        .into()
    ));
    assert_eq!(state.purses[0], 5);
}

#[test]
fn the_auctioneer_names_a_face_down_cards_kind_when_bidding_comes_back_to_them() {
    let (_, s) = bidding(Stack::FaceDown, 2)
        .when(1, RaiseBid { amount: 3 })
        .accepted();
    from(s).when(2, PassBid {}).then([
        BidPassed { seat: 2 }.into(),
        CardKindAnnounced {
            auctioneer: 0,
            kind: Kind::TownHall,
        }
        .into(),
    ]);
}

#[test]
fn a_face_down_card_nobody_outbids_goes_to_the_auctioneer_unannounced() {
    let (_, s) = bidding(Stack::FaceDown, 2).when(1, PassBid {}).accepted();
    let (events, state) = from(s).when(2, PassBid {}).accepted();
    assert!(!events.iter().any(|e| matches!(e, E::CardKindAnnounced(_))));
    let won = events
        .iter()
        .find(|e| matches!(e, E::AuctionWon(_)))
        .unwrap();
    let E::AuctionWon(for_seat_1) = Wettstreit::redact(&state, won, Viewer::Seat(1)).unwrap()
    else {
        unreachable!()
    };
    assert_eq!((for_seat_1.card, for_seat_1.kind), (None, None));
    let view = Wettstreit::view(&state, Viewer::Seat(1));
    assert_eq!(view.players[0].hand_count, 1);
    assert!(view.players[0].hand.is_empty() && view.players[0].announced_kinds.is_empty());
}

#[test]
fn the_buyer_of_a_face_down_card_keeps_it_hidden_but_for_the_announced_kind() {
    let (_, s) = bidding(Stack::FaceDown, 2)
        .when(1, RaiseBid { amount: 3 })
        .accepted();
    let (_, s) = from(s).when(2, PassBid {}).accepted();
    let (events, state) = from(s).when(0, PassBid {}).accepted();
    let won = events
        .iter()
        .find(|e| matches!(e, E::AuctionWon(_)))
        .unwrap();
    let E::AuctionWon(for_seat_2) = Wettstreit::redact(&state, won, Viewer::Seat(2)).unwrap()
    else {
        unreachable!()
    };
    assert_eq!(
        (for_seat_2.card, for_seat_2.kind),
        (None, Some(Kind::TownHall))
    );
    let view = Wettstreit::view(&state, Viewer::Seat(2));
    assert!(view.players[1].hand.is_empty());
    assert_eq!(view.players[1].announced_kinds, vec![Kind::TownHall]);
    // The auctioneer saw it at the table.
    let auctioneer = Wettstreit::view(&state, Viewer::Seat(0));
    assert_eq!(auctioneer.players[1].hand, vec![CardFace::of(TH5)]);
}

#[test]
fn an_insolvent_winner_pays_all_their_money_and_the_second_highest_bidder_buys() {
    let (_, s) = bidding(Stack::Open, 4)
        .when(1, RaiseBid { amount: 6 })
        .accepted();
    let (_, s) = from(s).when(2, RaiseBid { amount: 12 }).accepted();
    let (_, s) = from(s).when(0, PassBid {}).accepted();
    let state = from(s).when(1, PassBid {}).then([
        BidPassed { seat: 1 }.into(),
        BidderInsolvent {
            seat: 2,
            bid: 12,
            forfeited: Some(10),
        }
        .into(),
        AuctionWon {
            auctioneer: 0,
            buyer: 1,
            stack: Stack::Open,
            price: 6,
            to_auctioneer: 3,
            to_bank: 3,
            kind_announced: false,
            card: Some(TH6),
            kind: Some(Kind::TownHall),
        }
        .into(),
        OpenStackTopShown { card: Some(G2) }.into(),
    ]);
    assert_eq!(state.purses, vec![13, 4, 0]);
}

#[test]
fn an_insolvent_auctioneer_gets_no_half() {
    // Seat 0 opens at 15 (having 10), seat 1 passes, seat 2 (having 20) bids 16, seat 0 raises
    // to 20 and wins but cannot pay: seat 2 buys for 16, and all of it goes to the bank.
    let (_, s) = bidding(Stack::Open, 15).when(1, PassBid {}).accepted();
    let mut s = s;
    s.purses[2] = 20;
    s.bank -= 10;
    let (_, s) = from(s).when(2, RaiseBid { amount: 16 }).accepted();
    let (_, s) = from(s).when(0, RaiseBid { amount: 20 }).accepted();
    let (events, state) = from(s).when(2, PassBid {}).accepted();
    assert!(events.contains(
        &BidderInsolvent {
            seat: 0,
            bid: 20,
            forfeited: Some(10)
        }
        .into()
    ));
    assert!(events.contains(
        &AuctionWon {
            auctioneer: 0,
            buyer: 2,
            stack: Stack::Open,
            price: 16,
            to_auctioneer: 0,
            to_bank: 16,
            kind_announced: false,
            card: Some(TH6),
            kind: Some(Kind::TownHall),
        }
        .into()
    ));
    assert_eq!(state.purses, vec![0, 10, 4]);
}

#[test]
fn when_nobody_who_bid_can_pay_the_card_goes_under_the_lower_stack() {
    let (_, s) = bidding(Stack::Open, 30).when(1, PassBid {}).accepted();
    let (events, state) = from(s).when(2, PassBid {}).accepted();
    assert_eq!(
        events[1..],
        [
            BidderInsolvent {
                seat: 0,
                bid: 30,
                forfeited: Some(10)
            }
            .into(),
            AuctionCardUnclaimed {
                auctioneer: 0,
                stack: Stack::Open,
                card: Some(TH6)
            }
            .into(),
            // open 3 < face-down 4 once the card left the open stack
            OpenStackTopShown { card: Some(G2) }.into(),
            CardPutUnderStack {
                stack: Stack::Open,
                seen_only_by: None,
                card: Some(TH6)
            }
            .into(),
        ]
    );
    assert_eq!(state.open, vec![TH6, CH4, CH5, G2]);
    assert_eq!(state.phase, Phase::Build);
}

#[test]
fn an_unpayable_face_down_card_goes_under_a_stack_still_hidden_and_the_forfeit_stays_secret() {
    // Both stacks equal once the card left: the auctioneer chooses, and only they know it.
    let mut g = at_auction();
    g.state.open.remove(0);
    let (_, s) = from(g.state)
        .when(
            0,
            AuctionTopCard {
                stack: Stack::FaceDown,
                opening_bid: 40,
            },
        )
        .accepted();
    let (_, s) = from(s).when(1, PassBid {}).accepted();
    let (events, s) = from(s).when(2, PassBid {}).accepted();
    let insolvent = &events[1];
    assert_eq!(
        *insolvent,
        BidderInsolvent {
            seat: 0,
            bid: 40,
            forfeited: Some(10)
        }
        .into()
    );
    let E::BidderInsolvent(seen) = Wettstreit::redact(&s, insolvent, Viewer::Seat(1)).unwrap()
    else {
        unreachable!()
    };
    assert_eq!(seen.forfeited, None);
    assert_eq!(s.phase, Phase::CardUnder);
    assert_eq!(Wettstreit::status(&s).to_act, vec![0]);
    assert_eq!(
        Wettstreit::view(&s, Viewer::Seat(1))
            .card_under
            .unwrap()
            .top,
        None
    );
    assert_eq!(
        Wettstreit::view(&s, Viewer::Seat(0))
            .card_under
            .unwrap()
            .top,
        Some(CardFace::of(TH5))
    );
    let (events, s) = from(s)
        .when(
            0,
            PutCardUnderStack {
                stack: Stack::FaceDown,
            },
        )
        .accepted();
    assert_eq!(
        events[0],
        CardPutUnderStack {
            stack: Stack::FaceDown,
            seen_only_by: Some(0),
            card: Some(TH5)
        }
        .into()
    );
    let E::CardPutUnderStack(seen) = Wettstreit::redact(&s, &events[0], Viewer::Seat(2)).unwrap()
    else {
        unreachable!()
    };
    assert_eq!(seen.card, None);
    assert_eq!(s.face_down[0], TH5);
    assert_eq!(
        s.phase,
        Phase::Build,
        "the auctioneer still builds or sabotages"
    );
}

// ---- building -------------------------------------------------------------------------------

#[test]
fn a_first_build_lays_exactly_three_cards() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[TW1, CH5, G3, TH7]);
    let s = g.state.clone();
    from(s.clone())
        .when(0, BuildCard { card: TW1, slot: 0 })
        .then_error("first_build_needs_three");
    from(s.clone())
        .when(
            0,
            FoundCity {
                cards: vec![TW1, CH5],
            },
        )
        .then_error("first_build_needs_three");
    let state = from(s)
        .when(
            0,
            FoundCity {
                cards: vec![TW1, CH5, G3],
            },
        )
        .then([
            CityFounded {
                seat: 0,
                cards: vec![TW1, CH5, G3],
            }
            .into(),
            WettstreitTurnBegan {
                seat: 1,
                final_round: false,
            }
            .into(),
        ]);
    assert_eq!(state.cities[0], vec![Some(TW1), Some(CH5), Some(G3)]);
    assert_eq!(state.hands[0].len(), 1);
}

#[test]
fn at_most_three_cards_are_laid_per_turn() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[TW1, CH5, G3, TH7]);
    city(&mut g, 0, &[Some(G4)]);
    g.state.built_this_turn = 3;
    g.when(0, BuildCard { card: TW1, slot: 1 })
        .then_error("three_cards_per_turn");
}

#[test]
fn a_new_card_touches_the_city_and_may_fill_a_gap() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[CH5, TW1]);
    city(&mut g, 0, &[Some(G4), None, None, None, Some(G3)]);
    let s = g.state.clone();
    from(s.clone())
        .when(0, BuildCard { card: CH5, slot: 2 })
        .then_error("must_touch_city");
    from(s.clone())
        .when(0, BuildCard { card: CH5, slot: 0 })
        .then_error("slot_not_free");
    from(s.clone())
        .when(0, BuildCard { card: CH5, slot: 7 })
        .then_error("slot_not_free");
    let state = from(s)
        .when(0, BuildCard { card: CH5, slot: 1 })
        .then([CardBuilt {
            seat: 0,
            card: CH5,
            slot: 1,
        }
        .into()]);
    assert_eq!(
        state.cities[0],
        vec![Some(G4), Some(CH5), None, None, Some(G3)]
    );
    let state = from(state)
        .when(
            0,
            BuildCard {
                card: TW1,
                slot: -1,
            },
        )
        .then([CardBuilt {
            seat: 0,
            card: TW1,
            slot: -1,
        }
        .into()]);
    assert_eq!(state.cities[0][..2], [Some(TW1), Some(G4)]);
    assert_eq!(state.built_this_turn, 2);
}

#[test]
fn never_two_of_a_kind_side_by_side_and_towers_count_as_corner_towers() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[G3, LCT1, CH5]);
    city(&mut g, 0, &[Some(TW1), Some(G4)]);
    let s = g.state.clone();
    from(s.clone())
        .when(0, BuildCard { card: G3, slot: 2 })
        .then_error("same_kind_side_by_side");
    from(s.clone())
        .when(
            0,
            BuildCard {
                card: LCT1,
                slot: -1,
            },
        )
        .then_error("same_kind_side_by_side");
    from(s)
        .when(
            0,
            FoundCity {
                cards: vec![G3, CH5, LCT1],
            },
        )
        .then_error("city_already_founded");
}

#[test]
fn filling_a_gap_checks_both_neighbours_for_two_of_a_kind_side_by_side() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[CH7, TW2, TH7]);
    // The right neighbour of the gap is of the same kind.
    city(&mut g, 0, &[Some(G4), None, Some(CH5)]);
    let right_same = g.state.clone();
    from(right_same.clone())
        .when(0, BuildCard { card: CH7, slot: 1 })
        .then_error("same_kind_side_by_side");
    // Towers and corner towers count as one kind on the right too.
    let mut tower_right = right_same.clone();
    tower_right.cities[0] = vec![Some(G4), None, Some(TW1)];
    from(tower_right)
        .when(0, BuildCard { card: TW2, slot: 1 })
        .then_error("same_kind_side_by_side");
    // The left neighbour of the gap is of the same kind.
    let mut left_same = right_same.clone();
    left_same.cities[0] = vec![Some(CH5), None, Some(G4)];
    from(left_same)
        .when(0, BuildCard { card: CH7, slot: 1 })
        .then_error("same_kind_side_by_side");
    // A card of neither neighbour's kind fills the same gap.
    let state = from(right_same)
        .when(0, BuildCard { card: TH7, slot: 1 })
        .then([CardBuilt {
            seat: 0,
            card: TH7,
            slot: 1,
        }
        .into()]);
    assert_eq!(state.cities[0], vec![Some(G4), Some(TH7), Some(CH5)]);
}

#[test]
fn a_city_has_only_one_town_hall() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[TH5]);
    city(&mut g, 0, &[Some(TH7), Some(G4)]);
    g.when(0, BuildCard { card: TH5, slot: 2 })
        .then_error("one_town_hall");
}

#[test]
fn corner_towers_stand_only_at_their_own_end_and_close_it() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[LCT1, RCT1, CH5]);
    city(&mut g, 0, &[Some(G4), Some(CH4), Some(G3)]);
    let s = g.state.clone();
    from(s.clone())
        .when(
            0,
            BuildCard {
                card: LCT1,
                slot: 3,
            },
        )
        .then_error("left_corner_tower_at_left_end");
    from(s.clone())
        .when(
            0,
            BuildCard {
                card: RCT1,
                slot: -1,
            },
        )
        .then_error("right_corner_tower_at_right_end");
    let mut closed = s;
    closed.cities[0] = vec![Some(LCT2), Some(G4)];
    from(closed)
        .when(
            0,
            BuildCard {
                card: CH5,
                slot: -1,
            },
        )
        .then_error("left_end_closed");
}

#[test]
fn the_second_corner_tower_only_in_the_final_round() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[RCT1, LCT1, CH5, G3]);
    city(&mut g, 0, &[Some(LCT2), Some(G4)]);
    let s = g.state.clone();
    from(s.clone())
        .when(
            0,
            BuildCard {
                card: RCT1,
                slot: 2,
            },
        )
        .then_error("second_corner_tower_only_in_final_round");
    let mut founding = s.clone();
    founding.cities[0].clear();
    from(founding)
        .when(
            0,
            FoundCity {
                cards: vec![LCT1, CH5, RCT1],
            },
        )
        .then_error("second_corner_tower_only_in_final_round");
    let mut final_round = s;
    final_round.final_round = true;
    final_round.final_trigger = Some(2);
    from(final_round)
        .when(
            0,
            BuildCard {
                card: RCT1,
                slot: 2,
            },
        )
        .then([CardBuilt {
            seat: 0,
            card: RCT1,
            slot: 2,
        }
        .into()]);
}

// ---- sabotage -------------------------------------------------------------------------------

/// Seat 0 holds a saboteur; seat 1 has one shield, seat 2 none.
fn saboteur_ready() -> Given<Wettstreit> {
    let mut g = at_build(given::<Wettstreit>(standard()));
    g.state.saboteurs[0] = 1;
    g.state.supply = 4;
    city(&mut g, 1, &[Some(TW1), Some(CH9), Some(G4)]);
    city(&mut g, 2, &[Some(G3), Some(CH8), Some(G5)]);
    g
}

#[test]
fn the_saboteur_attacks_the_player_with_the_fewest_shields() {
    saboteur_ready()
        .when(
            0,
            SabotageBuilding {
                target: 1,
                card: CH9,
            },
        )
        .then_error("target_has_more_shields");
    saboteur_ready()
        .when(
            0,
            SabotageBuilding {
                target: 0,
                card: CH9,
            },
        )
        .then_error("not_against_yourself");
    let listed = Wettstreit::legal_commands(&saboteur_ready().state, 0);
    assert!(listed.contains(
        &SabotageBuilding {
            target: 2,
            card: CH8
        }
        .into()
    ));
    assert!(!listed
        .iter()
        .any(|c| matches!(c, WettstreitCommand::SabotageBuilding(s) if s.target == 1)));
}

#[test]
fn on_equal_fewest_shields_the_saboteur_chooses_among_them() {
    let mut g = saboteur_ready();
    city(&mut g, 2, &[Some(TW2), Some(CH8)]);
    let listed = Wettstreit::legal_commands(&g.state, 0);
    assert!(listed.contains(
        &SabotageBuilding {
            target: 1,
            card: CH9
        }
        .into()
    ));
    assert!(listed.contains(
        &SabotageBuilding {
            target: 2,
            card: CH8
        }
        .into()
    ));
}

#[test]
fn the_saboteur_face_removes_the_building_under_the_lower_stack_leaving_a_gap() {
    let g = saboteur_ready().seed(seed_rolling(DieFace::Saboteur));
    let mut g = g;
    g.state.open.pop(); // open 3 < face-down 4
    g.state.open_top_shown = Some(G2);
    let state = g
        .when(
            0,
            SabotageBuilding {
                target: 2,
                card: CH8,
            },
        )
        .then([
            BuildingSabotaged {
                by: 0,
                target: 2,
                card: CH8,
                die: DieFace::Saboteur,
            }
            .into(),
            BuildingRemoved {
                owner: 2,
                card: CH8,
            }
            .into(),
            CardPutUnderStack {
                stack: Stack::Open,
                seen_only_by: None,
                card: Some(CH8),
            }
            .into(),
            WettstreitTurnBegan {
                seat: 1,
                final_round: false,
            }
            .into(),
        ]);
    assert_eq!(state.cities[2], vec![Some(G3), None, Some(G5)]);
    assert_eq!(state.open[0], CH8);
    assert_eq!(
        (state.saboteurs[0], state.supply),
        (0, 5),
        "the saboteur returns to the supply"
    );
}

#[test]
fn a_one_or_two_leaves_the_building_standing() {
    let state = saboteur_ready()
        .seed(seed_rolling(DieFace::Two))
        .when(
            0,
            SabotageBuilding {
                target: 2,
                card: CH8,
            },
        )
        .then([
            BuildingSabotaged {
                by: 0,
                target: 2,
                card: CH8,
                die: DieFace::Two,
            }
            .into(),
            WettstreitTurnBegan {
                seat: 1,
                final_round: false,
            }
            .into(),
        ]);
    assert_eq!(state.cities[2].len(), 3);
    assert_eq!(state.supply, 5);
}

#[test]
fn a_one_leaves_the_building_standing() {
    let before = saboteur_ready().state;
    let state = saboteur_ready()
        .seed(seed_rolling(DieFace::One))
        .when(
            0,
            SabotageBuilding {
                target: 2,
                card: CH8,
            },
        )
        .then([
            BuildingSabotaged {
                by: 0,
                target: 2,
                card: CH8,
                die: DieFace::One,
            }
            .into(),
            WettstreitTurnBegan {
                seat: 1,
                final_round: false,
            }
            .into(),
        ]);
    assert_eq!(state.cities[2], vec![Some(G3), Some(CH8), Some(G5)]);
    assert_eq!(
        (state.open.clone(), state.face_down.clone()),
        (before.open, before.face_down)
    );
    assert_eq!(state.purses, before.purses);
    assert_eq!(state.ransom, None);
    assert_eq!((state.saboteurs[0], state.supply), (0, 5));
    assert_eq!(state.phase, Phase::Income);
}

#[test]
fn corner_towers_carry_one_shield_against_the_saboteur() {
    for corner_city in [
        [Some(LCT1), Some(CH8), Some(G5)],
        [Some(G5), Some(CH8), Some(RCT1)],
    ] {
        let mut g = saboteur_ready();
        city(&mut g, 1, &[Some(G4), Some(CH9), Some(G3)]); // no shield
        city(&mut g, 2, &corner_city); // one shield, on the corner tower alone
        assert_eq!((g.state.shields(1), g.state.shields(2)), (0, 1));
        let listed = Wettstreit::legal_commands(&g.state, 0);
        assert!(listed.contains(
            &SabotageBuilding {
                target: 1,
                card: CH9
            }
            .into()
        ));
        assert!(!listed
            .iter()
            .any(|c| matches!(c, WettstreitCommand::SabotageBuilding(s) if s.target == 2)));
        g.when(
            0,
            SabotageBuilding {
                target: 2,
                card: CH8,
            },
        )
        .then_error("target_has_more_shields");
    }
}

#[test]
fn on_three_to_five_the_owner_pays_the_value_to_keep_the_building_or_loses_it() {
    let (_, s) = saboteur_ready()
        .seed(seed_rolling(DieFace::Four))
        .when(
            0,
            SabotageBuilding {
                target: 2,
                card: CH8,
            },
        )
        .accepted();
    assert_eq!(Wettstreit::status(&s).to_act, vec![2]);
    assert_eq!(Wettstreit::view(&s, Viewer::Seat(1)).to_act, vec![2]);
    assert_eq!(
        Wettstreit::legal_commands(&s, 2),
        vec![PayToKeepBuilding {}.into(), LetBuildingFall {}.into()]
    );
    assert!(Wettstreit::legal_commands(&s, 0).is_empty());
    from(s.clone())
        .when(0, LetBuildingFall {})
        .then_error("not_the_owner");
    let paid = from(s.clone()).when(2, PayToKeepBuilding {}).then([
        BuildingRansomed {
            owner: 2,
            paid_to: 0,
            card: CH8,
            amount: 8,
        }
        .into(),
        WettstreitTurnBegan {
            seat: 1,
            final_round: false,
        }
        .into(),
    ]);
    assert_eq!((paid.purses[0], paid.purses[2]), (18, 2));
    let (events, fell) = from(s).when(2, LetBuildingFall {}).accepted();
    assert_eq!(
        events[0],
        BuildingRemoved {
            owner: 2,
            card: CH8
        }
        .into()
    );
    assert_eq!(fell.cities[2], vec![Some(G3), None, Some(G5)]);
}

#[test]
fn an_owner_who_cannot_pay_loses_the_building() {
    let (_, mut s) = saboteur_ready()
        .seed(seed_rolling(DieFace::Three))
        .when(
            0,
            SabotageBuilding {
                target: 2,
                card: CH8,
            },
        )
        .accepted();
    s.purses[2] = 7;
    s.bank += 3;
    assert_eq!(
        Wettstreit::legal_commands(&s, 2),
        vec![LetBuildingFall {}.into()]
    );
    from(s)
        .when(2, PayToKeepBuilding {})
        .then_error("cannot_afford_ransom");
}

#[test]
fn with_both_stacks_equally_low_the_saboteurs_owner_chooses_the_stack() {
    let (_, s) = saboteur_ready()
        .seed(seed_rolling(DieFace::Saboteur))
        .when(
            0,
            SabotageBuilding {
                target: 2,
                card: CH8,
            },
        )
        .accepted();
    assert_eq!(s.phase, Phase::CardUnder);
    assert_eq!(
        Wettstreit::legal_commands(&s, 0),
        vec![
            PutCardUnderStack { stack: Stack::Open }.into(),
            PutCardUnderStack {
                stack: Stack::FaceDown
            }
            .into()
        ]
    );
    let state = from(s)
        .when(
            0,
            PutCardUnderStack {
                stack: Stack::FaceDown,
            },
        )
        .then([
            CardPutUnderStack {
                stack: Stack::FaceDown,
                seen_only_by: None,
                card: Some(CH8),
            }
            .into(),
            WettstreitTurnBegan {
                seat: 1,
                final_round: false,
            }
            .into(),
        ]);
    assert_eq!(state.face_down[0], CH8);
}

#[test]
fn a_hand_of_five_or_more_loses_a_random_card_shown_to_all() {
    let mut g = saboteur_ready();
    hand(&mut g, 1, &[TW1B, CH5, G2, TH5]);
    let s = g.state.clone();
    from(s.clone())
        .when(0, SabotageHand { target: 1 })
        .then_error("hand_too_small");
    let mut s = s;
    s.hands[1].push(HandCard {
        card: CH6,
        public: false,
        kind_public: false,
        seen_by: 0,
    });
    let (events, state) = from(s).when(0, SabotageHand { target: 1 }).accepted();
    let E::HandSabotaged(h) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!((h.by, h.target), (0, 1));
    assert_eq!(state.hands[1].len(), 4);
    assert!(!state.hand_has(1, h.card));
    assert_eq!(
        Wettstreit::redact(&state, &events[0], Viewer::Seat(2)),
        Some(events[0].clone())
    );
    assert_eq!(state.supply, 5);
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

#[test]
fn a_hand_sabotaged_card_goes_under_the_lower_stack() {
    // The open stack lower.
    let mut g = hand_saboteur_ready();
    g.state.open.pop(); // open 3 < face-down 4
    g.state.open_top_shown = Some(G2);
    let state = g.when(0, SabotageHand { target: 1 }).then([
        HandSabotaged {
            by: 0,
            target: 1,
            card: CH7,
        }
        .into(),
        CardPutUnderStack {
            stack: Stack::Open,
            seen_only_by: None,
            card: Some(CH7),
        }
        .into(),
        WettstreitTurnBegan {
            seat: 1,
            final_round: false,
        }
        .into(),
    ]);
    assert_eq!(state.open, vec![CH7, CH4, CH5, G2]);
    assert_eq!(state.face_down, vec![TW1B, CH6, G3B, TH5]);
    let left: Vec<Card> = state.hands[1].iter().map(|h| h.card).collect();
    assert_eq!(left, vec![LCT3, TW3, TH7, RCT3]);
    assert_eq!((state.saboteurs[0], state.supply), (0, 5));

    // The face-down stack lower.
    let mut g = hand_saboteur_ready();
    g.state.face_down.pop(); // face-down 3 < open 4
    let state = g.when(0, SabotageHand { target: 1 }).then([
        HandSabotaged {
            by: 0,
            target: 1,
            card: CH7,
        }
        .into(),
        CardPutUnderStack {
            stack: Stack::FaceDown,
            seen_only_by: None,
            card: Some(CH7),
        }
        .into(),
        WettstreitTurnBegan {
            seat: 1,
            final_round: false,
        }
        .into(),
    ]);
    assert_eq!(state.face_down, vec![CH7, TW1B, CH6, G3B]);
    assert_eq!(state.open, vec![CH4, CH5, G2, TH6]);
}

#[test]
fn with_both_stacks_equally_low_the_hand_saboteur_not_the_target_chooses_the_stack() {
    let g = hand_saboteur_ready(); // open 4 = face-down 4
    let s = g.when(0, SabotageHand { target: 1 }).then([HandSabotaged {
        by: 0,
        target: 1,
        card: CH7,
    }
    .into()]);
    assert_eq!(s.phase, Phase::CardUnder);
    assert_eq!(Wettstreit::status(&s).to_act, vec![0]);
    assert_eq!(
        Wettstreit::legal_commands(&s, 0),
        vec![
            PutCardUnderStack { stack: Stack::Open }.into(),
            PutCardUnderStack {
                stack: Stack::FaceDown
            }
            .into()
        ]
    );
    assert!(Wettstreit::legal_commands(&s, 1).is_empty());
    from(s.clone())
        .when(1, PutCardUnderStack { stack: Stack::Open })
        .then_error("not_your_turn");
    let state = from(s)
        .when(
            0,
            PutCardUnderStack {
                stack: Stack::FaceDown,
            },
        )
        .then([
            CardPutUnderStack {
                stack: Stack::FaceDown,
                seen_only_by: None,
                card: Some(CH7),
            }
            .into(),
            WettstreitTurnBegan {
                seat: 1,
                final_round: false,
            }
            .into(),
        ]);
    assert_eq!(state.face_down, vec![CH7, TW1B, CH6, G3B, TH5]);
    assert_eq!(state.open, vec![CH4, CH5, G2, TH6]);
    assert!(!state.hand_has(1, CH7));
}

#[test]
fn sabotage_is_instead_of_building() {
    let mut g = saboteur_ready();
    g.state.built_this_turn = 1;
    g.when(
        0,
        SabotageBuilding {
            target: 2,
            card: CH8,
        },
    )
    .then_error("build_or_sabotage");
}

// ---- the end --------------------------------------------------------------------------------

#[test]
fn auctioning_a_stacks_last_card_leads_to_a_final_round_that_ends_with_that_player() {
    let mut g = given::<Wettstreit>(table(&[TH6], &[TW1B, CH6]));
    g.state.phase = Phase::Auction;
    hand(&mut g, 1, &[LCT1, CH5, G3]);
    let (_, s) = g
        .when(
            0,
            AuctionTopCard {
                stack: Stack::Open,
                opening_bid: 2,
            },
        )
        .accepted();
    let (_, s) = from(s).when(1, PassBid {}).accepted();
    let (_, s) = from(s).when(2, PassBid {}).accepted();
    assert_eq!(s.final_trigger, Some(0));
    assert_eq!(
        s.phase,
        Phase::Build,
        "the trigger still builds or sabotages"
    );
    let s = from(s)
        .when(0, FinishBuildStep {})
        .then([WettstreitTurnBegan {
            seat: 1,
            final_round: true,
        }
        .into()]);
    assert!(Wettstreit::legal_commands(&s, 1).contains(
        &FoundCity {
            cards: vec![LCT1, CH5, G3]
        }
        .into()
    ));
    let (_, s) = from(s)
        .when(
            1,
            FoundCity {
                cards: vec![LCT1, CH5, G3],
            },
        )
        .accepted();
    let s = from(s)
        .when(2, FinishBuildStep {})
        .then([WettstreitTurnBegan {
            seat: 0,
            final_round: true,
        }
        .into()]);
    let (events, end) = from(s).when(0, FinishBuildStep {}).accepted();
    assert!(matches!(&events[0], E::WettstreitGameEnded(_)));
    let status = Wettstreit::status(&end);
    assert!(status.finished);
    assert_eq!(status.scores, Some(vec![-6, 1 + 5 + 3, 0]));
    assert_eq!(status.winners, vec![1]);
    from(end)
        .when(1, FinishBuildStep {})
        .then_error("game_over");
}

#[test]
fn the_final_round_lays_cards_only() {
    let mut g = saboteur_ready();
    g.state.final_round = true;
    g.state.final_trigger = Some(2);
    g.when(
        0,
        SabotageBuilding {
            target: 2,
            card: CH8,
        },
    )
    .then_error("no_sabotage_in_final_round");
}

// ---- scoring: the rulebook's worked checks --------------------------------------------------

#[test]
fn worked_check_complete_city_with_off_centre_town_hall_scores_46() {
    let city = [LCT2, CH8, TH7, TW3, CH6, TW2, G4, TW2B, G3, RCT2].map(Some);
    let score = score_city(0, &city, &[TW1, G2]);
    assert!(score.complete);
    assert_eq!(
        (
            score.buildings,
            score.town_hall_centred,
            score.churches_balanced,
            score.corner_towers_matched,
            score.hand_penalty
        ),
        (39, 0, 5, 5, -3) // hand: TW1 (1) + G2 (2)
    );
    assert_eq!(score.total, 46);
}

#[test]
fn worked_check_town_hall_in_the_middle_scores_47() {
    let score = score_city(0, &[LCT3, CH7, TH5, CH9, RCT3].map(Some), &[]);
    assert_eq!(score.total, 27 + 10 + 5 + 5);
    assert_eq!(score.total, 47);
}

#[test]
fn worked_check_a_gap_earns_no_extras_34() {
    let city = [
        Some(LCT1),
        Some(CH9),
        Some(TW2),
        Some(G4),
        Some(CH7),
        Some(TH6),
        None,
        Some(G3),
        Some(RCT2),
    ];
    let score = score_city(0, &city, &[]);
    assert!(!score.complete);
    assert_eq!(score.total, 34);
}

#[test]
fn worked_check_a_missing_right_corner_tower_earns_no_extras_30() {
    let city = [LCT2, G3, TW1, G3B, TH7, CH8, TW2, G4, CH6, TW1B].map(Some);
    let score = score_city(0, &city, &[G5, LCT2B]);
    assert!(!score.complete);
    assert_eq!(
        (score.buildings, score.hand_penalty, score.total),
        (37, -7, 30)
    );
}

#[test]
fn only_a_complete_city_earns_extras() {
    // Town hall in the middle (of the 7 slots and of the 5 cards), a church each side, corner
    // towers of equal value: every extra, were it not for the gaps.
    let city = [
        Some(LCT2),
        None,
        Some(CH5),
        Some(TH5),
        Some(CH6),
        None,
        Some(RCT2),
    ];
    let score = score_city(0, &city, &[]);
    assert!(!score.complete);
    assert_eq!(
        (
            score.buildings,
            score.town_hall_centred,
            score.churches_balanced,
            score.corner_towers_matched,
            score.total
        ),
        (2 + 5 + 5 + 6 + 2, 0, 0, 0, 20)
    );
    // The same city with its gaps filled earns them all.
    let filled = score_city(0, &[LCT2, G3, CH5, TH5, CH6, G4, RCT2].map(Some), &[]);
    assert!(filled.complete);
    assert_eq!(filled.total, 27 + 10 + 5 + 5);
}

#[test]
fn the_church_bonus_needs_at_least_one_church_a_side() {
    let score = score_city(0, &[LCT2, G3, TH5, G4, RCT2].map(Some), &[]);
    assert!(score.complete);
    assert_eq!(
        (
            score.buildings,
            score.town_hall_centred,
            score.churches_balanced,
            score.corner_towers_matched,
            score.total
        ),
        (16, 10, 0, 5, 31)
    );
}

#[test]
fn corner_towers_of_different_values_earn_no_bonus() {
    let score = score_city(0, &[LCT3, CH7, TH5, CH9, RCT2].map(Some), &[]);
    assert!(score.complete);
    assert_eq!(
        (
            score.buildings,
            score.town_hall_centred,
            score.churches_balanced,
            score.corner_towers_matched,
            score.total
        ),
        (26, 10, 5, 0, 41)
    );
}

#[test]
fn the_town_hall_bonus_needs_an_odd_number_of_cards() {
    // Six cards: the town hall at index 3 (len/2) and at index 2 (len/2 - 1).
    for city in [
        [LCT2, CH5, G3, TH5, CH6, RCT2],
        [LCT2, CH5, TH5, G3, CH6, RCT2],
    ] {
        let score = score_city(0, &city.map(Some), &[]);
        assert!(score.complete);
        assert_eq!(
            (
                score.buildings,
                score.town_hall_centred,
                score.churches_balanced,
                score.corner_towers_matched,
                score.total
            ),
            (23, 0, 5, 5, 33),
            "{city:?}"
        );
    }
}

#[test]
fn a_tie_for_the_highest_total_is_a_shared_win() {
    let mut g = given::<Wettstreit>(standard());
    city(&mut g, 0, &[Some(G4)]);
    city(&mut g, 2, &[Some(CH4)]);
    let ended = super::scoring::game_ended(&g.state);
    assert_eq!(ended.winners, vec![0, 2]);
}

// ---- hidden information ---------------------------------------------------------------------

#[test]
fn money_is_secret_in_views_and_income_events() {
    let (events, state) = given::<Wettstreit>(standard())
        .when(0, RollIncomeDie {})
        .accepted();
    let view = Wettstreit::view(&state, Viewer::Seat(1));
    assert_eq!(view.players[1].money, Some(10));
    assert_eq!(
        (view.players[0].money, view.players[2].money, view.bank),
        (None, None, None)
    );
    let E::IncomeRolled(seen) = Wettstreit::redact(&state, &events[0], Viewer::Seat(1)).unwrap()
    else {
        unreachable!()
    };
    assert_eq!(seen.taler, None);
    assert_eq!(
        Wettstreit::redact(&state, &events[0], Viewer::Seat(0)),
        Some(events[0].clone())
    );
    assert!(Wettstreit::view(&state, Viewer::Everyone).bank.is_some());
}

#[test]
fn only_the_auctioneer_sees_the_face_down_card_during_its_auction() {
    let s = bidding(Stack::FaceDown, 2).state;
    assert_eq!(
        Wettstreit::view(&s, Viewer::Seat(0)).face_down_stack.top,
        Some(CardFace::of(TH5))
    );
    assert_eq!(
        Wettstreit::view(&s, Viewer::Seat(0)).auction.unwrap().top,
        Some(CardFace::of(TH5))
    );
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let view = Wettstreit::view(&s, viewer);
        assert_eq!(view.face_down_stack.top, None);
        assert_eq!(view.auction.unwrap().top, None);
    }
    let opened: E = AuctionOpened {
        auctioneer: 0,
        stack: Stack::FaceDown,
        opening_bid: 2,
        card: Some(TH5),
    }
    .into();
    let E::AuctionOpened(seen) = Wettstreit::redact(&s, &opened, Viewer::Seat(1)).unwrap() else {
        unreachable!()
    };
    assert_eq!(seen.card, None);
    let before = at_auction().state;
    assert_eq!(
        Wettstreit::view(&before, Viewer::Seat(0))
            .face_down_stack
            .top,
        None
    );
}

#[test]
fn the_shuffle_is_shown_only_to_auditors() {
    let state = given::<Wettstreit>(standard()).state;
    let E::WettstreitCardsShuffled(seen) =
        Wettstreit::redact(&state, &standard()[1], Viewer::Spectator).unwrap()
    else {
        unreachable!()
    };
    assert_eq!((seen.open, seen.face_down), (None, None));
    assert_eq!(
        Wettstreit::view(&state, Viewer::Spectator).open_stack.top,
        Some(CardFace::of(TH6))
    );
}

#[test]
fn after_the_end_everything_is_public() {
    let mut g = given::<Wettstreit>(standard());
    hand(&mut g, 1, &[CH9]);
    let ended = super::scoring::game_ended(&g.state);
    let state = from(g.state).when(0, RollIncomeDie {}).accepted().1;
    let mut state = state;
    Wettstreit::evolve(&mut state, &ended.into());
    let view = Wettstreit::view(&state, Viewer::Seat(0));
    assert!(view.players.iter().all(|p| p.money.is_some()));
    assert_eq!(view.players[1].hand, vec![CardFace::of(CH9)]);
    let shuffled = Wettstreit::redact(&state, &standard()[1], Viewer::Spectator);
    assert_eq!(shuffled, Some(standard()[1].clone()));
}

// ---- schemas --------------------------------------------------------------------------------

#[test]
fn schemas_are_named_and_tags_do_not_clash_with_other_games() {
    use crate::dynamic::{DynGame, Erased};
    let game = Erased::<Wettstreit>::new();
    let info = game.info();
    assert_eq!(info.kind, "wettstreit");
    let schemas = game.schemas();
    assert_eq!(schemas.view, "WettstreitView");
    assert_eq!(schemas.options, "WettstreitOptions");
    let names: Vec<&str> = schemas.schemas.iter().map(|(n, _)| n.as_str()).collect();
    for tag in info.commands.iter().chain(&info.events) {
        assert!(names.contains(tag), "{tag} has a named schema");
    }
    for helper in [
        "WettstreitKind",
        "WettstreitCardFace",
        "WettstreitPlayerView",
        "WettstreitCityScore",
    ] {
        assert!(names.contains(&helper), "{helper}");
    }
    // Every reference resolves to a schema the game contributes.
    fn refs(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    match v {
                        serde_json::Value::String(r) if k == "$ref" => out.push(r.clone()),
                        _ => refs(v, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut all_refs = Vec::new();
    for (_, schema) in &schemas.schemas {
        refs(&serde_json::to_value(schema).unwrap(), &mut all_refs);
    }
    for r in all_refs {
        let name = r.trim_start_matches("#/components/schemas/");
        assert!(names.contains(&name), "{r} is not among the game's schemas");
    }
    let view = game.view(&game.initial(), Viewer::Spectator);
    assert_eq!(view["type"], "WettstreitView");
    // Registered, so the registry's test keeps its tags unique across games.
    assert!(crate::registry::find("wettstreit").is_some());
    assert!(
        game.validate_options(&serde_json::json!({"x": 1}), 3)
            .is_err(),
        "unknown options are refused"
    );
    assert!(game.validate_options(&serde_json::Value::Null, 2).is_err());
    assert!(game.validate_options(&serde_json::Value::Null, 4).is_ok());
}
