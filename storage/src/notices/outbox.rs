//! The notice worker's side of the outbox: taking due mail (per account: one message or a
//! digest) and pushes (per device), and recording how they went. Like webhook deliveries, what
//! is taken is leased first (moved into the future), so a worker that dies mid-send leaves it
//! to another (at least once) and two never send it at once.

use serde_json::Value;
use tokio_postgres::types::ToSql;

use crate::error::Result;
use crate::notices::Language;
use crate::Store;

/// A notice taken to be mailed or pushed.
#[derive(Clone, Debug)]
pub struct NoticeItem {
    pub id: i64,
    pub kind: String,
    pub game_id: Option<i64>,
    /// As a webhook gets it.
    pub body: Value,
    /// 1 for the first attempt.
    pub attempt: i32,
    /// A `your_turn` that is no longer news: the game no longer waits for the account, or one
    /// for the same game went to the same recipient (the mailbox, or the device) within the
    /// window or is still on its way there. Left out, not sent.
    pub over_bound: bool,
}

/// An account's due mail.
#[derive(Clone, Debug)]
pub struct MailBatch {
    pub account: i64,
    pub address: String,
    pub language: Language,
    pub unsubscribe_token: String,
    pub every_hours: i32,
    pub items: Vec<NoticeItem>,
}

/// A confirmation mail taken to be sent.
#[derive(Clone, Debug)]
pub struct ConfirmationMail {
    pub id: i64,
    pub address: String,
    pub token: String,
    pub language: Language,
    pub attempt: i32,
}

/// A push taken to be sent, with the device's keys.
#[derive(Clone, Debug)]
pub struct PushDelivery {
    pub item: NoticeItem,
    pub language: Language,
    pub subscription_id: i64,
    pub endpoint: String,
    pub p256dh: Vec<u8>,
    pub auth: Vec<u8>,
}

/// Whether a `your_turn` row `d` is over the bound (see [`NoticeItem::over_bound`]); `$now`
/// and `$window` are the statement's parameters. The window is per account, game and
/// recipient: a channel, and for pushes the device (each of an account's devices gets its
/// own one push per game and window, never two). It is held by the one delivered within the
/// window, and also by an older one not yet delivered nor given up (queued, in flight, or
/// waiting for a retry): it, not this one, is the news, whatever its push service's pace.
/// That depends on no lease or worker, so rows taken at once, by one statement or by several
/// processes, cannot both pass.
fn over_bound(now: &str, window: &str) -> String {
    format!(
        "(d.kind = 'your_turn' AND (
            NOT EXISTS (SELECT 1 FROM games g JOIN seats s ON s.game_id = g.id
                        WHERE g.id = d.game_id AND s.account_id = d.account_id
                          AND g.status = 'active' AND s.seat = ANY (g.to_act))
            OR EXISTS (SELECT 1 FROM notice_deliveries e
                       WHERE e.kind = 'your_turn' AND e.account_id = d.account_id AND e.game_id = d.game_id
                         AND e.channel = d.channel AND e.subscription_id IS NOT DISTINCT FROM d.subscription_id
                         AND (e.delivered_at > to_timestamp(({now}::bigint - {window}::bigint) / 1000.0)
                              OR (e.id < d.id AND e.delivered_at IS NULL AND e.failed_at IS NULL)))))"
    )
}

fn item(row: &tokio_postgres::Row, at: usize) -> NoticeItem {
    NoticeItem {
        id: row.get(at),
        kind: row.get(at + 1),
        game_id: row.get(at + 2),
        body: row.get(at + 3),
        attempt: row.get(at + 4),
        over_bound: row.get(at + 5),
    }
}

