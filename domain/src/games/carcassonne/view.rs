//! What a viewer sees: everything. Carcassonne's only secret is the order of the draw pile, and
//! that order does not exist (see [`super::pile`]); the view shows how many tiles are left and
//! of which kinds, as players who count the placed tiles know. So every viewer gets the same
//! view and the same log.
//!
//! The view is made for drawing the board without the tile data: each placed tile carries its
//! edges and segments as they lie (already turned), each segment the feature it belongs to,
//! and the features what they are worth.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::{Seat, Viewer};

use super::board::Placed;
use super::events::*;
use super::farms;
use super::features::Node;
use super::mage_witch::figures_on;
use super::options::*;
use super::scoring::{self, cloister_complete};
use super::state::State;
use super::tiles::{self, catalogue, turn_edges, turn_half_edges, FeatureKind, Terrain, TileKind};
use super::turn::{phase, Phase};

/// A side of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CarcassonneDirection)]
pub enum Direction {
    North,
    East,
    South,
    West,
}

const DIRECTIONS: [Direction; 4] = [
    Direction::North,
    Direction::East,
    Direction::South,
    Direction::West,
];

/// What lies on each edge of a tile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonneEdges)]
pub struct Edges {
    pub north: Terrain,
    pub east: Terrain,
    pub south: Terrain,
    pub west: Terrain,
}

/// One segment of a tile: a piece of road, city or field, or the cloister.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonneSegment)]
pub struct SegmentView {
    /// Its number on the tile (commands name segments by it).
    pub segment: u8,
    pub kind: FeatureKind,
    /// Roads and cities: the sides it reaches (a road reaching one side ends on the tile).
    pub edges: Vec<Direction>,
    /// Fields: the half-edges it reaches, numbered clockwise from the north-west corner:
    /// 0 north-west, 1 north-east, 2 east-north, 3 east-south, 4 south-east, 5 south-west,
    /// 6 west-south, 7 west-north.
    pub half_edges: Vec<u8>,
    /// A city segment with a pennant.
    pub pennant: bool,
    /// Fields: the city segments of this tile it borders.
    pub cities: Vec<u8>,
    /// Placed tiles: the feature it is part of (an id into `features`, valid for this view).
    pub feature: Option<Node>,
}

/// A tile as it lies (or, for the drawn tile, at rotation 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonneTile)]
pub struct TileView {
    /// `A`…`X` (base game), `MW1`…`MW8` (Magier & Hexe), `GM1`…`GM8` (Die Goldminen).
    pub tile: String,
    pub name: String,
    /// Placed tiles: the place (x grows east, y south; the start tile is at 0, 0).
    pub x: Option<i32>,
    pub y: Option<i32>,
    /// Degrees clockwise; edges and segments below are shown turned.
    pub rotation: u16,
    pub edges: Edges,
    pub cloister: bool,
    /// Bears the magic symbol (Magier & Hexe).
    pub magic: bool,
    /// Bears the gold symbol (Die Goldminen).
    pub gold: bool,
    /// Gold ingots lying on it.
    pub ingots: u8,
    pub segments: Vec<SegmentView>,
}

/// A road, city, cloister or field on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonneFeature)]
pub struct FeatureView {
    /// The id its segments name in `feature`.
    pub id: Node,
    pub kind: FeatureKind,
    /// Roads and cities with no open edge; cloisters with all 8 neighbours. Fields never.
    pub completed: bool,
    /// How many distinct tiles it lies on (a cloister: 1; the tiles' segments name the
    /// feature).
    pub tiles: u32,
    pub pennants: u8,
    /// Roads and cities: edges still waiting for a neighbour.
    pub open_edges: u16,
    /// What its majority would score for it now: completed, what completion gave; otherwise
    /// what it scores at the end if it stays as it is (fields: 3 per completed city bordered),
    /// the mage or the witch included.
    pub points: u32,
    /// Fields: the distinct completed cities it borders.
    pub completed_cities: Option<u8>,
    /// Followers on it, per seat.
    pub followers: Vec<u8>,
    /// The seats with the most followers on it.
    pub leaders: Vec<Seat>,
    pub figure: Option<MagicFigure>,
}

