//! The rules page's worked checks and the rulebook's example, as tests.

use super::super::cannon::{targets, unprotected};
use super::super::commands::*;
use super::super::events::*;
use super::super::scoring::variant_points;
use super::super::Burgbaumeister;
use super::test_support::*;
use crate::contract::Game;
use crate::testing::given;

#[test]
fn wall_1_3_7_cannot_take_a_5_but_takes_an_8() {
    let mut events = table(2, false, &[&[3, 7], &[]], 0);
    events.push(turned_up(0, 5));
    given::<Burgbaumeister>(events.clone())
        .when(0, AddCardToWall {})
        .then_error("card_too_low");
    let state = given::<Burgbaumeister>(events).state;
    assert_eq!(
        Burgbaumeister::legal_commands(&state, 0),
        vec![ReturnCard {}.into()]
    );

    let mut events = table(2, false, &[&[3, 7], &[]], 0);
    events.push(turned_up(0, 8));
    let state = given::<Burgbaumeister>(events)
        .when(0, AddCardToWall {})
        .then([added(0, 8, 2), TurnPassed { seat: 1 }.into()]);
    assert_eq!(state.walls[0], vec![3, 7, 8]);
}

#[test]
fn in_wall_1_5_t9_12_t19_20_only_20_can_be_destroyed() {
    assert_eq!(unprotected(&[5, 9, 12, 19, 20]), &[20]);
    let mut events = table(2, true, &[&[3], &[5, 9, 12, 19, 20]], 0);
    events.push(turned_up(0, 14));
    let (_, state) = given::<Burgbaumeister>(events.clone())
        .when(0, AddCardToWall {})
        .accepted();
    assert_eq!(targets(&state, 0), vec![(1, 20)]);
    assert_eq!(
        Burgbaumeister::legal_commands(&state, 0),
        vec![fire_at(1, 20).into(), DeclineCannon {}.into()]
    );
    for card in [5, 9, 12, 19] {
        let mut ctx = crate::contract::Ctx::new(0, 0);
        let err =
            Burgbaumeister::decide(&state, 0, &FireCannon { target: 1, card }.into(), &mut ctx)
                .unwrap_err();
        assert_eq!(err.code, "card_protected");
    }
}

#[test]
fn wizard_wall_1_4_w23_30_inserts_a_6_only_between_4_and_23() {
    let mut events = table(2, true, &[&[4, 23, 30], &[]], 0);
    events.push(turned_up(0, 6));
    let state = given::<Burgbaumeister>(events.clone()).state;
    let inserts: Vec<BurgbaumeisterCommand> = Burgbaumeister::legal_commands(&state, 0)
        .into_iter()
        .filter(|c| matches!(c, BurgbaumeisterCommand::InsertCardWithWizard(_)))
        .collect();
    assert_eq!(inserts, vec![InsertCardWithWizard { position: 1 }.into()]);
    for position in 0..=4 {
        let then =
            given::<Burgbaumeister>(events.clone()).when(0, InsertCardWithWizard { position });
        assert_eq!(then.result.is_ok(), position == 1, "position {position}");
    }
}

#[test]
fn two_knights_and_one_maiden_score_four_extra_points() {
    // Valentin's wall from the rulebook: knights 6 and 21, maiden 8.
    assert_eq!(variant_points(&[6, 8, 21]), 3 + 4);
}
