//! The landscape tiles, read once from `tiles.json` (our own format; facts from JCloisterZone's
//! tile definitions), and how each looks turned a quarter, a half or three quarters.
//!
//! Board directions: north is up, x grows to the east and y to the south (screen order).
//! Edges are numbered N 0, E 1, S 2, W 3; half-edges clockwise from the north-west corner:
//! 0 north-west, 1 north-east, 2 east-north, 3 east-south, 4 south-east, 5 south-west,
//! 6 west-south, 7 west-north. Turning a tile a quarter clockwise moves edge `e` to `e + 1` and
//! half-edge `h` to `h + 2`.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A tile's place in the catalogue (base A–X, then MW1–MW8, then GM1–GM8).
pub type TileKind = u8;

/// What lies on an edge of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CarcassonneTerrain)]
pub enum Terrain {
    City,
    Road,
    Field,
}

/// What a segment of a tile is part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CarcassonneFeatureKind)]
pub enum FeatureKind {
    Road,
    City,
    Cloister,
    Field,
}

/// The sets of tiles a game can be played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Set {
    Base,
    MageAndWitch,
    GoldMines,
}

/// One feature piece on a tile at rotation 0.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Segment {
    pub kind: FeatureKind,
    /// Roads and cities: the edges reached, bit `e` for edge `e`.
    pub edges: u8,
    /// Fields: the half-edges reached, bit `h` for half-edge `h`.
    pub half_edges: u8,
    pub pennant: bool,
    /// Fields: the city segments of this tile the field borders.
    pub cities: Vec<u8>,
}

/// A tile seen at one rotation: which segment reaches each board edge and half-edge.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Turned {
    pub edges: [Terrain; 4],
    /// The road or city segment on each board edge.
    pub edge_segment: [Option<u8>; 4],
    /// The field segment on each board half-edge.
    pub half_segment: [Option<u8>; 8],
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TileType {
    /// `A`…`X`, `MW1`…`MW8`, `GM1`…`GM8`.
    pub id: String,
    pub name: String,
    /// Copies in the box.
    pub count: u8,
    pub set: Set,
    pub cloister: bool,
    /// Bears the Magier & Hexe symbol.
    pub magic: bool,
    /// Bears the Goldminen symbol.
    pub gold: bool,
    /// The terrain on N, E, S, W at rotation 0.
    pub edges: [Terrain; 4],
    /// Cities, then roads, then fields, then the cloister.
    pub segments: Vec<Segment>,
    turned: Vec<Turned>,
}

impl TileType {
    /// The tile turned `quarters` quarter turns clockwise (0..=3).
    pub fn turned(&self, quarters: u8) -> &Turned {
        &self.turned[quarters as usize % 4]
    }
}

pub struct Catalogue {
    pub tiles: Vec<TileType>,
    pub start_tile: TileKind,
    /// Ingots in the Goldminen box.
    pub gold_ingots: u8,
}

impl Catalogue {
    pub fn get(&self, kind: TileKind) -> &TileType {
        &self.tiles[kind as usize]
    }

    pub fn kind_of(&self, id: &str) -> Option<TileKind> {
        self.tiles
            .iter()
            .position(|t| t.id == id)
            .map(|i| i as TileKind)
    }
}

/// The catalogue, parsed on first use.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE
        .get_or_init(|| parse(include_str!("tiles.json")).expect("tiles.json is valid (tested)"))
}

/// The tile of that kind.
pub fn tile(kind: TileKind) -> &'static TileType {
    catalogue().get(kind)
}

pub const NORTH: u8 = 0;
pub const EAST: u8 = 1;
pub const SOUTH: u8 = 2;
pub const WEST: u8 = 3;

/// The edge facing `edge` on the neighbouring tile.
pub fn opposite(edge: u8) -> u8 {
    (edge + 2) % 4
}

/// The half-edge of the neighbour that touches half-edge `h` (north-west meets south-west, …).
pub fn facing_half(h: u8) -> u8 {
    [5, 4, 7, 6, 1, 0, 3, 2][h as usize]
}

/// The step to the neighbour across `edge`.
pub fn step(edge: u8) -> (i32, i32) {
    [(0, -1), (1, 0), (0, 1), (-1, 0)][edge as usize]
}

