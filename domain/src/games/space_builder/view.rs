//! Hidden information: while a round's building runs, a player sees only their own city; of the
//! others only how many cards they placed, that a card was placed, moved or taken back (never
//! where), whether and when they looked at the blueprint, finished or stopped. With `elapsed`
//! timing the blueprint stays hidden from a player until they look at it. Everything is shown
//! once the round's building ends. The event log follows the same rule through `redact`.

use super::events::*;
use super::options::*;
use super::state::*;
use super::timing::current_deadline;
use crate::contract::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One player as the viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SpaceBuilderPlayer)]
pub struct PlayerView {
    pub seat: Seat,
    /// The released cards (public: everyone sees which cards a player builds with).
    pub hand: Vec<Card>,
    /// How many hand cards are on the board.
    pub placed: u8,
    /// The board, by slot. Absent (`null`) for other players while the round's building runs.
    pub city: Option<Vec<Placement>>,
    /// Timing `elapsed`: the player has looked at this round's blueprint.
    pub looked_at_blueprint: bool,
    pub finished: bool,
    pub finished_at_ms: Option<i64>,
    pub elapsed_ms: Option<i64>,
    /// Stopped building before finishing: by the end of the round, or by their own
    /// `StopBuilding`.
    pub stopped: bool,
    pub rounds_won: u32,
}

/// The table of Space Builder as one viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SpaceBuilderView {
    pub timing: Timing,
    pub deadline_minutes: Option<u32>,
    pub phase: Phase,
    /// The current round, 1-based (0 before the game is set up).
    pub round: u32,
    pub round_started_ms: i64,
    /// When the step the game waits for ends by itself: the round's building, or the winner's
    /// release (with `deadline_minutes`).
    pub deadline_ms: Option<i64>,
    /// This round's blueprint. Timing `elapsed`: absent until the viewer looked at it
    /// (spectators: until the building ends).
    pub blueprint: Option<RevealedBlueprint>,
    /// Blueprints left in the pile before it is reshuffled.
    pub blueprints_left: u8,
    pub players: Vec<PlayerView>,
    /// The round's winner, while they choose a card to release.
    pub releasing: Option<Seat>,
    /// The latest checked round, in full.
    pub last_round: Option<RoundResult>,
    /// The game's winner, once it has ended.
    pub winner: Option<Seat>,
}

/// May `viewer` see `seat`'s city now?
pub fn sees_city(state: &State, viewer: Viewer, seat: Seat) -> bool {
    match viewer {
        Viewer::Everyone => true,
        _ if state.phase != Phase::Building => true,
        Viewer::Seat(v) => v == seat,
        Viewer::Spectator => false,
    }
}

/// May `viewer` see this round's blueprint now?
///
/// **Decision**: with `elapsed` timing spectators see it only once the building ends, so that a
/// player cannot peek at the plan through a second account without starting their clock.
pub fn sees_blueprint(state: &State, viewer: Viewer) -> bool {
    if state.timing == Timing::Arrival || state.phase != Phase::Building {
        return true;
    }
    match viewer {
        Viewer::Everyone => true,
        Viewer::Seat(v) => state
            .players
            .get(usize::from(v))
            .is_some_and(|p| p.looked_at_ms.is_some()),
        Viewer::Spectator => false,
    }
}

pub fn view(state: &State, viewer: Viewer) -> SpaceBuilderView {
    let players = state
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let seat = i as Seat;
            PlayerView {
                seat,
                hand: p.hand.clone(),
                placed: p.city.len() as u8,
                city: sees_city(state, viewer, seat).then(|| p.city_by_slot()),
                looked_at_blueprint: p.looked_at_ms.is_some(),
                finished: p.finished(),
                finished_at_ms: p.finished_at_ms,
                elapsed_ms: p.elapsed_ms,
                stopped: p.stopped,
                rounds_won: p.rounds_won,
            }
        })
        .collect();
    SpaceBuilderView {
        timing: state.timing,
        deadline_minutes: state.deadline_minutes,
        phase: state.phase,
        round: state.round,
        round_started_ms: state.round_started_ms,
        deadline_ms: current_deadline(state),
        blueprint: if sees_blueprint(state, viewer) {
            state.blueprint.clone()
        } else {
            None
        },
        blueprints_left: state.pile.len() as u8,
        players,
        releasing: state.releasing,
        last_round: state.last_round.clone(),
        winner: state.winner,
    }
}

/// The event as `viewer` may see it now. A building event of the round still being built hides
/// which card lies where from everyone but its builder; the reveal of the running round hides the
/// blueprint from whoever may not see it yet. Nothing is ever dropped: that something happened is
/// public.
pub fn redact(state: &State, event: &SpaceBuilderEvent, viewer: Viewer) -> SpaceBuilderEvent {
    use SpaceBuilderEvent as E;
    let running = |round: u32| round == state.round && state.phase == Phase::Building;
    let hidden = |round: u32, seat: Seat| running(round) && !sees_city(state, viewer, seat);
    let mut event = event.clone();
    match &mut event {
        E::BlueprintRevealed(e) if running(e.round) && !sees_blueprint(state, viewer) => {
            e.blueprint = None;
        }
        // The looker's own copy carries the plan (their command's response); nobody else's.
        E::BlueprintLookedAt(e) if hidden(e.round, e.seat) => e.blueprint = None,
        E::BuildingCardPlaced(e) if hidden(e.round, e.seat) => e.placement = None,
        E::BuildingCardMoved(e) if hidden(e.round, e.seat) => {
            e.from_slot = None;
            e.placement = None;
        }
        E::BuildingCardTakenBack(e) if hidden(e.round, e.seat) => {
            e.card = None;
            e.slot = None;
        }
        _ => {}
    }
    event
}