impl Store {
    /// Takes the due mail of up to `limit` accounts whose next mail may go (`email_next_ms`):
    /// each account's every due notice, leased with the account for `lease_ms`.
    pub async fn take_mail(
        &self,
        now: i64,
        lease_ms: i64,
        window_ms: i64,
        limit: i64,
    ) -> Result<Vec<MailBatch>> {
        let client = self.pool.get().await?;
        let accounts = client
            .query(
                "WITH due AS (
                     SELECT DISTINCT d.account_id FROM notice_deliveries d
                     WHERE d.channel = 'email' AND d.kind <> 'email_confirmation'
                       AND d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_ms <= $1),
                 chosen AS (
                     SELECT n.account_id FROM notice_settings n JOIN due ON due.account_id = n.account_id
                     WHERE n.email_next_ms <= $1 AND n.email_confirmed_at IS NOT NULL
                     ORDER BY n.email_next_ms LIMIT $3
                     FOR UPDATE OF n SKIP LOCKED)
                 UPDATE notice_settings n SET email_next_ms = $1 + $2 FROM chosen
                 WHERE n.account_id = chosen.account_id
                 RETURNING n.account_id, n.email, n.language, n.unsubscribe_token, n.email_every_hours",
                &[&now, &lease_ms, &limit],
            )
            .await?;
        if accounts.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = accounts.iter().map(|r| r.get(0)).collect();
        let rows = client
            .query(
                &format!(
                    "UPDATE notice_deliveries d SET attempts = d.attempts + 1
                     WHERE d.channel = 'email' AND d.kind <> 'email_confirmation' AND d.account_id = ANY ($1)
                       AND d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_ms <= $2
                     RETURNING d.account_id, d.id, d.kind, d.game_id, d.body, d.attempts, {}",
                    over_bound("$2", "$3")
                ),
                &[&ids, &now, &window_ms],
            )
            .await?;
        let mut batches: Vec<MailBatch> = accounts
            .iter()
            .map(|row| MailBatch {
                account: row.get(0),
                address: row.get::<_, Option<String>>(1).unwrap_or_default(),
                language: Language::parse(row.get(2)),
                unsubscribe_token: row.get(3),
                every_hours: row.get(4),
                items: Vec::new(),
            })
            .collect();
        for row in &rows {
            let account: i64 = row.get(0);
            if let Some(batch) = batches.iter_mut().find(|b| b.account == account) {
                batch.items.push(item(row, 1));
            }
        }
        for batch in &mut batches {
            batch.items.sort_by_key(|i| i.id);
        }
        Ok(batches)
    }

    /// Records an account's mail as sent (`sent`) and left out (`skipped`); its next mail may
    /// go at `next_ms`.
    pub async fn mail_sent(
        &self,
        account: i64,
        sent: &[i64],
        skipped: &[i64],
        now: i64,
        next_ms: i64,
    ) -> Result<()> {
        self.record_outcome(
            "WITH s AS (
                     UPDATE notice_deliveries SET delivered_at = to_timestamp($4::bigint / 1000.0)
                     WHERE id = ANY ($2) AND delivered_at IS NULL RETURNING 1),
                 k AS (
                     UPDATE notice_deliveries SET failed_at = to_timestamp($4::bigint / 1000.0), skipped = true
                     WHERE id = ANY ($3) AND delivered_at IS NULL RETURNING 1)
                 UPDATE notice_settings SET email_next_ms = $5 WHERE account_id = $1",
            &[&account, &sent, &skipped, &now, &next_ms],
        )
        .await
    }

    /// Records a failed attempt at an account's mail: tried again at `retry_at`, or given up
    /// when that is `None`.
    pub async fn mail_failed(
        &self,
        account: i64,
        ids: &[i64],
        error: &str,
        now: i64,
        retry_at: Option<i64>,
    ) -> Result<()> {
        self.record_outcome(
            "WITH f AS (
                     UPDATE notice_deliveries
                     SET last_error = $3, next_attempt_ms = coalesce($5, next_attempt_ms),
                         failed_at = CASE WHEN $5::bigint IS NULL THEN to_timestamp($4::bigint / 1000.0) END
                     WHERE id = ANY ($2) AND delivered_at IS NULL RETURNING 1)
                 UPDATE notice_settings SET email_next_ms = coalesce($5, $4) WHERE account_id = $1",
            &[&account, &ids, &error, &now, &retry_at],
        )
        .await
    }

    /// Takes up to `limit` due confirmation mails, each leased for `lease_ms`.
    pub async fn take_confirmations(
        &self,
        now: i64,
        lease_ms: i64,
        limit: i64,
    ) -> Result<Vec<ConfirmationMail>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "WITH c AS (
                     SELECT id FROM notice_deliveries
                     WHERE channel = 'email' AND kind = 'email_confirmation'
                       AND delivered_at IS NULL AND failed_at IS NULL AND next_attempt_ms <= $1
                     ORDER BY next_attempt_ms LIMIT $3 FOR UPDATE SKIP LOCKED)
                 UPDATE notice_deliveries d SET next_attempt_ms = $1 + $2, attempts = d.attempts + 1
                 FROM c WHERE d.id = c.id
                 RETURNING d.id, d.body->>'address', d.body->>'token', d.body->>'language', d.attempts",
                &[&now, &lease_ms, &limit],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| ConfirmationMail {
                id: row.get(0),
                address: row.get::<_, Option<String>>(1).unwrap_or_default(),
                token: row.get::<_, Option<String>>(2).unwrap_or_default(),
                language: Language::parse(row.get::<_, Option<&str>>(3).unwrap_or("en")),
                attempt: row.get(4),
            })
            .collect())
    }

    /// Takes up to `limit` due pushes, each leased for `lease_ms`.
    pub async fn take_pushes(
        &self,
        now: i64,
        lease_ms: i64,
        window_ms: i64,
        limit: i64,
    ) -> Result<Vec<PushDelivery>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                &format!(
                    "WITH c AS (
                         SELECT id FROM notice_deliveries
                         WHERE channel = 'push' AND delivered_at IS NULL AND failed_at IS NULL AND next_attempt_ms <= $1
                         ORDER BY next_attempt_ms LIMIT $4 FOR UPDATE SKIP LOCKED)
                     UPDATE notice_deliveries d SET next_attempt_ms = $1 + $2, attempts = d.attempts + 1
                     FROM c, push_subscriptions p, notice_settings n
                     WHERE d.id = c.id AND p.id = d.subscription_id AND n.account_id = d.account_id
                     RETURNING d.id, d.kind, d.game_id, d.body, d.attempts, {},
                               n.language, p.id, p.endpoint, p.p256dh, p.auth",
                    over_bound("$1", "$3")
                ),
                &[&now, &lease_ms, &window_ms, &limit],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| PushDelivery {
                item: item(row, 0),
                language: Language::parse(row.get(6)),
                subscription_id: row.get(7),
                endpoint: row.get(8),
                p256dh: row.get(9),
                auth: row.get(10),
            })
            .collect())
    }

    /// Records a push or confirmation mail as sent (the confirmation's token is forgotten), or
    /// as left out when `skipped`.
    pub async fn notice_sent(&self, id: i64, now: i64, skipped: bool) -> Result<()> {
        self.record_outcome(
            "UPDATE notice_deliveries SET
                     delivered_at = CASE WHEN $3 THEN NULL ELSE to_timestamp($2::bigint / 1000.0) END,
                     failed_at = CASE WHEN $3 THEN to_timestamp($2::bigint / 1000.0) END, skipped = $3,
                     body = CASE WHEN kind = 'email_confirmation' THEN '{}'::jsonb ELSE body END
                 WHERE id = $1 AND delivered_at IS NULL",
            &[&id, &now, &skipped],
        )
        .await
    }

    /// Records a failed attempt at a push or confirmation mail: tried again at `retry_at`, or
    /// given up when that is `None`.
    pub async fn notice_failed(
        &self,
        id: i64,
        error: &str,
        now: i64,
        retry_at: Option<i64>,
    ) -> Result<()> {
        self.record_outcome(
            "UPDATE notice_deliveries
                 SET last_error = $2, next_attempt_ms = coalesce($4, next_attempt_ms),
                     failed_at = CASE WHEN $4::bigint IS NULL THEN to_timestamp($3::bigint / 1000.0) END
                 WHERE id = $1 AND delivered_at IS NULL",
            &[&id, &error, &now, &retry_at],
        )
        .await
    }

    /// When the next notice this worker sends is due, if any is waiting: an account's mail
    /// not before its next mail may go (a digest waits for its hour without the worker
    /// looking every moment), and no mail at all for a worker that sends none (`mail`).
    pub async fn next_notice_due(&self, mail: bool) -> Result<Option<i64>> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "SELECT min(CASE WHEN d.channel = 'email' AND d.kind <> 'email_confirmation'
                                 THEN greatest(d.next_attempt_ms, n.email_next_ms)
                                 ELSE d.next_attempt_ms END)
                 FROM notice_deliveries d LEFT JOIN notice_settings n ON n.account_id = d.account_id
                 WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND ($1 OR d.channel = 'push')",
                &[&mail],
            )
            .await?;
        Ok(row.get(0))
    }

    /// Runs a statement that records how a delivery went.
    async fn record_outcome(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<()> {
        let client = self.pool.get().await?;
        client.execute(sql, params).await?;
        Ok(())
    }
}
