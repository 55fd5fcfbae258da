//! Boards for rule tests, laid out by events. [`Table`] lays tiles where the rules allow them
//! (it checks each placement), puts followers, figures and gold where a test wants them, and
//! ends with the tile drawn for the turn under test. The pile holds cloisters (B) unless the
//! test names it; with an empty pile the turn under test is the last and the game ends after it.

use super::super::commands::PlaceTile;
use super::super::events::*;
use super::super::evolve::evolve;
use super::super::options::*;
use super::super::placement;
use super::super::state::{State, FOLLOWERS};
use super::super::tiles::{self, catalogue, quarters, TileKind};

pub fn at(x: i32, y: i32) -> Position {
    Position::new(x, y)
}

pub fn kind(id: &str) -> TileKind {
    catalogue().kind_of(id).expect("a tile of the catalogue")
}

/// `seat` placed `tile` at (x, y) turned `rotation` degrees.
pub fn placed(seat: u8, tile: &str, x: i32, y: i32, rotation: u16) -> CarcassonneEvent {
    TilePlaced {
        seat,
        tile: tile.into(),
        x,
        y,
        rotation,
    }
    .into()
}

const CLOISTERS: &[(&str, u8)] = &[("B", 20)];

/// `seat`'s follower on `segment` of the tile at (`x`, `y`) goes home.
pub fn follower_returned(seat: u8, x: i32, y: i32, segment: u8) -> CarcassonneEvent {
    FollowerReturned {
        seat,
        x,
        y,
        segment,
    }
    .into()
}

/// `seat` draws the tile `tile` for its turn.
pub fn tile_drawn(seat: u8, tile: &str) -> CarcassonneEvent {
    TileDrawn {
        seat,
        tile: tile.into(),
    }
    .into()
}

/// The command to place the drawn tile at `x`, `y`, turned by `rotation` degrees.
pub fn place_tile(x: i32, y: i32, rotation: u16) -> PlaceTile {
    PlaceTile { x, y, rotation }
}

pub struct Table {
    pub events: Vec<CarcassonneEvent>,
    pub state: State,
}

impl Table {
    /// A base game of `players` with the start tile D at (0, 0), seat 0 to play.
    pub fn new(players: u8) -> Self {
        Self::with(players, CarcassonneOptions::default(), CLOISTERS)
    }

    /// Both expansions, 16 ingots.
    pub fn expansions(players: u8) -> Self {
        Self::with(
            players,
            CarcassonneOptions {
                mage_and_witch: true,
                gold_mines: true,
            },
            CLOISTERS,
        )
    }

    pub fn with(players: u8, options: CarcassonneOptions, pile: &[(&str, u8)]) -> Self {
        let mut table = Table {
            events: Vec::new(),
            state: State::default(),
        };
        table.push(CarcassonneGameStarted {
            players,
            mage_and_witch: options.mage_and_witch,
            gold_mines: options.gold_mines,
            starting_seat: 0,
            followers: FOLLOWERS,
            gold_ingots: if options.gold_mines { 16 } else { 0 },
            tile_counts: pile
                .iter()
                .map(|&(tile, count)| TileCount {
                    tile: tile.into(),
                    count,
                })
                .collect(),
        });
        table.push(StartTilePlaced {
            tile: "D".into(),
            x: 0,
            y: 0,
            rotation: 0,
        });
        table
    }

    fn push(&mut self, event: impl Into<CarcassonneEvent>) {
        let event = event.into();
        evolve(&mut self.state, &event);
        self.events.push(event);
    }

    /// `seat` lays `tile` at (x, y) turned `rotation` degrees (a turn with nothing else).
    #[track_caller]
    pub fn lay(mut self, seat: u8, tile: &str, x: i32, y: i32, rotation: u16) -> Self {
        let kind = catalogue().kind_of(tile).expect("a tile of the catalogue");
        if let Err(e) = placement::check(
            &self.state.board,
            kind,
            at(x, y),
            quarters(rotation).unwrap(),
        ) {
            panic!("{tile} at ({x}, {y}) turned {rotation}: {}", e.message);
        }
        self.push(tile_drawn(seat, tile));
        self.push(placed(seat, tile, x, y, rotation));
        self
    }

