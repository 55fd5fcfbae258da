//! The one way to change a game: take its row lock in a statement of its own, then read what
//! the change is judged on, in the same transaction and the same round trip.
//!
//! Why a statement of its own: under READ COMMITTED a `SELECT … FOR UPDATE` that waited for
//! another transaction re-reads the locked row, but every sub-select and join of that statement
//! keeps the snapshot taken before the wait. A take-back that read the game's last command in a
//! sub-select of its locking statement judged, after waiting for the next player's command, the
//! command *before* it, and marked the next player's acknowledged command taken back; a join that
//! read the seats that way took a seat already taken, or counted too few seats to start the game.
//! A statement that begins after the lock was granted takes a new snapshot, which holds every
//! change committed before the lock was granted: the state the change is decided on is the state
//! it holds locked.
//!
//! The two statements are sent together (pipelined), so the read costs no round trip of its own:
//! PostgreSQL runs them one after the other on the connection, the read only once the lock is
//! held. Every writer of a game or its seats takes this path (see `docs/concurrency.md`), and
//! every append is still guarded by the version it was decided on (`append.rs`).

use deadpool_postgres::GenericClient;
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

use crate::error::Result;
use crate::Refusal;

/// Whose request takes the lock.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LockFor {
    /// The server's own writers (deadlines, the clock's bot, a rebuild) and the seat writers
    /// (joins, bots seated, rematches), which judge who may write once they hold the lock.
    Anyone,
    /// A seated player's command or take-back: nobody outside the game takes its lock, so no
    /// outsider can make its players wait.
    Seated(i64),
}

const LOCK: &str = "SELECT 1 FROM games WHERE id = $1 FOR UPDATE";

const LOCK_SEATED: &str =
    "SELECT 1 FROM games g JOIN seats s ON s.game_id = g.id AND s.account_id = $2
     WHERE g.id = $1 FOR UPDATE OF g";

/// Locks the game's row (as `by` may), then reads `sql` with `params`: one row or none. The
/// lock is held until the caller's transaction ends. Where the lock was not taken (no such game,
/// or `by` does not sit at it), the read still answers, and the caller judges that answer as it
/// would any other: a writer that goes on is still guarded by the version it read.
pub(crate) async fn read_locked(
    client: &impl GenericClient,
    game_id: i64,
    by: LockFor,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Option<Row>> {
    let read = client.prepare_cached(sql).await?;
    let (_, row) = match by {
        LockFor::Anyone => {
            let lock = client.prepare_cached(LOCK).await?;
            let lock_params: [&(dyn ToSql + Sync); 1] = [&game_id];
            // Polled in this order, the lock's request is sent first (tokio-postgres sends a
            // request when its future is first polled, and `try_join!` polls in order).
            tokio::try_join!(
                client.query_opt(&lock, &lock_params),
                client.query_opt(&read, params)
            )?
        }
        LockFor::Seated(account) => {
            let lock = client.prepare_cached(LOCK_SEATED).await?;
            let lock_params: [&(dyn ToSql + Sync); 2] = [&game_id, &account];
            tokio::try_join!(
                client.query_opt(&lock, &lock_params),
                client.query_opt(&read, params)
            )?
        }
    };
    Ok(row)
}

/// One seat taken at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TakenSeat {
    pub seat: u8,
    pub account: i64,
    pub bot: bool,
}

/// A game's table as the writers of its seats judge it (joins, invitations accepted, bots
/// seated, rematches proposed): read with the game's row locked ([`read_locked`]), so that two of
/// them never both take one seat, never seat more players than the game has seats, and the one
/// that takes the last seat always sees that it did and starts the game.
pub(crate) struct Seating {
    pub kind: String,
    pub status: String,
    pub seat_count: u8,
    pub options: serde_json::Value,
    pub created_by: i64,
    pub private: bool,
    /// By seat.
    pub taken: Vec<TakenSeat>,
}

const SEATING: &str = "SELECT g.kind, g.status, g.seat_count, g.options, g.created_by,
            g.visibility = 'private',
            array(SELECT s.seat FROM seats s WHERE s.game_id = g.id ORDER BY s.seat),
            array(SELECT s.account_id FROM seats s WHERE s.game_id = g.id ORDER BY s.seat),
            array(SELECT a.bot FROM seats s JOIN accounts a ON a.id = s.account_id
                  WHERE s.game_id = g.id ORDER BY s.seat)
     FROM games g WHERE g.id = $1";

impl Seating {
    /// Locks the game's row and reads its table; `GameNotFound` when there is no such game.
    pub(crate) async fn lock(client: &impl GenericClient, game_id: i64) -> Result<Seating> {
        let row = read_locked(client, game_id, LockFor::Anyone, SEATING, &[&game_id])
            .await?
            .ok_or(Refusal::GameNotFound(game_id))?;
        let seats: Vec<i16> = row.get(6);
        let accounts: Vec<i64> = row.get(7);
        let bots: Vec<bool> = row.get(8);
        Ok(Seating {
            kind: row.get(0),
            status: row.get(1),
            seat_count: row.get::<_, i16>(2) as u8,
            options: row.get(3),
            created_by: row.get(4),
            private: row.get(5),
            taken: seats
                .into_iter()
                .zip(accounts)
                .zip(bots)
                .map(|((seat, account), bot)| TakenSeat {
                    seat: seat as u8,
                    account,
                    bot,
                })
                .collect(),
        })
    }

    pub(crate) fn seats(&self, account: i64) -> bool {
        self.taken.iter().any(|t| t.account == account)
    }

    /// The lowest free seat (bots may already sit at later ones), if any.
    pub(crate) fn lowest_free(&self) -> Option<u8> {
        (0..self.seat_count).find(|s| !self.taken.iter().any(|t| t.seat == *s))
    }

    pub(crate) fn is_taken(&self, seat: u8) -> bool {
        self.taken.iter().any(|t| t.seat == seat)
    }

    /// Whether taking one more seat fills the table (and so starts the game).
    pub(crate) fn one_seat_left(&self) -> bool {
        self.taken.len() + 1 == usize::from(self.seat_count)
    }
}
