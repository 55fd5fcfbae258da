//! Every kind's set-up refuses what game creation refuses: a seat count outside the kind's range
//! and options the kind's own validation refuses, as a rule error and never a panic. A set-up
//! also runs on what an export or an import claims (the offline verifier, import), which no game
//! creation checked.

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::contract::{Ctx, Game, RuleError, Viewer};
use crate::dynamic::DomainError;
use crate::games::burgbaumeister::Burgbaumeister;
use crate::games::carcassonne::Carcassonne;
use crate::games::mauerbauer::Mauerbauer;
use crate::games::space_builder::SpaceBuilder;
use crate::games::wettstreit::Wettstreit;
use crate::registry::{self, validate_new_game};

/// The seat counts each kind must refuse: none, one below the range (where the range does not
/// start at 1), one above it, and the largest a seat count can be.
fn out_of_range<G: Game>() -> Vec<u8> {
    let mut seats = vec![0, G::MAX_SEATS + 1, 255];
    if G::MIN_SEATS > 1 {
        seats.push(1);
        seats.push(G::MIN_SEATS - 1);
    }
    seats
}

fn assert_typed_setup_refuses_seats<G: Game>() {
    for seats in out_of_range::<G>() {
        let refused = G::setup(&G::Options::default(), seats, &mut Ctx::new(7, 0));
        match refused {
            Err(RuleError { code, .. }) => assert_eq!(code, "seats_out_of_range", "{}", G::KIND),
            Ok(_) => panic!("{} set up a game for {seats} seats", G::KIND),
        }
    }
    for seats in G::MIN_SEATS..=G::MAX_SEATS {
        assert!(
            G::setup(&G::Options::default(), seats, &mut Ctx::new(7, 0)).is_ok(),
            "{} refuses {seats} seats",
            G::KIND
        );
    }
}

#[test]
fn burgbaumeister_set_up_refuses_seat_counts_outside_2_to_4() {
    assert_typed_setup_refuses_seats::<Burgbaumeister>();
}

#[test]
fn carcassonne_set_up_refuses_seat_counts_outside_2_to_5() {
    assert_typed_setup_refuses_seats::<Carcassonne>();
}

#[test]
fn mauerbauer_set_up_refuses_seat_counts_outside_2_to_4() {
    // The export with `seat_count` 0 that made the verifier divide by zero.
    assert_typed_setup_refuses_seats::<Mauerbauer>();
}

#[test]
fn space_builder_set_up_refuses_seat_counts_outside_2_to_4() {
    assert_typed_setup_refuses_seats::<SpaceBuilder>();
}

#[test]
fn wettstreit_set_up_refuses_seat_counts_outside_3_to_4() {
    assert_typed_setup_refuses_seats::<Wettstreit>();
}

#[test]
fn every_registered_kind_refuses_them_through_the_dynamic_set_up() {
    for game in registry::all() {
        let info = game.info();
        let mut seats = vec![0, info.max_seats + 1, 255];
        if info.min_seats > 1 {
            seats.extend([1, info.min_seats - 1]);
        }
        for seats in seats {
            let refused = game.setup(&Value::Null, seats, &mut Ctx::new(1, 0));
            match refused {
                Err(DomainError::Rule(rule)) => {
                    assert_eq!(rule.code, "seats_out_of_range", "{}", info.kind)
                }
                other => panic!("{} with {seats} seats: {other:?}", info.kind),
            }
        }
    }
}

#[test]
fn the_set_up_refuses_options_the_kind_refuses() {
    // Space Builder's own validation refuses a round deadline of 0 minutes (and over a week).
    for minutes in [0, 10_081] {
        let options = json!({ "deadline_minutes": minutes });
        assert!(validate_new_game("space-builder", 2, &options).is_err());
        let refused =
            registry::find("space-builder")
                .unwrap()
                .setup(&options, 2, &mut Ctx::new(1, 0));
        assert!(
            matches!(&refused, Err(DomainError::Rule(r)) if r.code == "bad_deadline"),
            "{refused:?}"
        );
    }
    // Options that do not parse, and a turn clock out of range, for any kind.
    for game in registry::all() {
        let seats = game.info().min_seats;
        for options in [
            json!([1]),
            json!({"move_minutes": 0}),
            json!({"nonsense": 1}),
        ] {
            assert!(
                matches!(
                    game.setup(&options, seats, &mut Ctx::new(1, 0)),
                    Err(DomainError::InvalidOptions(_))
                ),
                "{}: {options}",
                game.kind()
            );
        }
    }
}

