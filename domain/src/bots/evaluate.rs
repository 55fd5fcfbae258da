//! Rewards between 0 and 1 per seat, from a finished game's winners or a running game's
//! evaluations: what the searches compare.

use crate::dynamic::GameState;

use super::rules::BotRules;

/// One reward per seat: a finished game gives its winners a share of 1 each and the rest 0; a
/// running one gives each seat 0.5 plus or minus its lead over the best other seat, squashed
/// by the kind's scale.
pub fn rewards(rules: &dyn BotRules, state: &GameState) -> Vec<f64> {
    let seats = rules.seats(state) as usize;
    let status = rules.game().status(state);
    if status.finished {
        let share = 1.0 / status.winners.len().max(1) as f64;
        return (0..seats)
            .map(|s| {
                if status.winners.contains(&(s as u8)) {
                    share
                } else {
                    0.0
                }
            })
            .collect();
    }
    let values: Vec<f64> = (0..seats).map(|s| rules.evaluate(state, s as u8)).collect();
    (0..seats)
        .map(|s| {
            let best_other = values
                .iter()
                .enumerate()
                .filter(|&(o, _)| o != s)
                .map(|(_, &v)| v)
                .fold(f64::NEG_INFINITY, f64::max);
            let lead = if best_other.is_finite() {
                values[s] - best_other
            } else {
                0.0
            };
            0.5 + 0.5 * (lead / rules.scale()).tanh()
        })
        .collect()
}
