//! Step 1, income: the die's pips and the gates' coins; the saboteur face.

use super::*;

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
