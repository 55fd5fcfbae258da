//! The turn clock's bot (game option `clock_bot`, a bot level; off by default): when a person's
//! seat lets its turn deadline pass, the move is the bot's instead of the game's default move.
//!
//! - The clock (`turn_clock.rs`) hands the move over: it marks the seat (`seats.clock_bot`, the
//!   level, and `clock_bot_due`), drops the seat's deadline and wakes the bot sweep; it never
//!   thinks itself, since it runs before reads and commands on the HTTP workers.
//! - The bot sweep (`api/src/bot_players.rs`) reads what the seat may see, exactly as its
//!   player would, thinks off the HTTP workers, and makes the move here: recorded like the
//!   clock's default move (no account, the seat, the seed and the clock), with the level named
//!   in the record (`commands.bot_level`, from the response's `clock_bot`), so the audit decides
//!   it again like any other command.
//! - The bot plays only the moves whose deadline passed: its move starts the seat's next
//!   deadline, and the player who comes back before it passes plays as ever. The seat shows the
//!   level (`clock_bot` in the seat list) from the handed-over move until its player's own next
//!   command, which takes it back (kept by the database: `migrations/V19__clock_bot.sql`,
//!   `migrations/V20__lighter_command_path.sql`).

use serde_json::{json, Value};

use crate::command::append::{fold, AppendAt, Batching, NewCommand};
use crate::error::{Result, StoreError};
use crate::Store;

/// The seat's move is no longer the bot's to make (made, or left to the seat's next clock).
async fn end_hand_over(tx: &tokio_postgres::Transaction<'_>, game_id: i64, seat: u8) -> Result<()> {
    tx.execute(
        "UPDATE seats SET clock_bot_due = false WHERE game_id = $1 AND seat = $2",
        &[&game_id, &i16::from(seat)],
    )
    .await?;
    Ok(())
}

impl Store {
    /// Makes the clock's bot's `command` for `seat`, decided on the version the bot read
    /// (`expected_version`). Whether it was made: not when the board moved on meanwhile or the
    /// move is no longer the bot's (its player acted first): the next sweep looks again.
    ///
    /// With no command (the bot could not choose), or one the rules refuse, the seat gets the
    /// game's default move instead, recorded as the clock's own (no bot named): the clock
    /// dropped the seat's deadline when it handed the move over, so nothing else would move it.
    pub async fn clock_bot_move(
        &self,
        game_id: i64,
        seat: u8,
        command: Option<&Value>,
        expected_version: i64,
    ) -> Result<bool> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let head = self.head_for_update(&tx, game_id).await?;
        if head.status != "active" || head.version != expected_version {
            return Ok(false);
        }
        let level: Option<String> = tx
            .query_opt(
                "SELECT clock_bot FROM seats WHERE game_id = $1 AND seat = $2 AND clock_bot_due",
                &[&game_id, &i16::from(seat)],
            )
            .await?
            .and_then(|row| row.get(0));
        let Some(level) = level else {
            return Ok(false);
        };
        let aggregate = self
            .aggregate(&tx, game_id, head.game, head.version)
            .await?;
        if !head.game.status(&aggregate.state).to_act.contains(&seat) {
            return Ok(false);
        }
        let keys = self.trust.keys(&tx, game_id).await?;
        let now = self.now_ms();
        let state = &aggregate.state;
        let decide = |body: &Value| {
            let (mut ctx, seed) = keys.ctx(head.version, now);
            match head.game.decide(state, seat, body, &mut ctx) {
                Ok(events) if !events.is_empty() => Some((body.clone(), seed, events)),
                other => {
                    tracing::warn!(game = game_id, seat, outcome = ?other.map(|e| e.len()), "refused for the clock's bot");
                    None
                }
            }
        };
        let by_bot = command.and_then(decide);
        let bot_named = by_bot.is_some();
        let Some((body, seed, events)) = by_bot.or_else(|| {
            head.game
                .default_command(state, seat)
                .and_then(|body| decide(&body))
        }) else {
            // Neither: drop the hand-over; the seat's next turn starts a new clock.
            end_hand_over(&tx, game_id, seat).await?;
            tx.commit().await?;
            return Ok(false);
        };
        let appended = fold(&aggregate, &keys.chain, events, Some(seat), now)?;
        let mut response = json!({
            "turn_clock": true,
            "seat": seat,
            "version": appended.aggregate.version,
        });
        if bot_named {
            response["clock_bot"] = json!(level);
        }
        let record = NewCommand {
            bot_level: bot_named.then_some(level.as_str()),
            ..NewCommand::servers(Some(seat), &body, seed, now)
        };
        let at = AppendAt {
            game_id,
            base: &aggregate,
            batch: Batching::No,
        };
        let written = match self.write(&tx, at, &appended, record, &response).await {
            Ok(written) => written,
            Err(StoreError::Contention) => return Ok(false),
            Err(e) => return Err(e),
        };
        // Made: the hand-over ends here, the only place (`migrations/V22__unclocked_append.sql`).
        end_hand_over(&tx, game_id, seat).await?;
        tx.commit().await?;
        tracing::info!(
            game = game_id,
            seat,
            level,
            version = appended.aggregate.version,
            "the clock's bot moved"
        );
        self.cache
            .put(game_id, std::sync::Arc::new(appended.aggregate));
        self.announce(written.notice);
        Ok(true)
    }
}
