//! The view publishes the board's geometry and every piece; hands and the draw pile stay
//! secret in views and in the log until the game ends.

use super::super::guild_cards::GuildCard::*;
use super::super::pieces::HouseColour::*;
use super::super::pieces::TowerColour::*;
use super::super::tests::test_support::*;
use super::super::Mauerbauer;
use super::*;
use crate::contract::Game;
use crate::testing::{given, viewers};

fn table_with_city() -> State {
    let events = Layout::new(3)
        .towers(&[(12, White), (13, Grey)])
        .houses(&[(20, Red), (20, Red), (20, Blue)])
        .city(&[20])
        .walls(&[0])
        .towers(&[(0, Black)])
        .houses(&[(0, Yellow)])
        .hand(0, &[BoardWalls, ClosedCities])
        .hand(1, &[CityTowers])
        .hand(2, &[])
        .events();
    given::<Mauerbauer>(events).state
}

#[test]
fn the_view_holds_the_geometry_a_client_draws_the_board_from() {
    let view = view(&table_with_city(), Viewer::Spectator);
    let board = &view.board;
    assert_eq!(
        (board.vertices.len(), board.lines.len(), board.fields.len()),
        (33, 77, 45)
    );
    let v18 = &board.vertices[18];
    assert_eq!((v18.x, v18.line), (1.5, 3));
    assert!((v18.y - 3.0 * 3f64.sqrt() / 2.0).abs() < 1e-12);
    assert!(board.vertices[0].water && !board.vertices[1].water);
    let line = &board.lines[35];
    assert_eq!((line.vertices, &line.fields), ([13, 18], &vec![20, 21]));
    let field = &board.fields[20];
    assert_eq!(
        (field.vertices, field.lines, field.region, field.points),
        ([12, 13, 18], [31, 33, 35], Region::A, Points::Up)
    );
    assert_eq!(board.row_height, ROW_HEIGHT);
    // Field 20's corners are (1, 2), (2, 2) and (1.5, 3) in rows: its centre is a third of the
    // way up from its base.
    assert_eq!(field.x, 1.5);
    assert!((field.y - (2.0 + 1.0 / 3.0) * ROW_HEIGHT).abs() < 1e-12);
}

#[test]
fn the_view_shows_every_piece_and_city() {
    let view = view(&table_with_city(), Viewer::Spectator);
    let board = &view.board;
    assert_eq!(board.vertices[12].tower, Some(White));
    assert_eq!(board.vertices[0].tower, Some(Black));
    assert!(board.lines[0].wall && !board.lines[0].free);
    assert!(board.lines[31].wall && board.lines[1].free);
    assert_eq!(board.fields[0].houses.yellow, 1);
    assert_eq!(board.fields[20].city, Some(0));
    assert_eq!(
        board.fields[20].houses,
        HouseCounts::default(),
        "the city holds them"
    );
    assert_eq!(view.cities.len(), 1);
    let city = &view.cities[0];
    assert_eq!(
        (city.fields.clone(), city.walls.clone()),
        (vec![20], vec![31, 33, 35])
    );
    assert_eq!(city.towers.len(), 2);
    assert_eq!((city.palaces.red, city.houses.blue), (1, 1));
    assert_eq!(view.supply.walls, 29);
    assert_eq!(view.supply.towers.black, 9);
    assert_eq!(view.supply.palaces.red, 2);
    assert_eq!(view.guild_cards.len(), 30);
    assert_eq!(view.phase, Phase::BuildWall);
    assert_eq!((view.turn, view.to_act.clone()), (Some(0), vec![0]));
}

#[test]
fn a_player_sees_their_own_hand_and_everyone_elses_size() {
    let state = table_with_city();
    let seat0 = view(&state, Viewer::Seat(0));
    assert_eq!(seat0.players[0].hand, Some(vec![BoardWalls, ClosedCities]));
    assert_eq!(seat0.players[1].hand, None);
    assert_eq!(seat0.players[1].hand_count, 1);
    assert_eq!(seat0.draw_pile, 57);
    assert_eq!(seat0.draw_pile_cards, None);
    let spectator = view(&state, Viewer::Spectator);
    assert!(spectator.players.iter().all(|p| p.hand.is_none()));
    let json = serde_json::to_string(&view(&state, Viewer::Seat(1))).unwrap();
    assert!(
        !json.contains("closed_cities\"]"),
        "seat 0's cards are not in seat 1's view"
    );
    let all = view(&state, Viewer::Everyone);
    assert!(all.players.iter().all(|p| p.hand.is_some()));
    assert_eq!(all.draw_pile_cards.as_ref().map(Vec::len), Some(57));
}

#[test]
fn drawn_cards_are_the_drawing_players_secret_in_the_log() {
    let state = table_with_city();
    let drawn: MauerbauerEvent = GuildCardsDrawn {
        seat: 1,
        count: 2,
        cards: Some(vec![BoardWalls, CityPalaces]),
    }
    .into();
    for viewer in viewers(3) {
        let shown = Mauerbauer::redact(&state, &drawn, viewer).unwrap();
        let visible = matches!(viewer, Viewer::Seat(1) | Viewer::Everyone);
        let expected: MauerbauerEvent = GuildCardsDrawn {
            seat: 1,
            count: 2,
            cards: visible.then(|| vec![BoardWalls, CityPalaces]),
        }
        .into();
        assert_eq!(shown, expected, "{viewer:?}");
    }
    let laid: MauerbauerEvent = GuildCardDiscarded {
        seat: 1,
        card: CityTowers,
    }
    .into();
    assert_eq!(
        Mauerbauer::redact(&state, &laid, Viewer::Seat(0)),
        Some(laid.clone())
    );
}

#[test]
fn once_the_game_has_ended_everything_is_public() {
    let mut state = table_with_city();
    state.ended = Some(super::super::end::result(&state, EndReason::LastTower));
    let seat2 = view(&state, Viewer::Seat(2));
    assert!(seat2.players.iter().all(|p| p.hand.is_some()));
    assert!(seat2.draw_pile_cards.is_some());
    assert_eq!(seat2.phase, Phase::Finished);
    assert_eq!(seat2.turn, None);
    assert!(seat2.result.is_some());
    let drawn: MauerbauerEvent = GuildCardsDrawn {
        seat: 0,
        count: 1,
        cards: Some(vec![BoardWalls]),
    }
    .into();
    assert_eq!(
        Mauerbauer::redact(&state, &drawn, Viewer::Spectator),
        Some(drawn.clone())
    );
}
