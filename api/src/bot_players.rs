//! The bots at the table. A background task finds the seats the running games wait for that
//! bots hold, reads what each such seat may see (exactly what its player would read), lets the
//! bot think on the blocking pool, never on the HTTP workers, and sends its command through the
//! same command path as everybody's. Which waiting moves run at once is [`Schedule`]'s choice:
//! a few thinkers, shared in turn between the people whose games wait, at most a few of one
//! account's moves at once (`BOT_THINKERS`, `BOT_THINKERS_PER_ACCOUNT`). It sweeps at start-up,
//! again whenever a move ends (its game's next bot may be due, and a thinker is free), whenever
//! a game that seats a bot changes or a seat's move is handed to the clock's bot (the live
//! listener's LISTEN wakes it, so a bot answers within its think time, not a poll interval;
//! other games' commands do not), and every `every` should a notice be lost: a restarted server
//! resumes every bot that is to act. It also makes the moves the turn clock handed to its bot
//! (game option `clock_bot`; see `storage/src/command/clock_bot.rs`), reading the seat as its player
//! would, scheduled as that player's.
//!
//! In a race (Space Builder's building) a bot keeps a person's pace ([`due_ms`]): a move read
//! before its time is not made; the game rests, and the loop wakes the schedule when the
//! earliest such time has come by the store's clock, so no thinker is held while a bot waits.

use std::collections::HashMap;
use std::time::Duration;

use baumeister_domain::bots::{choose, due_ms, gives_up, Budget};
use baumeister_domain::rng::GameRng;
use baumeister_storage::Refusal;
use baumeister_storage::{BotTurn, CommandRequest, Store, StoreError};
use tokio::sync::mpsc;

use crate::bot_schedule::Schedule;
use crate::config::Bots;

/// Waiting bot moves looked at per sweep: with the sweep's rounds over the owners, the first
/// move of up to this many owners.
const PER_SWEEP: i64 = 64;

/// How often the store's clock is looked at while a bot waits for its pace: a bot acts at most
/// this late, and a test that moves the clock sees it act this soon.
const PACE_TICK: Duration = Duration::from_millis(100);

/// How a bot's move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Played {
    Moved,
    NotMade,
    /// Too early for the bot's pace: due at this time by the store's clock.
    Later(i64),
}

pub async fn run(store: Store, config: Bots, every: Duration) {
    let mut schedule = Schedule::new(config.thinkers, config.per_account);
    let (done, mut finished) = mpsc::unbounded_channel::<(BotTurn, Played)>();
    // Games whose bot waits for its pace, and when it is due.
    let mut pacing: HashMap<i64, i64> = HashMap::new();
    let mut fallback = tokio::time::interval(every);
    fallback.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    fallback.tick().await;
    loop {
        if schedule.has_room() {
            match store.bots_to_act(PER_SWEEP).await {
                Ok(turns) => {
                    let found = turns.len();
                    let started = schedule.start(turns);
                    crate::telemetry::bot_queue(found - started.len(), schedule.running());
                    for turn in started {
                        let store = store.clone();
                        let ended = Ended {
                            turn: Some(turn),
                            done: done.clone(),
                        };
                        actix_web::rt::spawn(async move {
                            let turn = ended.turn.clone().expect("taken only at the end");
                            let moved = match play(&store, &turn).await {
                                Ok(moved) => moved,
                                Err(e) => {
                                    tracing::warn!(game = turn.game_id, error = %e, "bot move failed");
                                    Played::NotMade
                                }
                            };
                            ended.send(moved);
                        });
                    }
                }
                Err(e) => tracing::warn!(error = %e, "bot sweep failed"),
            }
        }
        // Until a move ends (its game's next move may be due, and its thinker is free), a game
        // changes (the live listener hears every change, from any server process, through
        // PostgreSQL's NOTIFY), a paced bot's time comes or, should a notice be lost, `every`
        // passes.
        let paced = !pacing.is_empty();
        let pace_tick = async move {
            if !paced {
                std::future::pending::<()>().await;
            }
            tokio::time::sleep(PACE_TICK).await;
        };
        tokio::select! {
            Some((turn, played)) = finished.recv() => {
                let mut end = |turn: BotTurn, played: Played| {
                    match played {
                        Played::Later(due) => {
                            pacing.insert(turn.game_id, due);
                        }
                        _ => {
                            pacing.remove(&turn.game_id);
                        }
                    }
                    schedule.finish(&turn, played == Played::Moved);
                };
                end(turn, played);
                while let Ok((turn, played)) = finished.try_recv() {
                    end(turn, played);
                }
            }
            _ = store.bots_woken() => schedule.wake(),
            _ = fallback.tick() => schedule.wake(),
            _ = pace_tick => {
                let now = store.now_ms();
                let before = pacing.len();
                pacing.retain(|_, due| *due > now);
                if pacing.len() < before {
                    schedule.wake();
                }
            }
        }
    }
}