    /// `seat`'s follower on segment `segment` of the tile at (x, y).
    pub fn follower(mut self, seat: u8, x: i32, y: i32, segment: u8) -> Self {
        let placed = self.state.board.at(at(x, y)).expect("a placed tile");
        let feature = tiles::tile(placed.kind).segments[segment as usize].kind;
        self.push(FollowerPlaced {
            seat,
            x,
            y,
            segment,
            feature,
        });
        self
    }

    pub fn figure(mut self, figure: MagicFigure, x: i32, y: i32, segment: u8) -> Self {
        self.push(MageOrWitchPlaced {
            seat: 0,
            figure,
            x,
            y,
            segment,
        });
        self
    }

    pub fn gold(mut self, x: i32, y: i32, ingots: u8) -> Self {
        for _ in 0..ingots {
            self.push(GoldIngotPlaced { seat: 0, x, y });
        }
        self
    }

    /// Ingots already taken by `seat`.
    pub fn ingots(mut self, seat: u8, ingots: u8, from: Position) -> Self {
        self = self.gold(from.x, from.y, ingots);
        for _ in 0..ingots {
            self.push(GoldIngotTaken {
                seat,
                x: from.x,
                y: from.y,
            });
        }
        self
    }

    /// The turn under test: `seat` has drawn `tile`.
    pub fn drawn(mut self, seat: u8, tile: &str) -> Vec<CarcassonneEvent> {
        self.push(tile_drawn(seat, tile));
        self.events
    }
}

/// The events after the turn's own, from the next draw (or the final scoring) on, dropped.
pub fn until_next_turn(events: Vec<CarcassonneEvent>) -> Vec<CarcassonneEvent> {
    events
        .into_iter()
        .take_while(|e| {
            !matches!(
                e,
                CarcassonneEvent::TileDrawn(_)
                    | CarcassonneEvent::TileDiscarded(_)
                    | CarcassonneEvent::CarcassonneGameEnded(_)
            )
        })
        .collect()
}

/// On `table`: a cloister south of the start tile with seat 1's monk, and 6 of its neighbours around it;
/// (1,2) is the last free place.
pub fn cloister_nearly_surrounded(table: Table) -> Table {
    table
        .lay(1, "B", 0, 1, 0)
        .follower(1, 0, 1, 1)
        .lay(0, "U", -1, 0, 0)
        .lay(1, "U", 1, 0, 0)
        .lay(0, "E", -1, 1, 270)
        .lay(1, "E", 1, 1, 90)
        .lay(0, "E", -1, 2, 180)
        .lay(1, "E", 0, 2, 180)
}

/// On `table` (3 seats): a city in two parts, each with a knight and a pennant: D + M(0,-1)
/// (seat 0's) and M(2,-1) + K(2,0) (seat 1's), reached along the road D–U(1,0)–K. G at (1,-1)
/// would join and close them.
pub fn city_in_two_parts(table: Table) -> Table {
    table
        .lay(0, "M", 0, -1, 180)
        .follower(0, 0, -1, 0)
        .lay(1, "U", 1, 0, 0)
        .lay(2, "K", 2, 0, 0)
        .lay(0, "M", 2, -1, 270)
        .follower(1, 2, -1, 0)
}

/// On `table`: the start tile's city with seat 0's knight and a cloister at (1,-1) with seat
/// 1's monk, with every place around the cloister filled but (0,-1), where an E turned half
/// way closes both.
pub fn city_and_cloister_open(table: Table) -> Table {
    table
        .follower(0, 0, 0, 0)
        .lay(1, "U", 1, 0, 0)
        .lay(1, "B", 1, -1, 0)
        .follower(1, 1, -1, 1)
        .lay(0, "U", 2, 0, 0)
        .lay(1, "B", 2, -1, 0)
        .lay(0, "B", 2, -2, 0)
        .lay(1, "B", 1, -2, 0)
        .lay(0, "B", 0, -2, 0)
}

pub fn positions(list: &[(i32, i32)]) -> Vec<Position> {
    list.iter().map(|&(x, y)| at(x, y)).collect()
}
