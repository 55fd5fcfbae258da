//! The turn clock's default move in every step: one of the listed commands, the one that
//! changes the least.

use super::*;

fn default_of(state: &State, seat: u8) -> Option<WettstreitCommand> {
    let default = Wettstreit::default_command(state, seat);
    if let Some(command) = &default {
        assert!(Wettstreit::legal_commands(state, seat).contains(command));
    }
    default
}

#[test]
fn the_clock_rolls_for_income_and_takes_a_saboteur_from_the_first_holder() {
    let state = given::<Wettstreit>(standard()).state;
    assert_eq!(default_of(&state, 0), Some(RollIncomeDie {}.into()));
    assert_eq!(default_of(&state, 1), None, "not seat 1's turn");
    let mut state = state;
    state.phase = Phase::TakeSaboteur;
    state.supply = 0;
    state.saboteurs = vec![0, 2, 3];
    assert_eq!(
        default_of(&state, 0),
        Some(TakeSaboteurFrom { from: 1 }.into())
    );
}

#[test]
fn the_clock_auctions_the_open_card_and_opens_at_one() {
    let state = at_auction().state;
    assert_eq!(
        default_of(&state, 0),
        Some(AuctionTopCard { stack: Stack::Open }.into())
    );
    let mut empty_open = state.clone();
    empty_open.open.clear();
    assert_eq!(
        default_of(&empty_open, 0),
        Some(
            AuctionTopCard {
                stack: Stack::FaceDown
            }
            .into()
        )
    );
    let (_, state) = at_auction()
        .when(0, AuctionTopCard { stack: Stack::Open })
        .accepted();
    assert_eq!(
        default_of(&state, 0),
        Some(MakeOpeningBid { amount: 1 }.into())
    );
}

#[test]
fn the_clock_passes_a_bid() {
    let state = bidding(Stack::Open, 3).state;
    assert_eq!(default_of(&state, 1), Some(PassBid {}.into()));
    assert_eq!(default_of(&state, 0), None, "not the auctioneer's bid now");
}

#[test]
fn the_clock_lets_a_sabotaged_building_fall_and_puts_a_card_under_the_open_stack() {
    let (_, s) = saboteur_ready()
        .seed(seed_rolling(DieFace::Four))
        .when(0, sabotage(2, CH8))
        .accepted();
    assert_eq!(default_of(&s, 2), Some(LetBuildingFall {}.into()));
    assert_eq!(default_of(&s, 0), None);
    let (_, s) = saboteur_ready()
        .seed(seed_rolling(DieFace::Saboteur))
        .when(0, sabotage(2, CH8))
        .accepted();
    assert_eq!(s.phase, Phase::CardUnder, "both stacks equally low");
    assert_eq!(
        default_of(&s, 0),
        Some(PutCardUnderStack { stack: Stack::Open }.into())
    );
}

#[test]
fn the_clock_ends_the_build_step_without_building() {
    let mut g = saboteur_ready();
    hand(&mut g, 0, &[TW1B, CH5, G2]);
    let listed = Wettstreit::legal_commands(&g.state, 0);
    assert!(listed.len() > 1, "building and sabotage are listed too");
    assert_eq!(default_of(&g.state, 0), Some(FinishBuildStep {}.into()));
}

#[test]
fn after_the_end_the_clock_has_nothing_to_do() {
    let mut state = given::<Wettstreit>(standard()).state;
    let ended = super::super::scoring::game_ended(&state);
    Wettstreit::evolve(&mut state, &ended.into());
    for seat in 0..3 {
        assert_eq!(default_of(&state, seat), None);
    }
}