/// Tells the schedule that a move ended, when its task ends however it ends (as not made, if
/// it panicked), so that its thinker is never lost.
struct Ended {
    turn: Option<BotTurn>,
    done: mpsc::UnboundedSender<(BotTurn, Played)>,
}

impl Ended {
    fn send(mut self, moved: Played) {
        if let Some(turn) = self.turn.take() {
            let _ = self.done.send((turn, moved));
        }
    }
}

impl Drop for Ended {
    fn drop(&mut self) {
        if let Some(turn) = self.turn.take() {
            let _ = self.done.send((turn, Played::NotMade));
        }
    }
}

/// One move of one bot; whether it was made, or when it is due. A board that moved on
/// meanwhile is left to the next sweep.
async fn play(store: &Store, turn: &BotTurn) -> Result<Played, StoreError> {
    let Some(read) = store.bot_read(turn.game_id, turn.account_id).await? else {
        return Ok(Played::NotMade);
    };
    if turn.clock_seat.is_none() {
        if let Some(due) = due_ms(&read.input, turn.level, turn.game_id as u64) {
            if due > store.now_ms() {
                return Ok(Played::Later(due));
            }
        }
    }
    if let Some(seat) = turn.clock_seat {
        // A player in two seats of one game (the read cannot tell which seat it is for), or a
        // seat with nothing listed: the clock's default move instead.
        if seat != read.seat || read.input.moves.is_empty() {
            return made(
                store
                    .clock_bot_move(turn.game_id, seat, None, read.version)
                    .await,
            );
        }
    }
    if read.input.moves.is_empty() {
        return Ok(Played::NotMade);
    }
    let level = turn.level;
    if turn.clock_seat.is_none() {
        if let Some(command) = gives_up(&read.input, level) {
            return send(store, turn, &command, read.version).await;
        }
    }
    let seed = u64::from_le_bytes(
        baumeister_storage::trust::random_bytes()[..8]
            .try_into()
            .unwrap(),
    );
    let input = read.input;
    let chosen = tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        let chosen = choose(
            &input,
            level,
            Budget::default(),
            &mut GameRng::from_seed(seed),
        );
        crate::telemetry::bot_thought(level.name(), started.elapsed());
        chosen
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
        return made(
            store
                .clock_bot_move(turn.game_id, seat, command.as_ref(), read.version)
                .await,
        );
    }
    let Some(command) = command else {
        return Ok(Played::NotMade);
    };
    send(store, turn, &command, read.version).await
}

/// Sends the bot's `command` as its account's, expected at `version`.
async fn send(
    store: &Store,
    turn: &BotTurn,
    command: &serde_json::Value,
    version: i64,
) -> Result<Played, StoreError> {
    let request = CommandRequest {
        game_id: turn.game_id,
        account_id: turn.account_id,
        command,
        expected_version: Some(version),
        idempotency_key: None,
        representation: false,
    };
    match store.execute(&request).await {
        Ok(_) => Ok(Played::Moved),
        Err(StoreError::Refused(Refusal::VersionConflict { .. }) | StoreError::Domain(_)) => {
            Ok(Played::NotMade)
        }
        Err(e) => Err(e),
    }
}

fn made(result: Result<bool, StoreError>) -> Result<Played, StoreError> {
    result.map(|moved| {
        if moved {
            Played::Moved
        } else {
            Played::NotMade
        }
    })
}