#[test]
fn a_new_game_is_validated_as_creation_does() {
    assert_eq!(
        validate_new_game("chess", 2, &Value::Null).err(),
        Some(DomainError::UnknownKind("chess".into()))
    );
    assert!(matches!(
        validate_new_game("mauerbauer", 0, &Value::Null),
        Err(DomainError::InvalidOptions(_))
    ));
    let (game, options) = validate_new_game(
        "space-builder",
        3,
        &json!({"timing": "elapsed", "move_minutes": 5}),
    )
    .unwrap();
    assert_eq!(game.kind(), "space-builder");
    assert_eq!(
        options,
        json!({"timing": "elapsed", "deadline_minutes": null, "move_minutes": 5})
    );
}

/// Options as a client (or a forged export) might send them: the kinds' option names and a few
/// others, with values of every JSON type, some in range and some not; and non-objects.
fn any_options() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(vec![
        "variant",
        "timing",
        "deadline_minutes",
        "mage_and_witch",
        "gold_mines",
        "move_minutes",
        "seats",
        "",
    ]);
    let values = prop::sample::select(vec![
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.5),
        json!(10_080),
        json!(10_081),
        json!(40_321),
        json!(u64::MAX),
        json!("elapsed"),
        json!("arrival"),
        json!(""),
        json!([]),
        json!({}),
    ]);
    prop_oneof![
        Just(Value::Null),
        prop::collection::btree_map(names, values.clone(), 0..4)
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.into(), v)).collect())),
        values,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever the seat count and options, the set-up answers without panicking; it accepts
    /// exactly what game creation accepts; and what it accepts is a game that can be folded,
    /// shown and asked for its moves.
    #[test]
    fn the_set_up_never_panics_and_accepts_what_creation_accepts(
        kind in 0..registry::all().len(),
        seats in 0..=255u8,
        options in any_options(),
        seed in any::<u64>(),
    ) {
        let game = registry::all()[kind];
        let set_up = game.setup(&options, seats, &mut Ctx::new(seed, 0));
        let created = validate_new_game(game.kind(), seats, &options);
        prop_assert_eq!(set_up.is_ok(), created.is_ok(), "{} {} {}", game.kind(), seats, options);
        if let Ok(events) = set_up {
            let mut state = game.initial();
            for event in &events {
                game.evolve(&mut state, event).unwrap();
            }
            let status = game.status(&state);
            for seat in 0..seats {
                game.legal_commands(&state, seat);
                game.view(&state, Viewer::Seat(seat));
            }
            prop_assert!(!status.finished);
        }
    }
}

/// The set-up's first event, forged to any seat count (an export or import is not trusted): the
/// initial state it folds into, its status, moves and views do not panic. (The set-up decided
/// again refuses it; this is the fold of what the export claims.)
#[test]
fn a_started_event_forged_to_any_seat_count_folds_without_panicking() {
    for game in registry::all() {
        let seats = game.info().min_seats;
        let options = game.validate_options(&Value::Null, seats).unwrap();
        let events = game.setup(&options, seats, &mut Ctx::new(3, 0)).unwrap();
        for forged in 0..=255u8 {
            let mut events = events.clone();
            events[0]["players"] = json!(forged);
            let mut state = game.initial();
            for event in &events {
                game.evolve(&mut state, event).unwrap();
            }
            game.status(&state);
            for seat in [0, 1, forged.saturating_sub(1), forged, 255] {
                game.legal_commands(&state, seat);
                game.default_command(&state, seat);
                game.view(&state, Viewer::Seat(seat));
            }
            game.view(&state, Viewer::Spectator);
        }
    }
}
