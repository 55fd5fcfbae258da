//! Bot seats: filling a waiting game's free seats with bots, finding the bots the games wait
//! for, and what such a bot may see (its seat's view, log and moves, read like any player's).

use baumeister_domain::bots::{BotInput, Level};
use serde_json::Value;

use crate::error::{Result, StoreError};
use crate::reads::Reader;
use crate::types::GameSummary;
use crate::Store;

/// A bot the sweep should move: its game, the account whose seat it plays and its level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotTurn {
    pub game_id: i64,
    /// The bot's own account, or for the turn clock's bot the seat's player.
    pub account_id: i64,
    pub level: Level,
    /// The turn clock handed this seat's move to a bot (`clock_bot.rs`): the move is made with
    /// [`Store::clock_bot_move`], not as the account's command.
    pub clock_seat: Option<u8>,
}

/// What a bot is given for a move, and the version it was read at (the command is sent with
/// it as `expected_version`, so a bot never acts on a board that has moved on).
pub struct BotRead {
    pub input: BotInput,
    pub version: i64,
    /// The seat read for.
    pub seat: u8,
}

/// The sweep's statement (see [`Store::bots_to_act`]). It runs after every change of any game,
/// so it reads only the games that may wait for a bot, never every running game: the running
/// games that seat a bot (their own partial index, `migrations/V20__lighter_command_path.sql`)
/// and the people's seats with a move handed to the clock's bot (a partial index of seats;
/// the clock's bot never plays for a bot). Each set is read first by itself (`MATERIALIZED`),
/// so that no plan reads every running game to join them. Prepared once per connection.
const BOTS_TO_ACT: &str = "WITH bot_games AS MATERIALIZED (
         SELECT id, to_act, bot_seats, updated_at FROM games
         WHERE status = 'active' AND bot_seats IS NOT NULL AND bot_seats && to_act),
     due AS MATERIALIZED (
         SELECT game_id, seat, account_id, clock_bot FROM seats WHERE clock_bot_due)
     SELECT g.id, a.id, a.bot_level, NULL::smallint, g.updated_at, s.seat
     FROM bot_games g
     JOIN seats s ON s.game_id = g.id AND s.seat = ANY (g.to_act) AND s.seat = ANY (g.bot_seats)
     JOIN accounts a ON a.id = s.account_id AND a.bot
     UNION ALL
     SELECT g.id, a.id, d.clock_bot, d.seat, g.updated_at, d.seat
     FROM due d
     JOIN games g ON g.id = d.game_id AND g.status = 'active' AND d.seat = ANY (g.to_act)
     JOIN accounts a ON a.id = d.account_id AND NOT a.bot
     ORDER BY 5, 6 LIMIT $1";

