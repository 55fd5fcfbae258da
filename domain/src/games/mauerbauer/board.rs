//! Our Mauerbauer board (the printed map is not in the rulebook): 5 rows of 9 equilateral
//! triangles, 45 fields in 3 regions of 15, 33 tower spots (vertices), 77 wall lines of which 19
//! on the rim. It lives in `board.json` next to this file, read once.
//!
//! Ids are stable: vertices row by row from the bottom (lines 0, 2, 4 hold 6 points at x = 0..5,
//! lines 1, 3, 5 hold 5 points at x = 0.5..4.5), wall lines ordered by their two vertex ids, fields
//! row by row from the bottom left. Sets of fields, lines and vertices are bit sets, so that the
//! flood fills behind closed cities cost a few instructions.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub type VertexId = u8;
pub type LineId = u8;
pub type FieldId = u8;

/// A set of fields (bit `i` = field `i`).
pub type FieldSet = u64;
/// A set of wall lines (bit `i` = line `i`).
pub type LineSet = u128;
/// A set of vertices (bit `i` = vertex `i`).
pub type VertexSet = u64;

pub const VERTICES: usize = 33;
pub const LINES: usize = 77;
pub const FIELDS: usize = 45;

/// The height of one row in units of a triangle's side: √3 / 2.
pub const ROW_HEIGHT: f64 = 0.866_025_403_784_438_6;

/// One of the three regions, each with its coat of arms on the printed board.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[schema(as = MauerbauerRegion)]
pub enum Region {
    A,
    B,
    C,
}

impl Region {
    pub const ALL: [Region; 3] = [Region::A, Region::B, Region::C];
}

