//! Moderation: the moderator role, suspensions and the moderation log (V27,
//! docs/moderation.md). Players' reports are in `reports.rs`; a message's removal is
//! `chat.rs`'s (`Store::remove_chat`), which writes its log entry in the same statement.
//!
//! A suspension is a time and a reason on the account row, read with the token's standing on
//! every request (`AccountStanding`): the API refuses a suspended account's social actions and
//! new games. It ends by itself when its time passes (judged by the store's clock), or when a
//! moderator lifts it. Every grant, suspension, lift, removal and report resolution is one row
//! of `moderation_log`, written in the statement that makes the change, so no action goes
//! unrecorded.

use serde::Serialize;
use tokio_postgres::Row;
use utoipa::ToSchema;

use crate::error::{Result, StoreError};
use crate::Refusal;
use crate::{rfc3339, Store};

/// The longest reason of a moderator's action, in characters.
pub const MODERATION_REASON_MAX_CHARS: usize = 500;

/// An account's suspension.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Suspension {
    /// When it ends (RFC 3339).
    pub until: String,
    /// Why, in the moderator's words.
    pub reason: String,
    #[serde(skip)]
    pub until_ms: i64,
}

impl Suspension {
    pub(crate) fn of(until_ms: Option<i64>, reason: Option<String>) -> Option<Suspension> {
        Some(Suspension {
            until: rfc3339(until_ms?),
            reason: reason?,
            until_ms: until_ms?,
        })
    }

    /// Whether it is in force at `now_ms`.
    pub fn in_force(&self, now_ms: i64) -> bool {
        now_ms < self.until_ms
    }
}

/// A suspension just made: whose it is, with the account's id (to forget cached standings).
#[derive(Clone, Debug)]
pub struct Suspended {
    pub account_id: i64,
    pub account: String,
    pub suspension: Suspension,
}

/// What a moderator did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModerationAction {
    RemoveMessage,
    Suspend,
    LiftSuspension,
    DismissReport,
    ActOnReport,
    GrantModerator,
    RevokeModerator,
}

impl ModerationAction {
    /// Every action, in the order of the enum.
    const ALL: [ModerationAction; 7] = [
        ModerationAction::RemoveMessage,
        ModerationAction::Suspend,
        ModerationAction::LiftSuspension,
        ModerationAction::DismissReport,
        ModerationAction::ActOnReport,
        ModerationAction::GrantModerator,
        ModerationAction::RevokeModerator,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ModerationAction::RemoveMessage => "remove_message",
            ModerationAction::Suspend => "suspend",
            ModerationAction::LiftSuspension => "lift_suspension",
            ModerationAction::DismissReport => "dismiss_report",
            ModerationAction::ActOnReport => "act_on_report",
            ModerationAction::GrantModerator => "grant_moderator",
            ModerationAction::RevokeModerator => "revoke_moderator",
        }
    }

    fn parse(text: &str) -> Option<ModerationAction> {
        Self::ALL.into_iter().find(|a| a.as_str() == text)
    }
}

/// One entry of the moderation log.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ModerationEntry {
    /// Newer entries have larger ids: the cursor of pages (`before`).
    pub id: i64,
    /// When (RFC 3339).
    pub at: String,
    /// Who: the moderator's account name, or the operator's name for a command-line action.
    pub moderator: String,
    pub action: ModerationAction,
    /// The account acted on (a removed message's author, the suspended account, …).
    pub account: Option<String>,
    pub message_id: Option<i64>,
    pub report_id: Option<i64>,
    /// A suspension's end (RFC 3339).
    pub until: Option<String>,
    /// Why.
    pub reason: String,
}

fn entry(row: &Row) -> Result<ModerationEntry> {
    let action: String = row.get(3);
    Ok(ModerationEntry {
        id: row.get(0),
        at: rfc3339(row.get(1)),
        moderator: row.get(2),
        action: ModerationAction::parse(&action).ok_or(StoreError::Corrupt(action))?,
        account: row.get(4),
        message_id: row.get(5),
        report_id: row.get(6),
        until: row.get::<_, Option<i64>>(7).map(rfc3339),
        reason: row.get(8),
    })
}

