//! Folding an event into the state.

use super::events::*;
use super::options::*;
use super::state::*;

/// The fold. Never fails and never panics, whatever the event (a redacted event, whose secrets
/// are absent, changes nothing secret).
pub fn apply(state: &mut State, event: &SpaceBuilderEvent) {
    use SpaceBuilderEvent as E;
    match event {
        E::SpaceBuilderGameStarted(e) => space_builder_game_started(state, e),
        E::BlueprintsReshuffled(_) => state.pile = (1..=BLUEPRINTS).collect(),
        E::BlueprintRevealed(e) => blueprint_revealed(state, e),
        E::BlueprintLookedAt(e) => blueprint_looked_at(state, e),
        E::BuildingCardPlaced(e) => building_card_placed(state, e),
        E::BuildingCardMoved(e) => building_card_moved(state, e),
        E::BuildingCardTakenBack(e) => building_card_taken_back(state, e),
        E::PlayerStoppedBuilding(e) => player_stopped_building(state, e),
        E::CityDeclaredFinished(e) => city_declared_finished(state, e),
        E::BuildingStopped(e) => building_stopped(state, e),
        E::CitiesChecked(e) => cities_checked(state, e),
        E::BuildingCardReleased(e) => building_card_released(state, e),
        E::SpaceBuilderGameWon(e) => space_builder_game_won(state, e),
    }
}

fn space_builder_game_started(state: &mut State, e: &SpaceBuilderGameStarted) {
    let mut hand = e.starting_hand.clone();
    hand.sort_unstable();
    state.started = true;
    state.timing = e.timing;
    state.deadline_minutes = e.deadline_minutes;
    state.round_limit_minutes = e.round_limit_minutes;
    state.players = (0..e.players)
        .map(|_| PlayerState {
            hand: hand.clone(),
            ..PlayerState::default()
        })
        .collect();
    state.pile = (1..=BLUEPRINTS).collect();
}

fn blueprint_revealed(state: &mut State, e: &BlueprintRevealed) {
    state.round = e.round;
    state.round_started_ms = e.at_ms;
    state.deadline_ms = e.deadline_ms;
    if let Some(blueprint) = &e.blueprint {
        state.pile.retain(|n| *n != blueprint.number);
        state.blueprint = Some(blueprint.clone());
    }
    state.phase = Phase::Building;
    state.finish_order.clear();
    state.releasing = None;
    state.release_deadline_ms = None;
    for player in &mut state.players {
        player.city.clear();
        player.looked_at_ms = None;
        player.finished_at_ms = None;
        player.elapsed_ms = None;
        player.stopped = false;
        player.last_change_ms = None;
    }
}

fn blueprint_looked_at(state: &mut State, e: &BlueprintLookedAt) {
    if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
        p.looked_at_ms = Some(e.at_ms);
    }
}

fn building_card_placed(state: &mut State, e: &BuildingCardPlaced) {
    if let (Some(p), Some(placement)) = (state.players.get_mut(usize::from(e.seat)), e.placement) {
        p.city.push(placement);
        p.last_change_ms = Some(e.at_ms);
    }
}

fn building_card_moved(state: &mut State, e: &BuildingCardMoved) {
    if let (Some(p), Some(to)) = (state.players.get_mut(usize::from(e.seat)), e.placement) {
        if let Some(card) = p.city.iter_mut().find(|c| c.card == to.card) {
            *card = to;
        }
        p.last_change_ms = Some(e.at_ms);
    }
}

fn building_card_taken_back(state: &mut State, e: &BuildingCardTakenBack) {
    if let (Some(p), Some(card)) = (state.players.get_mut(usize::from(e.seat)), e.card) {
        p.city.retain(|c| c.card != card);
        p.last_change_ms = Some(e.at_ms);
    }
}

fn player_stopped_building(state: &mut State, e: &PlayerStoppedBuilding) {
    if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
        p.stopped = true;
    }
}

fn city_declared_finished(state: &mut State, e: &CityDeclaredFinished) {
    if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
        p.finished_at_ms = Some(e.at_ms);
        p.elapsed_ms = e.elapsed_ms;
        state.finish_order.push(e.seat);
    }
}

fn building_stopped(state: &mut State, e: &BuildingStopped) {
    for seat in &e.stopped {
        if let Some(p) = state.players.get_mut(usize::from(*seat)) {
            p.stopped = true;
        }
    }
    state.phase = Phase::Checking;
}

fn cities_checked(state: &mut State, e: &CitiesChecked) {
    if let Some(p) = state.players.get_mut(usize::from(e.result.winner)) {
        p.rounds_won += 1;
    }
    state.releasing = Some(e.result.winner);
    state.release_deadline_ms = e.release_deadline_ms;
    state.last_round = Some(e.result.clone());
    state.phase = Phase::Releasing;
}

fn building_card_released(state: &mut State, e: &BuildingCardReleased) {
    if let Some(p) = state.players.get_mut(usize::from(e.seat)) {
        if !p.hand.contains(&e.card) {
            p.hand.push(e.card);
            p.hand.sort_unstable();
        }
    }
    state.releasing = None;
    state.release_deadline_ms = None;
}

fn space_builder_game_won(state: &mut State, e: &SpaceBuilderGameWon) {
    state.phase = Phase::Finished;
    state.releasing = None;
    state.winner = Some(e.seat);
}
