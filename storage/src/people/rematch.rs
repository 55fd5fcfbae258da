//! Rematches: any player of a finished game proposes to play it again (same kind, options,
//! rating flag and players, seats rotated by one so that another player starts); the new game is
//! created and set up, by the lobby's own path, in the transaction of the last acceptance.
//! Beside the games: never an event, never in a chain.

use serde::Serialize;
use utoipa::ToSchema;

use deadpool_postgres::GenericClient;

use crate::command::lock::Seating;
use crate::error::{Result, StoreError};
use crate::live::channels::REMATCH_CHANNEL;
use crate::people::lobby::{JoinBy, Table};
use crate::reader::Reader;
use crate::types::Visibility;
use crate::Refusal;
use crate::{rfc3339, Store};

/// How long a proposal waits for its answers.
pub const REMATCH_TTL_MS: i64 = 7 * 24 * 3600 * 1000;

/// Where a proposal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RematchState {
    /// Waiting for answers.
    Open,
    /// Everybody accepted: `new_game` is being played.
    Accepted,
    /// A player declined: another proposal may follow.
    Declined,
    /// Not everybody answered within 7 days: another proposal may follow.
    Expired,
}

/// A player's part in a proposal.
#[derive(Clone, Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct RematchPlayer {
    pub player: String,
    /// Present and true when a bot plays this seat (the server, at `bot_level`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The bot's level (`random`, `greedy`, `strong`); absent for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<String>,
    /// The seat at the finished game.
    pub seat: u8,
    /// The seat at the rematch (the seats rotated by one).
    pub new_seat: u8,
    /// `accepted`, `declined`, or absent while the player has not answered.
    pub answer: Option<String>,
}

/// A rematch proposal (`GET /v1/games/{id}/rematch`): the latest one of the game.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Rematch {
    /// The finished game.
    pub game_id: i64,
    pub state: RematchState,
    pub proposed_by: String,
    pub proposed_at: String,
    /// When an open proposal expires (RFC 3339).
    pub expires_at: String,
    /// The rematch, once everybody accepted.
    pub new_game: Option<i64>,
    /// In the finished game's seat order.
    pub players: Vec<RematchPlayer>,
}

/// The seat a player of seat `seat` of `seats` takes at the rematch: the player after the one
/// at seat 0 starts (where seat order matters).
pub fn rotated(seat: u8, seats: u8) -> u8 {
    (seat + seats - 1) % seats
}

const REMATCH: &str = "SELECT r.game_id, r.state, a.name,
       (extract(epoch FROM r.proposed_at) * 1000)::bigint, (extract(epoch FROM r.expires_at) * 1000)::bigint,
       r.new_game_id,
       (SELECT json_agg(json_build_object('player', p.name, 'bot', p.bot, 'bot_level', p.bot_level, 'seat', x.seat, 'new_seat', x.new_seat, 'answer', x.answer) ORDER BY x.seat)
        FROM rematch_answers x JOIN accounts p ON p.id = x.account_id WHERE x.rematch_id = r.id)
FROM rematches r JOIN accounts a ON a.id = r.proposed_by
WHERE r.game_id = $1 ORDER BY r.id DESC LIMIT 1";

impl Store {
    /// The latest rematch proposal of a game, for a reader who may watch it (the gate first:
    /// a private game's outsider is told the game is not there, as for an id never used).
    pub async fn rematch(&self, game_id: i64, reader: Reader) -> Result<Rematch> {
        let client = self.pool.get().await?;
        self.gate_in(&client, game_id, reader).await?;
        self.rematch_in(&client, game_id).await
    }

    async fn rematch_in(&self, client: &impl GenericClient, game_id: i64) -> Result<Rematch> {
        let row = client
            .query_opt(REMATCH, &[&game_id])
            .await?
            .ok_or(Refusal::NoRematch(game_id))?;
        let state = match row.get::<_, &str>(1) {
            "open" if row.get::<_, i64>(4) <= self.now_ms() => RematchState::Expired,
            "open" => RematchState::Open,
            "accepted" => RematchState::Accepted,
            "declined" => RematchState::Declined,
            _ => RematchState::Expired,
        };
        Ok(Rematch {
            game_id: row.get(0),
            state,
            proposed_by: row.get(2),
            proposed_at: rfc3339(row.get(3)),
            expires_at: rfc3339(row.get(4)),
            new_game: row.get(5),
            players: serde_json::from_value(row.get(6))
                .map_err(|e| StoreError::Corrupt(e.to_string()))?,
        })
    }

