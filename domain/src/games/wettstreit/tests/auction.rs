//! Step 2, the auction: the card put up (a face-down one shown to the auctioneer alone), the
//! opening bid, bidding round and round, the face-down card's kind announced.

use super::*;

#[test]
fn the_auctioneer_puts_a_top_card_up_then_opens_with_at_least_one_taler() {
    let state = at_auction()
        .when(0, AuctionTopCard { stack: Stack::Open })
        .then([CardPutUpForAuction {
            auctioneer: 0,
            stack: Stack::Open,
            card: Some(TH6),
        }
        .into()]);
    assert_eq!(state.phase, Phase::OpeningBid);
    assert_eq!(Wettstreit::status(&state).to_act, vec![0]);
    let listed = Wettstreit::legal_commands(&state, 0);
    assert_eq!(
        listed,
        (1..=MAX_BID)
            .map(|amount| MakeOpeningBid { amount }.into())
            .collect::<Vec<WettstreitCommand>>()
    );
    assert!(Wettstreit::legal_commands(&state, 1).is_empty());
    from(state.clone())
        .when(0, MakeOpeningBid { amount: 0 })
        .then_error("bid_too_low");
    from(state.clone())
        .when(0, MakeOpeningBid { amount: 91 })
        .then_error("bid_too_high");
    from(state.clone())
        .when(1, MakeOpeningBid { amount: 3 })
        .then_error("not_your_turn");
    from(state.clone())
        .when(0, AuctionTopCard { stack: Stack::Open })
        .then_error("wrong_step");
    let state = from(state)
        .when(0, MakeOpeningBid { amount: 3 })
        .then([AuctionOpened {
            auctioneer: 0,
            stack: Stack::Open,
            opening_bid: 3,
            card: Some(TH6),
        }
        .into()]);
    assert_eq!(Wettstreit::status(&state).to_act, vec![1]);
    assert_eq!(Wettstreit::view(&state, Viewer::Seat(2)).to_act, vec![1]);
    let auction = Wettstreit::view(&state, Viewer::Seat(2)).auction.unwrap();
    assert_eq!(
        (auction.high_bid, auction.bids),
        (3, vec![Some(3), None, None])
    );
}

#[test]
fn the_opening_bid_comes_only_after_a_card_was_put_up() {
    at_auction()
        .when(0, MakeOpeningBid { amount: 3 })
        .then_error("wrong_step");
    let listed = Wettstreit::legal_commands(&at_auction().state, 0);
    assert_eq!(
        listed,
        vec![
            AuctionTopCard { stack: Stack::Open }.into(),
            AuctionTopCard {
                stack: Stack::FaceDown
            }
            .into()
        ]
    );
}

#[test]
fn an_empty_stack_cannot_be_auctioned() {
    let mut g = at_auction();
    g.state.face_down.clear();
    assert_eq!(
        Wettstreit::legal_commands(&g.state, 0),
        vec![AuctionTopCard { stack: Stack::Open }.into()]
    );
    g.when(
        0,
        AuctionTopCard {
            stack: Stack::FaceDown,
        },
    )
    .then_error("stack_empty");
}

#[test]
fn the_face_down_card_is_shown_to_the_auctioneer_alone_before_they_bid() {
    let before = at_auction().state;
    assert_eq!(
        Wettstreit::view(&before, Viewer::Seat(0))
            .face_down_stack
            .top,
        None,
        "nobody sees it before it is put up"
    );
    let (events, state) = at_auction()
        .when(
            0,
            AuctionTopCard {
                stack: Stack::FaceDown,
            },
        )
        .accepted();
    let put_up: E = CardPutUpForAuction {
        auctioneer: 0,
        stack: Stack::FaceDown,
        card: Some(TH5),
    }
    .into();
    assert_eq!(events, vec![put_up.clone()]);
    assert_eq!(state.phase, Phase::OpeningBid, "the bid is a second step");
    // The auctioneer sees the card in their view and in their copy of the log...
    let own = Wettstreit::view(&state, Viewer::Seat(0));
    assert_eq!(own.face_down_stack.top, Some(CardFace::of(TH5)));
    assert_eq!(own.auction.unwrap().top, Some(CardFace::of(TH5)));
    assert_eq!(seen(&state, &put_up, Viewer::Seat(0)), put_up);
    // ...nobody else, not even its kind.
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let view = Wettstreit::view(&state, viewer);
        assert_eq!(view.face_down_stack.top, None);
        let auction = view.auction.unwrap();
        assert_eq!((auction.top, auction.announced_kind), (None, None));
        assert_eq!(
            seen(&state, &put_up, viewer),
            CardPutUpForAuction {
                auctioneer: 0,
                stack: Stack::FaceDown,
                card: None,
            }
            .into()
        );
    }
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
        town_hall_won(0, 1, 7, 3, 4),
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
    assert!(events.contains(&town_hall_won(0, 0, 5, 0, 5)));
    assert_eq!(state.purses[0], 5);
}

#[test]
fn the_auctioneer_names_a_face_down_cards_kind_when_bidding_comes_back_to_them() {
    let (_, s) = bidding(Stack::FaceDown, 2)
        .when(1, RaiseBid { amount: 3 })
        .accepted();
    // Outbid, but bidding has not come back to the auctioneer yet: the kind is still secret.
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let auction = Wettstreit::view(&s, viewer).auction.unwrap();
        assert_eq!((auction.top, auction.announced_kind), (None, None));
    }
    let s = from(s).when(2, PassBid {}).then([
        BidPassed { seat: 2 }.into(),
        CardKindAnnounced {
            auctioneer: 0,
            kind: Kind::TownHall,
        }
        .into(),
    ]);
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let auction = Wettstreit::view(&s, viewer).auction.unwrap();
        assert_eq!(
            (auction.top, auction.announced_kind),
            (None, Some(Kind::TownHall)),
            "the kind, not the value"
        );
    }
    assert_eq!(Wettstreit::status(&s).to_act, vec![0], "bidding goes on");
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
