//! The end: the last card of a stack starts it, the final round, the result.

use super::*;

#[test]
fn auctioning_a_stacks_last_card_leads_to_a_final_round_that_ends_with_that_player() {
    let mut g = given::<Wettstreit>(table(&[TH6], &[TW1B, CH6]));
    g.state.phase = Phase::Auction;
    hand(&mut g, 1, &[LCT1, CH5, G3]);
    let (_, s) = bidding_from(g, Stack::Open, 2)
        .when(1, PassBid {})
        .accepted();
    let (_, s) = from(s).when(2, PassBid {}).accepted();
    assert_eq!(s.final_trigger, Some(0));
    assert_eq!(
        s.phase,
        Phase::Build,
        "the trigger still builds or sabotages"
    );
    let s = from(s)
        .when(0, FinishBuildStep {})
        .then([turn_began(1, true)]);
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
        .then([turn_began(0, true)]);
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
    g.when(0, sabotage(2, CH8))
        .then_error("no_sabotage_in_final_round");
}

#[test]
fn the_end_starts_when_a_stacks_last_card_leaves_the_game_unpaid() {
    let mut g = given::<Wettstreit>(table(&[TH6], &[TW1B, CH6]));
    g.state.phase = Phase::Auction;
    let (_, s) = bidding_from(g, Stack::Open, 30)
        .when(1, PassBid {})
        .accepted();
    let (events, s) = from(s).when(2, PassBid {}).accepted();
    assert!(events.iter().any(|e| matches!(e, E::AuctionCardRemoved(_))));
    assert!(s.open.is_empty());
    assert_eq!(s.final_trigger, Some(0));
    assert_eq!(s.phase, Phase::Build);
    let s = from(s)
        .when(0, FinishBuildStep {})
        .then([turn_began(1, true)]);
    assert_eq!(
        Wettstreit::legal_commands(&s, 1),
        vec![FinishBuildStep {}.into()],
        "the final round only lays cards, and seat 1 has none"
    );
}

#[test]
fn a_card_sabotaged_back_under_the_emptied_stack_does_not_call_the_end_off() {
    // Seat 0 auctions the open stack's last card, then sabotages: the fallen building goes under
    // the lower stack, the empty one. The end has started all the same.
    let mut g =
        given::<Wettstreit>(table(&[TH6], &[TW1B, CH6])).seed(seed_rolling(DieFace::Saboteur));
    g.state.phase = Phase::Auction;
    g.state.saboteurs[0] = 1;
    g.state.supply = 4;
    city(&mut g, 1, &[Some(TW1), Some(CH9), Some(G4)]);
    city(&mut g, 2, &[Some(G3), Some(CH8), Some(G5)]);
    let (_, s) = bidding_from(g, Stack::Open, 2)
        .when(1, PassBid {})
        .accepted();
    let (_, s) = from(s).when(2, PassBid {}).accepted();
    assert_eq!((s.final_trigger, s.open.len()), (Some(0), 0));
    let s = from(s)
        .seed(seed_rolling(DieFace::Saboteur))
        .when(0, sabotage(2, CH8))
        .then([
            sabotaged(0, 2, CH8, DieFace::Saboteur),
            removed(2, CH8),
            put_under(Stack::Open, CH8),
            OpenStackTopShown { card: Some(CH8) }.into(),
            turn_began(1, true),
        ]);
    assert_eq!(s.open, vec![CH8]);
    let s = from(s)
        .when(1, FinishBuildStep {})
        .then([turn_began(2, true)]);
    let s = from(s)
        .when(2, FinishBuildStep {})
        .then([turn_began(0, true)]);
    let (events, end) = from(s).when(0, FinishBuildStep {}).accepted();
    assert!(matches!(&events[..], [E::WettstreitGameEnded(_)]));
    assert!(Wettstreit::status(&end).finished);
}