    /// Proposes a rematch of a finished game the account sat at; the proposer has accepted.
    pub async fn propose_rematch(
        &self,
        game_id: i64,
        account: i64,
        client_seed: Option<&str>,
    ) -> Result<Rematch> {
        self.gate(game_id, Reader::player(account)).await?;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // Proposals are ordered by the game's lock (`lock.rs`); a finished game's seats no
        // longer change, but they are read as every writer of a table reads them.
        let table = Seating::lock(&tx, game_id).await?;
        let accounts: Vec<i64> = table.taken.iter().map(|t| t.account).collect();
        let bots: Vec<i64> = table
            .taken
            .iter()
            .filter(|t| t.bot)
            .map(|t| t.account)
            .collect();
        let Some(seat) = accounts.iter().position(|a| *a == account) else {
            return Err(StoreError::Refused(Refusal::NotSeated));
        };
        if table.status != "finished" {
            return Err(StoreError::Refused(Refusal::GameNotFinished));
        }
        let now = self.now_ms();
        tx.execute(
            "UPDATE rematches SET state = 'expired', decided_at = now()
             WHERE game_id = $1 AND state = 'open' AND expires_at <= to_timestamp($2::bigint / 1000.0)",
            &[&game_id, &now],
        )
        .await?;
        // The partial unique index allows one open or accepted proposal per game.
        let Some(id) = tx
            .query_opt(
                "INSERT INTO rematches (game_id, proposed_by, proposed_at, expires_at, state)
                 VALUES ($1, $2, to_timestamp($3::bigint / 1000.0), to_timestamp($4::bigint / 1000.0), 'open')
                 ON CONFLICT DO NOTHING RETURNING id",
                &[&game_id, &account, &now, &(now + REMATCH_TTL_MS)],
            )
            .await?
            .map(|r| r.get::<_, i64>(0))
        else {
            return Err(StoreError::Refused(Refusal::RematchExists));
        };
        let seats = accounts.len() as u8;
        for (s, a) in accounts.iter().enumerate() {
            let s = s as u8;
            let mine = usize::from(s) == seat;
            // Bots are always up for another game: they accept at once (the server picks
            // their client seeds, as when they were seated).
            let accepts = mine || bots.contains(a);
            tx.execute(
                "INSERT INTO rematch_answers (rematch_id, seat, new_seat, account_id, answer, client_seed, answered_at)
                 VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $5::text IS NULL THEN NULL ELSE now() END)",
                &[
                    &id,
                    &i16::from(s),
                    &i16::from(rotated(s, seats)),
                    a,
                    &accepts.then_some("accepted"),
                    &client_seed.filter(|_| mine),
                ],
            )
            .await?;
        }
        self.settle_rematch(tx, game_id, id).await
    }

    /// Accepts or declines the open rematch proposal of a game.
    pub async fn answer_rematch(
        &self,
        game_id: i64,
        account: i64,
        accept: bool,
        client_seed: Option<&str>,
    ) -> Result<Rematch> {
        self.gate(game_id, Reader::player(account)).await?;
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        if tx
            .query_opt("SELECT 1 FROM games WHERE id = $1", &[&game_id])
            .await?
            .is_none()
        {
            return Err(StoreError::Refused(Refusal::GameNotFound(game_id)));
        }
        // Answers to one proposal are taken one at a time: the last acceptance starts the game.
        let row = tx
            .query_opt(
                "SELECT id, state, (extract(epoch FROM expires_at) * 1000)::bigint
                 FROM rematches WHERE game_id = $1 ORDER BY id DESC LIMIT 1 FOR UPDATE",
                &[&game_id],
            )
            .await?
            .ok_or(Refusal::NoRematch(game_id))?;
        let id: i64 = row.get(0);
        let answered = tx
            .query_opt(
                "SELECT answer FROM rematch_answers WHERE rematch_id = $1 AND account_id = $2",
                &[&id, &account],
            )
            .await?
            .ok_or(Refusal::NotSeated)?;
        let state: String = row.get(1);
        if state == "open" && row.get::<_, i64>(2) <= self.now_ms() {
            return Err(StoreError::Refused(Refusal::RematchNotOpen(
                "expired".into(),
            )));
        }
        if state != "open" {
            return Err(StoreError::Refused(Refusal::RematchNotOpen(state)));
        }
        if answered.get::<_, Option<String>>(0).is_some() {
            return Err(StoreError::Refused(Refusal::RematchAlreadyAnswered));
        }
        tx.execute(
            "UPDATE rematch_answers SET answer = $3, client_seed = $4, answered_at = now()
             WHERE rematch_id = $1 AND account_id = $2",
            &[
                &id,
                &account,
                &if accept { "accepted" } else { "declined" },
                &client_seed,
            ],
        )
        .await?;
        if !accept {
            tx.execute(
                "UPDATE rematches SET state = 'declined', decided_at = now() WHERE id = $1",
                &[&id],
            )
            .await?;
        }
        self.settle_rematch(tx, game_id, id).await
    }

    /// Creates and starts the rematch once everybody accepted (the seats taken in their new
    /// order, the last one setting the game up as any join does), tells the players, commits.
    async fn settle_rematch(
        &self,
        tx: deadpool_postgres::Transaction<'_>,
        game_id: i64,
        id: i64,
    ) -> Result<Rematch> {
        let row = tx
            .query_one(
                "SELECT r.state, g.kind, g.options, g.rated, g.seat_count,
                        g.visibility,
                        array(SELECT x.account_id FROM rematch_answers x WHERE x.rematch_id = r.id ORDER BY x.new_seat),
                        array(SELECT x.client_seed FROM rematch_answers x WHERE x.rematch_id = r.id ORDER BY x.new_seat),
                        NOT EXISTS (SELECT 1 FROM rematch_answers x WHERE x.rematch_id = r.id
                                    AND x.answer IS DISTINCT FROM 'accepted'),
                        g.undo
                 FROM rematches r JOIN games g ON g.id = r.game_id WHERE r.id = $1",
                &[&id],
            )
            .await?;
        let mut started = None;
        if row.get::<_, &str>(0) == "open" && row.get::<_, bool>(8) {
            let kind: String = row.get(1);
            let options: serde_json::Value = row.get(2);
            let seats = row.get::<_, i16>(4) as u8;
            let visibility = Visibility::parse(row.get(5))
                .ok_or_else(|| StoreError::Corrupt("a game's visibility".into()))?;
            let accounts: Vec<i64> = row.get(6);
            let seeds: Vec<Option<String>> = row.get(7);
            let new_id = self
                .create_in(
                    &tx,
                    &kind,
                    seats,
                    &options,
                    // The same table: rated as it was, private to the same players, undo as it
                    // was.
                    Table {
                        rated: row.get(3),
                        visibility,
                        undo: row.get(9),
                    },
                    accounts[0],
                    seeds[0].as_deref(),
                )
                .await?;
            for (account, seed) in accounts.iter().zip(&seeds).skip(1) {
                if let Some(s) = self
                    .join_in(&tx, new_id, *account, seed.as_deref(), JoinBy::Rematch)
                    .await?
                {
                    started = Some((new_id, s));
                }
            }
            tx.execute(
                "UPDATE rematches SET state = 'accepted', new_game_id = $2, decided_at = now() WHERE id = $1",
                &[&id, &new_id],
            )
            .await?;
        }
        tx.query_one(
            &format!("SELECT pg_notify('{REMATCH_CHANNEL}', $1::bigint::text)"),
            &[&game_id],
        )
        .await?;
        let rematch = self.rematch_in(&tx, game_id).await?;
        tx.commit().await?;
        if let Some((new_id, started)) = started {
            self.started(new_id, started);
        }
        Ok(rematch)
    }
}

#[cfg(test)]
mod tests {
    use super::rotated;

    #[test]
    fn seats_rotate_so_that_the_second_player_starts() {
        assert_eq!([0, 1].map(|s| rotated(s, 2)), [1, 0]);
        assert_eq!([0, 1, 2, 3, 4].map(|s| rotated(s, 5)), [4, 0, 1, 2, 3]);
    }
}