/// Rotation in degrees clockwise (0, 90, 180, 270) as quarter turns.
pub fn quarters(degrees: u16) -> Option<u8> {
    match degrees {
        0 => Some(0),
        90 => Some(1),
        180 => Some(2),
        270 => Some(3),
        _ => None,
    }
}

pub fn degrees(quarters: u8) -> u16 {
    u16::from(quarters % 4) * 90
}

/// Edge bits turned `q` quarters clockwise.
pub fn turn_edges(mask: u8, q: u8) -> u8 {
    let q = q % 4;
    ((mask << q) | (mask >> ((4 - q) % 4))) & 0x0f
}

/// Half-edge bits turned `q` quarters clockwise.
pub fn turn_half_edges(mask: u8, q: u8) -> u8 {
    mask.rotate_left(u32::from(q % 4) * 2)
}

// ---- the data file --------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u32,
    #[allow(dead_code)]
    about: Vec<String>,
    start_tile: String,
    gold_ingots: u8,
    base: Vec<FileTile>,
    mage_and_witch: Vec<FileTile>,
    gold_mines: Vec<FileTile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTile {
    id: String,
    name: String,
    count: u8,
    edges: [Terrain; 4],
    cloister: bool,
    #[serde(default)]
    magic: bool,
    #[serde(default)]
    gold: bool,
    cities: Vec<FileCity>,
    roads: Vec<FileRoad>,
    fields: Vec<FileField>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCity {
    edges: String,
    pennant: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRoad {
    edges: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileField {
    half_edges: Vec<u8>,
    cities: Vec<u8>,
}

fn edge_bits(edges: &str, tile: &str) -> Result<u8, String> {
    edges.chars().try_fold(0u8, |mask, c| {
        let bit = match c {
            'N' => NORTH,
            'E' => EAST,
            'S' => SOUTH,
            'W' => WEST,
            other => return Err(format!("tile {tile}: unknown edge {other:?}")),
        };
        Ok(mask | 1 << bit)
    })
}

fn parse(text: &str) -> Result<Catalogue, String> {
    let file: File = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut tiles = Vec::new();
    for (set, list) in [
        (Set::Base, file.base),
        (Set::MageAndWitch, file.mage_and_witch),
        (Set::GoldMines, file.gold_mines),
    ] {
        for t in list {
            tiles.push(tile_type(t, set)?);
        }
    }
    let start_tile = tiles
        .iter()
        .position(|t| t.id == file.start_tile)
        .ok_or("the start tile is not in the catalogue")? as TileKind;
    Ok(Catalogue {
        tiles,
        start_tile,
        gold_ingots: file.gold_ingots,
    })
}

fn tile_type(t: FileTile, set: Set) -> Result<TileType, String> {
    let mut segments = Vec::new();
    for c in &t.cities {
        segments.push(Segment {
            kind: FeatureKind::City,
            edges: edge_bits(&c.edges, &t.id)?,
            half_edges: 0,
            pennant: c.pennant,
            cities: Vec::new(),
        });
    }
    for r in &t.roads {
        segments.push(Segment {
            kind: FeatureKind::Road,
            edges: edge_bits(&r.edges, &t.id)?,
            half_edges: 0,
            pennant: false,
            cities: Vec::new(),
        });
    }
    for f in &t.fields {
        let mut half_edges = 0u8;
        for &h in &f.half_edges {
            if h > 7 {
                return Err(format!("tile {}: half-edge {h}", t.id));
            }
            half_edges |= 1 << h;
        }
        if let Some(&c) = f.cities.iter().find(|&&c| c as usize >= t.cities.len()) {
            return Err(format!("tile {}: field borders unknown city {c}", t.id));
        }
        segments.push(Segment {
            kind: FeatureKind::Field,
            edges: 0,
            half_edges,
            pennant: false,
            cities: f.cities.clone(),
        });
    }
    if t.cloister {
        segments.push(Segment {
            kind: FeatureKind::Cloister,
            edges: 0,
            half_edges: 0,
            pennant: false,
            cities: Vec::new(),
        });
    }
    let turned = (0..4).map(|q| turn(&t.edges, &segments, q)).collect();
    Ok(TileType {
        id: t.id,
        name: t.name,
        count: t.count,
        set,
        cloister: t.cloister,
        magic: t.magic,
        gold: t.gold,
        edges: t.edges,
        segments,
        turned,
    })
}

fn turn(edges: &[Terrain; 4], segments: &[Segment], q: u8) -> Turned {
    let mut turned = Turned {
        edges: [Terrain::Field; 4],
        edge_segment: [None; 4],
        half_segment: [None; 8],
    };
    for e in 0..4u8 {
        turned.edges[((e + q) % 4) as usize] = edges[e as usize];
    }
    for (i, s) in segments.iter().enumerate() {
        let edges = turn_edges(s.edges, q);
        let halves = turn_half_edges(s.half_edges, q);
        for e in 0..4 {
            if edges & (1 << e) != 0 {
                turned.edge_segment[e] = Some(i as u8);
            }
        }
        for h in 0..8 {
            if halves & (1 << h) != 0 {
                turned.half_segment[h] = Some(i as u8);
            }
        }
    }
    turned
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(set: Set) -> u32 {
        catalogue()
            .tiles
            .iter()
            .filter(|t| t.set == set)
            .map(|t| u32::from(t.count))
            .sum()
    }

    #[test]
    fn the_box_holds_72_base_tiles_with_the_start_tile_and_8_of_each_expansion() {
        assert_eq!(count(Set::Base), 72);
        assert_eq!(count(Set::MageAndWitch), 8);
        assert_eq!(count(Set::GoldMines), 8);
        let c = catalogue();
        assert_eq!(c.tiles.len(), 24 + 8 + 8);
        assert_eq!(c.get(c.start_tile).id, "D");
        assert_eq!(
            c.get(c.start_tile).count,
            4,
            "the start tile is one of four"
        );
        assert_eq!(c.gold_ingots, 16);
        let ids: Vec<&str> = c.tiles.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids[..24].concat(), "ABCDEFGHIJKLMNOPQRSTUVWX");
        for i in 1..=8 {
            assert!(ids.contains(&format!("MW{i}").as_str()));
            assert!(ids.contains(&format!("GM{i}").as_str()));
        }
    }

    #[test]
    fn the_symbols_are_on_their_expansions_tiles_only() {
        for t in &catalogue().tiles {
            assert_eq!(t.magic, t.set == Set::MageAndWitch, "{}", t.id);
            assert_eq!(t.gold, t.set == Set::GoldMines, "{}", t.id);
        }
    }

    #[test]
    fn the_base_game_has_ten_pennants_and_six_cloisters() {
        let base = catalogue().tiles.iter().filter(|t| t.set == Set::Base);
        let (mut pennants, mut cloisters) = (0, 0);
        for t in base {
            pennants += t.segments.iter().filter(|s| s.pennant).count() * t.count as usize;
            cloisters += usize::from(t.cloister) * t.count as usize;
        }
        assert_eq!((pennants, cloisters), (10, 6));
    }

    /// Every edge is reached by exactly one road or city segment of its terrain, or (field and
    /// road edges) both of its halves by exactly one field each; nothing else.
    #[test]
    fn every_tiles_segments_cover_its_edges() {
        for t in &catalogue().tiles {
            for e in 0..4u8 {
                let reaching: Vec<&Segment> = t
                    .segments
                    .iter()
                    .filter(|s| s.edges & (1 << e) != 0)
                    .collect();
                let halves = [2 * e, 2 * e + 1].map(|h| {
                    t.segments
                        .iter()
                        .filter(|s| s.half_edges & (1 << h) != 0)
                        .count()
                });
                match t.edges[e as usize] {
                    Terrain::City => {
                        assert_eq!(reaching.len(), 1, "{} edge {e}", t.id);
                        assert_eq!(reaching[0].kind, FeatureKind::City, "{} edge {e}", t.id);
                        assert_eq!(halves, [0, 0], "{} edge {e}: no field in a city", t.id);
                    }
                    Terrain::Road => {
                        assert_eq!(reaching.len(), 1, "{} edge {e}", t.id);
                        assert_eq!(reaching[0].kind, FeatureKind::Road, "{} edge {e}", t.id);
                        assert_eq!(halves, [1, 1], "{} edge {e}: a field each side", t.id);
                    }
                    Terrain::Field => {
                        assert!(reaching.is_empty(), "{} edge {e}", t.id);
                        assert_eq!(halves, [1, 1], "{} edge {e}", t.id);
                    }
                }
            }
            for s in &t.segments {
                let reaches = s.edges != 0 || s.half_edges != 0;
                assert_eq!(reaches, s.kind != FeatureKind::Cloister, "{}", t.id);
                assert!(s.pennant <= (s.kind == FeatureKind::City), "{}", t.id);
            }
            assert_eq!(
                t.cloister,
                t.segments.iter().any(|s| s.kind == FeatureKind::Cloister)
            );
        }
    }

    #[test]
    fn fields_border_the_cities_their_tile_data_names() {
        // The start tile D: the field north of the road borders the city, the one south not.
        let d = tile(catalogue().start_tile);
        let fields: Vec<&Segment> = d
            .segments
            .iter()
            .filter(|s| s.kind == FeatureKind::Field)
            .collect();
        assert_eq!(fields[0].cities, vec![0]);
        assert_eq!(fields[0].half_edges, 0b1000_0100);
        assert!(fields[1].cities.is_empty());
    }

    #[test]
    fn a_quarter_turn_moves_north_to_east_and_each_half_edge_two_on() {
        assert_eq!(turn_edges(0b0001, 1), 0b0010);
        assert_eq!(turn_edges(0b1000, 1), 0b0001);
        assert_eq!(
            turn_edges(0b1001, 3),
            0b1100,
            "north and west turn to west and south"
        );
        assert_eq!(turn_half_edges(0b0000_0011, 1), 0b0000_1100);
        assert_eq!(turn_half_edges(0b1100_0000, 1), 0b0000_0011);
        // D turned a quarter: the city faces east, the road runs north–south.
        let d = tile(catalogue().start_tile);
        let t = d.turned(1);
        assert_eq!(
            t.edges,
            [Terrain::Road, Terrain::City, Terrain::Road, Terrain::Field]
        );
        assert_eq!(t.edge_segment, [Some(1), Some(0), Some(1), None]);
        // The small field (north of the road at rotation 0) is now east of it.
        assert_eq!(t.half_segment[1], Some(2));
        assert_eq!(t.half_segment[4], Some(2));
        assert_eq!(t.half_segment[0], Some(3));
    }

    #[test]
    fn four_quarter_turns_are_the_tile_itself_for_every_tile() {
        for t in &catalogue().tiles {
            for q in 0..4u8 {
                let turned = t.turned(q);
                for e in 0..4u8 {
                    // What rotation 0 shows on edge e, the turned tile shows on e + q.
                    let shown = (e + q) % 4;
                    assert_eq!(turned.edges[shown as usize], t.edges[e as usize]);
                    assert_eq!(
                        turned.edge_segment[shown as usize],
                        t.turned(0).edge_segment[e as usize]
                    );
                    for half in [2 * e, 2 * e + 1] {
                        assert_eq!(
                            turned.half_segment[((half + 2 * q) % 8) as usize],
                            t.turned(0).half_segment[half as usize],
                            "{} q{q} h{half}",
                            t.id
                        );
                    }
                }
            }
            assert_eq!(t.turned(4), t.turned(0));
        }
    }

    #[test]
    fn facing_half_edges_pair_up_across_each_edge() {
        for h in 0..8u8 {
            assert_eq!(facing_half(facing_half(h)), h);
            // The facing half lies on the opposite edge.
            assert_eq!(facing_half(h) / 2, opposite(h / 2));
        }
        // North-west meets the south-west half of the tile above.
        assert_eq!(facing_half(0), 5);
        for e in 0..4u8 {
            let (dx, dy) = step(e);
            let (ox, oy) = step(opposite(e));
            assert_eq!((dx + ox, dy + oy), (0, 0));
        }
    }

    #[test]
    fn rotations_are_quarter_turns_in_degrees() {
        for q in 0..4 {
            assert_eq!(quarters(degrees(q)), Some(q));
        }
        assert_eq!(quarters(45), None);
        assert_eq!(quarters(360), None);
    }
}
