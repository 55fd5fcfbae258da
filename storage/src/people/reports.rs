//! Players' reports of a chat message or of a player, and the moderators' queue of them (V27,
//! docs/moderation.md).
//!
//! A message is reported only by those who may read it: its game passes the one gate
//! (`watch.rs`) for the reporter, and to everybody else a private game's message is as absent
//! as an id never used. One reporter's open report of a thing is kept once: reporting it again
//! finds the same report (the unique index `reports_once` decides, also between two racing).

use serde::{Deserialize, Serialize};
use tokio_postgres::Row;
use utoipa::ToSchema;

use crate::error::{account_must_exist, Result, StoreError};
use crate::people::chat::ChatChannel;
use crate::people::moderation::ModerationAction;
use crate::reader::Reader;
use crate::Refusal;
use crate::{rfc3339, Store};

/// The longest text of a report, in characters.
pub const REPORT_MAX_CHARS: usize = 1000;

/// What a report is about, in a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportCategory {
    /// Insults, harassment, hate.
    Abuse,
    /// Outside help, several accounts of one person, playing to lose on purpose.
    Cheating,
    /// Advertising, flooding.
    Spam,
    Other,
}

impl ReportCategory {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportCategory::Abuse => "abuse",
            ReportCategory::Cheating => "cheating",
            ReportCategory::Spam => "spam",
            ReportCategory::Other => "other",
        }
    }

    fn parse(text: &str) -> Option<ReportCategory> {
        [
            ReportCategory::Abuse,
            ReportCategory::Cheating,
            ReportCategory::Spam,
            ReportCategory::Other,
        ]
        .into_iter()
        .find(|c| c.as_str() == text)
    }
}

/// Where a report is in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportState {
    /// Waiting for a moderator.
    Open,
    /// A moderator found nothing to do.
    Dismissed,
    /// A moderator acted (removed the message, suspended the account, …).
    Actioned,
}

impl ReportState {
    pub fn as_str(self) -> &'static str {
        match self {
            ReportState::Open => "open",
            ReportState::Dismissed => "dismissed",
            ReportState::Actioned => "actioned",
        }
    }

    fn parse(text: &str) -> Option<ReportState> {
        [
            ReportState::Open,
            ReportState::Dismissed,
            ReportState::Actioned,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

/// What is reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportTarget {
    /// A chat message, by id (its author is the account reported).
    Message(i64),
    /// A player, by name.
    Player(String),
}

/// A report as its reporter sees it once filed.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct FiledReport {
    pub id: i64,
    pub category: ReportCategory,
    pub text: String,
    pub state: ReportState,
    /// When it was filed (RFC 3339).
    pub at: String,
    /// The account reported.
    pub reported: String,
    /// The message reported, if a message was.
    pub message_id: Option<i64>,
}

/// A reported message as moderators see it: its text even when it was removed.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReportedMessage {
    pub id: i64,
    pub channel: ChatChannel,
    /// The text as written, kept for the record also after a removal.
    pub text: String,
    /// Whether it was removed (its text is then withheld from every chat read).
    pub removed: bool,
    /// When it was written (RFC 3339).
    pub at: String,
}

/// A report in the moderators' queue.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Report {
    pub id: i64,
    pub category: ReportCategory,
    /// The reporter's words (may be empty).
    pub text: String,
    pub state: ReportState,
    /// When it was filed (RFC 3339).
    pub at: String,
    /// Who reported.
    pub reporter: String,
    /// The account reported (a message's author).
    pub reported: String,
    /// How many open reports name the reported account, this one included.
    pub open_reports_of_reported: i64,
    /// The message's game, for a message's report.
    pub game_id: Option<i64>,
    /// The message reported, if a message was.
    pub message: Option<ReportedMessage>,
    /// Who resolved it (a moderator's name).
    pub resolved_by: Option<String>,
    /// When (RFC 3339).
    pub resolved_at: Option<String>,
    /// The moderator's note.
    pub resolution: Option<String>,
}

const REPORT_COLUMNS: &str = "r.id, r.category, r.text, r.state, r.created_ms, rep.name, acc.name,
    (SELECT count(*) FROM reports o WHERE o.reported_id = r.reported_id AND o.state = 'open'),
    r.game_id, r.message_id, m.channel, m.text, m.removed_at IS NOT NULL,
    (extract(epoch FROM m.at) * 1000)::bigint, r.resolved_by, r.resolved_ms, r.resolution
    FROM reports r JOIN accounts rep ON rep.id = r.reporter_id
    JOIN accounts acc ON acc.id = r.reported_id
    LEFT JOIN chat_messages m ON m.id = r.message_id";

