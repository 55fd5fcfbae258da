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
        E::MauerbauerGameStarted(e) => mauerbauer_game_started(state, e),
        E::GuildCardsDrawn(e) => guild_cards_drawn(state, e),
        E::GuildDiscardsReshuffled(e) => guild_discards_reshuffled(state, e),
        E::WallBuilt(e) => wall_built(state, e),
        E::MauerbauerDiceRolled(e) => mauerbauer_dice_rolled(state, e),
        E::TowersPlaced(e) => towers_placed(state, e),
        E::HousesPlaced(e) => houses_placed(state, e),
        E::CityWalledIn(e) => city_walled_in(state, e),
        E::PalacesBuilt(e) => palaces_built(state, e),
        E::WalledCitiesJoined(e) => walled_cities_joined(state, e),
        E::CitiesKeptApart(e) => cities_kept_apart(state, e),
        E::GuildScoringStarted(e) => guild_scoring_started(state, e),
        E::GuildCardsLaid(e) => guild_cards_laid(state, e),
        E::GuildCardDiscarded(e) => guild_card_discarded(state, e),
        E::GuildScoringEnded(e) => guild_scoring_ended(state, e),
        E::GuildCardSwappedOut(e) => guild_card_swapped_out(state, e),
        E::CardSwapFinished(e) => card_swap_finished(state, e),
        E::DiceHandedOn(e) => dice_handed_on(state, e),
        E::FinalScoringStarted(e) => final_scoring_started(state, e),
        E::FinalCityChosen(e) => final_city_chosen(state, e),
        E::FinalScoringPassed(e) => final_scoring_passed(state, e),
        E::MauerbauerGameEnded(e) => mauerbauer_game_ended(state, e),
    }
}

fn mauerbauer_game_started(state: &mut State, e: &MauerbauerGameStarted) {
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

fn guild_cards_drawn(state: &mut State, e: &GuildCardsDrawn) {
    // A redacted copy (no cards) is never folded by the server; it changes nothing.
    for &card in e.cards.iter().flatten() {
        state.draw_pile.remove(card);
        if let Some(hand) = state.hands.get_mut(usize::from(e.seat)) {
            hand.add(card);
        }
    }
}

fn guild_discards_reshuffled(state: &mut State, _: &GuildDiscardsReshuffled) {
    for card in state.discard_pile.drain(..) {
        state.draw_pile.add(card);
    }
}

fn wall_built(state: &mut State, e: &WallBuilt) {
    state.walls |= 1 << e.line;
    state.supply.walls = state.supply.walls.saturating_sub(1);
    state.built = Some(e.line);
    if state.supply.walls == 0 {
        state.end.get_or_insert(EndReason::LastWall);
    }
}

fn mauerbauer_dice_rolled(state: &mut State, e: &MauerbauerDiceRolled) {
    state.dice = Some(Dice {
        tower: e.tower,
        houses: e.houses,
    });
    state.towers_placed = e.tower.is_none();
}

fn towers_placed(state: &mut State, e: &TowersPlaced) {
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

fn houses_placed(state: &mut State, e: &HousesPlaced) {
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

fn city_walled_in(state: &mut State, e: &CityWalledIn) {
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

fn palaces_built(state: &mut State, e: &PalacesBuilt) {
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

fn walled_cities_joined(state: &mut State, e: &WalledCitiesJoined) {
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

fn cities_kept_apart(state: &mut State, _: &CitiesKeptApart) {
    state.join_decided = true;
}

fn guild_scoring_started(state: &mut State, e: &GuildScoringStarted) {
    state.join_decided = true;
    state.round = Some(Round {
        city: e.city,
        order: e.order.clone(),
        next: 0,
        draws: vec![0; usize::from(state.players)],
    });
}

fn guild_cards_laid(state: &mut State, e: &GuildCardsLaid) {
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

fn guild_card_discarded(state: &mut State, e: &GuildCardDiscarded) {
    discard(state, e.seat, e.card);
    if let Some(round) = &mut state.round {
        owe(round, e.seat, 2);
    }
}

fn guild_scoring_ended(state: &mut State, e: &GuildScoringEnded) {
    state.round = None;
    state.scored_this_turn.push(e.city);
    state.swap = (!e.last_place.is_empty()).then(|| Swap {
        seats: e.last_place.clone(),
        next: 0,
        owed: 0,
    });
}

fn guild_card_swapped_out(state: &mut State, e: &GuildCardSwappedOut) {
    discard(state, e.seat, e.card);
    if let Some(swap) = &mut state.swap {
        swap.owed += 1;
    }
}

fn card_swap_finished(state: &mut State, _: &CardSwapFinished) {
    if let Some(swap) = &mut state.swap {
        swap.next += 1;
        swap.owed = 0;
        if swap.next >= swap.seats.len() {
            state.swap = None;
        }
    }
}

fn dice_handed_on(state: &mut State, e: &DiceHandedOn) {
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

fn final_scoring_started(state: &mut State, e: &FinalScoringStarted) {
    state.final_scoring = Some(FinalScoring {
        order: e.order.clone(),
        next: 0,
        city: None,
    });
}

fn final_city_chosen(state: &mut State, e: &FinalCityChosen) {
    if let Some(f) = &mut state.final_scoring {
        f.city = Some(e.city);
    }
}

fn final_scoring_passed(state: &mut State, _: &FinalScoringPassed) {
    if let Some(f) = &mut state.final_scoring {
        f.next += 1;
        f.city = None;
    }
}

fn mauerbauer_game_ended(state: &mut State, e: &MauerbauerGameEnded) {
    state.ended = Some(e.clone());
    state.round = None;
    state.swap = None;
    state.final_scoring = None;
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
