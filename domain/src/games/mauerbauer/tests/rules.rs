//! Setup, the guards every command passes, the status, and the named schemas.

use super::super::guild_cards::GuildCard;
use super::super::tests::test_support::*;
use super::*;
use crate::dynamic::{DomainError, DynGame};
use crate::erased::Erased;
use crate::schema::TaggedUnion;
use crate::testing::given;

#[test]
fn setup_deals_six_cards_to_each_player_and_draws_the_starting_player() {
    let mut starters = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let events = Mauerbauer::setup(&MauerbauerOptions {}, 4, &mut Ctx::new(seed, 0)).unwrap();
        let MauerbauerEvent::MauerbauerGameStarted(started) = &events[0] else {
            panic!("the game starts first")
        };
        let first = started.starting_seat;
        starters.insert(first);
        let dealt = events_of!(events, GuildCardsDrawn);
        assert_eq!(dealt.len(), 4);
        assert!(dealt.iter().all(|d| d.count == 6));
        let state = given::<Mauerbauer>(events).state;
        assert_eq!(state.draw_pile.total(), 60 - 24);
        assert_eq!(state.scores, vec![1; 4], "score markers start on 1");
        assert_eq!(Mauerbauer::status(&state).to_act, vec![first]);
    }
    assert_eq!(starters.len(), 4, "any seat may start");
}

#[test]
fn nothing_happens_before_setup_or_after_the_end() {
    assert_eq!(
        Mauerbauer::decide(
            &State::default(),
            0,
            &BuildWall { line: 0 }.into(),
            &mut Ctx::new(0, 0)
        )
        .unwrap_err()
        .code,
        "game_not_started"
    );
    let mut state = given::<Mauerbauer>(Layout::new(2).events()).state;
    state.ended = Some(super::super::end::result(&state, EndReason::LastWall));
    assert_eq!(
        Mauerbauer::decide(
            &state,
            0,
            &BuildWall { line: 0 }.into(),
            &mut Ctx::new(0, 0)
        )
        .unwrap_err()
        .code,
        "game_over"
    );
    let status = Mauerbauer::status(&state);
    assert!(status.finished && status.to_act.is_empty());
}

#[test]
fn each_step_refuses_the_commands_of_another_with_what_it_waits_for() {
    let state = given::<Mauerbauer>(Layout::new(2).events()).state;
    let refused = |state: &State, command: MauerbauerCommand| {
        Mauerbauer::decide(state, 0, &command, &mut Ctx::new(0, 0))
            .unwrap_err()
            .code
    };
    assert_eq!(
        refused(&state, PlaceTowers { towers: vec![] }.into()),
        "awaiting_wall"
    );
    assert_eq!(refused(&state, KeepCitiesApart {}.into()), "awaiting_wall");
    let (_, rolled) = act(&state, 0, BuildWall { line: 50 });
    assert_eq!(
        refused(&rolled, BuildWall { line: 1 }.into()),
        "awaiting_towers"
    );
    assert_eq!(
        refused(&rolled, PlaceHouses { houses: vec![] }.into()),
        "awaiting_towers"
    );
    assert_eq!(
        refused(&rolled, PlaceTowers { towers: vec![] }.into()),
        "towers_not_allowed"
    );
}

#[test]
fn the_status_names_the_seat_to_act_and_the_scores() {
    let state = given::<Mauerbauer>(Layout::new(3).scores(&[4, 1, 2]).turn(2).events()).state;
    let status = Mauerbauer::status(&state);
    assert_eq!(status.to_act, vec![2]);
    assert_eq!(status.scores, Some(vec![4, 1, 2]));
    assert!(!status.finished && status.winners.is_empty());
}

#[test]
fn the_game_registers_with_named_schemas_of_its_own() {
    let game = Erased::<Mauerbauer>::new();
    let info = game.info();
    assert_eq!(
        (info.kind, info.min_seats, info.max_seats),
        ("mauerbauer", 2, 4)
    );
    assert_eq!(info.options_schema, "MauerbauerOptions");
    let schemas = game.schemas();
    assert_eq!(schemas.view, "MauerbauerView");
    let names: Vec<&str> = schemas.schemas.iter().map(|(n, _)| n.as_str()).collect();
    for tag in MauerbauerCommand::TAGS.iter().chain(MauerbauerEvent::TAGS) {
        assert!(names.contains(tag), "{tag} has a named schema");
    }
    // Every other schema is a helper type, named after the game so no other game's can clash
    // (primitives such as `u8` are inlined by the spec).
    for name in &names {
        let tagged = MauerbauerCommand::TAGS.contains(name)
            || MauerbauerEvent::TAGS.contains(name)
            || name.starts_with(char::is_lowercase);
        assert!(tagged || name.starts_with("Mauerbauer"), "{name}");
    }
    for helper in [
        "MauerbauerGuildCard",
        "MauerbauerTower",
        "MauerbauerHouse",
        "MauerbauerBoard",
        "MauerbauerVertex",
        "MauerbauerLine",
        "MauerbauerField",
        "MauerbauerCity",
        "MauerbauerPhase",
    ] {
        assert!(names.contains(&helper), "{helper} has a named schema");
    }
    assert!(game.validate_options(&serde_json::json!({}), 3).is_ok());
    assert!(matches!(
        game.validate_options(&serde_json::json!({"variant": true}), 3),
        Err(DomainError::InvalidOptions(_))
    ));
    assert!(game.validate_options(&serde_json::json!({}), 5).is_err());
}

#[test]
fn commands_and_events_read_as_the_spec_says() {
    let command: MauerbauerCommand = serde_json::from_value(serde_json::json!({
        "type": "LayGuildCards",
        "cards": ["board_walls", "closed_cities"]
    }))
    .unwrap();
    assert_eq!(
        command,
        LayGuildCards {
            cards: vec![GuildCard::BoardWalls, GuildCard::ClosedCities]
        }
        .into()
    );
    let rolled = serde_json::to_value(MauerbauerEvent::from(MauerbauerDiceRolled {
        seat: 1,
        tower: None,
        houses: [
            super::super::pieces::HouseDie::Any,
            super::super::pieces::HouseDie::Red,
        ],
    }))
    .unwrap();
    assert_eq!(
        rolled,
        serde_json::json!({"type": "MauerbauerDiceRolled", "seat": 1, "tower": null, "houses": ["any", "red"]})
    );
}
