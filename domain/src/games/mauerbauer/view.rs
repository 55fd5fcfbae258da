//! What each viewer may see, on the board and in the event log. Secret until the game ends: each
//! hand (others see how many cards it holds) and the draw pile (its size only; it has no order
//! to leak). Everything on the board, the dice, scores and the face-up discard pile are public.
//! `Viewer::Everyone` (auditors, and everybody once the game has ended) sees all hands and
//! which cards the draw pile holds.
//!
//! The view carries the board's geometry, so that a client can draw it from the view alone.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::contract::{Seat, Viewer};

use super::board::{board, ids, ids128, FieldId, LineId, Points, Region, VertexId, ROW_HEIGHT};
use super::cities::{city_towers, city_walls};
use super::events::*;
use super::guild_cards::{GuildCard, Scope};
use super::options::*;
use super::phase::{step, Phase};
use super::pieces::{HouseCounts, TowerColour, TowerCounts};
use super::state::*;
use super::walls::free_lines;

/// The board of Mauerbauer as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MauerbauerView {
    pub phase: Phase,
    /// The seat whose turn it is (absent once the game has ended).
    pub turn: Option<Seat>,
    /// The seat whose command the game waits for.
    pub to_act: Vec<Seat>,
    /// The wall built this turn.
    pub built: Option<LineId>,
    /// The dice rolled this turn.
    pub dice: Option<Dice>,
    pub board: BoardView,
    /// The closed cities, by id.
    pub cities: Vec<CityView>,
    /// Cities closed this turn (a joined one under the id it kept).
    pub closed_this_turn: Vec<CityId>,
    pub supply: SupplyView,
    pub players: Vec<PlayerView>,
    /// Cards in the draw pile.
    pub draw_pile: u8,
    /// Which cards the draw pile holds (no order: cards are drawn at random). Only for those who
    /// see everything.
    pub draw_pile_cards: Option<Vec<GuildCard>>,
    /// Face up, the last discarded last.
    pub discard_pile: Vec<GuildCard>,
    pub scoring: Option<ScoringView>,
    pub card_swap: Option<CardSwapView>,
    pub final_scoring: Option<FinalScoringView>,
    /// Set once the end has come: the game ends with this turn.
    pub end: Option<EndReason>,
    pub result: Option<ResultView>,
    /// The 30 kinds of guild card, with their copies and what they score.
    pub guild_cards: Vec<GuildCardInfo>,
}

/// The board's geometry and every piece on it. Coordinates are in units of a triangle's side:
/// `x` from the left, `y` up from the bottom line (each horizontal line is `row_height` above
/// the one below); flip `y` for screen coordinates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerBoard)]
pub struct BoardView {
    /// √3 / 2: the height of one row of triangles.
    pub row_height: f64,
    pub vertices: Vec<VertexView>,
    pub lines: Vec<LineView>,
    pub fields: Vec<FieldView>,
}

/// A tower spot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerVertex)]
pub struct VertexView {
    pub id: VertexId,
    pub x: f64,
    pub y: f64,
    /// The horizontal line it stands on, 0 (bottom) to 5.
    pub line: u8,
    /// At the water (counts for the towers-at-the-water card).
    pub water: bool,
    pub tower: Option<TowerColour>,
}

/// A wall line between two vertices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerLine)]
pub struct LineView {
    pub id: LineId,
    pub vertices: [VertexId; 2],
    /// The fields on its sides (one for a rim line).
    pub fields: Vec<FieldId>,
    pub rim: bool,
    pub wall: bool,
    /// A wall may be built here now (no wall, not inside a closed city).
    pub free: bool,
}

/// A triangular field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerField)]
pub struct FieldView {
    pub id: FieldId,
    /// 0 (bottom) to 4.
    pub row: u8,
    /// 0 (left) to 8.
    pub col: u8,
    pub points: Points,
    pub region: Region,
    /// The triangle's centre, where a client may draw its houses.
    pub x: f64,
    pub y: f64,
    pub vertices: [VertexId; 3],
    pub lines: [LineId; 3],
    /// The houses standing in the field (a closed city's houses and palaces are the city's).
    pub houses: HouseCounts,
    /// The closed city the field belongs to.
    pub city: Option<CityId>,
}

