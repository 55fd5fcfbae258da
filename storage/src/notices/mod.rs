//! Notices to people: the same notices webhooks get ("your turn", a game started or
//! finished, a deadline soon, an invitation), by email and by Web Push to the accounts that chose
//! them. Queued beside the webhook outbox in the statement or transaction that causes them
//! (`append.rs`, `invitations.rs`, the deadline warnings), sent by the server's notice worker.

pub mod outbox;
pub mod push;
pub mod settings;

use deadpool_postgres::GenericClient;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::Result;

/// The language an account's mail and pushes are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    En,
    De,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::De => "de",
        }
    }

    pub(crate) fn parse(s: &str) -> Language {
        if s == "de" {
            Language::De
        } else {
            Language::En
        }
    }
}

/// Queues one notice (`kind`, a webhook body) by mail and push to one account, as its settings
/// ask; returns how many deliveries were queued. Part of the caller's transaction.
pub(crate) async fn queue_for_account(
    client: &impl GenericClient,
    account: i64,
    kind: &str,
    game_id: Option<i64>,
    body: &serde_json::Value,
    now: i64,
) -> Result<u64> {
    Ok(client
        .execute(
            "INSERT INTO notice_deliveries (account_id, channel, subscription_id, kind, game_id, body, next_attempt_ms)
             SELECT n.account_id, c.channel, c.subscription_id, $2, $3, $4, $5
             FROM notice_settings n,
                  LATERAL (SELECT 'email', NULL::bigint
                           WHERE n.email_confirmed_at IS NOT NULL AND $2 = ANY (n.email_kinds)
                           UNION ALL
                           SELECT 'push', p.id FROM push_subscriptions p
                           WHERE p.account_id = n.account_id AND $2 = ANY (n.push_kinds)) AS c (channel, subscription_id)
             WHERE n.account_id = $1",
            &[&account, &kind, &game_id, body, &now],
        )
        .await?)
}
