//! Players' profiles and the leaderboards, read from the lobby rows, the seats and the ratings.

use std::collections::BTreeMap;

use baumeister_domain::Status;
use deadpool_postgres::GenericClient;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Result, StoreError};
use crate::people::rating::{places, LEADERBOARD_MIN_GAMES};
use crate::people::watch::watchable;
use crate::reader::Reader;
use crate::Refusal;
use crate::{rfc3339, Store};

/// How many finished games a profile lists.
pub const RECENT_GAMES: i64 = 20;

/// A rating as shown: on the Glicko scale (1500 for a newcomer), with its deviation (RD: the
/// rating is about ± 2 RD certain) and volatility.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RatingShown {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// How many rated games the rating is made of.
    pub rated_games: i32,
}

/// A player's record in one kind.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct KindRecord {
    pub kind: String,
    /// Finished games the player sat at (rated or not).
    pub played: i64,
    /// Finished games the player won (alone or sharing the win).
    pub won: i64,
    /// Games being played now.
    pub running: i64,
    /// Absent until the player's first rated game of this kind has finished.
    pub rating: Option<RatingShown>,
}

/// A seat of a finished game, as a profile shows it.
#[derive(Clone, Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct RecentSeat {
    pub seat: u8,
    pub player: String,
    /// Present and true when a bot plays this seat (the server, at `bot_level`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The bot's level (`random`, `greedy`, `strong`); absent for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<String>,
    /// The final place (1 is best; equal places drew): see docs/api.md, "Playing together".
    pub place: u32,
    pub score: Option<i64>,
}

/// One of a player's finished games.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RecentGame {
    pub id: i64,
    pub kind: String,
    /// When it finished (RFC 3339).
    pub finished_at: String,
    /// The player's seat.
    pub seat: u8,
    /// The player's final place (1 is best).
    pub place: u32,
    pub won: bool,
    pub seats: Vec<RecentSeat>,
    pub rated: bool,
    /// The player's rating before the game (rated games only).
    pub rating_before: Option<f64>,
    /// And after it.
    pub rating_after: Option<f64>,
}

/// `GET /v1/players/{name}`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerProfile {
    pub name: String,
    /// Present and true when a bot plays under this name (the server, at `bot_level`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The bot's level (`random`, `greedy`, `strong`); absent for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<String>,
    /// When the account was registered (RFC 3339).
    pub member_since: String,
    /// One record per kind the player has sat at, by kind.
    pub kinds: Vec<KindRecord>,
    /// The last 20 finished games, the latest first.
    pub recent: Vec<RecentGame>,
}

/// A line of a kind's leaderboard.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1 for the best rating (by rating, then by the earlier account).
    pub rank: i64,
    pub player: String,
    /// Present and true when a bot holds this rating (the server, at `bot_level`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The bot's level (`random`, `greedy`, `strong`); absent for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<String>,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games of this kind.
    pub rated_games: i32,
    /// Finished games of this kind (rated or not).
    pub played: i64,
}

impl Store {
    /// A player's profile, by name (any case), as `reader` may see it: a private game counts,
    /// and is listed, only where `reader` may watch it (the gate, `watch.rs`).
    pub async fn player_profile(&self, name: &str, reader: Reader) -> Result<PlayerProfile> {
        let client = self.pool.get().await?;
        let gate = gate_params(reader, self.now_ms());
        let account = client
            .query_opt(
                "SELECT id, name, (extract(epoch FROM created_at) * 1000)::bigint, bot_level
                 FROM accounts WHERE lower(name) = lower($1)",
                &[&name],
            )
            .await?
            .ok_or_else(|| StoreError::Refused(Refusal::UnknownAccountName(name.to_string())))?;
        let id: i64 = account.get(0);
        let kinds = kind_records(&client, id, gate).await?;
        let recent = recent_games(&client, id, gate).await?;
        let bot_level: Option<String> = account.get(3);
        Ok(PlayerProfile {
            name: account.get(1),
            bot: bot_level.is_some(),
            bot_level,
            member_since: rfc3339(account.get(2)),
            kinds,
            recent,
        })
    }

    /// A kind's leaderboard, best rating first; accounts with fewer than
    /// [`LEADERBOARD_MIN_GAMES`] rated games are not listed. The finished games counted are
    /// those `reader` may watch (private games are never rated, so ratings hold none).
    pub async fn leaderboard(
        &self,
        kind: &str,
        limit: i64,
        offset: i64,
        reader: Reader,
    ) -> Result<Vec<LeaderboardEntry>> {
        let client = self.pool.get().await?;
        let (viewer, auditor, now) = gate_params(reader, self.now_ms());
        let rows = client
            .query(
                &format!(
                    "SELECT a.name, r.rating, r.deviation, r.games,
                            (SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id
                             WHERE s.account_id = r.account_id AND g.kind = r.kind AND g.status = 'finished'
                               AND {}),
                            a.bot_level
                     FROM ratings r JOIN accounts a ON a.id = r.account_id
                     WHERE r.kind = $1 AND r.games >= $2
                     ORDER BY r.rating DESC, r.account_id LIMIT $3 OFFSET $4",
                    watchable("$5", "$6", "$7")
                ),
                &[
                    &kind,
                    &LEADERBOARD_MIN_GAMES,
                    &limit,
                    &offset,
                    &viewer,
                    &auditor,
                    &now,
                ],
            )
            .await?;
        Ok(rows
            .iter()
            .enumerate()
            .map(|(i, row)| LeaderboardEntry {
                rank: offset + i as i64 + 1,
                player: row.get(0),
                rating: row.get(1),
                deviation: row.get(2),
                rated_games: row.get(3),
                played: row.get(4),
                bot: row.get::<_, Option<String>>(5).is_some(),
                bot_level: row.get(5),
            })
            .collect())
    }
}

