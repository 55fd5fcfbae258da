//! Boards for rule tests, laid out by events: walls, towers and houses placed directly, cities
//! closed by the rule that closes them, hands dealt as chosen.

use crate::contract::{Ctx, Game, Seat};

use super::super::board::{board, ids128, FieldId, FieldSet, LineId, VertexId};
use super::super::cities::{close, enclosed, reach};
use super::super::commands::*;
use super::super::events::*;
use super::super::evolve::Outcome;
use super::super::guild_cards::GuildCard;
use super::super::options::*;
use super::super::phase::{step, Step};
use super::super::pieces::{HouseColour, TowerColour};
use super::super::state::*;
use super::super::Mauerbauer;

/// A started game for `players` with nobody's cards dealt, seat 0 to build.
pub fn table(players: u8) -> Vec<MauerbauerEvent> {
    vec![MauerbauerGameStarted {
        players,
        starting_seat: 0,
    }
    .into()]
}

/// A board under construction.
pub struct Layout {
    outcome: Outcome,
    turn: Seat,
}

impl Layout {
    pub fn new(players: u8) -> Layout {
        let mut outcome = Outcome::new(&State::default());
        for event in table(players) {
            outcome.push(event);
        }
        Layout { outcome, turn: 0 }
    }

    pub fn state(&self) -> &State {
        &self.outcome.state
    }

    pub fn walls(mut self, lines: &[LineId]) -> Layout {
        for &line in lines {
            self.outcome.push(WallBuilt { seat: 0, line });
        }
        self
    }

    /// Walls on every line around `fields` that has none yet.
    pub fn enclose(self, fields: &[FieldId]) -> Layout {
        let set = fields.iter().fold(0, |s, &f| s | 1 << f);
        let missing = board().boundary(set) & !self.outcome.state.walls;
        let lines: Vec<LineId> = ids128(missing).collect();
        self.walls(&lines)
    }

    pub fn towers(mut self, towers: &[(VertexId, TowerColour)]) -> Layout {
        let towers = towers
            .iter()
            .map(|&(vertex, colour)| TowerPlacement { vertex, colour })
            .collect();
        self.outcome.push(TowersPlaced { seat: 0, towers });
        self
    }

    pub fn houses(mut self, houses: &[(FieldId, HouseColour)]) -> Layout {
        let houses = houses
            .iter()
            .map(|&(field, colour)| HousePlacement { field, colour })
            .collect();
        self.outcome.push(HousesPlaced { seat: 0, houses });
        self
    }

    /// Closes every region the walls enclose that is not a city yet (as a wall would).
    pub fn close_cities(mut self) -> Layout {
        loop {
            let state = &self.outcome.state;
            let in_cities = state.city_fields();
            let region = (0..45u8)
                .filter(|f| in_cities & 1 << f == 0)
                .map(|f| reach(state.walls, f))
                .find(|&r| enclosed(state.walls, r));
            let Some(region) = region else { break };
            close(&mut self.outcome, region);
        }
        self
    }

    /// Closes the city of exactly `fields` (walls added around it first).
    pub fn city(self, fields: &[FieldId]) -> Layout {
        let layout = self.enclose(fields);
        let set: FieldSet = fields.iter().fold(0, |s, &f| s | 1 << f);
        assert_eq!(
            reach(layout.outcome.state.walls, fields[0]),
            set,
            "the fields {fields:?} are one region"
        );
        layout.close_cities()
    }

    pub fn hand(mut self, seat: Seat, cards: &[GuildCard]) -> Layout {
        let mut cards = cards.to_vec();
        cards.sort();
        self.outcome.push(GuildCardsDrawn {
            seat,
            count: cards.len() as u8,
            cards: Some(cards),
        });
        self
    }

    /// Sets the score track (through cardless "laid" events, outside any scoring round).
    pub fn scores(mut self, scores: &[i64]) -> Layout {
        for (seat, &score) in scores.iter().enumerate() {
            let points = score - self.outcome.state.scores[seat];
            self.outcome.push(GuildCardsLaid {
                seat: seat as Seat,
                city: None,
                cards: Vec::new(),
                points,
            });
        }
        self
    }

    pub fn turn(mut self, seat: Seat) -> Layout {
        self.turn = seat;
        self
    }

    /// The events, with the turn state reset: `turn` is to build.
    pub fn events(mut self) -> Vec<MauerbauerEvent> {
        self.outcome.push(DiceHandedOn { seat: self.turn });
        self.outcome.events
    }
}

/// The state after `events` on top of `state`.
pub fn fold(state: &State, events: &[MauerbauerEvent]) -> State {
    let mut state = state.clone();
    for event in events {
        Mauerbauer::evolve(&mut state, event);
    }
    state
}

/// `seat` sends `command`, which must be accepted: its events and the state after them.
pub fn act(
    state: &State,
    seat: Seat,
    command: impl Into<MauerbauerCommand>,
) -> (Vec<MauerbauerEvent>, State) {
    let command = command.into();
    let events = Mauerbauer::decide(state, seat, &command, &mut Ctx::new(7, 0))
        .unwrap_or_else(|e| panic!("{command:?} refused: {e:?}"));
    let after = fold(state, &events);
    (events, after)
}

/// The event of `seat` laying `cards`, each with its points, for `city`.
pub fn laid(seat: Seat, city: Option<CityId>, cards: &[(GuildCard, i64)]) -> MauerbauerEvent {
    GuildCardsLaid {
        seat,
        city,
        cards: cards
            .iter()
            .map(|&(card, points)| ScoredCard { card, points })
            .collect(),
        points: cards.iter().map(|(_, p)| p).sum(),
    }
    .into()
}

/// The code of the rule `seat` breaks with `command`.
pub fn refused(state: &State, seat: Seat, command: impl Into<MauerbauerCommand>) -> &'static str {
    Mauerbauer::decide(state, seat, &command.into(), &mut Ctx::new(0, 0))
        .expect_err("the command is refused")
        .code
}

/// The player whose turn it is builds on `line` (dice from `seed`) and takes the first listed
/// towers and houses: the events of the whole step and the state after them.
pub fn build(state: &State, line: LineId, seed: u64) -> (Vec<MauerbauerEvent>, State) {
    let seat = state.turn;
    let mut events = Mauerbauer::decide(
        state,
        seat,
        &BuildWall { line }.into(),
        &mut Ctx::new(seed, 0),
    )
    .unwrap_or_else(|e| panic!("wall on {line} refused: {e:?}"));
    let mut now = fold(state, &events);
    while matches!(step(&now), Step::PlaceTowers | Step::PlaceHouses) {
        let first = Mauerbauer::legal_commands(&now, seat).remove(0);
        let (more, after) = act(&now, seat, first);
        events.extend(more);
        now = after;
    }
    (events, now)
}

/// The events of one kind among `events`: `events_of!(events, CityWalledIn)`.
macro_rules! events_of {
    ($events:expr, $kind:ident) => {
        $events
            .iter()
            .filter_map(|e| match e {
                $crate::games::mauerbauer::MauerbauerEvent::$kind(x) => Some(x.clone()),
                _ => None,
            })
            .collect::<Vec<$kind>>()
    };
}
pub(crate) use events_of;