fn category_of(text: String) -> Result<ReportCategory> {
    ReportCategory::parse(&text).ok_or(StoreError::Corrupt(text))
}

fn state_of(text: String) -> Result<ReportState> {
    ReportState::parse(&text).ok_or(StoreError::Corrupt(text))
}

fn report(row: &Row) -> Result<Report> {
    let message = match row.get::<_, Option<i64>>(9) {
        None => None,
        Some(id) => {
            let channel: String = row.get(10);
            Some(ReportedMessage {
                id,
                channel: ChatChannel::parse(&channel).ok_or(StoreError::Corrupt(channel))?,
                text: row.get(11),
                removed: row.get(12),
                at: rfc3339(row.get(13)),
            })
        }
    };
    Ok(Report {
        id: row.get(0),
        category: category_of(row.get(1))?,
        text: row.get(2),
        state: state_of(row.get(3))?,
        at: rfc3339(row.get(4)),
        reporter: row.get(5),
        reported: row.get(6),
        open_reports_of_reported: row.get(7),
        game_id: row.get(8),
        message,
        resolved_by: row.get(14),
        resolved_at: row.get::<_, Option<i64>>(15).map(rfc3339),
        resolution: row.get(16),
    })
}

impl Store {
    /// Files `reporter`'s report (text already checked). Returns it, and whether it is new:
    /// an open report of the same thing by the same reporter is returned as it is.
    pub async fn report(
        &self,
        reporter: Reader,
        target: &ReportTarget,
        category: ReportCategory,
        text: &str,
    ) -> Result<(FiledReport, bool)> {
        let account = reporter.account().ok_or(Refusal::UnknownAccount)?;
        let client = self.pool.get().await?;
        let (reported, message_id, game_id) = match target {
            ReportTarget::Message(id) => {
                let row = client
                    .query_opt(
                        "SELECT m.account_id, m.game_id FROM chat_messages m WHERE m.id = $1",
                        &[id],
                    )
                    .await?
                    .ok_or(Refusal::ChatMessageNotFound(*id))?;
                let game_id: i64 = row.get(1);
                // A private game's message is, to those who may not watch the game, as absent
                // as an id never used.
                match self.chat_watchable(&client, game_id, reporter).await {
                    Err(StoreError::Refused(Refusal::GameNotFound(_))) => {
                        return Err(StoreError::Refused(Refusal::ChatMessageNotFound(*id)))
                    }
                    other => other?,
                }
                (row.get::<_, i64>(0), Some(*id), Some(game_id))
            }
            ReportTarget::Player(name) => {
                let row = client
                    .query_opt(
                        "SELECT id FROM accounts WHERE lower(name) = lower($1)",
                        &[name],
                    )
                    .await?
                    .ok_or_else(|| {
                        StoreError::Refused(Refusal::UnknownAccountName(name.clone()))
                    })?;
                (row.get::<_, i64>(0), None, None)
            }
        };
        if reported == account {
            return Err(StoreError::Refused(Refusal::CannotReportSelf));
        }
        // The open report may be resolved between the insert that finds it and the read: then
        // the next insert succeeds.
        for _ in 0..3 {
            let inserted = client
                .query_opt(
                    "INSERT INTO reports (reporter_id, reported_id, message_id, game_id, category, text, created_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (reporter_id, reported_id, coalesce(message_id, 0)) WHERE state = 'open'
                     DO NOTHING RETURNING id",
                    &[
                        &account,
                        &reported,
                        &message_id,
                        &game_id,
                        &category.as_str(),
                        &text,
                        &self.now_ms(),
                    ],
                )
                .await
                .map_err(account_must_exist)?;
            let (id, new) = match inserted {
                Some(row) => (row.get::<_, i64>(0), true),
                None => {
                    let open = client
                        .query_opt(
                            "SELECT id FROM reports WHERE reporter_id = $1 AND reported_id = $2
                               AND coalesce(message_id, 0) = coalesce($3::bigint, 0) AND state = 'open'",
                            &[&account, &reported, &message_id],
                        )
                        .await?;
                    match open {
                        Some(row) => (row.get::<_, i64>(0), false),
                        None => continue,
                    }
                }
            };
            let row = client
                .query_one(
                    "SELECT r.id, r.category, r.text, r.state, r.created_ms, a.name, r.message_id
                     FROM reports r JOIN accounts a ON a.id = r.reported_id WHERE r.id = $1",
                    &[&id],
                )
                .await?;
            let filed = FiledReport {
                id: row.get(0),
                category: category_of(row.get(1))?,
                text: row.get(2),
                state: state_of(row.get(3))?,
                at: rfc3339(row.get(4)),
                reported: row.get(5),
                message_id: row.get(6),
            };
            return Ok((filed, new));
        }
        Err(StoreError::Contention)
    }

