//! Hidden information in views and in the event log.

use super::*;

#[test]
fn others_see_only_how_many_cards_are_placed_while_the_round_runs() {
    let p = at(1, 4, A, 0);
    let events = with(game(3, 0), [placed(0, 1, p, 0)]);
    let state = state_of(&events);
    let own = SpaceBuilder::view(&state, Viewer::Seat(0));
    assert_eq!(own.players[0].city, Some(vec![p]));
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let v = SpaceBuilder::view(&state, viewer);
        assert_eq!(v.players[0].city, None);
        assert_eq!(v.players[0].placed, 1);
        let redacted = SpaceBuilder::redact(&state, &events[2], viewer).unwrap();
        assert_eq!(
            redacted,
            BuildingCardPlaced {
                seat: 0,
                round: 1,
                at_ms: 0,
                placement: None
            }
            .into()
        );
    }
    assert_eq!(
        SpaceBuilder::redact(&state, &events[2], Viewer::Seat(0)).unwrap(),
        events[2]
    );
    assert_eq!(
        SpaceBuilder::redact(&state, &events[2], Viewer::Everyone).unwrap(),
        events[2]
    );
}

#[test]
fn everything_is_shown_when_the_round_ends() {
    let events = with(game(2, 0), builds_correctly(0, &[1, 2, 3, 4], 0));
    let events = with(events, [placed(1, 1, at(1, 8, B, 2), 0)]);
    let (_, state) = given::<SpaceBuilder>(events.clone())
        .when(0, DeclareCityFinished {})
        .accepted();
    let v = SpaceBuilder::view(&state, Viewer::Spectator);
    assert_eq!(v.players[1].city, Some(vec![at(1, 8, B, 2)]));
    assert_eq!(
        SpaceBuilder::redact(&state, events.last().unwrap(), Viewer::Seat(0)).unwrap(),
        *events.last().unwrap()
    );
}
