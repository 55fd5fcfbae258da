//! The fold of events into the state. Never fails and never draws randomness; lenient about
//! events out of the usual order, so that tests can lay out a board directly.

use super::board::{ids, FIELDS, VERTICES};
use super::events::*;
use super::guild_cards::{Cards, GuildCard};
use super::options::*;
use super::pieces::{put_back, take, total, Colour, Supply};
use super::state::*;

pub fn evolve(state: &mut State, event: &MauerbauerEvent) {
    use MauerbauerEvent as E;
    match event {
        E::MauerbauerGameStarted(e) => {
            let players = usize::from(e.players);
            *state = State {
                started: true,
                players: e.players,
                towers: vec![None; VERTICES],
                houses: vec![[0; 5]; FIELDS],
                supply: Supply::default(),
                hands: vec![Cards::default(); players],
                draw_pile: Cards::full_deck(),
                scores: vec![1; players],
                turn: e.starting_seat,
                ..State::default()
            };
        }
        E::GuildCardsDrawn(e) => {
            // A redacted copy (no cards) is never folded by the server; it changes nothing.
            for &card in e.cards.iter().flatten() {
                state.draw_pile.remove(card);
                if let Some(hand) = state.hands.get_mut(usize::from(e.seat)) {
                    hand.add(card);
                }
            }
        }
        E::GuildDiscardsReshuffled(_) => {
            for card in state.discard_pile.drain(..) {
                state.draw_pile.add(card);
            }
        }
        E::WallBuilt(e) => {
            state.walls |= 1 << e.line;
            state.supply.walls = state.supply.walls.saturating_sub(1);
            state.built = Some(e.line);
            if state.supply.walls == 0 {
                state.end.get_or_insert(EndReason::LastWall);
            }
        }
        E::MauerbauerDiceRolled(e) => {
            state.dice = Some(Dice {
                tower: e.tower,
                houses: e.houses,
            });
            state.towers_placed = e.tower.is_none();
        }
        E::TowersPlaced(e) => {
            for t in &e.towers {
                if let Some(spot) = state.towers.get_mut(usize::from(t.vertex)) {
                    *spot = Some(t.colour);
                    take(&mut state.supply.towers, t.colour);
                }
            }
            state.towers_placed = true;
            if total(&state.supply.towers) == 0 {
                state.end.get_or_insert(EndReason::LastTower);
            }
        }
        E::HousesPlaced(e) => {
            for h in &e.houses {
                if let Some(field) = state.houses.get_mut(usize::from(h.field)) {
                    field[h.colour.index()] += 1;
                    take(&mut state.supply.houses, h.colour);
                }
            }
            state.houses_placed = true;
            if total(&state.supply.houses) == 0 {
                state.end.get_or_insert(EndReason::LastHouse);
            }
        }
        E::CityWalledIn(e) => {
            let fields = e.fields.iter().fold(0u64, |set, &f| set | 1 << f);
            let mut houses = [0u8; 5];
            for f in ids(fields) {
                if let Some(field) = state.houses.get_mut(usize::from(f)) {
                    for (sum, n) in houses.iter_mut().zip(std::mem::take(field)) {
                        *sum += n;
                    }
                }
            }
            state.cities.push(City {
                id: e.city,
                fields,
                houses,
                palaces: [0; 5],
            });
            state.next_city = state.next_city.max(e.city + 1);
            state.closed_this_turn.push(e.city);
            return_pieces(state, &e.walls_returned, &e.towers_returned);
            // A field outside the cities always has a free line (its region is open), so the
            // board is out of free lines exactly when the cities cover it.
            if state.city_fields().count_ones() as usize == FIELDS {
                state.end.get_or_insert(EndReason::NoFreeLine);
            }
        }
        E::PalacesBuilt(e) => {
            if let Some(city) = state.cities.iter_mut().find(|c| c.id == e.city) {
                for &colour in &e.palaces {
                    let i = colour.index();
                    city.houses[i] = city.houses[i].saturating_sub(2);
                    state.supply.houses[i] += 2;
                    city.palaces[i] += 1;
                    take(&mut state.supply.palaces, colour);
                }
            }
            if total(&state.supply.palaces) == 0 {
                state.end.get_or_insert(EndReason::LastPalace);
            }
        }
        E::WalledCitiesJoined(e) => {
            if let Some(at) = state.cities.iter().position(|c| c.id == e.joined) {
                let joined = state.cities.remove(at);
                if let Some(city) = state.cities.iter_mut().find(|c| c.id == e.city) {
                    city.fields |= joined.fields;
                    for i in 0..5 {
                        city.houses[i] += joined.houses[i];
                        city.palaces[i] += joined.palaces[i];
                    }
                }
            }
            for id in state.closed_this_turn.iter_mut() {
                if *id == e.joined {
                    *id = e.city;
                }
            }
            dedup_keep_order(&mut state.closed_this_turn);
            state.join_decided = true;
            return_pieces(state, &e.walls_returned, &e.towers_returned);
        }
        E::CitiesKeptApart(_) => state.join_decided = true,
        E::GuildScoringStarted(e) => {
            state.join_decided = true;
            state.round = Some(Round {
                city: e.city,
                order: e.order.clone(),
                next: 0,
                draws: vec![0; usize::from(state.players)],
            });
        }
        E::GuildCardsLaid(e) => {
            for scored in &e.cards {
                discard(state, e.seat, scored.card);
            }
            if let Some(score) = state.scores.get_mut(usize::from(e.seat)) {
                *score += e.points;
            }
            if let Some(round) = &mut state.round {
                owe(round, e.seat, 1);
            } else if let Some(f) = &mut state.final_scoring {
                f.next += 1;
                f.city = None;
            }
        }
        E::GuildCardDiscarded(e) => {
            discard(state, e.seat, e.card);
            if let Some(round) = &mut state.round {
                owe(round, e.seat, 2);
            }
        }
        E::GuildScoringEnded(e) => {
            state.round = None;
            state.scored_this_turn.push(e.city);
            state.swap = (!e.last_place.is_empty()).then(|| Swap {
                seats: e.last_place.clone(),
                next: 0,
                owed: 0,
            });
        }
        E::GuildCardSwappedOut(e) => {
            discard(state, e.seat, e.card);
            if let Some(swap) = &mut state.swap {
                swap.owed += 1;
            }
        }
        E::CardSwapFinished(_) => {
            if let Some(swap) = &mut state.swap {
                swap.next += 1;
                swap.owed = 0;
                if swap.next >= swap.seats.len() {
                    state.swap = None;
                }
            }
        }
        E::DiceHandedOn(e) => {
            state.turn = e.seat;
            state.built = None;
            state.dice = None;
            state.towers_placed = false;
            state.houses_placed = false;
            state.closed_this_turn.clear();
            state.join_decided = false;
            state.scored_this_turn.clear();
            state.round = None;
            state.swap = None;
        }
        E::FinalScoringStarted(e) => {
            state.final_scoring = Some(FinalScoring {
                order: e.order.clone(),
                next: 0,
                city: None,
            });
        }
        E::FinalCityChosen(e) => {
            if let Some(f) = &mut state.final_scoring {
                f.city = Some(e.city);
            }
        }
        E::FinalScoringPassed(_) => {
            if let Some(f) = &mut state.final_scoring {
                f.next += 1;
                f.city = None;
            }
        }
        E::MauerbauerGameEnded(e) => {
            state.ended = Some(e.clone());
            state.round = None;
            state.swap = None;
            state.final_scoring = None;
        }
    }
}

