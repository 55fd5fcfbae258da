//! Building at once: placing, moving, turning, flipping, taking back, finishing.

use super::*;

/// Seat 0 may not place a card as `p` says after `events`: refused with `code`.
fn refused_placing(events: Vec<E>, p: Placement, code: &str) {
    given::<SpaceBuilder>(events)
        .when(0, place_cmd(p))
        .then_error(code);
}

#[test]
fn a_player_places_a_hand_card_on_an_empty_slot() {
    let p = at(2, 4, B, 3);
    given::<SpaceBuilder>(game(2, 0))
        .when(0, place_cmd(p))
        .then([placed(0, 1, p, 0)]);
}

#[test]
fn only_released_cards_may_be_built() {
    refused_placing(game(2, 0), at(5, 4, A, 0), "card_not_released");
    refused_placing(game(2, 0), at(9, 4, A, 0), "no_such_card");
}

#[test]
fn a_slot_holds_one_card() {
    refused_placing(
        with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]),
        at(2, 4, A, 0),
        "slot_taken",
    );
}

#[test]
fn slots_and_rotations_must_exist() {
    refused_placing(game(2, 0), at(1, 9, A, 0), "no_such_slot");
    refused_placing(game(2, 0), at(1, 0, A, 4), "no_such_rotation");
}

#[test]
fn a_card_on_the_board_is_moved_not_placed_again() {
    refused_placing(
        with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]),
        at(1, 5, A, 0),
        "card_already_placed",
    );
}

#[test]
fn each_player_builds_on_their_own_board() {
    // Seat 1's slot 4 is free although seat 0 built there.
    let p = at(2, 4, A, 0);
    given::<SpaceBuilder>(with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]))
        .when(1, place_cmd(p))
        .then([placed(1, 1, p, 0)]);
}

#[test]
fn a_card_is_moved_turned_or_flipped() {
    let events = with(
        game(2, 0),
        [
            placed(0, 1, at(1, 4, A, 0), 0),
            placed(0, 1, at(2, 5, A, 0), 0),
        ],
    );
    let moved = |to: Placement| -> E {
        BuildingCardMoved {
            seat: 0,
            round: 1,
            at_ms: 0,
            from_slot: Some(4),
            placement: Some(to),
        }
        .into()
    };
    let to = at(1, 0, B, 1);
    let state = given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 0,
                face: B,
                rotation: 1,
            },
        )
        .then([moved(to)]);
    assert_eq!(state.players[0].placed(1), Some(&to));
    // Turning in place is a move to its own slot.
    given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 4,
                face: A,
                rotation: 2,
            },
        )
        .then([moved(at(1, 4, A, 2))]);
    given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 4,
                face: A,
                rotation: 0,
            },
        )
        .then_error("nothing_changes");
    given::<SpaceBuilder>(events.clone())
        .when(
            0,
            MoveBuildingCard {
                card: 1,
                slot: 5,
                face: A,
                rotation: 0,
            },
        )
        .then_error("slot_taken");
    given::<SpaceBuilder>(events)
        .when(
            0,
            MoveBuildingCard {
                card: 3,
                slot: 0,
                face: A,
                rotation: 0,
            },
        )
        .then_error("card_not_placed");
}

#[test]
fn a_card_is_taken_back_into_the_hand() {
    let state = given::<SpaceBuilder>(with(game(2, 0), [placed(0, 1, at(1, 4, A, 0), 0)]))
        .when(0, TakeBackBuildingCard { card: 1 })
        .then([BuildingCardTakenBack {
            seat: 0,
            round: 1,
            at_ms: 0,
            card: Some(1),
            slot: Some(4),
        }
        .into()]);
    assert!(state.players[0].city.is_empty());
    given::<SpaceBuilder>(game(2, 0))
        .when(0, TakeBackBuildingCard { card: 1 })
        .then_error("card_not_placed");
}

#[test]
fn finishing_needs_every_hand_card_on_the_board() {
    given::<SpaceBuilder>(with(game(3, 0), builds_correctly(0, &[1, 2, 3], 0)))
        .when(0, DeclareCityFinished {})
        .then_error("hand_not_all_placed");
    given::<SpaceBuilder>(with(game(3, 0), builds_correctly(0, &[1, 2, 3, 4], 0)))
        .when(0, DeclareCityFinished {})
        .then([finished(0, 0)]);
}

#[test]
fn a_finished_city_cannot_change() {
    let events = with(
        with(game(3, 0), builds_correctly(0, &[1, 2, 3, 4], 0)),
        [finished(0, 0)],
    );
    given::<SpaceBuilder>(events.clone())
        .when(0, TakeBackBuildingCard { card: 1 })
        .then_error("city_finished");
    given::<SpaceBuilder>(events.clone())
        .when(0, DeclareCityFinished {})
        .then_error("city_finished");
    let state = state_of(&events);
    assert_eq!(SpaceBuilder::status(&state).to_act, vec![1, 2]);
    assert!(SpaceBuilder::legal_commands(&state, 0).is_empty());
}

#[test]
fn players_build_in_any_interleaving() {
    // Each seat's command is decided on the latest state, whoever sent the one before.
    let mut state = state_of(&game(3, 0));
    let order = [
        (2, 1),
        (0, 1),
        (1, 1),
        (0, 2),
        (2, 2),
        (1, 2),
        (1, 3),
        (0, 3),
        (2, 3),
    ];
    for (seat, card) in order {
        let events = decide_at(&state, seat, place_cmd(correct(1, 0, card)), 0).unwrap();
        for e in &events {
            apply(&mut state, e);
        }
    }
    assert!(state.players.iter().all(|p| p.city.len() == 3));
}