impl Store {
    /// Grants or withdraws the moderator role of an existing account, recorded in the log as
    /// `by`'s. Returns the account's name as stored, or `UnknownAccountName`.
    pub async fn set_moderator(&self, name: &str, moderator: bool, by: &str) -> Result<String> {
        let client = self.pool.get().await?;
        let action = if moderator {
            ModerationAction::GrantModerator
        } else {
            ModerationAction::RevokeModerator
        };
        let row = client
            .query_opt(
                "WITH a AS (
                     UPDATE accounts SET moderator = $2 WHERE lower(name) = lower($1) RETURNING name),
                 log AS (
                     INSERT INTO moderation_log (at_ms, moderator, action, account, reason)
                     SELECT $3, $4, $5, a.name, 'by the operator' FROM a)
                 SELECT name FROM a",
                &[&name, &moderator, &self.now_ms(), &by, &action.as_str()],
            )
            .await?;
        row.map(|r| r.get(0))
            .ok_or_else(|| StoreError::Refused(Refusal::UnknownAccountName(name.to_string())))
    }

    /// The moderators' names, in order.
    pub async fn moderators(&self) -> Result<Vec<String>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT name FROM accounts WHERE moderator ORDER BY lower(name)",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Suspends the account named `name` until `until_ms` (which must be ahead of the store's
    /// clock), replacing any suspension it has; recorded as `by`'s with the reason.
    pub async fn suspend(
        &self,
        name: &str,
        until_ms: i64,
        reason: &str,
        by: &str,
    ) -> Result<Suspended> {
        let now = self.now_ms();
        if until_ms <= now {
            return Err(StoreError::Refused(Refusal::SuspensionNotInFuture));
        }
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "WITH a AS (
                     UPDATE accounts SET suspended_until_ms = $2, suspension_reason = $3
                     WHERE lower(name) = lower($1) RETURNING id, name),
                 log AS (
                     INSERT INTO moderation_log (at_ms, moderator, action, account, until_ms, reason)
                     SELECT $4, $5, 'suspend', a.name, $2, $3 FROM a)
                 SELECT id, name FROM a",
                &[&name, &until_ms, &reason, &now, &by],
            )
            .await?
            .ok_or_else(|| StoreError::Refused(Refusal::UnknownAccountName(name.to_string())))?;
        Ok(Suspended {
            account_id: row.get(0),
            account: row.get(1),
            suspension: Suspension {
                until: rfc3339(until_ms),
                reason: reason.to_string(),
                until_ms,
            },
        })
    }

    /// Ends the suspension of the account named `name` now, recorded as `by`'s with the
    /// reason. `NotSuspended` when it has none in force. Returns the account's id and name.
    pub async fn lift_suspension(
        &self,
        name: &str,
        reason: &str,
        by: &str,
    ) -> Result<(i64, String)> {
        let now = self.now_ms();
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "WITH a AS (
                     UPDATE accounts SET suspended_until_ms = NULL, suspension_reason = NULL
                     WHERE lower(name) = lower($1) AND suspended_until_ms > $2 RETURNING id, name),
                 log AS (
                     INSERT INTO moderation_log (at_ms, moderator, action, account, reason)
                     SELECT $2, $3, 'lift_suspension', a.name, $4 FROM a)
                 SELECT id, name FROM a",
                &[&name, &now, &by, &reason],
            )
            .await?;
        match row {
            Some(r) => Ok((r.get(0), r.get(1))),
            None => {
                let known = client
                    .query_opt(
                        "SELECT name FROM accounts WHERE lower(name) = lower($1)",
                        &[&name],
                    )
                    .await?;
                Err(match known {
                    Some(r) => StoreError::Refused(Refusal::NotSuspended(r.get(0))),
                    None => StoreError::Refused(Refusal::UnknownAccountName(name.to_string())),
                })
            }
        }
    }

    /// The accounts suspended now, with their suspensions, the soonest to end first.
    pub async fn suspensions(&self) -> Result<Vec<(String, Suspension)>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT name, suspended_until_ms, suspension_reason FROM accounts
                 WHERE suspended_until_ms > $1 ORDER BY suspended_until_ms, lower(name)",
                &[&self.now_ms()],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| Some((r.get(0), Suspension::of(r.get(1), r.get(2))?)))
            .collect())
    }

    /// A page of the moderation log, newest first: ids below `before` (if given), at most
    /// `limit`.
    pub async fn moderation_log(
        &self,
        before: Option<i64>,
        limit: i64,
    ) -> Result<Vec<ModerationEntry>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT id, at_ms, moderator, action, account, message_id, report_id, until_ms, reason
                 FROM moderation_log WHERE ($1::bigint IS NULL OR id < $1)
                 ORDER BY id DESC LIMIT $2",
                &[&before, &limit],
            )
            .await?;
        rows.iter().map(entry).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{ModerationAction, Suspension};

    #[test]
    fn every_action_is_stored_and_shown_by_the_same_name() {
        // The table's CHECK (V27), the stored text and the JSON must agree.
        let all = ModerationAction::ALL;
        let migration = include_str!("../../../migrations/V27__moderation.sql");
        for action in all {
            assert_eq!(ModerationAction::parse(action.as_str()), Some(action));
            assert_eq!(
                serde_json::to_value(action).unwrap(),
                serde_json::json!(action.as_str())
            );
            assert!(migration.contains(&format!("'{}'", action.as_str())));
        }
        assert_eq!(ModerationAction::parse("ban"), None);
    }

    #[test]
    fn a_suspension_is_in_force_until_its_time_and_needs_both_columns() {
        let s = Suspension::of(Some(1_000), Some("spam".into())).unwrap();
        assert_eq!(s.until, "1970-01-01T00:00:01.000Z");
        assert!(s.in_force(999));
        assert!(!s.in_force(1_000));
        assert_eq!(Suspension::of(None, Some("spam".into())), None);
        assert_eq!(Suspension::of(Some(1_000), None), None);
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"until": "1970-01-01T00:00:01.000Z", "reason": "spam"})
        );
    }
}
