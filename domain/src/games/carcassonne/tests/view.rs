//! The view: enough to draw the board without the tile data, the same for every viewer; the
//! log hides nothing because nothing is secret.

use crate::contract::{Game, Viewer};
use crate::games::carcassonne::tests::test_support::*;
use crate::games::carcassonne::*;
use crate::testing::{given, viewers};

fn board() -> State {
    let events = Table::expansions(2)
        .lay(0, "U", 1, 0, 0)
        .follower(0, 1, 0, 1)
        .lay(1, "E", 0, -1, 180)
        .figure(MagicFigure::Mage, 0, 0, 1)
        .gold(1, 0, 2)
        .drawn(1, "MW2");
    given::<Carcassonne>(events).state
}

#[test]
fn placed_tiles_show_their_edges_and_segments_as_they_lie() {
    let view = Carcassonne::view(&board(), Viewer::Spectator);
    let [d, u, e] = &view.tiles[..] else {
        panic!("three tiles: {:?}", view.tiles)
    };
    assert_eq!(
        (d.tile.as_str(), d.x, d.y, d.rotation),
        ("D", Some(0), Some(0), 0)
    );
    assert_eq!(
        d.edges,
        Edges {
            north: Terrain::City,
            east: Terrain::Road,
            south: Terrain::Field,
            west: Terrain::Road
        }
    );
    assert_eq!(d.segments[0].edges, vec![Direction::North]);
    assert_eq!(d.segments[1].edges, vec![Direction::East, Direction::West]);
    assert_eq!(d.segments[2].half_edges, vec![2, 7]);
    assert_eq!(d.segments[2].cities, vec![0]);
    assert_eq!(u.ingots, 2);
    // E turned half way: its city faces south, its field reaches the other three sides.
    assert_eq!((e.tile.as_str(), e.rotation), ("E", 180));
    assert_eq!(e.edges.south, Terrain::City);
    assert_eq!(e.segments[0].edges, vec![Direction::South]);
    assert_eq!(e.segments[1].half_edges, vec![0, 1, 2, 3, 6, 7]);
    assert_eq!(e.segments[1].kind, FeatureKind::Field);
}

#[test]
fn segments_name_their_features_and_features_what_they_are_worth() {
    let view = Carcassonne::view(&board(), Viewer::Seat(0));
    let feature = |id: Option<u16>| {
        view.features
            .iter()
            .find(|f| Some(f.id) == id)
            .expect("every segment's feature is listed")
    };
    let road = feature(view.tiles[0].segments[1].feature);
    assert_eq!(view.tiles[1].segments[0].feature, Some(road.id), "one road");
    assert_eq!(
        (road.kind, road.completed, road.tiles, road.open_edges),
        (FeatureKind::Road, false, 2, 2)
    );
    assert_eq!(road.figure, Some(MagicFigure::Mage));
    assert_eq!(road.points, 4, "2 tiles, and the mage's 2");
    let city = feature(view.tiles[0].segments[0].feature);
    assert_eq!((city.completed, city.points), (true, 4));
    let field = feature(view.tiles[1].segments[1].feature);
    assert_eq!(field.followers, vec![1, 0]);
    assert_eq!(field.leaders, vec![0]);
    assert_eq!(
        field.completed_cities,
        Some(1),
        "the closed city north of the road"
    );
    assert_eq!(field.points, 3);
    assert_eq!(
        view.followers,
        vec![FollowerView {
            seat: 0,
            x: 1,
            y: 0,
            segment: 1,
            kind: FeatureKind::Field,
            feature: field.id,
        }]
    );
    assert_eq!(
        view.mage,
        Some(FigureSpot {
            x: 0,
            y: 0,
            segment: 1,
            feature: road.id
        })
    );
    assert_eq!(view.witch, None);
}

#[test]
fn the_view_shows_the_drawn_tile_the_pile_and_the_players() {
    let view = Carcassonne::view(&board(), Viewer::Spectator);
    assert_eq!((view.phase, view.turn), (Phase::PlaceTile, Some(1)));
    let drawn = view.drawn_tile.expect("the drawn tile is public");
    assert_eq!(
        (drawn.tile.as_str(), drawn.x, drawn.rotation),
        ("MW2", None, 0)
    );
    assert!(drawn.magic && !drawn.gold);
    assert!(drawn.segments.iter().all(|s| s.feature.is_none()));
    assert_eq!(view.tiles_left, 20);
    assert_eq!(
        view.tiles_left_by_kind,
        vec![TileCount {
            tile: "B".into(),
            count: 20
        }]
    );
    assert_eq!(view.gold_supply, 14);
    assert_eq!(
        view.players[0],
        PlayerView {
            seat: 0,
            score: 0,
            followers_at_home: 6,
            followers_on_board: 1,
            ingots: 0,
        }
    );
    assert!(view.mage_and_witch && view.gold_mines);
    assert!(view.winners.is_empty());
}

#[test]
fn every_viewer_sees_the_same_board_and_log() {
    let events = Table::expansions(3).lay(0, "U", 1, 0, 0).drawn(1, "B");
    let state = given::<Carcassonne>(events.clone()).state;
    let everyone = Carcassonne::view(&state, Viewer::Everyone);
    for viewer in viewers(3) {
        assert_eq!(Carcassonne::view(&state, viewer), everyone);
        for event in &events {
            assert_eq!(
                Carcassonne::redact(&state, event, viewer).as_ref(),
                Some(event)
            );
        }
    }
}

#[test]
fn the_view_as_json_names_what_a_client_draws() {
    let json = serde_json::to_value(Carcassonne::view(&board(), Viewer::Spectator)).unwrap();
    assert_eq!(
        json["tiles"][0]["segments"][0]["edges"],
        serde_json::json!(["north"])
    );
    assert_eq!(json["tiles"][0]["edges"]["east"], "road");
    assert_eq!(json["phase"], "place_tile");
    assert_eq!(json["drawn_tile"]["tile"], "MW2");
    assert_eq!(json["followers"][0]["kind"], "field");
}

/// The five-tile road L(-2,0)–U(-1,0)–D–U(1,0)–L(2,0) with seat 0's thief, `figure` on it,
/// completed by seat 1's L: what its feature says afterwards.
fn completed_road(figure: MagicFigure) -> FeatureView {
    let table = Table::expansions(2)
        .lay(0, "U", -1, 0, 0)
        .follower(0, -1, 0, 0)
        .lay(1, "L", -2, 0, 0)
        .lay(0, "U", 1, 0, 0)
        .figure(figure, 0, 0, 1)
        .lay(1, "L", 2, 0, 0);
    let (_, state) = given::<Carcassonne>(table.events)
        .when(1, SkipFollower {})
        .accepted();
    assert_eq!(
        state.figure(figure),
        None,
        "the figure went back to the supply"
    );
    let view = Carcassonne::view(&state, Viewer::Spectator);
    let start = view
        .tiles
        .iter()
        .find(|t| (t.x, t.y) == (Some(0), Some(0)))
        .unwrap();
    let road = start.segments[1].feature;
    let road = view
        .features
        .into_iter()
        .find(|f| Some(f.id) == road)
        .unwrap();
    assert!(road.completed);
    road
}

#[test]
fn a_completed_feature_keeps_the_points_its_figure_gave() {
    // The scoring gave 5 + 5 with the mage and 3 (5 halved, rounded up) with the witch; the
    // view says the same after the figure has left.
    assert_eq!(completed_road(MagicFigure::Mage).points, 10);
    assert_eq!(completed_road(MagicFigure::Witch).points, 3);
}
