//! Playing imagined games forward: a command with made-up randomness, and random playouts. The
//! commands are typed ([`TypedCommand`]): an imagined game writes no JSON.

use crate::contract::{Ctx, Seat};
use crate::dynamic::{DomainError, DynGame, GameState};
use crate::rng::GameRng;
use crate::typed_command::TypedCommand;

use super::BotRules;

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

/// Plays random commands worth weighing ([`BotRules::moves`]) for at most `max_moves` moves or
/// until the game ends.
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
        let command = moves.swap_remove(rng.index(moves.len()));
        if apply(game, state, seat, &command, rng).is_err() {
            return;
        }
    }
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