    /// The moderators' queue: the open reports first, oldest first, then the resolved ones,
    /// most recently filed first; only those in `only` when given. `limit` from `offset`.
    pub async fn reports(
        &self,
        only: Option<ReportState>,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<Report>> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {REPORT_COLUMNS}
             WHERE ($1::text IS NULL OR r.state = $1)
             ORDER BY r.state <> 'open', CASE WHEN r.state = 'open' THEN r.id ELSE -r.id END
             LIMIT $2 OFFSET $3"
        );
        let rows = client
            .query(&sql, &[&only.map(ReportState::as_str), &limit, &offset])
            .await?;
        rows.iter().map(report).collect()
    }

    /// One report, for moderators.
    pub async fn report_by_id(&self, id: i64) -> Result<Report> {
        let client = self.pool.get().await?;
        let sql = format!("SELECT {REPORT_COLUMNS} WHERE r.id = $1");
        let row = client
            .query_opt(&sql, &[&id])
            .await?
            .ok_or(Refusal::ReportNotFound(id))?;
        report(&row)
    }

    /// Resolves an open report as `outcome` (dismissed or actioned), recorded as `by`'s with
    /// the note, in the log too. `ReportNotOpen` when it was resolved already.
    pub async fn resolve_report(
        &self,
        id: i64,
        outcome: ReportState,
        note: &str,
        by: &str,
    ) -> Result<Report> {
        let action = match outcome {
            ReportState::Open => return Err(StoreError::Refused(Refusal::ReportNotOpen(id))),
            ReportState::Dismissed => ModerationAction::DismissReport,
            ReportState::Actioned => ModerationAction::ActOnReport,
        };
        let client = self.pool.get().await?;
        let resolved = client
            .query_opt(
                "WITH r AS (
                     UPDATE reports SET state = $2, resolved_by = $3, resolved_ms = $4, resolution = $5
                     WHERE id = $1 AND state = 'open' RETURNING id, reported_id, message_id),
                 log AS (
                     INSERT INTO moderation_log (at_ms, moderator, action, account, message_id, report_id, reason)
                     SELECT $4, $3, $6, a.name, r.message_id, r.id, $5 FROM r JOIN accounts a ON a.id = r.reported_id)
                 SELECT id FROM r",
                &[
                    &id,
                    &outcome.as_str(),
                    &by,
                    &self.now_ms(),
                    &note,
                    &action.as_str(),
                ],
            )
            .await?;
        if resolved.is_none() {
            let exists = client
                .query_opt("SELECT 1 FROM reports WHERE id = $1", &[&id])
                .await?
                .is_some();
            return Err(if exists {
                StoreError::Refused(Refusal::ReportNotOpen(id))
            } else {
                StoreError::Refused(Refusal::ReportNotFound(id))
            });
        }
        drop(client);
        self.report_by_id(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::{ReportCategory, ReportState};

    #[test]
    fn categories_and_states_are_stored_and_shown_by_the_same_name() {
        let migration = include_str!("../../../migrations/V27__moderation.sql");
        for c in [
            ReportCategory::Abuse,
            ReportCategory::Cheating,
            ReportCategory::Spam,
            ReportCategory::Other,
        ] {
            assert_eq!(ReportCategory::parse(c.as_str()), Some(c));
            assert_eq!(
                serde_json::to_value(c).unwrap(),
                serde_json::json!(c.as_str())
            );
            assert!(migration.contains(&format!("'{}'", c.as_str())));
        }
        for s in [
            ReportState::Open,
            ReportState::Dismissed,
            ReportState::Actioned,
        ] {
            assert_eq!(ReportState::parse(s.as_str()), Some(s));
            assert_eq!(
                serde_json::to_value(s).unwrap(),
                serde_json::json!(s.as_str())
            );
            assert!(migration.contains(&format!("'{}'", s.as_str())));
        }
        assert_eq!(ReportCategory::parse("rude"), None);
        assert_eq!(ReportState::parse("closed"), None);
    }
}
