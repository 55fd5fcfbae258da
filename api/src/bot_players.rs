//! The bots at the table. A background task finds the seats the running games wait for that
//! bots hold, reads what each such seat may see (exactly what its player would read), lets the
//! bot think on the blocking pool, never on the HTTP workers, and sends its command through the
//! same command path as everybody's. It sweeps at start-up, at once again after a move (so a bot
//! answering a bot does not wait), whenever a game that seats a bot changes or a seat's move is
//! handed to the clock's bot (the live listener's LISTEN wakes it, so a bot answers within its
//! think time, not a poll interval; other games' commands do not), and
//! every `every` should a notice be lost: a restarted server resumes every bot that is to act.
//! It also makes the moves the turn clock handed to its bot (game option `clock_bot`; see
//! `storage/src/clock_bot.rs`), reading the seat as its player would.

use std::sync::Arc;
use std::time::Duration;

use baumeister_domain::bots::{choose, Budget};
use baumeister_domain::rng::GameRng;
use baumeister_storage::{BotTurn, CommandRequest, Store, StoreError};
use tokio::sync::Semaphore;

/// Bots thinking at once, server-wide: thinking is CPU work, and players come first.
const THINKERS: usize = 1;
/// Bot seats looked at per sweep.
const PER_SWEEP: i64 = 32;

pub async fn run(store: Store, every: Duration) {
    let thinkers = Arc::new(Semaphore::new(THINKERS));
    loop {
        let moved = match store.bots_to_act(PER_SWEEP).await {
            Ok(turns) => {
                let mut moved = false;
                for turn in turns {
                    match play(&store, &turn, &thinkers).await {
                        Ok(m) => moved |= m,
                        Err(e) => {
                            tracing::warn!(game = turn.game_id, error = %e, "bot move failed")
                        }
                    }
                }
                moved
            }
            Err(e) => {
                tracing::warn!(error = %e, "bot sweep failed");
                false
            }
        };
        if !moved {
            // Until a game changes (the live listener hears every change, from any server
            // process, through PostgreSQL's NOTIFY) or, should a notice be lost, `every` passes.
            let _ = tokio::time::timeout(every, store.bots_woken()).await;
        }
    }
}

/// One move of one bot; whether it was made. A board that moved on meanwhile is left to the
/// next sweep.
async fn play(
    store: &Store,
    turn: &BotTurn,
    thinkers: &Arc<Semaphore>,
) -> Result<bool, StoreError> {
    let Some(read) = store.bot_read(turn.game_id, turn.account_id).await? else {
        return Ok(false);
    };
    if let Some(seat) = turn.clock_seat {
        // A player in two seats of one game (the read cannot tell which seat it is for), or a
        // seat with nothing listed: the clock's default move instead.
        if seat != read.seat || read.input.moves.is_empty() {
            return store
                .clock_bot_move(turn.game_id, seat, None, read.version)
                .await;
        }
    }
    if read.input.moves.is_empty() {
        return Ok(false);
    }
    let permit = thinkers
        .clone()
        .acquire_owned()
        .await
        .expect("the semaphore is never closed");
    let level = turn.level;
    let seed = u64::from_le_bytes(
        baumeister_storage::trust::random_bytes()[..8]
            .try_into()
            .unwrap(),
    );
    let input = read.input;
    let chosen = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        choose(
            &input,
            level,
            Budget::default(),
            &mut GameRng::from_seed(seed),
        )
    })
    .await;
    let command = match chosen {
        Ok(Ok(command)) => Some(command),
        Ok(Err(e)) => {
            tracing::warn!(game = turn.game_id, error = %e, "bot could not choose");
            None
        }
        Err(e) => {
            tracing::error!(game = turn.game_id, error = %e, "bot thread failed");
            None
        }
    };
    if let Some(seat) = turn.clock_seat {
        // Whatever happened, the seat whose deadline passed gets a move.
        return store
            .clock_bot_move(turn.game_id, seat, command.as_ref(), read.version)
            .await;
    }
    let Some(command) = command else {
        return Ok(false);
    };
    let request = CommandRequest {
        game_id: turn.game_id,
        account_id: turn.account_id,
        command: &command,
        expected_version: Some(read.version),
        idempotency_key: None,
        representation: false,
    };
    match store.execute(&request).await {
        Ok(_) => Ok(true),
        Err(StoreError::VersionConflict { .. } | StoreError::Domain(_)) => Ok(false),
        Err(e) => Err(e),
    }
}
