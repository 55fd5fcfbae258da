//! Step 3, building: the first build, laying cards, kinds side by side, corner towers.

use super::*;

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
            turn_began(1, false),
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
fn nothing_is_laid_right_of_a_right_corner_tower() {
    let mut g = at_build(given::<Wettstreit>(standard()));
    hand(&mut g, 0, &[CH5, TW1]);
    city(&mut g, 0, &[Some(G4), Some(RCT2)]);
    let s = g.state.clone();
    from(s.clone())
        .when(0, BuildCard { card: CH5, slot: 2 })
        .then_error("right_end_closed");
    assert!(!Wettstreit::legal_commands(&s, 0)
        .iter()
        .any(|c| matches!(c, WettstreitCommand::BuildCard(b) if b.slot == 2)));
    // The left end stays open.
    from(s)
        .when(
            0,
            BuildCard {
                card: CH5,
                slot: -1,
            },
        )
        .accepted();
}

#[test]
fn a_city_the_saboteurs_emptied_is_founded_again_with_three_cards() {
    // Seat 2's last building falls to a saboteur: nothing is left to lay a card next to.
    let mut g = saboteur_ready().seed(seed_rolling(DieFace::Saboteur));
    city(&mut g, 2, &[Some(CH8)]);
    g.state.open.pop(); // open 3 < face-down 4: no choice of stack
    g.state.open_top_shown = Some(G2);
    let (_, mut s) = g.when(0, sabotage(2, CH8)).accepted();
    assert!(s.cities[2].is_empty());
    s.turn = 2;
    s.phase = Phase::Build;
    s.built_this_turn = 0;
    let mut g = from(s);
    hand(&mut g, 2, &[LCT1, CH5, G3, TH7]);
    let s = g.state;
    from(s.clone())
        .when(2, BuildCard { card: CH5, slot: 0 })
        .then_error("first_build_needs_three");
    assert!(Wettstreit::legal_commands(&s, 2).contains(
        &FoundCity {
            cards: vec![LCT1, CH5, G3]
        }
        .into()
    ));
    let state = from(s)
        .when(
            2,
            FoundCity {
                cards: vec![LCT1, CH5, G3],
            },
        )
        .then([
            CityFounded {
                seat: 2,
                cards: vec![LCT1, CH5, G3],
            }
            .into(),
            turn_began(0, false),
        ]);
    assert_eq!(state.cities[2], vec![Some(LCT1), Some(CH5), Some(G3)]);
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
