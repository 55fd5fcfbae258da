//! The one gate: may this caller watch this game now?
//!
//! An `open` game, anybody; a `private` one, its seated players, the accounts with a pending
//! invitation by name that has not expired, and auditors. To everybody else a private game does
//! not exist: every per-game request answers `GameNotFound`, exactly as for an id never used,
//! and judges the gate before anything else, so that no other refusal tells the two apart.
//! Every list (profiles, leaderboards) shows a private game only where its reader passes the
//! same gate ([`watchable`]), and every stream asks again before each push ([`Watching::lasts`]
//! says when the answer cannot change).
//!
//! Cheap where it can be: a public game, a seated player and an auditor are judged in memory on
//! what the caller read anyway; only a private game's unseated account costs a statement (is it
//! invited?). A game's visibility is fixed at its creation and seats are never given up, so a
//! public game or a seat admits for good; an invitation is answered, revoked or expires.

use deadpool_postgres::GenericClient;

use crate::error::{Result, StoreError};
use crate::reader::Reader;
use crate::Refusal;
use crate::Store;

/// A pending invitation by name, not expired, of the account `account` to the game `game`
/// (`now`: the time in milliseconds): SQL, its parameters given as placeholders or columns.
fn invited(game: &str, account: &str, now: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM invitations wi WHERE wi.game_id = {game} AND wi.account_id = {account}
                 AND wi.state = 'pending' AND wi.expires_ms > {now})"
    )
}

/// The account `account` sits at the game `game` (SQL).
fn seated(game: &str, account: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM seats ws WHERE ws.game_id = {game} AND ws.account_id = {account})"
    )
}

/// The gate as an SQL condition on the game row `g`, for statements that list games: `account`
/// is the reader's account (NULL: anonymous), `auditor` whether it audits, `now` the time in
/// milliseconds (placeholders such as `$2`).
pub(crate) fn watchable(account: &str, auditor: &str, now: &str) -> String {
    format!(
        "(g.visibility = 'open' OR {auditor} OR ({account}::bigint IS NOT NULL AND ({} OR {})))",
        seated("g.id", account),
        invited("g.id", account, now)
    )
}

/// What the gate found for a caller who may watch a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watching {
    pub private: bool,
    /// The caller's seat, if it sits at the game.
    pub seat: Option<u8>,
}

impl Watching {
    /// Whether the caller may watch the game for good (a public game, or its seat): a stream
    /// then needs no statement to judge its next push.
    pub fn lasts(self) -> bool {
        !self.private || self.seat.is_some()
    }
}

impl Store {
    /// Whether `reader` may watch the game, on what the caller read of it already (`seen`:
    /// whether it is private and the reader's seat). A statement only for a private game's
    /// unseated account.
    pub(crate) async fn may_watch(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        seen: Watching,
        reader: Reader,
    ) -> Result<bool> {
        if seen.lasts() {
            return Ok(true);
        }
        let account = match reader {
            Reader::Anonymous => return Ok(false),
            Reader::Account { auditor: true, .. } => return Ok(true),
            Reader::Account { id, .. } => id,
        };
        let row = client
            .query_one(
                &format!(
                    "SELECT {} OR {}",
                    seated("$1", "$2"),
                    invited("$1", "$2", "$3")
                ),
                &[&game_id, &account, &self.now_ms()],
            )
            .await?;
        Ok(row.get(0))
    }

    /// `GameNotFound` unless `reader` may watch the game (see [`Store::may_watch`]).
    pub(crate) async fn must_watch(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        seen: Watching,
        reader: Reader,
    ) -> Result<()> {
        if self.may_watch(client, game_id, seen, reader).await? {
            Ok(())
        } else {
            Err(StoreError::Refused(Refusal::GameNotFound(game_id)))
        }
    }

    /// The gate for a request that has read nothing of the game yet: one statement (the game's
    /// visibility, the reader's seat and, where it matters, its invitation). `GameNotFound` for
    /// an id never used and for a private game the reader may not watch, alike.
    pub(crate) async fn gate_in(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        reader: Reader,
    ) -> Result<Watching> {
        let account = reader.account();
        let row = client
            .query_opt(
                &format!(
                    "SELECT g.visibility = 'private',
                            (SELECT ws.seat FROM seats ws WHERE ws.game_id = g.id AND ws.account_id = $2),
                            g.visibility = 'private' AND $2::bigint IS NOT NULL AND {}
                     FROM games g WHERE g.id = $1",
                    invited("g.id", "$2", "$3")
                ),
                &[&game_id, &account, &self.now_ms()],
            )
            .await?
            .ok_or(Refusal::GameNotFound(game_id))?;
        let watching = Watching {
            private: row.get(0),
            seat: row.get::<_, Option<i16>>(1).map(|s| s as u8),
        };
        let auditor = matches!(reader, Reader::Account { auditor: true, .. });
        if watching.lasts() || auditor || row.get::<_, bool>(2) {
            Ok(watching)
        } else {
            Err(StoreError::Refused(Refusal::GameNotFound(game_id)))
        }
    }

    /// The gate (see [`Store::gate_in`]), on a connection of its own: for the routes and
    /// streams that judge a game before reading it.
    pub async fn gate(&self, game_id: i64, reader: Reader) -> Result<Watching> {
        let client = self.pool.get().await?;
        self.gate_in(&client, game_id, reader).await
    }
}