/// A follower on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonneFollower)]
pub struct FollowerView {
    pub seat: Seat,
    pub x: i32,
    pub y: i32,
    pub segment: u8,
    /// Road (thief), city (knight), cloister (monk) or field (farmer).
    pub kind: FeatureKind,
    pub feature: Node,
}

/// Where the mage or the witch stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonneFigureSpot)]
pub struct FigureSpot {
    pub x: i32,
    pub y: i32,
    pub segment: u8,
    pub feature: Node,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CarcassonnePlayer)]
pub struct PlayerView {
    pub seat: Seat,
    pub score: i64,
    pub followers_at_home: u8,
    pub followers_on_board: u8,
    /// Gold ingots taken (Die Goldminen).
    pub ingots: u8,
}

/// The board of Carcassonne, the same for every viewer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CarcassonneView {
    pub mage_and_witch: bool,
    pub gold_mines: bool,
    pub phase: Phase,
    /// The seat whose turn it is (absent once the game has ended).
    pub turn: Option<Seat>,
    /// The tile to place this turn, at rotation 0 (absent once it lies).
    pub drawn_tile: Option<TileView>,
    /// This turn's tile, once placed (the follower goes on it).
    pub placed_this_turn: Option<Position>,
    /// Tiles still in the pile.
    pub tiles_left: u32,
    /// The tiles left, by kind (public: the players can count them; there is no order, each
    /// tile is drawn at random when its turn comes).
    pub tiles_left_by_kind: Vec<TileCount>,
    /// Tiles that fitted nowhere, in the order they were drawn.
    pub discarded: Vec<String>,
    /// Every placed tile, in the order placed (the start tile first).
    pub tiles: Vec<TileView>,
    pub features: Vec<FeatureView>,
    pub followers: Vec<FollowerView>,
    pub mage: Option<FigureSpot>,
    pub witch: Option<FigureSpot>,
    /// Ingots not yet on the board (Die Goldminen).
    pub gold_supply: u8,
    pub players: Vec<PlayerView>,
    /// Once the game has ended.
    pub winners: Vec<Seat>,
}

fn directions(mask: u8) -> Vec<Direction> {
    (0..4)
        .filter(|e| mask & (1 << e) != 0)
        .map(|e| DIRECTIONS[e])
        .collect()
}

fn half_edges(mask: u8) -> Vec<u8> {
    (0..8).filter(|h| mask & (1 << h) != 0).collect()
}

/// A tile's face turned `quarters`, with the features of its segments when it is placed.
fn tile_view(kind: TileKind, quarters: u8, placed: Option<(&State, &Placed)>) -> TileView {
    let tile = tiles::tile(kind);
    let turned = tile.turned(quarters);
    let features = placed.map(|(state, _)| &state.board.features);
    TileView {
        tile: tile.id.clone(),
        name: tile.name.clone(),
        x: placed.map(|(_, p)| p.pos.x),
        y: placed.map(|(_, p)| p.pos.y),
        rotation: tiles::degrees(quarters),
        edges: Edges {
            north: turned.edges[0],
            east: turned.edges[1],
            south: turned.edges[2],
            west: turned.edges[3],
        },
        cloister: tile.cloister,
        magic: tile.magic,
        gold: tile.gold,
        ingots: placed.map_or(0, |(_, p)| p.gold),
        segments: tile
            .segments
            .iter()
            .enumerate()
            .map(|(i, s)| SegmentView {
                segment: i as u8,
                kind: s.kind,
                edges: directions(turn_edges(s.edges, quarters)),
                half_edges: half_edges(turn_half_edges(s.half_edges, quarters)),
                pennant: s.pennant,
                cities: s.cities.clone(),
                feature: placed
                    .zip(features)
                    .map(|((_, p), f)| f.find(p.node(i as u8))),
            })
            .collect(),
    }
}