fn return_pieces(state: &mut State, walls: &[u8], towers: &[TowerPlacement]) {
    for &line in walls {
        if state.walls & 1 << line != 0 {
            state.walls &= !(1 << line);
            state.supply.walls += 1;
        }
    }
    for t in towers {
        if let Some(spot) = state.towers.get_mut(usize::from(t.vertex)) {
            if spot.take().is_some() {
                put_back(&mut state.supply.towers, t.colour);
            }
        }
    }
}

fn discard(state: &mut State, seat: u8, card: GuildCard) {
    if let Some(hand) = state.hands.get_mut(usize::from(seat)) {
        hand.remove(card);
    }
    state.discard_pile.push(card);
}

fn owe(round: &mut Round, seat: u8, cards: u8) {
    if let Some(draws) = round.draws.get_mut(usize::from(seat)) {
        *draws = cards;
    }
    round.next += 1;
}

fn dedup_keep_order(ids: &mut Vec<CityId>) {
    let mut seen = Vec::new();
    ids.retain(|id| {
        let fresh = !seen.contains(id);
        seen.push(*id);
        fresh
    });
}

/// The events a command produces, with the state they lead to, so that each rule applied after
/// an event (closing, scoring, drawing) sees the board as it then is.
pub struct Outcome {
    pub state: State,
    pub events: Vec<MauerbauerEvent>,
}

impl Outcome {
    pub fn new(state: &State) -> Self {
        Outcome {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    pub fn push(&mut self, event: impl Into<MauerbauerEvent>) {
        let event = event.into();
        evolve(&mut self.state, &event);
        self.events.push(event);
    }
}