/// Which way a triangle points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = MauerbauerPoints)]
pub enum Points {
    Up,
    Down,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Vertex {
    pub id: VertexId,
    /// In units of a triangle's side, from the left.
    pub x: f64,
    /// The horizontal line the vertex stands on, 0 (bottom) to 5.
    #[serde(rename = "y")]
    pub line: u8,
    /// At the water: the left-most and right-most point of each horizontal line.
    pub water: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Line {
    pub id: LineId,
    /// Its two ends, lower id first.
    pub vertices: [VertexId; 2],
    /// The fields on its sides: two, or one for a rim line.
    pub fields: Vec<FieldId>,
    pub rim: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Field {
    pub id: FieldId,
    pub row: u8,
    pub col: u8,
    pub points: Points,
    pub region: Region,
    pub vertices: [VertexId; 3],
    /// Its three sides (wall lines), ascending.
    #[serde(rename = "edges")]
    pub lines: [LineId; 3],
}

#[derive(Debug, Deserialize)]
struct BoardFile {
    vertices: Vec<Vertex>,
    edges: Vec<Line>,
    fields: Vec<Field>,
}

/// The board with what the rules ask of it precomputed.
#[derive(Debug)]
pub struct Board {
    pub vertices: Vec<Vertex>,
    pub lines: Vec<Line>,
    pub fields: Vec<Field>,
    /// The lines meeting at each vertex.
    pub lines_at: Vec<LineSet>,
    /// The fields touching each vertex.
    pub fields_at: Vec<FieldSet>,
    /// The rim lines.
    pub rim: LineSet,
    /// The vertices at the water.
    pub water: VertexSet,
    /// The fields of each region, in `Region::ALL` order.
    pub regions: [FieldSet; 3],
}

/// The board, parsed once.
pub fn board() -> &'static Board {
    static BOARD: OnceLock<Board> = OnceLock::new();
    BOARD.get_or_init(|| {
        let file: BoardFile = serde_json::from_str(include_str!("board.json"))
            .expect("board.json is part of the build and parses");
        Board::new(file)
    })
}

impl Board {
    fn new(file: BoardFile) -> Board {
        let mut lines_at = vec![0; file.vertices.len()];
        let mut fields_at = vec![0; file.vertices.len()];
        let mut rim = 0;
        for line in &file.edges {
            for &v in &line.vertices {
                lines_at[v as usize] |= 1 << line.id;
            }
            if line.rim {
                rim |= 1 << line.id;
            }
        }
        let mut regions = [0; 3];
        for field in &file.fields {
            for &v in &field.vertices {
                fields_at[v as usize] |= 1 << field.id;
            }
            regions[field.region as usize] |= 1 << field.id;
        }
        let water = file
            .vertices
            .iter()
            .filter(|v| v.water)
            .fold(0, |set, v| set | 1 << v.id);
        Board {
            vertices: file.vertices,
            lines: file.edges,
            fields: file.fields,
            lines_at,
            fields_at,
            rim,
            water,
            regions,
        }
    }

    /// The field across `line` from `field`, `None` at the rim.
    pub fn across(&self, line: LineId, field: FieldId) -> Option<FieldId> {
        self.lines[line as usize]
            .fields
            .iter()
            .copied()
            .find(|&f| f != field)
    }

    /// The lines with at least one side in `fields`.
    pub fn lines_of(&self, fields: FieldSet) -> LineSet {
        ids(fields).fold(0, |set, f| {
            self.fields[f as usize]
                .lines
                .iter()
                .fold(set, |set, &l| set | 1 << l)
        })
    }

    /// The vertices of the fields in `fields`.
    pub fn vertices_of(&self, fields: FieldSet) -> VertexSet {
        ids(fields).fold(0, |set, f| {
            self.fields[f as usize]
                .vertices
                .iter()
                .fold(set, |set, &v| set | 1 << v)
        })
    }

    /// The ends of the lines in `lines`.
    pub fn ends_of(&self, lines: LineSet) -> VertexSet {
        ids128(lines).fold(0, |set, l| {
            let [a, b] = self.lines[l as usize].vertices;
            set | 1 << a | 1 << b
        })
    }

    /// The lines with both sides in `fields` (never a rim line).
    pub fn lines_inside(&self, fields: FieldSet) -> LineSet {
        ids128(self.lines_of(fields))
            .filter(|&l| {
                let line = &self.lines[l as usize];
                line.fields.len() == 2 && line.fields.iter().all(|&f| fields & 1 << f != 0)
            })
            .fold(0, |set, l| set | 1 << l)
    }

    /// The lines around `fields`: rim lines of its fields and lines to fields outside it.
    pub fn boundary(&self, fields: FieldSet) -> LineSet {
        self.lines_of(fields) & !self.lines_inside(fields)
    }

    /// The vertices strictly inside `fields`: every line meeting there lies inside.
    pub fn vertices_inside(&self, fields: FieldSet) -> VertexSet {
        self.vertices_of(fields) & !self.ends_of(self.boundary(fields))
    }
}

/// The ids in a field or vertex set, ascending.
pub fn ids(set: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |&i| set & 1 << i != 0)
}

/// The ids in a line set, ascending.
pub fn ids128(set: u128) -> impl Iterator<Item = u8> {
    (0..128u8).filter(move |&i| set & 1 << i != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A vertex's x, horizontal line and water; a line's ends and fields.
    type Described = (Vec<(f64, u8, bool)>, Vec<([u8; 2], Vec<u8>)>, Vec<Field>);

    /// The board as the rules page describes it, built from scratch: `board.json` must equal it.
    fn described() -> Described {
        let mut vertices = Vec::new();
        for line in 0..=5u8 {
            let xs: Vec<f64> = if line % 2 == 0 {
                (0..=5).map(f64::from).collect()
            } else {
                (0..5).map(|i| f64::from(i) + 0.5).collect()
            };
            let last = xs.len() - 1;
            for (i, x) in xs.into_iter().enumerate() {
                vertices.push((x, line, i == 0 || i == last));
            }
        }
        let at = |x: f64, line: u8| {
            vertices
                .iter()
                .position(|&(vx, vl, _)| vl == line && vx == x)
                .unwrap_or_else(|| panic!("a vertex at ({x}, {line})")) as u8
        };
        let mut fields = Vec::new();
        let mut sides: Vec<([u8; 2], u8)> = Vec::new();
        for row in 0..5u8 {
            for col in 0..9u8 {
                // In even rows triangle 0 points up and its base starts at x = 0; odd rows start
                // with a down triangle whose top edge starts at x = 0.
                let up = (row + col) % 2 == 0;
                // A triangle's base starts at x = col / 2 on the bottom line (pointing up) or the
                // top line (pointing down); its apex is half a side further on the other line.
                let start = f64::from(col) / 2.0;
                let (base, apex) = if up { (row, row + 1) } else { (row + 1, row) };
                let mut corners = [
                    at(start, base),
                    at(start + 1.0, base),
                    at(start + 0.5, apex),
                ];
                corners.sort();
                let id = fields.len() as u8;
                for pair in [[0, 1], [0, 2], [1, 2]] {
                    sides.push(([corners[pair[0]], corners[pair[1]]], id));
                }
                fields.push(Field {
                    id,
                    row,
                    col,
                    points: if up { Points::Up } else { Points::Down },
                    region: Region::ALL[col as usize / 3],
                    vertices: corners,
                    lines: [0; 3],
                });
            }
        }
        let mut pairs: Vec<[u8; 2]> = sides.iter().map(|(p, _)| *p).collect();
        pairs.sort();
        pairs.dedup();
        let lines: Vec<([u8; 2], Vec<u8>)> = pairs
            .iter()
            .map(|p| {
                let fs = sides.iter().filter(|(q, _)| q == p).map(|(_, f)| *f);
                (*p, fs.collect())
            })
            .collect();
        for field in &mut fields {
            let mut own: Vec<u8> = (0..lines.len() as u8)
                .filter(|&l| lines[l as usize].1.contains(&field.id))
                .collect();
            own.sort();
            field.lines = own.try_into().unwrap();
        }
        (vertices, lines, fields)
    }

    #[test]
    fn the_data_file_is_the_board_the_rules_describe() {
        let (vertices, lines, fields) = described();
        let b = board();
        assert_eq!(b.vertices.len(), vertices.len());
        for (v, &(x, line, water)) in b.vertices.iter().zip(&vertices) {
            assert_eq!((v.x, v.line, v.water), (x, line, water), "vertex {}", v.id);
        }
        assert_eq!(b.lines.len(), lines.len());
        for (l, (ends, sides)) in b.lines.iter().zip(&lines) {
            assert_eq!((&l.vertices, &l.fields), (ends, sides), "line {}", l.id);
            assert_eq!(l.rim, sides.len() == 1);
        }
        assert_eq!(b.fields, fields);
    }

    #[test]
    fn ids_are_positions() {
        let b = board();
        assert!(b
            .vertices
            .iter()
            .enumerate()
            .all(|(i, v)| v.id as usize == i));
        assert!(b.lines.iter().enumerate().all(|(i, l)| l.id as usize == i));
        assert!(b.fields.iter().enumerate().all(|(i, f)| f.id as usize == i));
    }

    #[test]
    fn the_board_has_the_counts_of_the_issue() {
        let b = board();
        assert_eq!(b.vertices.len(), VERTICES);
        assert_eq!(b.lines.len(), LINES);
        assert_eq!(b.fields.len(), FIELDS);
        assert_eq!(b.rim.count_ones(), 19);
        assert_eq!(b.water.count_ones(), 12);
        // Euler's formula for a connected plane graph, the water counted as one more face.
        assert_eq!(VERTICES as i32 - LINES as i32 + (FIELDS as i32 + 1), 2);
    }

    #[test]
    fn every_field_has_three_sides_whose_ends_are_its_corners() {
        let b = board();
        for f in &b.fields {
            assert!(f.lines.windows(2).all(|w| w[0] < w[1]), "field {}", f.id);
            for &l in &f.lines {
                let line = &b.lines[l as usize];
                assert!(line.fields.contains(&f.id), "line {l} knows field {}", f.id);
                assert!(line.vertices.iter().all(|v| f.vertices.contains(v)));
            }
        }
    }

    #[test]
    fn rim_lines_touch_one_field_and_others_two() {
        let b = board();
        for l in &b.lines {
            assert_eq!(l.fields.len(), if l.rim { 1 } else { 2 }, "line {}", l.id);
            assert!(l.vertices[0] < l.vertices[1]);
        }
        // Each side of a triangle is one line: 45 fields × 3 sides = 2 × inner + rim.
        let inner = b.lines.iter().filter(|l| !l.rim).count();
        assert_eq!(FIELDS * 3, 2 * inner + 19);
    }

    #[test]
    fn regions_hold_fifteen_connected_fields() {
        let b = board();
        for (i, &region) in b.regions.iter().enumerate() {
            assert_eq!(region.count_ones(), 15, "region {:?}", Region::ALL[i]);
            let start = region.trailing_zeros() as u8;
            let mut reached: FieldSet = 1 << start;
            let mut frontier = vec![start];
            while let Some(f) = frontier.pop() {
                for &l in &b.fields[f as usize].lines {
                    if let Some(g) = b.across(l, f) {
                        if region & 1 << g != 0 && reached & 1 << g == 0 {
                            reached |= 1 << g;
                            frontier.push(g);
                        }
                    }
                }
            }
            assert_eq!(reached, region, "region {:?} is connected", Region::ALL[i]);
        }
    }

    #[test]
    fn every_line_is_one_side_long_and_every_triangle_equilateral() {
        let b = board();
        let point = |v: VertexId| {
            let v = &b.vertices[v as usize];
            (v.x, f64::from(v.line) * ROW_HEIGHT)
        };
        for l in &b.lines {
            let (a, c) = (point(l.vertices[0]), point(l.vertices[1]));
            let length = ((a.0 - c.0).powi(2) + (a.1 - c.1).powi(2)).sqrt();
            assert!(
                (length - 1.0).abs() < 1e-9,
                "line {} is {length} long",
                l.id
            );
        }
        for v in &b.vertices {
            let on_even_line = v.line % 2 == 0;
            let steps = v.x * 2.0;
            assert_eq!(steps.fract(), 0.0);
            assert_eq!(
                (steps as u32).is_multiple_of(2),
                on_even_line,
                "vertex {}",
                v.id
            );
            assert!((0.0..=5.0).contains(&v.x) && v.line <= 5);
        }
    }

    #[test]
    fn water_is_at_both_ends_of_every_horizontal_line() {
        let b = board();
        for line in 0..=5 {
            let on: Vec<&Vertex> = b.vertices.iter().filter(|v| v.line == line).collect();
            let water: Vec<bool> = on.iter().map(|v| v.water).collect();
            let mut expected = vec![false; on.len()];
            expected[0] = true;
            *expected.last_mut().unwrap() = true;
            assert_eq!(water, expected, "line {line}");
            assert!(on
                .iter()
                .filter(|v| v.water)
                .all(|v| b.lines_at[v.id as usize] & b.rim != 0));
        }
    }

    #[test]
    fn a_single_field_is_bounded_by_its_three_sides() {
        let b = board();
        let field = 20;
        let set: FieldSet = 1 << field;
        let sides = b.fields[field as usize].lines;
        assert_eq!(b.boundary(set), sides.iter().fold(0, |s, &l| s | 1 << l));
        assert_eq!(b.lines_inside(set), 0);
        assert_eq!(b.vertices_inside(set), 0);
        // The whole board: the rim is its boundary, a cycle of 19 lines through 19 vertices.
        let all: FieldSet = (1 << FIELDS) - 1;
        assert_eq!(b.boundary(all), b.rim);
        assert_eq!(b.vertices_inside(all).count_ones(), 33 - 19);
    }
}
