//! The turn clock (option `move_minutes`, any kind): a seat to act that has not acted by its
//! turn deadline gets the game's default move, made by the server and recorded like a player's
//! command but with no account (the seat, the seed and the clock are stored), so the audit
//! decides it again like any other command.
//!
//! With the option `clock_bot`, a person's seat whose deadline passed is handed to a bot of that
//! level instead (`clock_bot.rs`): the step only marks the move as the bot's, and the bot sweep
//! thinks off the HTTP workers, so a read that settles a deadline never waits for a bot.
//!
//! The deadlines themselves are kept per seat in `games.turn_deadlines` and computed in the
//! same statement that writes the lobby row (`next_turn_deadlines` in
//! `migrations/V4__turn_clock.sql`); `games.deadline_ms` is the earliest of them and of the
//! game's own deadline, so the sweep and the check before every read and command cover both.

use deadpool_postgres::Transaction;
use serde_json::Value;

use crate::audit::trust::GameKeys;
use crate::error::Result;
use crate::read::cache::Aggregate;
use crate::read::snapshot::GameHead;
use crate::Store;

/// What the turn clock does for a game whose deadline has come.
pub(crate) enum ClockStep {
    /// No seat's turn deadline has passed.
    Nothing,
    /// A seat's deadline passed but the game has no default move for it (it has nothing to
    /// do): its deadline was dropped.
    Dropped,
    /// The seat's move was handed to the clock's bot (`clock_bot.rs`), which the bot sweep
    /// was woken for; the seat's deadline was dropped (the bot's move starts the next one).
    Handed,
    /// The default move of `seat`, decided with `seed` at the step's time.
    Move {
        seat: u8,
        body: Value,
        seed: u64,
        events: Vec<Value>,
    },
}

impl Store {
    /// Decides the default move of the seat whose turn deadline passed first by `now`, if any.
    /// Runs inside the caller's transaction, with the game's row locked.
    pub(crate) async fn turn_clock_step(
        &self,
        tx: &Transaction<'_>,
        game_id: i64,
        head: &GameHead,
        aggregate: &Aggregate,
        keys: &GameKeys,
        now: i64,
    ) -> Result<ClockStep> {
        // The clock's bot plays for people only: a bot's own seat gets the default move.
        let row = tx
            .query_one(
                "SELECT turn_deadlines, options ->> 'clock_bot',
                        array(SELECT s.seat FROM seats s JOIN accounts a ON a.id = s.account_id
                              WHERE s.game_id = g.id AND a.bot)
                 FROM games g WHERE id = $1",
                &[&game_id],
            )
            .await?;
        let Some(mut deadlines) = row.get::<_, Option<Vec<Option<i64>>>>(0) else {
            return Ok(ClockStep::Nothing);
        };
        let clock_bot: Option<String> = row.get(1);
        let bot_seats: Vec<i16> = row.get(2);
        let game = head.game;
        let state = &aggregate.state;
        let due = game
            .status(state)
            .to_act
            .into_iter()
            .filter_map(|seat| {
                let deadline = deadlines.get(seat as usize).copied().flatten()?;
                (deadline <= now).then_some((deadline, seat))
            })
            .min();
        let Some((_, seat)) = due else {
            return Ok(ClockStep::Nothing);
        };
        if let Some(level) = clock_bot.filter(|_| !bot_seats.contains(&i16::from(seat))) {
            drop_deadline(tx, game_id, &mut deadlines, seat).await?;
            tx.execute(
                "UPDATE seats SET clock_bot = $3, clock_bot_due = true WHERE game_id = $1 AND seat = $2",
                &[&game_id, &i16::from(seat), &level],
            )
            .await?;
            // The game's row names the seats handed over, so that only their player's next
            // command takes them back (see `migrations/V20__lighter_command_path.sql`).
            tx.execute(
                "UPDATE games SET clock_bot_seats = CASE WHEN $2 = ANY (coalesce(clock_bot_seats, '{}'))
                     THEN clock_bot_seats ELSE array_append(coalesce(clock_bot_seats, '{}'), $2) END
                 WHERE id = $1",
                &[&game_id, &i16::from(seat)],
            )
            .await?;
            // Wakes the bot sweep of every process, and shows the seat as the bot's.
            crate::live::outbox::notify_changed(tx, game_id, head.version).await?;
            tracing::info!(
                game = game_id,
                seat,
                level,
                "turn clock handed the move to a bot"
            );
            return Ok(ClockStep::Handed);
        }
        let (mut ctx, seed) = keys.ctx(head.version, now);
        let decided = game.default_command(state, seat).map(|body| {
            let events = game.decide(state, seat, &body, &mut ctx);
            (body, events)
        });
        match decided {
            Some((body, Ok(events))) if !events.is_empty() => Ok(ClockStep::Move {
                seat,
                body,
                seed,
                events,
            }),
            other => {
                // A game whose default move is missing or refused would otherwise be woken for
                // ever: drop this seat's deadline; its next turn starts a new one.
                tracing::warn!(
                    game = game_id,
                    seat,
                    outcome = ?other.map(|(body, events)| (body, events.map(|e| e.len()))),
                    "the turn clock found no default move"
                );
                drop_deadline(tx, game_id, &mut deadlines, seat).await?;
                Ok(ClockStep::Dropped)
            }
        }
    }
}

/// Drops `seat`'s deadline from the game's `deadlines` (its next turn starts a new one) and keeps
/// the game's earliest deadline in step.
async fn drop_deadline(
    tx: &Transaction<'_>,
    game_id: i64,
    deadlines: &mut [Option<i64>],
    seat: u8,
) -> Result<()> {
    deadlines[seat as usize] = None;
    let deadlines: &[Option<i64>] = deadlines;
    tx.execute(
        "UPDATE games SET turn_deadlines = $2, deadline_ms = earliest_deadline(rule_deadline_ms, $2)
         WHERE id = $1",
        &[&game_id, &deadlines],
    )
    .await?;
    Ok(())
}
