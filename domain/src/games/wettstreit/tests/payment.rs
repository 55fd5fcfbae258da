//! Paying for the auctioned card: halves, insolvency and its cascade, and the card nobody can
//! pay for, which leaves the game face down.

use super::*;

#[test]
fn an_insolvent_winner_pays_all_their_money_and_the_second_highest_bidder_buys() {
    let (_, s) = bidding(Stack::Open, 4)
        .when(1, RaiseBid { amount: 6 })
        .accepted();
    let (_, s) = from(s).when(2, RaiseBid { amount: 12 }).accepted();
    let (_, s) = from(s).when(0, PassBid {}).accepted();
    let state = from(s).when(1, PassBid {}).then([
        BidPassed { seat: 1 }.into(),
        insolvent(2, 12, 10),
        town_hall_won(0, 1, 6, 3, 3),
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
    assert!(events.contains(&insolvent(0, 20, 10)));
    assert!(events.contains(&town_hall_won(0, 2, 16, 0, 16)));
    assert_eq!(state.purses, vec![0, 10, 4]);
}

#[test]
fn insolvency_cascades_down_the_bids_to_the_first_bidder_who_can_pay() {
    // Seat 2 (bid 12) and seat 1 (bid 11) cannot pay; the auctioneer's opening 4 buys.
    let (_, s) = bidding(Stack::Open, 4)
        .when(1, RaiseBid { amount: 11 })
        .accepted();
    let (_, s) = from(s).when(2, RaiseBid { amount: 12 }).accepted();
    let (_, s) = from(s).when(0, PassBid {}).accepted();
    let state = from(s).when(1, PassBid {}).then([
        BidPassed { seat: 1 }.into(),
        insolvent(2, 12, 10),
        insolvent(1, 11, 10),
        town_hall_won(0, 0, 4, 0, 4),
        OpenStackTopShown { card: Some(G2) }.into(),
    ]);
    assert_eq!(state.purses, vec![6, 0, 0]);
    assert_eq!(state.bank, 60 + 10 + 10 + 4);
    assert_eq!(state.hands[0][0].card, TH6);
}

#[test]
fn a_card_nobody_can_pay_for_leaves_the_game() {
    let (_, s) = bidding(Stack::Open, 30).when(1, PassBid {}).accepted();
    let (events, state) = from(s).when(2, PassBid {}).accepted();
    assert_eq!(
        events[1..],
        [
            insolvent(0, 30, 10),
            AuctionCardRemoved {
                auctioneer: 0,
                stack: Stack::Open,
                kind_announced: false,
                card: Some(TH6),
                kind: Some(Kind::TownHall),
            }
            .into(),
            OpenStackTopShown { card: Some(G2) }.into(),
        ]
    );
    assert_eq!(state.open, vec![CH4, CH5, G2], "not back under a stack");
    assert_eq!(state.face_down, vec![TW1B, CH6, G3B, TH5]);
    assert_eq!(
        (state.phase, Wettstreit::status(&state).to_act),
        (Phase::Build, vec![0]),
        "the auctioneer still builds or sabotages"
    );
    // An open card was seen by all: everybody knows what left the game.
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let removed = Wettstreit::view(&state, viewer).removed;
        assert_eq!((removed.count, removed.cards), (1, vec![CardFace::of(TH6)]));
    }
}

#[test]
fn an_unpayable_face_down_card_leaves_the_game_unseen_and_the_forfeit_stays_secret() {
    let (_, s) = bidding(Stack::FaceDown, 40).when(1, PassBid {}).accepted();
    let (events, s) = from(s).when(2, PassBid {}).accepted();
    let insolvency = find(&events, "BidderInsolvent");
    assert_eq!(*insolvency, insolvent(0, 40, 10));
    let E::BidderInsolvent(shown) = seen(&s, insolvency, Viewer::Seat(1)) else {
        unreachable!()
    };
    assert_eq!(shown.forfeited, None);
    let removed = find(&events, "AuctionCardRemoved");
    let E::AuctionCardRemoved(shown) = seen(&s, removed, Viewer::Seat(1)) else {
        unreachable!()
    };
    assert_eq!((shown.card, shown.kind), (None, None));
    assert_eq!(seen(&s, removed, Viewer::Seat(0)), *removed);
    assert_eq!(s.face_down, vec![TW1B, CH6, G3B]);
    assert_eq!(s.phase, Phase::Build);
    let others = Wettstreit::view(&s, Viewer::Seat(1)).removed;
    assert_eq!(
        (others.count, others.cards, others.announced_kinds),
        (1, vec![], vec![])
    );
    let auctioneer = Wettstreit::view(&s, Viewer::Seat(0)).removed;
    assert_eq!(auctioneer.cards, vec![CardFace::of(TH5)]);
}

#[test]
fn when_every_bidder_is_insolvent_the_card_leaves_the_game_with_its_announced_kind_known() {
    // Both the auctioneer (20) and seat 1 (30) overbid; the kind was announced on the way.
    let (_, s) = bidding(Stack::FaceDown, 20)
        .when(1, RaiseBid { amount: 30 })
        .accepted();
    let (_, s) = from(s).when(2, PassBid {}).accepted();
    let (events, s) = from(s).when(0, PassBid {}).accepted();
    assert_eq!(
        events,
        vec![
            BidPassed { seat: 0 }.into(),
            insolvent(1, 30, 10),
            insolvent(0, 20, 10),
            AuctionCardRemoved {
                auctioneer: 0,
                stack: Stack::FaceDown,
                kind_announced: true,
                card: Some(TH5),
                kind: Some(Kind::TownHall),
            }
            .into(),
        ]
    );
    assert_eq!(s.purses, vec![0, 0, 10]);
    let E::AuctionCardRemoved(shown) = seen(&s, &events[3], Viewer::Seat(2)) else {
        unreachable!()
    };
    assert_eq!((shown.card, shown.kind), (None, Some(Kind::TownHall)));
    let removed = Wettstreit::view(&s, Viewer::Seat(2)).removed;
    assert_eq!(
        (removed.cards, removed.announced_kinds),
        (vec![], vec![Kind::TownHall])
    );
}
