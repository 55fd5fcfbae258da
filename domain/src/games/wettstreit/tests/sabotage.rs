//! Step 3, sabotage instead of building: against a built card, against a hand.

use super::*;

#[test]
fn the_saboteur_attacks_the_player_with_the_fewest_shields() {
    saboteur_ready()
        .when(0, sabotage(1, CH9))
        .then_error("target_has_more_shields");
    saboteur_ready()
        .when(0, sabotage(0, CH9))
        .then_error("not_against_yourself");
    let listed = Wettstreit::legal_commands(&saboteur_ready().state, 0);
    assert!(listed.contains(&sabotage(2, CH8).into()));
    assert!(!listed
        .iter()
        .any(|c| matches!(c, WettstreitCommand::SabotageBuilding(s) if s.target == 1)));
}

#[test]
fn on_equal_fewest_shields_the_saboteur_chooses_among_them() {
    let mut g = saboteur_ready();
    city(&mut g, 2, &[Some(TW2), Some(CH8)]);
    let listed = Wettstreit::legal_commands(&g.state, 0);
    assert!(listed.contains(&sabotage(1, CH9).into()));
    assert!(listed.contains(&sabotage(2, CH8).into()));
}

#[test]
fn the_saboteur_face_removes_the_building_under_the_lower_stack_leaving_a_gap() {
    let g = saboteur_ready().seed(seed_rolling(DieFace::Saboteur));
    let mut g = g;
    g.state.open.pop(); // open 3 < face-down 4
    g.state.open_top_shown = Some(G2);
    let state = g.when(0, sabotage(2, CH8)).then([
        sabotaged(0, 2, CH8, DieFace::Saboteur),
        removed(2, CH8),
        put_under(Stack::Open, CH8),
        turn_began(1, false),
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
        .when(0, sabotage(2, CH8))
        .then([sabotaged(0, 2, CH8, DieFace::Two), turn_began(1, false)]);
    assert_eq!(state.cities[2].len(), 3);
    assert_eq!(state.supply, 5);
}

#[test]
fn a_one_leaves_the_building_standing() {
    let before = saboteur_ready().state;
    let state = saboteur_ready()
        .seed(seed_rolling(DieFace::One))
        .when(0, sabotage(2, CH8))
        .then([sabotaged(0, 2, CH8, DieFace::One), turn_began(1, false)]);
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
        assert!(listed.contains(&sabotage(1, CH9).into()));
        assert!(!listed
            .iter()
            .any(|c| matches!(c, WettstreitCommand::SabotageBuilding(s) if s.target == 2)));
        g.when(0, sabotage(2, CH8))
            .then_error("target_has_more_shields");
    }
}

#[test]
fn on_three_to_five_the_owner_pays_the_value_to_keep_the_building_or_loses_it() {
    let (_, s) = saboteur_ready()
        .seed(seed_rolling(DieFace::Four))
        .when(0, sabotage(2, CH8))
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
        turn_began(1, false),
    ]);
    assert_eq!((paid.purses[0], paid.purses[2]), (18, 2));
    let (events, fell) = from(s).when(2, LetBuildingFall {}).accepted();
    assert_eq!(events[0], removed(2, CH8));
    assert_eq!(fell.cities[2], vec![Some(G3), None, Some(G5)]);
}

#[test]
fn an_owner_who_cannot_pay_loses_the_building() {
    let (_, mut s) = saboteur_ready()
        .seed(seed_rolling(DieFace::Three))
        .when(0, sabotage(2, CH8))
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
        .when(0, sabotage(2, CH8))
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
        .then([put_under(Stack::FaceDown, CH8), turn_began(1, false)]);
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

#[test]
fn a_hand_sabotaged_card_goes_under_the_lower_stack() {
    // The open stack lower.
    let mut g = hand_saboteur_ready();
    g.state.open.pop(); // open 3 < face-down 4
    g.state.open_top_shown = Some(G2);
    let state = g.when(0, SabotageHand { target: 1 }).then([
        hand_sabotaged(0, 1, CH7),
        put_under(Stack::Open, CH7),
        turn_began(1, false),
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
        hand_sabotaged(0, 1, CH7),
        put_under(Stack::FaceDown, CH7),
        turn_began(1, false),
    ]);
    assert_eq!(state.face_down, vec![CH7, TW1B, CH6, G3B]);
    assert_eq!(state.open, vec![CH4, CH5, G2, TH6]);
}

#[test]
fn with_both_stacks_equally_low_the_hand_saboteur_not_the_target_chooses_the_stack() {
    let g = hand_saboteur_ready(); // open 4 = face-down 4
    let s = g
        .when(0, SabotageHand { target: 1 })
        .then([hand_sabotaged(0, 1, CH7)]);
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
        .then([put_under(Stack::FaceDown, CH7), turn_began(1, false)]);
    assert_eq!(state.face_down, vec![CH7, TW1B, CH6, G3B, TH5]);
    assert_eq!(state.open, vec![CH4, CH5, G2, TH6]);
    assert!(!state.hand_has(1, CH7));
}

#[test]
fn sabotage_is_instead_of_building() {
    let mut g = saboteur_ready();
    g.state.built_this_turn = 1;
    g.when(0, sabotage(2, CH8)).then_error("build_or_sabotage");
}
