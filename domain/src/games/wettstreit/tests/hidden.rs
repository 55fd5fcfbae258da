//! Hidden information in views and in the event log.

use super::*;

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
    let E::AuctionOpened(shown) = seen(&s, &opened, Viewer::Seat(1)) else {
        unreachable!()
    };
    assert_eq!(shown.card, None);
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
    let ended = super::super::scoring::game_ended(&g.state);
    let state = from(g.state).when(0, RollIncomeDie {}).accepted().1;
    let mut state = state;
    Wettstreit::evolve(&mut state, &ended.into());
    let view = Wettstreit::view(&state, Viewer::Seat(0));
    assert!(view.players.iter().all(|p| p.money.is_some()));
    assert_eq!(view.players[1].hand, vec![CardFace::of(CH9)]);
    let shuffled = Wettstreit::redact(&state, &standard()[1], Viewer::Spectator);
    assert_eq!(shuffled, Some(standard()[1].clone()));
}

#[test]
fn payments_are_public_as_at_the_table_only_balances_are_secret() {
    // Income's die and coins, prices and halves are seen by all: an attentive player can
    // reconstruct the purses; the server shows balances only to their owners.
    let (events, state) = given::<Wettstreit>(standard())
        .seed(seed_rolling(DieFace::Three))
        .when(0, RollIncomeDie {})
        .accepted();
    let E::IncomeRolled(income) = seen(&state, &events[0], Viewer::Seat(2)) else {
        unreachable!()
    };
    assert_eq!((income.die, income.gate_coins), (DieFace::Three, 0));
    let (_, s) = bidding(Stack::Open, 3)
        .when(1, RaiseBid { amount: 7 })
        .accepted();
    let (_, s) = from(s).when(2, PassBid {}).accepted();
    let (events, s) = from(s).when(0, PassBid {}).accepted();
    let won = find(&events, "AuctionWon");
    assert_eq!(seen(&s, won, Viewer::Seat(2)), *won, "price and halves");
    assert_eq!(seen(&s, won, Viewer::Spectator), *won);
    let view = Wettstreit::view(&s, Viewer::Seat(2));
    assert_eq!(
        (view.players[0].money, view.players[1].money, view.bank),
        (None, None, None)
    );
}