impl Store {
    /// Seats a bot of `level` at `seat` of a game that waits for players. Only the game's
    /// creator may; the seat must exist and be free. Taking the last seat starts the game.
    pub async fn add_bot(
        &self,
        game_id: i64,
        requester: i64,
        seat: u8,
        level: Level,
    ) -> Result<GameSummary> {
        // The gate first: a private game's outsider learns nothing, not even `not_creator`.
        let requester_reads = Reader::Account {
            id: requester,
            auditor: false,
        };
        self.gate(game_id, requester_reads).await?;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let row = tx
            .query_opt(
                "SELECT kind, status, seat_count, options, created_by,
                        array(SELECT seat FROM seats WHERE game_id = $1),
                        array(SELECT account_id FROM seats WHERE game_id = $1)
                 FROM games WHERE id = $1 FOR UPDATE",
                &[&game_id],
            )
            .await?
            .ok_or(StoreError::GameNotFound(game_id))?;
        let kind: String = row.get(0);
        let status: String = row.get(1);
        let seat_count = row.get::<_, i16>(2) as u8;
        let options: Value = row.get(3);
        let created_by: i64 = row.get(4);
        let taken: Vec<i16> = row.get(5);
        let seated: Vec<i64> = row.get(6);
        if created_by != requester {
            return Err(StoreError::NotCreator);
        }
        if status != "open" {
            return Err(StoreError::NotOpen(status));
        }
        if !baumeister_domain::bots::supports(&kind, level) {
            return Err(StoreError::BotLevelUnavailable(kind));
        }
        if seat >= seat_count {
            return Err(StoreError::NoSuchSeat { seat, seat_count });
        }
        if taken.contains(&i16::from(seat)) {
            return Err(StoreError::SeatTaken(seat));
        }
        // The level's first account not yet at this game.
        let bot: i64 = tx
            .query_opt(
                "SELECT id FROM accounts WHERE bot AND bot_level = $1 AND NOT (id = ANY ($2))
                 ORDER BY id LIMIT 1",
                &[&level.name(), &seated],
            )
            .await?
            .map(|r| r.get(0))
            .ok_or(StoreError::NoBotAccount(level.name()))?;
        tx.execute(
            "INSERT INTO seats (game_id, seat, account_id) VALUES ($1, $2, $3)",
            &[&game_id, &i16::from(seat), &bot],
        )
        .await?;
        // A bot brings no entropy of its own: the server picks its client seed, in the open.
        tx.execute(
            "UPDATE game_fairness SET client_seeds = client_seeds || $2::text WHERE game_id = $1",
            &[
                &game_id,
                &baumeister_domain::fairness::to_hex(&crate::trust::random_bytes()[..16]),
            ],
        )
        .await?;
        if taken.len() + 1 == seat_count as usize {
            let started = self
                .start_full_game(&tx, game_id, &kind, seat_count, &options, bot)
                .await?;
            let summary = self.summary_in(&tx, game_id).await?;
            tx.commit().await?;
            self.started(game_id, started);
            return Ok(summary);
        }
        tx.execute(
            "UPDATE games SET updated_at = now() WHERE id = $1",
            &[&game_id],
        )
        .await?;
        crate::live::outbox::notify_changed(&tx, game_id, 0).await?;
        let summary = self.summary_in(&tx, game_id).await?;
        tx.commit().await?;
        Ok(summary)
    }

    /// The bots that running games wait for now, oldest game first (at most `limit`): bots'
    /// own seats, and people's seats whose move the turn clock handed to its bot.
    pub async fn bots_to_act(&self, limit: i64) -> Result<Vec<BotTurn>> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(BOTS_TO_ACT).await?;
        let rows = client.query(&statement, &[&limit]).await?;
        rows.iter()
            .map(|row| {
                let level: String = row.get(2);
                Ok(BotTurn {
                    game_id: row.get(0),
                    account_id: row.get(1),
                    level: Level::from_name(&level)
                        .ok_or_else(|| StoreError::Corrupt(format!("bot level {level}")))?,
                    clock_seat: row.get::<_, Option<i16>>(3).map(|s| s as u8),
                })
            })
            .collect()
    }

    /// What the bot's seat may see, read as that seat's player reads it: the view, the whole log
    /// redacted for the seat, the legal commands, all of one version. `None` when the bot's
    /// account has no seat at the game.
    pub async fn bot_read(&self, game_id: i64, account_id: i64) -> Result<Option<BotRead>> {
        let client = self.pool.get().await?;
        let reader = Reader::Account {
            id: account_id,
            auditor: false,
        };
        let snapshot = self.snapshot(&client, game_id, reader).await?;
        let Some(seat) = snapshot.head.seat else {
            return Ok(None);
        };
        let events = snapshot
            .log(&client, 0, snapshot.version().max(1))
            .await?
            .iter()
            .map(|e| e.value())
            .collect::<Result<Vec<Value>>>()?;
        let input = BotInput::observe(snapshot.game(), &snapshot.aggregate.state, &events, seat);
        Ok(Some(BotRead {
            input,
            version: snapshot.version(),
            seat,
        }))
    }
}
