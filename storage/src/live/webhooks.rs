//! Webhook endpoints and their outbox: registering, listing, removing; and for the worker,
//! taking due deliveries, recording how they went, and queueing `deadline_soon` notices.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{Result, StoreError};
use crate::Refusal;
use crate::{fresh_seed, rfc3339, Store};

/// What a webhook is told about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookKind {
    /// A game of the account now waits for the account's seat (and did not before).
    YourTurn,
    /// A game the account sits at started (its last seat was taken).
    GameStarted,
    /// A game the account sits at ended.
    GameFinished,
    /// The turn clock of a game waiting for the account's seat runs out soon.
    DeadlineSoon,
    /// A player invited the account to a game (the body's `invitation` is as
    /// `GET /v1/me/invitations` lists it).
    Invitation,
}

impl WebhookKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WebhookKind::YourTurn => "your_turn",
            WebhookKind::GameStarted => "game_started",
            WebhookKind::GameFinished => "game_finished",
            WebhookKind::DeadlineSoon => "deadline_soon",
            WebhookKind::Invitation => "invitation",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        [
            WebhookKind::YourTurn,
            WebhookKind::GameStarted,
            WebhookKind::GameFinished,
            WebhookKind::DeadlineSoon,
            WebhookKind::Invitation,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// A registered webhook (its secret is shown only when it is created).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Webhook {
    pub id: i64,
    pub url: String,
    pub kinds: Vec<WebhookKind>,
    pub created_at: String,
    /// Deliveries not yet made (waiting for their first attempt or a retry).
    pub pending: i64,
    /// Deliveries given up after every retry failed.
    pub failed: i64,
    /// Why the latest failed attempt failed, if one did.
    pub last_error: Option<String>,
}

/// A delivery taken by the worker.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub id: i64,
    pub delivery_id: String,
    pub kind: String,
    /// The JSON body to send (signed as it is).
    pub body: String,
    /// 1 for the first attempt.
    pub attempt: i32,
    pub url: String,
    pub secret: String,
    /// The account the webhook belongs to (deliveries are shared fairly between accounts).
    pub account: i64,
}

/// At most this many webhooks per account.
pub const WEBHOOKS_PER_ACCOUNT: i64 = 10;

impl Store {
    /// Registers a webhook; returns it with its secret (shown this once).
    pub async fn create_webhook(
        &self,
        account: i64,
        url: &str,
        kinds: &[WebhookKind],
    ) -> Result<(Webhook, String)> {
        let mut secret = String::from("whsec_");
        for _ in 0..4 {
            secret.push_str(&format!("{:016x}", fresh_seed()));
        }
        let kinds: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        let mut client = self.pool.get().await?;
        // The cap holds under concurrent requests: the account's row is locked first (`FOR NO
        // KEY UPDATE`, which does not hold up the inserts that merely reference the account),
        // so requests for one account count and insert one at a time. The count is a second
        // statement on purpose: under READ COMMITTED it sees what the request before committed,
        // which a subquery of the locking statement (its snapshot taken before the wait) would not.
        let tx = client.transaction().await?;
        tx.query_opt(
            "SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE",
            &[&account],
        )
        .await?
        .ok_or(Refusal::UnknownAccount)?;
        let row = tx
            .query_opt(
                "INSERT INTO webhooks (account_id, url, kinds, secret)
                 SELECT $1, $2, $3, $4
                 WHERE (SELECT count(*) FROM webhooks WHERE account_id = $1) < $5
                 RETURNING id",
                &[&account, &url, &kinds, &secret, &WEBHOOKS_PER_ACCOUNT],
            )
            .await?
            .ok_or(Refusal::TooManyWebhooks(WEBHOOKS_PER_ACCOUNT))?;
        tx.commit().await?;
        let id: i64 = row.get(0);
        let webhook = self
            .webhooks_in(&client, account, Some(id))
            .await?
            .pop()
            .ok_or(Refusal::WebhookNotFound(id))?;
        Ok((webhook, secret))
    }

    pub async fn webhooks(&self, account: i64) -> Result<Vec<Webhook>> {
        let client = self.pool.get().await?;
        self.webhooks_in(&client, account, None).await
    }

