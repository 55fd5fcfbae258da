//! An account's own games: which wait for it, their turn clocks, their last activity.

use serde::Serialize;
use tokio_postgres::Row;
use utoipa::ToSchema;

use crate::error::{Result, StoreError};
use crate::types::{Lifecycle, SeatHolder};
use crate::{rfc3339, Store};

/// One of the caller's games.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MyGame {
    pub id: i64,
    /// The game kind (see `GET /v1/kinds`).
    pub kind: String,
    pub status: Lifecycle,
    /// The number of events so far: `GET /v1/games/{id}/events?after=` what you saw last.
    pub version: i64,
    /// The caller's seat.
    pub your_seat: u8,
    /// Whether the game waits for the caller's command.
    pub your_turn: bool,
    /// Whose command the game waits for (seat and player).
    pub to_act: Vec<SeatHolder>,
    /// When the game acts by itself if nobody does (the turn clock or a round's deadline).
    pub deadline: Option<String>,
    /// The same in milliseconds since the epoch.
    pub deadline_ms: Option<i64>,
    /// When the game last changed (a command, a seat taken, a deadline).
    pub last_activity: String,
    pub seat_count: u8,
    pub seats: Vec<SeatHolder>,
}

/// Which of the caller's games `GET /v1/me/games` lists.
#[derive(Clone, Debug, Default)]
pub struct MyGamesFilter {
    pub status: Option<Lifecycle>,
    /// Only games waiting for the caller.
    pub to_act: bool,
    pub limit: i64,
    pub offset: i64,
}

const MY_GAME_COLUMNS: &str = "g.id, g.kind, g.status, g.version, s.seat, s.seat = ANY (g.to_act), g.to_act,
    g.deadline_ms, (extract(epoch FROM g.updated_at) * 1000)::bigint, g.seat_count,
    coalesce((SELECT json_agg(json_build_object('seat', o.seat, 'player', a.name, 'bot', a.bot,
                                               'bot_level', a.bot_level, 'clock_bot', o.clock_bot)
                                 ORDER BY o.seat)
              FROM seats o JOIN accounts a ON a.id = o.account_id WHERE o.game_id = g.id), '[]'::json)";

fn my_game(row: &Row) -> Result<MyGame> {
    let status: String = row.get(2);
    let seats: Vec<SeatHolder> =
        serde_json::from_value(row.get(10)).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let to_act: Vec<i16> = row.get(6);
    let deadline_ms: Option<i64> = row.get(7);
    let status = Lifecycle::parse(&status).ok_or_else(|| StoreError::Corrupt(status.clone()))?;
    let running = status == Lifecycle::Active;
    Ok(MyGame {
        id: row.get(0),
        kind: row.get(1),
        status,
        version: row.get(3),
        your_seat: row.get::<_, i16>(4) as u8,
        your_turn: row.get(5),
        to_act: seats
            .iter()
            .filter(|s| to_act.contains(&i16::from(s.seat)))
            .cloned()
            .collect(),
        deadline: deadline_ms.filter(|_| running).map(rfc3339),
        deadline_ms: deadline_ms.filter(|_| running),
        last_activity: rfc3339(row.get(8)),
        seat_count: row.get::<_, i16>(9) as u8,
        seats,
    })
}

impl Store {
    /// The account's games, most recently active first.
    pub async fn my_games(&self, account: i64, filter: &MyGamesFilter) -> Result<Vec<MyGame>> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {MY_GAME_COLUMNS} FROM seats s JOIN games g ON g.id = s.game_id
             WHERE s.account_id = $1 AND ($2::text IS NULL OR g.status = $2)
               AND (NOT $3 OR s.seat = ANY (g.to_act))
             ORDER BY g.updated_at DESC, g.id DESC LIMIT $4 OFFSET $5"
        );
        let rows = client
            .query(
                &sql,
                &[
                    &account,
                    &filter.status.map(Lifecycle::as_str),
                    &filter.to_act,
                    &filter.limit,
                    &filter.offset,
                ],
            )
            .await?;
        rows.iter().map(my_game).collect()
    }

    /// One of the account's games, if the account sits at it.
    pub async fn my_game(&self, account: i64, game_id: i64) -> Result<Option<MyGame>> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {MY_GAME_COLUMNS} FROM seats s JOIN games g ON g.id = s.game_id
             WHERE s.account_id = $1 AND s.game_id = $2"
        );
        client
            .query_opt(&sql, &[&account, &game_id])
            .await?
            .as_ref()
            .map(my_game)
            .transpose()
    }
}
