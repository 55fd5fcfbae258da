//! Web Push subscriptions (RFC 8030): per account, each with the keys its messages are
//! encrypted to (RFC 8291). Checked by the caller: the endpoint's URL, the keys' sizes.

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Result, StoreError};
use crate::Refusal;
use crate::{rfc3339, Store};

/// At most this many devices per account.
pub const PUSH_SUBSCRIPTIONS_PER_ACCOUNT: i64 = 10;

/// A subscribed device, as its account sees it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PushSubscription {
    pub id: i64,
    /// The push service's URL for the device.
    pub endpoint: String,
    pub created_at: String,
}

impl Store {
    /// Subscribes a device (the same endpoint again replaces its keys); returns it and whether
    /// it is new.
    pub async fn subscribe_push(
        &self,
        account: i64,
        endpoint: &str,
        p256dh: &[u8],
        auth: &[u8],
    ) -> Result<(PushSubscription, bool)> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        super::settings::ensure(&tx, account).await?;
        // The cap holds under concurrent requests: the settings row is locked first.
        tx.query_opt(
            "SELECT 1 FROM notice_settings WHERE account_id = $1 FOR UPDATE",
            &[&account],
        )
        .await?
        .ok_or(Refusal::UnknownAccount)?;
        let row = tx
            .query_opt(
                "INSERT INTO push_subscriptions (account_id, endpoint, p256dh, auth)
                 SELECT $1, $2, $3, $4
                 WHERE (SELECT count(*) FROM push_subscriptions WHERE account_id = $1 AND endpoint <> $2) < $5
                 ON CONFLICT (account_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth
                 RETURNING id, (extract(epoch FROM created_at) * 1000)::bigint, xmax = 0",
                &[&account, &endpoint, &p256dh, &auth, &PUSH_SUBSCRIPTIONS_PER_ACCOUNT],
            )
            .await?
            .ok_or(Refusal::TooManyPushSubscriptions(
                PUSH_SUBSCRIPTIONS_PER_ACCOUNT,
            ))?;
        tx.commit().await?;
        Ok((
            PushSubscription {
                id: row.get(0),
                endpoint: endpoint.to_string(),
                created_at: rfc3339(row.get(1)),
            },
            row.get(2),
        ))
    }

    pub async fn push_subscriptions(&self, account: i64) -> Result<Vec<PushSubscription>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT id, endpoint, (extract(epoch FROM created_at) * 1000)::bigint
                 FROM push_subscriptions WHERE account_id = $1 ORDER BY id",
                &[&account],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| PushSubscription {
                id: row.get(0),
                endpoint: row.get(1),
                created_at: rfc3339(row.get(2)),
            })
            .collect())
    }

    /// Unsubscribes one of the account's devices (its pushes not yet sent go with it).
    pub async fn delete_push_subscription(&self, account: i64, id: i64) -> Result<()> {
        let client = self.pool.get().await?;
        let deleted = client
            .execute(
                "DELETE FROM push_subscriptions WHERE id = $1 AND account_id = $2",
                &[&id, &account],
            )
            .await?;
        if deleted == 0 {
            return Err(StoreError::Refused(Refusal::PushSubscriptionNotFound(id)));
        }
        Ok(())
    }

    /// Drops a subscription the push service says is gone (404 or 410).
    pub async fn push_subscription_gone(&self, id: i64) -> Result<()> {
        let client = self.pool.get().await?;
        client
            .execute("DELETE FROM push_subscriptions WHERE id = $1", &[&id])
            .await?;
        Ok(())
    }
}