/// A closed city.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerCity)]
pub struct CityView {
    pub id: CityId,
    pub fields: Vec<FieldId>,
    /// The wall lines around it.
    pub walls: Vec<LineId>,
    /// The towers on its boundary.
    pub towers: Vec<TowerPlacement>,
    pub houses: HouseCounts,
    pub palaces: HouseCounts,
}

/// The pieces beside the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerSupply)]
pub struct SupplyView {
    pub walls: u8,
    pub towers: TowerCounts,
    pub houses: HouseCounts,
    pub palaces: HouseCounts,
}

/// A player as the viewer may see them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerPlayer)]
pub struct PlayerView {
    pub seat: Seat,
    pub score: i64,
    pub hand_count: u8,
    /// The cards, in catalogue order: shown to their holder only (and to all once the game has
    /// ended).
    pub hand: Option<Vec<GuildCard>>,
}

/// The scoring round under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerScoring)]
pub struct ScoringView {
    pub city: CityId,
    pub order: Vec<Seat>,
    /// The player to choose.
    pub next: Option<Seat>,
    /// Cards each seat draws when the round ends (1 after laying, 2 after discarding).
    pub draws: Vec<u8>,
}

/// The last-place swap under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerCardSwap)]
pub struct CardSwapView {
    pub seats: Vec<Seat>,
    pub next: Option<Seat>,
    /// Cards the swapping player has put on the discard pile so far.
    pub swapped_out: u8,
}

/// The final scoring under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerFinalScoring)]
pub struct FinalScoringView {
    pub order: Vec<Seat>,
    pub next: Option<Seat>,
    /// The city chosen by the player to act.
    pub city: Option<CityId>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerResult)]
pub struct ResultView {
    pub reason: EndReason,
    pub scores: Vec<i64>,
    pub cards_in_hand: Vec<u8>,
    pub winners: Vec<Seat>,
}

/// A kind of guild card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MauerbauerGuildCardInfo)]
pub struct GuildCardInfo {
    pub card: GuildCard,
    pub scope: Scope,
    pub copies: u8,
    pub text: String,
}

/// Once the game has ended everything is public.
fn effective(state: &State, viewer: Viewer) -> Viewer {
    if state.ended.is_some() {
        Viewer::Everyone
    } else {
        viewer
    }
}

fn sees_hand(viewer: Viewer, seat: Seat) -> bool {
    viewer == Viewer::Everyone || viewer == Viewer::Seat(seat)
}

pub fn view(state: &State, viewer: Viewer) -> MauerbauerView {
    MauerbauerView {
        board: board_view(state),
        guild_cards: guild_card_infos(),
        ..judged_view(state, viewer)
    }
}