/// The reader's account, whether it audits, and the time: the parameters of [`watchable`].
type Gate = (Option<i64>, bool, i64);

/// The [`Gate`] of `reader` at `now`.
fn gate_params(reader: Reader, now: i64) -> Gate {
    match reader {
        Reader::Anonymous => (None, false, now),
        Reader::Account { id, auditor } => (Some(id), auditor, now),
    }
}

/// The account's record in each kind it has sat at, by kind: its finished, won and running
/// games among those the reader may watch, and its rating.
async fn kind_records(
    client: &impl GenericClient,
    id: i64,
    (viewer, auditor, now): Gate,
) -> Result<Vec<KindRecord>> {
    let mut kinds: BTreeMap<String, KindRecord> = BTreeMap::new();
    let record = |kinds: &mut BTreeMap<String, KindRecord>, kind: String| {
        kinds
            .entry(kind.clone())
            .or_insert_with(|| KindRecord {
                kind,
                played: 0,
                won: 0,
                running: 0,
                rating: None,
            })
            .clone()
    };
    for row in client
        .query(
            &format!(
                "SELECT g.kind,
                        count(*) FILTER (WHERE g.status = 'finished'),
                        count(*) FILTER (WHERE g.status = 'finished'
                                         AND coalesce(g.progress -> 'winners', '[]') @> to_jsonb(s.seat)),
                        count(*) FILTER (WHERE g.status = 'active')
                 FROM seats s JOIN games g ON g.id = s.game_id
                 WHERE s.account_id = $1 AND {} GROUP BY g.kind",
                watchable("$2", "$3", "$4")
            ),
            &[&id, &viewer, &auditor, &now],
        )
        .await?
    {
        let kind: String = row.get(0);
        let mut r = record(&mut kinds, kind.clone());
        r.played = row.get(1);
        r.won = row.get(2);
        r.running = row.get(3);
        kinds.insert(kind, r);
    }
    for row in client
        .query(
            "SELECT kind, rating, deviation, volatility, games FROM ratings WHERE account_id = $1",
            &[&id],
        )
        .await?
    {
        let kind: String = row.get(0);
        let mut r = record(&mut kinds, kind.clone());
        r.rating = Some(RatingShown {
            rating: row.get(1),
            deviation: row.get(2),
            volatility: row.get(3),
            rated_games: row.get(4),
        });
        kinds.insert(kind, r);
    }
    Ok(kinds.into_values().collect())
}

/// The account's last [`RECENT_GAMES`] finished games that the reader may watch, the latest
/// first.
async fn recent_games(
    client: &impl GenericClient,
    id: i64,
    (viewer, auditor, now): Gate,
) -> Result<Vec<RecentGame>> {
    let rows = client
        .query(
            &format!(
                "SELECT g.id, g.kind, (extract(epoch FROM g.updated_at) * 1000)::bigint, s.seat,
                        g.progress, g.seat_count, g.rated, rc.rating_before, rc.rating,
                        coalesce((SELECT json_agg(json_build_object('seat', o.seat, 'player', a.name, 'bot_level', a.bot_level)
                                                    ORDER BY o.seat)
                                  FROM seats o JOIN accounts a ON a.id = o.account_id WHERE o.game_id = g.id), '[]'::json)
                 FROM seats s JOIN games g ON g.id = s.game_id
                 LEFT JOIN rating_changes rc ON rc.game_id = g.id AND rc.seat = s.seat
                 WHERE s.account_id = $1 AND g.status = 'finished' AND {}
                 ORDER BY g.updated_at DESC, g.id DESC LIMIT $5",
                watchable("$2", "$3", "$4")
            ),
            &[&id, &viewer, &auditor, &now, &RECENT_GAMES],
        )
        .await?;
    rows.iter().map(recent_game).collect()
}

/// A row of [`recent_games`]: the game with every seat's place and score.
fn recent_game(row: &tokio_postgres::Row) -> Result<RecentGame> {
    let status: Status = row
        .get::<_, Option<serde_json::Value>>(4)
        .map(serde_json::from_value)
        .transpose()
        .map_err(|e| StoreError::Corrupt(e.to_string()))?
        .unwrap_or_default();
    let seat_count = row.get::<_, i16>(5) as usize;
    let placed = places(&status, seat_count);
    #[derive(serde::Deserialize)]
    struct Named {
        seat: u8,
        player: String,
        bot_level: Option<String>,
    }
    let named: Vec<Named> =
        serde_json::from_value(row.get(9)).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let seat = row.get::<_, i16>(3) as u8;
    let place = placed.get(usize::from(seat)).copied().unwrap_or(1);
    Ok(RecentGame {
        id: row.get(0),
        kind: row.get(1),
        finished_at: rfc3339(row.get(2)),
        seat,
        place,
        won: status.winners.contains(&seat),
        seats: named
            .into_iter()
            .map(|n| RecentSeat {
                place: placed.get(usize::from(n.seat)).copied().unwrap_or(1),
                score: status
                    .scores
                    .as_ref()
                    .and_then(|s| s.get(usize::from(n.seat)).copied()),
                seat: n.seat,
                player: n.player,
                bot: n.bot_level.is_some(),
                bot_level: n.bot_level,
            })
            .collect(),
        rated: row.get::<_, Option<f64>>(8).is_some(),
        rating_before: row.get(7),
        rating_after: row.get(8),
    })
}
