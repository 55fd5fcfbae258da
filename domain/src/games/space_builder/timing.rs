//! "Finished first" by web: the finishing order under each timing, and the round's deadline.
//!
//! Every time used here was recorded in an event (`BlueprintRevealed.at_ms`,
//! `BlueprintLookedAt.at_ms`, `CityDeclaredFinished.at_ms/elapsed_ms`, the building events'
//! `at_ms`), so a replay ranks exactly as the live game did. No clock is read here.

use super::options::*;
use super::state::*;
use crate::contract::Seat;

/// A round's deadline, when the game has one: `deadline_minutes` after the reveal.
pub fn deadline_after(started_ms: i64, minutes: Option<u32>) -> Option<i64> {
    minutes.map(|m| started_ms.saturating_add(i64::from(m) * 60_000))
}

/// How many turn-clock periods a round's building lasts at most, when the game has the turn
/// clock and no `deadline_minutes` (**Decision** in the rules document).
pub const ROUND_LIMIT_PERIODS: u64 = 3;

/// The bound on a round's building, in minutes after the reveal, that the turn clock implies:
/// each act restarts a seat's clock, so without a bound a seat that kept acting would hold the
/// round open for ever. None without the turn clock, or when `deadline_minutes` bounds it
/// already.
pub fn round_limit_minutes(
    deadline_minutes: Option<u32>,
    move_minutes: Option<u64>,
) -> Option<u32> {
    match (deadline_minutes, move_minutes) {
        (None, Some(m)) => {
            Some(u32::try_from(m.saturating_mul(ROUND_LIMIT_PERIODS)).unwrap_or(u32::MAX))
        }
        _ => None,
    }
}

/// A round's building deadline, in minutes after the reveal: the game's `deadline_minutes`, or
/// else the bound the turn clock implies.
pub fn round_minutes(state: &State) -> Option<u32> {
    state.deadline_minutes.or(state.round_limit_minutes)
}

/// When the step the game waits for ends by itself: the round's building, or the winner's
/// release.
pub fn current_deadline(state: &State) -> Option<i64> {
    match state.phase {
        Phase::Building => state.deadline_ms,
        Phase::Releasing => state.release_deadline_ms,
        _ => None,
    }
}

/// Has the round's building deadline passed at `now_ms`?
pub fn deadline_passed(state: &State, now_ms: i64) -> bool {
    state.deadline_ms.is_some_and(|d| now_ms >= d)
}

/// Every seat in finishing order: finished players first, then those who did not finish (stopped
/// by the end of the round or by themselves), who count as later than every finisher.
///
/// - `arrival`: finished players in the order their finish commands arrived.
/// - `elapsed`: finished players by their own time (look to finish), ties by arrival.
/// - **Decision** (several players who did not finish): whoever last changed their city earlier
///   counts as having finished earlier (with `elapsed` timing, measured from their own look at
///   the blueprint); a player who never built comes after those who did, then seat order.
pub fn finishing_order(state: &State) -> Vec<Seat> {
    let mut finished: Vec<Seat> = state.finish_order.clone();
    if state.timing == Timing::Elapsed {
        // A stable sort keeps the arrival order among equal times.
        finished.sort_by_key(|&s| state.players[usize::from(s)].elapsed_ms.unwrap_or(i64::MAX));
    }
    let mut unfinished: Vec<Seat> = (0..state.players.len() as Seat)
        .filter(|s| !state.finish_order.contains(s))
        .collect();
    unfinished.sort_by_key(|&s| {
        let player = &state.players[usize::from(s)];
        let last = match state.timing {
            Timing::Arrival => player.last_change_ms,
            Timing::Elapsed => player
                .last_change_ms
                .zip(player.looked_at_ms)
                .map(|(change, looked)| change - looked),
        };
        (last.is_none(), last, s)
    });
    finished.extend(unfinished);
    finished
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(timing: Timing, elapsed: [Option<i64>; 3], order: Vec<Seat>) -> State {
        State {
            timing,
            players: elapsed
                .iter()
                .map(|&e| PlayerState {
                    elapsed_ms: e,
                    finished_at_ms: e.map(|_| 0),
                    ..PlayerState::default()
                })
                .collect(),
            finish_order: order,
            ..State::default()
        }
    }

    #[test]
    fn arrival_ranks_finishers_by_arrival_and_the_stopped_last() {
        let s = state(Timing::Arrival, [None, Some(50), Some(10)], vec![1, 2]);
        assert_eq!(finishing_order(&s), vec![1, 2, 0]);
    }

    #[test]
    fn elapsed_ranks_finishers_by_their_own_time() {
        let s = state(Timing::Elapsed, [None, Some(50), Some(10)], vec![1, 2]);
        assert_eq!(finishing_order(&s), vec![2, 1, 0]);
    }

    #[test]
    fn equal_elapsed_times_go_to_the_earlier_arrival() {
        let s = state(Timing::Elapsed, [None, Some(10), Some(10)], vec![2, 1]);
        assert_eq!(finishing_order(&s), vec![2, 1, 0]);
    }

    #[test]
    fn stopped_players_rank_by_their_last_change_and_never_built_last() {
        let mut s = state(Timing::Arrival, [None, None, None], vec![]);
        s.players[1].last_change_ms = Some(7);
        s.players[2].last_change_ms = Some(3);
        assert_eq!(finishing_order(&s), vec![2, 1, 0]);
    }

    #[test]
    fn with_elapsed_timing_the_unfinished_rank_by_their_own_time_to_their_last_change() {
        // Seat 1 looked late and changed its city 5 s after looking; seat 2 looked early and
        // changed it 9 s after looking; seat 0 never built.
        let mut s = state(Timing::Elapsed, [None, None, None], vec![]);
        s.players[1].looked_at_ms = Some(100_000);
        s.players[1].last_change_ms = Some(105_000);
        s.players[2].looked_at_ms = Some(1_000);
        s.players[2].last_change_ms = Some(10_000);
        s.players[0].looked_at_ms = Some(0);
        assert_eq!(finishing_order(&s), vec![1, 2, 0]);
    }

    #[test]
    fn the_deadline_counts_from_the_reveal() {
        assert_eq!(deadline_after(1_000, Some(2)), Some(121_000));
        assert_eq!(deadline_after(1_000, None), None);
    }
}
