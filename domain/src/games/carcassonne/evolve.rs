//! The fold of events into the state. Never fails and never draws randomness; lenient about
//! events out of the usual order so that tests can lay out a board directly.

use super::events::*;
use super::options::*;
use super::state::{Follower, State, TurnSoFar, FOLLOWERS};
use super::tiles::{catalogue, quarters};

pub fn evolve(state: &mut State, event: &CarcassonneEvent) {
    match event {
        CarcassonneEvent::CarcassonneGameStarted(e) => carcassonne_game_started(state, e),
        CarcassonneEvent::StartTilePlaced(e) => start_tile_placed(state, e),
        CarcassonneEvent::TileDrawn(e) => tile_drawn(state, e),
        CarcassonneEvent::TileDiscarded(e) => tile_discarded(state, e),
        CarcassonneEvent::TilePlaced(e) => tile_placed(state, e),
        CarcassonneEvent::GoldIngotPlaced(e) => gold_ingot_placed(state, e),
        CarcassonneEvent::MageOrWitchPlaced(e) => mage_or_witch_placed(state, e),
        CarcassonneEvent::MageOrWitchRemoved(e) => mage_or_witch_removed(state, e),
        CarcassonneEvent::FollowerPlaced(e) => follower_placed(state, e),
        CarcassonneEvent::FollowerSkipped(_) => {}
        CarcassonneEvent::FeatureScored(e) => add_points(state, &e.seats, e.points),
        CarcassonneEvent::FollowerReturned(e) => follower_returned(state, e),
        CarcassonneEvent::GoldIngotTaken(e) => gold_ingot_taken(state, e),
        CarcassonneEvent::FarmScored(e) => add_points(state, &e.seats, e.points),
        CarcassonneEvent::IngotsScored(e) => add_points(state, &[e.seat], e.points),
        CarcassonneEvent::CarcassonneGameEnded(e) => carcassonne_game_ended(state, e),
    }
}

fn carcassonne_game_started(state: &mut State, e: &CarcassonneGameStarted) {
    let catalogue = catalogue();
    let mut pile = vec![0; catalogue.tiles.len()];
    for entry in &e.tile_counts {
        if let Some(kind) = catalogue.kind_of(&entry.tile) {
            pile[kind as usize] += entry.count;
        }
    }
    let players = usize::from(e.players);
    *state = State {
        started: true,
        players: e.players,
        options: CarcassonneOptions {
            mage_and_witch: e.mage_and_witch,
            gold_mines: e.gold_mines,
        },
        pile,
        home: vec![e.followers; players],
        scores: vec![0; players],
        ingots: vec![0; players],
        gold_supply: e.gold_ingots,
        turn: e.starting_seat,
        ..State::default()
    };
}

fn start_tile_placed(state: &mut State, e: &StartTilePlaced) {
    lay(state, &e.tile, e.x, e.y, e.rotation);
}

fn tile_drawn(state: &mut State, e: &TileDrawn) {
    state.turn = e.seat;
    state.current = None;
    state.drawn = take_from_pile(state, &e.tile);
}

fn tile_discarded(state: &mut State, e: &TileDiscarded) {
    state.turn = e.seat;
    state.current = None;
    state.drawn = None;
    if let Some(kind) = take_from_pile(state, &e.tile) {
        state.discarded.push(kind);
    }
}

fn tile_placed(state: &mut State, e: &TilePlaced) {
    state.turn = e.seat;
    state.drawn = None;
    if let Some(tile) = lay(state, &e.tile, e.x, e.y, e.rotation) {
        state.current = Some(TurnSoFar {
            tile,
            ..TurnSoFar::default()
        });
    }
}

fn gold_ingot_placed(state: &mut State, e: &GoldIngotPlaced) {
    if let Some(i) = state.board.index_at(Position::new(e.x, e.y)) {
        state.board.placed[i as usize].gold += 1;
        state.gold_supply = state.gold_supply.saturating_sub(1);
    }
    if let Some(current) = &mut state.current {
        current.ingots_placed += 1;
    }
}

fn mage_or_witch_placed(state: &mut State, e: &MageOrWitchPlaced) {
    let node = state.board.node_at(Position::new(e.x, e.y), e.segment);
    *state.figure_mut(e.figure) = node;
    if let Some(current) = &mut state.current {
        current.figure_done = true;
    }
}

fn mage_or_witch_removed(state: &mut State, e: &MageOrWitchRemoved) {
    let stood = state.figure_mut(e.figure).take();
    if let (Some(node), RemovalReason::FeatureCompleted) = (stood, e.reason) {
        state.completed_with.push((node, e.figure));
    }
    if e.reason == RemovalReason::NoTarget {
        if let Some(current) = &mut state.current {
            current.figure_done = true;
        }
    }
}

fn follower_placed(state: &mut State, e: &FollowerPlaced) {
    if let Some(node) = state.board.node_at(Position::new(e.x, e.y), e.segment) {
        state.followers.push(Follower { seat: e.seat, node });
        if let Some(home) = state.home.get_mut(e.seat as usize) {
            *home = home.saturating_sub(1);
        }
    }
}

fn follower_returned(state: &mut State, e: &FollowerReturned) {
    let node = state.board.node_at(Position::new(e.x, e.y), e.segment);
    if let Some(i) = state
        .followers
        .iter()
        .position(|f| Some(f.node) == node && f.seat == e.seat)
    {
        state.followers.remove(i);
        if let Some(home) = state.home.get_mut(e.seat as usize) {
            *home = (*home + 1).min(FOLLOWERS);
        }
    }
}

fn gold_ingot_taken(state: &mut State, e: &GoldIngotTaken) {
    if let Some(i) = state.board.index_at(Position::new(e.x, e.y)) {
        let gold = &mut state.board.placed[i as usize].gold;
        *gold = gold.saturating_sub(1);
        if let Some(ingots) = state.ingots.get_mut(e.seat as usize) {
            *ingots += 1;
        }
    }
}

fn carcassonne_game_ended(state: &mut State, e: &CarcassonneGameEnded) {
    state.ended = Some(e.clone());
    state.drawn = None;
}

fn add_points(state: &mut State, seats: &[u8], points: u32) {
    for &seat in seats {
        if let Some(score) = state.scores.get_mut(seat as usize) {
            *score += i64::from(points);
        }
    }
}

fn take_from_pile(state: &mut State, tile: &str) -> Option<u8> {
    let kind = catalogue().kind_of(tile)?;
    if let Some(left) = state.pile.get_mut(kind as usize) {
        *left = left.saturating_sub(1);
    }
    Some(kind)
}

fn lay(state: &mut State, tile: &str, x: i32, y: i32, rotation: u16) -> Option<u8> {
    let kind = catalogue().kind_of(tile)?;
    let pos = Position { x, y };
    if state.board.at(pos).is_some() || !super::board::Board::on_board(pos) {
        return None;
    }
    Some(state.board.lay(kind, pos, quarters(rotation).unwrap_or(0)))
}

/// The events a command produces, with the state they lead to, so that each rule applied
/// after an event (the gold step, the figures, scoring, the next draw) sees the board as it
/// then is.
pub struct Outcome {
    pub state: State,
    pub events: Vec<CarcassonneEvent>,
}

impl Outcome {
    pub fn new(state: &State) -> Self {
        Outcome {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    pub fn push(&mut self, event: impl Into<CarcassonneEvent>) {
        let event = event.into();
        evolve(&mut self.state, &event);
        self.events.push(event);
    }
}
