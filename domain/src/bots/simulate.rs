//! Playing imagined games forward: a command with made-up randomness, and random playouts. The
//! commands are typed ([`TypedCommand`]): an imagined game writes no JSON.

use crate::contract::{Ctx, Seat};
use crate::dynamic::{DomainError, DynGame, GameState};
use crate::rng::GameRng;
use crate::typed_command::TypedCommand;

use super::evaluate::rewards;
use super::rules::BotRules;

/// Decides `command` for `seat` in `state` with randomness from `rng` and folds its events in
/// ([`DynGame::play_typed`]). The clock stands at 0: an imagined game has no deadlines to miss.
pub fn apply(
    game: &dyn DynGame,
    state: &mut GameState,
    seat: Seat,
    command: &TypedCommand,
    rng: &mut GameRng,
) -> Result<(), DomainError> {
    let mut ctx = Ctx::new(rng.next_u64(), 0);
    game.play_typed(state, seat, command, &mut ctx)
}

/// The seat to move next in an imagined game: one of those the game waits for, at random
/// (several act at once in some kinds). `None` once the game has ended.
pub fn next_actor(game: &dyn DynGame, state: &GameState, rng: &mut GameRng) -> Option<Seat> {
    let status = game.status(state);
    if status.finished || status.to_act.is_empty() {
        return None;
    }
    Some(status.to_act[rng.index(status.to_act.len())])
}

/// Plays commands worth weighing ([`BotRules::moves`]) for at most `max_moves` moves or until
/// the game ends: each at random, or by the one-step judgement ([`best_next`]) as often as the
/// kind wants ([`BotRules::playout_randomness`]).
pub fn playout(rules: &dyn BotRules, state: &mut GameState, rng: &mut GameRng, max_moves: usize) {
    let game = rules.game();
    for _ in 0..max_moves {
        let Some(seat) = next_actor(game, state, rng) else {
            return;
        };
        let mut moves = rules.moves(state, seat);
        if moves.is_empty() {
            return;
        }
        // A share of the moves at random, the others as greedy would make them.
        let random = rules.playout_randomness();
        let command =
            if random < 1.0 && moves.len() > 1 && rng.below(1000) as f64 >= random * 1000.0 {
                let best = best_next(rules, state, seat, &moves, rng);
                moves.swap_remove(best)
            } else {
                moves.swap_remove(rng.index(moves.len()))
            };
        if apply(game, state, seat, &command, rng).is_err() {
            return;
        }
    }
}

/// Of `moves` for `seat` in `state`, the index of the one whose next position gives `seat` the
/// highest reward (the evaluation's lead: as the greedy level judges, in this one guess). The
/// chosen command is then played anew, so that its judgement does not pick the luckiest draw.
pub(super) fn best_next(
    rules: &dyn BotRules,
    state: &GameState,
    seat: Seat,
    moves: &[TypedCommand],
    rng: &mut GameRng,
) -> usize {
    let mut best = (f64::NEG_INFINITY, 0);
    for (i, command) in moves.iter().enumerate() {
        let mut next = state.clone();
        if apply(rules.game(), &mut next, seat, command, rng).is_ok() {
            let reward = rewards(rules, &next)[usize::from(seat)];
            if reward > best.0 {
                best = (reward, i);
            }
        }
    }
    best.1
}

/// The commands among `commands` (JSON, from a bot's input) read into their typed form, each
/// with the JSON it came from; one that does not read as the kind's command is left out.
pub fn typed(
    game: &dyn DynGame,
    commands: Vec<serde_json::Value>,
) -> Vec<(serde_json::Value, TypedCommand)> {
    commands
        .into_iter()
        .filter_map(|c| game.read_typed(&c).ok().map(|t| (c, t)))
        .collect()
}