fn feature_view(state: &State, node: Node) -> FeatureView {
    let feature = state.board.features.get(node);
    let mut followers = vec![0u8; state.players as usize];
    for f in super::followers::on_feature(state, node) {
        followers[f.seat as usize] += 1;
    }
    let completed = match feature.kind {
        FeatureKind::Road | FeatureKind::City => feature.closed(),
        FeatureKind::Cloister => cloister_complete(state, node),
        FeatureKind::Field => false,
    };
    let cities = (feature.kind == FeatureKind::Field).then(|| farms::completed_cities(state, node));
    let points = match cities {
        Some(cities) => farms::POINTS_PER_CITY * u32::from(cities),
        None if completed => scoring::points_given(state, node),
        None => scoring::points(state, node, false),
    };
    FeatureView {
        id: node,
        kind: feature.kind,
        completed,
        tiles: feature.tiles.len(),
        pennants: feature.pennants,
        open_edges: feature.open,
        points,
        completed_cities: cities,
        leaders: super::followers::majority(state, node),
        followers,
        figure: figures_on(state, node).first().copied(),
    }
}

fn spot(state: &State, node: Option<Node>) -> Option<FigureSpot> {
    let node = node?;
    let (pos, segment) = state.board.segment_of(node);
    Some(FigureSpot {
        x: pos.x,
        y: pos.y,
        segment,
        feature: state.board.features.find(node),
    })
}

pub fn view(state: &State, _viewer: Viewer) -> CarcassonneView {
    let catalogue = catalogue();
    let board = &state.board;
    let running = state.started && state.ended.is_none();
    CarcassonneView {
        mage_and_witch: state.options.mage_and_witch,
        gold_mines: state.options.gold_mines,
        phase: phase(state),
        turn: running.then_some(state.turn),
        drawn_tile: state.drawn.map(|kind| tile_view(kind, 0, None)),
        placed_this_turn: state.current_tile().filter(|_| running).map(|t| t.pos),
        tiles_left: state.tiles_left(),
        tiles_left_by_kind: state
            .pile
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(kind, &count)| TileCount {
                tile: catalogue.get(kind as TileKind).id.clone(),
                count,
            })
            .collect(),
        discarded: state
            .discarded
            .iter()
            .map(|&k| catalogue.get(k).id.clone())
            .collect(),
        tiles: board
            .placed
            .iter()
            .map(|p| tile_view(p.kind, p.quarters, Some((state, p))))
            .collect(),
        features: board
            .features
            .roots()
            .map(|node| feature_view(state, node))
            .collect(),
        followers: state
            .followers
            .iter()
            .map(|f| {
                let (pos, segment) = board.segment_of(f.node);
                FollowerView {
                    seat: f.seat,
                    x: pos.x,
                    y: pos.y,
                    segment,
                    kind: board.features.get(f.node).kind,
                    feature: board.features.find(f.node),
                }
            })
            .collect(),
        mage: spot(state, state.mage),
        witch: spot(state, state.witch),
        gold_supply: state.gold_supply,
        players: (0..state.players)
            .map(|seat| PlayerView {
                seat,
                score: state.scores[seat as usize],
                followers_at_home: state.home[seat as usize],
                followers_on_board: state.followers.iter().filter(|f| f.seat == seat).count() as u8,
                ingots: state.ingots[seat as usize],
            })
            .collect(),
        winners: state.winners(),
    }
}

/// Nothing in the log is secret: the drawn tiles are public and the pile has no order.
pub fn redact(
    _state: &State,
    event: &CarcassonneEvent,
    _viewer: Viewer,
) -> Option<CarcassonneEvent> {
    Some(event.clone())
}
