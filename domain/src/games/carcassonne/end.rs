//! The end of the game, when the pile is empty: every unfinished road, city and cloister with
//! followers scores (with the mage or the witch), then every field with farmers, then each
//! player's ingots. The most points win; tied players share the victory.

use crate::contract::Seat;

use super::events::*;
use super::evolve::Outcome;
use super::state::State;
use super::tiles::FeatureKind;
use super::{farms, gold, scoring};

/// The final scoring, in the order the rules give.
pub fn final_scoring(state: &State) -> Vec<CarcassonneEvent> {
    let features = &state.board.features;
    let mut events: Vec<CarcassonneEvent> = features
        .roots()
        .filter(|&node| {
            let feature = features.get(node);
            match feature.kind {
                FeatureKind::Road | FeatureKind::City => !feature.closed(),
                FeatureKind::Cloister => !scoring::cloister_complete(state, node),
                FeatureKind::Field => false,
            }
        })
        .filter_map(|node| scoring::score(state, node, false))
        .map(Into::into)
        .collect();
    events.extend(farms::final_scoring(state).into_iter().map(Into::into));
    events.extend(gold::final_scoring(state).into_iter().map(Into::into));
    events
}

/// The seats with the most points.
pub fn winners(scores: &[i64]) -> Vec<Seat> {
    let best = scores.iter().copied().max().unwrap_or(0);
    (0..scores.len() as Seat)
        .filter(|&s| scores[s as usize] == best)
        .collect()
}

/// Scores what is left and ends the game.
pub fn finish(outcome: &mut Outcome) {
    for event in final_scoring(&outcome.state) {
        outcome.push(event);
    }
    let scores = outcome.state.scores.clone();
    outcome.push(CarcassonneGameEnded {
        winners: winners(&scores),
        scores,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_points_win_and_ties_share() {
        assert_eq!(winners(&[10, 30, 20]), vec![1]);
        assert_eq!(winners(&[30, 12, 30, 4]), vec![0, 2]);
    }
}
