//! Bounds on invitations by name, so that nobody's mailbox or phone is flooded by
//! accounts they do not know. A *stranger* to an account is one it never sat with at a game
//! that started (running or finished): an open game's table proves nothing, anybody joins one.
//!
//! - An account may refuse invitations from strangers altogether (its notice settings): the
//!   inviter is told so (`InvitationRefused`), and nothing is created.
//! - A sender invites at most [`InvitationBounds::strangers_per_sender`] distinct strangers in
//!   24 hours (`TooManyInvitations`); inviting one of them again, or anybody it played with,
//!   does not count.
//! - A recipient is told by mail and push of at most [`InvitationBounds::notices_per_recipient`]
//!   invitations from strangers in 24 hours; the rest are created and listed
//!   (`GET /v1/me/invitations`, its stream and webhooks) but not announced. Invitations from
//!   accounts it played with are always announced.
//!
//! Both counts are taken under a lock (the sender's, the recipient's notice settings), so
//! invitations sent at once cannot all slip under a bound.

use deadpool_postgres::GenericClient;

use crate::error::{Result, StoreError};
use crate::Refusal;

/// The advisory lock class under which one sender's invitations of strangers are judged one at
/// a time (the key is the sender's id).
const SENDER_LOCK_CLASS: i32 = 0x69_6e_76_69; // "invi"

/// The numbers of the bounds (docs/configuration.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvitationBounds {
    /// Distinct strangers one account may invite in 24 hours.
    pub strangers_per_sender: i64,
    /// Invitations from strangers an account is told of by mail and push in 24 hours.
    pub notices_per_recipient: i64,
}

impl Default for InvitationBounds {
    fn default() -> Self {
        InvitationBounds {
            strangers_per_sender: 20,
            notices_per_recipient: 3,
        }
    }
}

/// Whether `a` and `b` never sat together at a game that started.
pub(crate) async fn strangers(client: &impl GenericClient, a: i64, b: i64) -> Result<bool> {
    let row = client
        .query_one(
            "SELECT NOT EXISTS (
                 SELECT 1 FROM seats x
                 JOIN seats y ON y.game_id = x.game_id AND y.account_id = $2
                 JOIN games g ON g.id = x.game_id
                 WHERE x.account_id = $1 AND g.status <> 'open')",
            &[&a, &b],
        )
        .await?;
    Ok(row.get(0))
}

/// Judges an invitation of the stranger `invitee` (named `name`) by `inviter`, inside the
/// invitation's transaction, before anything is written: refused when the invitee refuses
/// strangers, or when the inviter has invited as many other strangers in the last 24 hours as
/// it may.
pub(crate) async fn judge_stranger(
    client: &impl GenericClient,
    inviter: i64,
    invitee: i64,
    name: &str,
    bounds: InvitationBounds,
) -> Result<()> {
    let refuses = client
        .query_opt(
            "SELECT refuse_stranger_invitations FROM notice_settings WHERE account_id = $1",
            &[&invitee],
        )
        .await?
        .is_some_and(|row| row.get(0));
    if refuses {
        return Err(StoreError::Refused(Refusal::InvitationRefused(
            name.to_string(),
        )));
    }
    // One sender's invitations are counted one at a time (a transaction-scoped lock on the
    // sender), so that several sent at once cannot all pass on the same count.
    client
        .query_one(
            "SELECT pg_advisory_xact_lock($1, hashint8($2))",
            &[&SENDER_LOCK_CLASS, &inviter],
        )
        .await?;
    // Each stranger counts once, from its latest invitation: the sender may invite another
    // when the oldest of those is a day old.
    let row = client
        .query_one(
            "SELECT count(*), coalesce(ceil(extract(epoch FROM min(latest) + interval '1 day' - now())), 0)::bigint
             FROM (SELECT max(created_at) AS latest FROM invitations
                   WHERE invited_by = $1 AND from_stranger AND account_id <> $2
                     AND created_at > now() - interval '1 day'
                   GROUP BY account_id) AS invited",
            &[&inviter, &invitee],
        )
        .await?;
    let (invited, wait): (i64, i64) = (row.get(0), row.get(1));
    if invited >= bounds.strangers_per_sender {
        return Err(StoreError::Refused(Refusal::TooManyInvitations {
            limit: bounds.strangers_per_sender,
            retry_after_s: wait.max(1) as u64,
        }));
    }
    Ok(())
}

/// Whether the invitation `id` from a stranger may still be announced to `account` by mail
/// and push today; when it may, it is counted (marked `announced`). The account's notice
/// settings are locked for the count; an account without them is told by neither anyway.
pub(crate) async fn announce_from_stranger(
    client: &impl GenericClient,
    account: i64,
    id: i64,
    bounds: InvitationBounds,
) -> Result<bool> {
    let locked = client
        .query_opt(
            "SELECT 1 FROM notice_settings WHERE account_id = $1 FOR UPDATE",
            &[&account],
        )
        .await?;
    if locked.is_none() {
        return Ok(false);
    }
    let announced: i64 = client
        .query_one(
            "SELECT count(*) FROM invitations
             WHERE account_id = $1 AND from_stranger AND announced
               AND created_at > now() - interval '1 day'",
            &[&account],
        )
        .await?
        .get(0);
    if announced >= bounds.notices_per_recipient {
        return Ok(false);
    }
    client
        .execute(
            "UPDATE invitations SET announced = true WHERE id = $1 AND account_id = $2",
            &[&id, &account],
        )
        .await?;
    Ok(true)
}