    async fn webhooks_in(
        &self,
        client: &deadpool_postgres::Client,
        account: i64,
        only: Option<i64>,
    ) -> Result<Vec<Webhook>> {
        let rows = client
            .query(
                "SELECT w.id, w.url, w.kinds, (extract(epoch FROM w.created_at) * 1000)::bigint,
                        (SELECT count(*) FROM webhook_deliveries d
                          WHERE d.webhook_id = w.id AND d.delivered_at IS NULL AND d.failed_at IS NULL),
                        (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.failed_at IS NOT NULL),
                        (SELECT d.last_error FROM webhook_deliveries d
                          WHERE d.webhook_id = w.id AND d.last_error IS NOT NULL ORDER BY d.id DESC LIMIT 1)
                 FROM webhooks w WHERE w.account_id = $1 AND ($2::bigint IS NULL OR w.id = $2) ORDER BY w.id",
                &[&account, &only],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| {
                let kinds: Vec<String> = row.get(2);
                Webhook {
                    id: row.get(0),
                    url: row.get(1),
                    kinds: kinds.iter().filter_map(|k| WebhookKind::parse(k)).collect(),
                    created_at: rfc3339(row.get(3)),
                    pending: row.get(4),
                    failed: row.get(5),
                    last_error: row.get(6),
                }
            })
            .collect())
    }

    /// Removes one of the account's webhooks (and its undelivered deliveries).
    pub async fn delete_webhook(&self, account: i64, id: i64) -> Result<()> {
        let client = self.pool.get().await?;
        let deleted = client
            .execute(
                "DELETE FROM webhooks WHERE id = $1 AND account_id = $2",
                &[&id, &account],
            )
            .await?;
        if deleted == 0 {
            return Err(StoreError::Refused(Refusal::WebhookNotFound(id)));
        }
        Ok(())
    }

    /// Takes up to `limit` due deliveries, shared fairly between accounts: each account's
    /// oldest due delivery before any account's second, accounts with fewer attempts under way
    /// (`busy`: account and attempts this process has in flight) first, and none of an account
    /// that has `per_account` under way already. So one account's slow receivers hold at most
    /// `per_account` of a worker's slots, whatever its backlog, and another account's delivery
    /// is taken as soon as a slot is free.
    ///
    /// Each delivery taken is moved `lease_ms` into the future and its attempt counted before
    /// it is sent, so that a worker that dies mid-send leaves it to another worker (at least
    /// once) and two workers never send it at the same time.
    pub async fn take_deliveries(
        &self,
        now: i64,
        lease_ms: i64,
        limit: i64,
        per_account: i64,
        busy: &[(i64, i64)],
    ) -> Result<Vec<Delivery>> {
        let (busy_accounts, busy_counts): (Vec<i64>, Vec<i64>) = busy.iter().copied().unzip();
        let client = self.pool.get().await?;
        let rows = client
            .query(
                // `hooks`: the webhooks with pending deliveries (a skip scan of the index of
                // V10); `heads`: each one's oldest due deliveries, at most `per_account`; `due`:
                // the account's turn for each (its attempts under way, then its own order).
                "WITH RECURSIVE hooks (webhook_id) AS (
                     (SELECT webhook_id FROM webhook_deliveries
                      WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY webhook_id LIMIT 1)
                     UNION ALL
                     SELECT (SELECT d.webhook_id FROM webhook_deliveries d
                             WHERE d.delivered_at IS NULL AND d.failed_at IS NULL AND d.webhook_id > h.webhook_id
                             ORDER BY d.webhook_id LIMIT 1)
                     FROM hooks h WHERE h.webhook_id IS NOT NULL),
                 heads AS (
                     SELECT x.id, x.next_attempt_ms, w.account_id
                     FROM hooks h
                     JOIN webhooks w ON w.id = h.webhook_id
                     CROSS JOIN LATERAL (
                         SELECT d.id, d.next_attempt_ms FROM webhook_deliveries d
                         WHERE d.webhook_id = h.webhook_id AND d.delivered_at IS NULL AND d.failed_at IS NULL
                           AND d.next_attempt_ms <= $1
                         ORDER BY d.next_attempt_ms LIMIT $4) x),
                 due AS (
                     SELECT heads.id, heads.next_attempt_ms,
                            row_number() OVER (PARTITION BY heads.account_id ORDER BY heads.next_attempt_ms, heads.id)
                              + coalesce(b.n, 0) AS turn
                     FROM heads
                     LEFT JOIN unnest($5::bigint[], $6::bigint[]) AS b (account_id, n) ON b.account_id = heads.account_id),
                 chosen AS (
                     SELECT id FROM due WHERE turn <= $4 ORDER BY turn, next_attempt_ms, id LIMIT $3),
                 locked AS (
                     SELECT d.id FROM webhook_deliveries d
                     WHERE d.id IN (SELECT id FROM chosen)
                       AND d.delivered_at IS NULL AND d.failed_at IS NULL AND d.next_attempt_ms <= $1
                     FOR UPDATE SKIP LOCKED)
                 UPDATE webhook_deliveries d
                 SET next_attempt_ms = $1 + $2, attempts = d.attempts + 1
                 FROM webhooks w
                 WHERE w.id = d.webhook_id AND d.id IN (SELECT id FROM locked)
                 RETURNING d.id, d.delivery_id::text, d.kind,
                           (jsonb_build_object('id', d.delivery_id) || d.body)::text, d.attempts, w.url, w.secret,
                           w.account_id",
                &[&now, &lease_ms, &limit, &per_account, &busy_accounts, &busy_counts],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| Delivery {
                id: row.get(0),
                delivery_id: row.get(1),
                kind: row.get(2),
                body: row.get(3),
                attempt: row.get(4),
                url: row.get(5),
                secret: row.get(6),
                account: row.get(7),
            })
            .collect())
    }

    pub async fn delivery_succeeded(&self, id: i64) -> Result<()> {
        let client = self.pool.get().await?;
        client
            .execute(
                "UPDATE webhook_deliveries SET delivered_at = now() WHERE id = $1",
                &[&id],
            )
            .await?;
        Ok(())
    }

    /// Records a failed attempt: the next is due at `retry_at`, or none when `retry_at` is
    /// `None` (the retries are exhausted).
    pub async fn delivery_failed(&self, id: i64, error: &str, retry_at: Option<i64>) -> Result<()> {
        let client = self.pool.get().await?;
        client
            .execute(
                "UPDATE webhook_deliveries
                 SET last_error = $2, next_attempt_ms = coalesce($3, next_attempt_ms),
                     failed_at = CASE WHEN $3::bigint IS NULL THEN now() END
                 WHERE id = $1 AND delivered_at IS NULL",
                &[&id, &error, &retry_at],
            )
            .await?;
        Ok(())
    }

    /// When the next delivery is due, if any is waiting.
    pub async fn next_delivery_due(&self) -> Result<Option<i64>> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "SELECT min(next_attempt_ms) FROM webhook_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL",
                &[],
            )
            .await?;
        Ok(row.get(0))
    }

    /// Queues `deadline_soon` for every game whose deadline falls within `lead_ms` from `now`,
    /// once per deadline (across processes: the warning's key decides), to the webhooks of the
    /// seats it waits for and to those of their accounts that chose it by email or push (in the
    /// same statement). Returns how many deliveries were queued.
    pub async fn queue_deadline_warnings(&self, now: i64, lead_ms: i64) -> Result<u64> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "WITH due AS (
                     INSERT INTO deadline_warnings (game_id, deadline_ms)
                     SELECT id, deadline_ms FROM games
                     WHERE status = 'active' AND deadline_ms IS NOT NULL
                       AND deadline_ms > $1 AND deadline_ms <= $1 + $2
                     ON CONFLICT DO NOTHING
                     RETURNING game_id, deadline_ms),
                 told AS (
                     SELECT s.account_id, g.id AS game_id,
                            jsonb_build_object('kind', 'deadline_soon', 'created_at', $3::text, 'seat', s.seat,
                                'deadline', to_char(to_timestamp(due.deadline_ms / 1000.0) AT TIME ZONE 'UTC',
                                                    'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),
                                'game', jsonb_build_object('id', g.id, 'kind', g.kind, 'version', g.version,
                                                           'to_act', to_jsonb(g.to_act), 'finished', false)) AS body
                     FROM due JOIN games g ON g.id = due.game_id
                          JOIN seats s ON s.game_id = g.id AND s.seat = ANY (g.to_act)),
                 queued AS (
                     INSERT INTO webhook_deliveries (delivery_id, webhook_id, kind, body, next_attempt_ms)
                     SELECT gen_random_uuid(), w.id, 'deadline_soon', t.body, $1
                     FROM told t JOIN webhooks w ON w.account_id = t.account_id AND 'deadline_soon' = ANY (w.kinds)
                     RETURNING 1),
                 noticed AS (
                     INSERT INTO notice_deliveries (account_id, channel, subscription_id, kind, game_id, body, next_attempt_ms)
                     SELECT t.account_id, c.channel, c.subscription_id, 'deadline_soon', t.game_id, t.body, $1
                     FROM told t JOIN notice_settings n ON n.account_id = t.account_id,
                          LATERAL (SELECT 'email', NULL::bigint
                                   WHERE n.email_confirmed_at IS NOT NULL AND 'deadline_soon' = ANY (n.email_kinds)
                                   UNION ALL
                                   SELECT 'push', p.id FROM push_subscriptions p
                                   WHERE p.account_id = t.account_id AND 'deadline_soon' = ANY (n.push_kinds))
                            AS c (channel, subscription_id)
                     RETURNING 1)
                 SELECT (SELECT count(*) FROM queued), (SELECT count(*) FROM noticed)",
                &[&now, &lead_ms, &rfc3339(now)],
            )
            .await?;
        let (queued, noticed): (i64, i64) = (row.get(0), row.get(1));
        if noticed > 0 {
            // This process's notice worker may be the one asleep; the others poll.
            self.hub.notices.notify_one();
        }
        Ok(queued as u64)
    }
}
