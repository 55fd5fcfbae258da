//! Bot seats: filling a waiting game's free seats with bots, finding the bots the games wait
//! for, and what such a bot may see (its seat's view, log and moves, read like any player's).

use baumeister_domain::bots::{BotInput, Level};
use serde_json::Value;

use crate::command::lock::Seating;
use crate::error::{Result, StoreError};
use crate::reader::Reader;
use crate::types::GameSummary;
use crate::Refusal;
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
    /// The person whose game waits, whom the bots' thinking is shared between: for a bot's own
    /// seat the game's creator (only the creator seats bots), for the turn clock's bot the
    /// seat's player (the move is made for them).
    pub owner: i64,
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
/// so that no plan reads every running game to join them.
///
/// The rows come fairly, not oldest game first server-wide: every owner's oldest waiting move,
/// then every owner's second, and so on (`place`), each round oldest first. So the `LIMIT`
/// cuts the longest queues, never a person's only game behind another's thirty.
/// Prepared once per connection.
const BOTS_TO_ACT: &str = "WITH bot_games AS MATERIALIZED (
         SELECT id, to_act, bot_seats, updated_at, created_by FROM games
         WHERE status = 'active' AND bot_seats IS NOT NULL AND bot_seats && to_act),
     due AS MATERIALIZED (
         SELECT game_id, seat, account_id, clock_bot FROM seats WHERE clock_bot_due),
     waiting AS (
         SELECT g.id AS game_id, a.id AS account_id, a.bot_level AS level,
                NULL::smallint AS clock_seat, g.created_by AS owner, g.updated_at, s.seat
         FROM bot_games g
         JOIN seats s ON s.game_id = g.id AND s.seat = ANY (g.to_act)
                     AND s.seat = ANY (g.bot_seats)
         JOIN accounts a ON a.id = s.account_id AND a.bot
         UNION ALL
         SELECT g.id, a.id, d.clock_bot, d.seat, a.id, g.updated_at, d.seat
         FROM due d
         JOIN games g ON g.id = d.game_id AND g.status = 'active' AND d.seat = ANY (g.to_act)
         JOIN accounts a ON a.id = d.account_id AND NOT a.bot)
     SELECT game_id, account_id, level, clock_seat, owner
     FROM (SELECT *, row_number() OVER (PARTITION BY owner ORDER BY updated_at, game_id, seat)
                     AS place
           FROM waiting) w
     ORDER BY place, updated_at, game_id, seat LIMIT $1";

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
        self.gate(game_id, Reader::player(requester)).await?;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // Judged on the table as it stands once the game's row is locked (`lock.rs`).
        let table = Seating::lock(&tx, game_id).await?;
        if table.created_by != requester {
            return Err(StoreError::Refused(Refusal::NotCreator));
        }
        if table.status != "open" {
            return Err(StoreError::Refused(Refusal::NotOpen(table.status)));
        }
        if !baumeister_domain::bots::supports(&table.kind, level) {
            return Err(StoreError::Refused(Refusal::BotLevelUnavailable(
                table.kind,
            )));
        }
        if seat >= table.seat_count {
            return Err(StoreError::Refused(Refusal::NoSuchSeat {
                seat,
                seat_count: table.seat_count,
            }));
        }
        if table.is_taken(seat) {
            return Err(StoreError::Refused(Refusal::SeatTaken(seat)));
        }
        let seated: Vec<i64> = table.taken.iter().map(|t| t.account).collect();
        // The level's first account not yet at this game.
        let bot: i64 = tx
            .query_opt(
                "SELECT id FROM accounts WHERE bot AND bot_level = $1 AND NOT (id = ANY ($2))
                 ORDER BY id LIMIT 1",
                &[&level.name(), &seated],
            )
            .await?
            .map(|r| r.get(0))
            .ok_or(Refusal::NoBotAccount(level.name()))?;
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
                &baumeister_domain::fairness::to_hex(&crate::audit::trust::random_bytes()[..16]),
            ],
        )
        .await?;
        if table.one_seat_left() {
            let started = self
                .start_full_game(
                    &tx,
                    game_id,
                    &table.kind,
                    table.seat_count,
                    &table.options,
                    bot,
                )
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

    /// The bots that running games wait for now (at most `limit`): bots' own seats, and
    /// people's seats whose move the turn clock handed to its bot. In rounds over the owners
    /// ([`BotTurn::owner`]): each owner's oldest first, then each one's second, and so on.
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
                    owner: row.get(4),
                })
            })
            .collect()
    }

    /// What the bot's seat may see, read as that seat's player reads it: the view, the whole log
    /// redacted for the seat, the legal commands, all of one version. `None` when the bot's
    /// account has no seat at the game.
    pub async fn bot_read(&self, game_id: i64, account_id: i64) -> Result<Option<BotRead>> {
        let client = self.pool.get().await?;
        let reader = Reader::player(account_id);
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