/// The view without what every viewer sees alike in every state: the board (its geometry and
/// every piece on it are public) and the guild cards' texts, both left empty. Undo's judgement
/// looks only where views differ between viewers, so it judges this one alike and writes
/// far less: the board is most of the view (see `Game::judged_view`). Server instructions per
/// Mauerbauer command fell by half with it.
pub fn judged_view(state: &State, viewer: Viewer) -> MauerbauerView {
    let viewer = effective(state, viewer);
    let now = step(state);
    let cities = state
        .cities
        .iter()
        .map(|c| CityView {
            id: c.id,
            fields: ids(c.fields).collect(),
            walls: ids128(city_walls(c)).collect(),
            towers: city_towers(state, c),
            houses: c.houses.into(),
            palaces: c.palaces.into(),
        })
        .collect();
    let players = (0..state.players)
        .map(|seat| {
            let hand = state.hand(seat);
            PlayerView {
                seat,
                score: state.scores.get(usize::from(seat)).copied().unwrap_or(0),
                hand_count: hand.total(),
                hand: sees_hand(viewer, seat).then(|| hand.to_vec()),
            }
        })
        .collect();
    let running = state.started && state.ended.is_none();
    MauerbauerView {
        phase: now.phase(),
        turn: running.then_some(state.turn),
        to_act: now.actor(state).into_iter().collect(),
        built: state.built,
        dice: state.dice,
        board: BoardView {
            row_height: ROW_HEIGHT,
            vertices: Vec::new(),
            lines: Vec::new(),
            fields: Vec::new(),
        },
        cities,
        closed_this_turn: state.closed_this_turn.clone(),
        supply: SupplyView {
            walls: state.supply.walls,
            towers: state.supply.towers.into(),
            houses: state.supply.houses.into(),
            palaces: state.supply.palaces.into(),
        },
        players,
        draw_pile: state.draw_pile.total(),
        draw_pile_cards: (viewer == Viewer::Everyone).then(|| state.draw_pile.to_vec()),
        discard_pile: state.discard_pile.clone(),
        scoring: state.round.as_ref().map(|r| ScoringView {
            city: r.city,
            order: r.order.clone(),
            next: r.order.get(r.next).copied(),
            draws: r.draws.clone(),
        }),
        card_swap: state.swap.as_ref().map(|s| CardSwapView {
            seats: s.seats.clone(),
            next: s.seats.get(s.next).copied(),
            swapped_out: s.owed,
        }),
        final_scoring: state.final_scoring.as_ref().map(|f| FinalScoringView {
            order: f.order.clone(),
            next: f.order.get(f.next).copied(),
            city: f.city,
        }),
        end: state.end,
        result: state.ended.as_ref().map(|e| ResultView {
            reason: e.reason,
            scores: e.scores.clone(),
            cards_in_hand: e.cards_in_hand.clone(),
            winners: e.winners.clone(),
        }),
        guild_cards: Vec::new(),
    }
}

/// The board's geometry and every piece on it: the same for every viewer.
fn board_view(state: &State) -> BoardView {
    let b = board();
    let free = free_lines(state);
    let vertices = b
        .vertices
        .iter()
        .map(|v| VertexView {
            id: v.id,
            x: v.x,
            y: f64::from(v.line) * ROW_HEIGHT,
            line: v.line,
            water: v.water,
            tower: state.towers.get(usize::from(v.id)).copied().flatten(),
        })
        .collect();
    let lines = b
        .lines
        .iter()
        .map(|l| LineView {
            id: l.id,
            vertices: l.vertices,
            fields: l.fields.clone(),
            rim: l.rim,
            wall: state.walls & 1 << l.id != 0,
            free: free & 1 << l.id != 0,
        })
        .collect();
    let fields = b
        .fields
        .iter()
        .map(|f| FieldView {
            id: f.id,
            row: f.row,
            col: f.col,
            points: f.points,
            region: f.region,
            x: centre(f.vertices.map(|v| b.vertices[usize::from(v)].x)),
            y: centre(
                f.vertices
                    .map(|v| f64::from(b.vertices[usize::from(v)].line)),
            ) * ROW_HEIGHT,
            vertices: f.vertices,
            lines: f.lines,
            houses: state
                .houses
                .get(usize::from(f.id))
                .copied()
                .unwrap_or_default()
                .into(),
            city: state.city_at(f.id).map(|c| c.id),
        })
        .collect();
    BoardView {
        row_height: ROW_HEIGHT,
        vertices,
        lines,
        fields,
    }
}

/// What each guild card does: the same in every game.
fn guild_card_infos() -> Vec<GuildCardInfo> {
    GuildCard::ALL
        .iter()
        .map(|&card| GuildCardInfo {
            card,
            scope: card.scope(),
            copies: card.copies(),
            text: card.text(),
        })
        .collect()
}

fn centre(coordinates: [f64; 3]) -> f64 {
    coordinates.iter().sum::<f64>() / 3.0
}

/// The event as `viewer` may see it: the cards a player drew are that player's secret. Every
/// event is shown (that somebody drew is public at the table).
pub fn redact(state: &State, event: &MauerbauerEvent, viewer: Viewer) -> MauerbauerEvent {
    let viewer = effective(state, viewer);
    match event {
        MauerbauerEvent::GuildCardsDrawn(e) if !sees_hand(viewer, e.seat) => GuildCardsDrawn {
            cards: None,
            ..e.clone()
        }
        .into(),
        other => other.clone(),
    }
}

#[cfg(test)]
#[path = "tests/view.rs"]
mod tests;
