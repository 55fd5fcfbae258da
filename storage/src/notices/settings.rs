//! An account's notice settings: its language, what it wants by mail and by push, how often
//! mail may come, and its email address with the confirmation and unsubscribe links' tokens.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::audit::trust::random_bytes;
use crate::error::{Result, StoreError};
use crate::notices::Language;
use crate::Refusal;
use crate::{Store, WebhookKind};

/// How long a confirmation link works.
pub const CONFIRMATION_TTL_MS: i64 = 48 * 3_600_000;

/// At most this many confirmation mails per account in a day (nobody's inbox is flooded with
/// them by somebody who typed its address).
pub const CONFIRMATIONS_PER_DAY: i64 = 5;

/// What an account is told, and how.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NoticeSettings {
    /// The language of mail and pushes.
    pub language: Language,
    /// The address mail goes to (only the account itself ever sees it); absent when none.
    pub email: Option<String>,
    /// Whether the address was confirmed (mail goes only to a confirmed address).
    pub email_confirmed: bool,
    /// What comes by mail.
    pub email_kinds: Vec<WebhookKind>,
    /// 0: every notice at once, in a mail of its own; N: at most one mail every N hours, with
    /// what happened since (a digest).
    #[schema(minimum = 0, maximum = 168)]
    pub email_every_hours: i32,
    /// What comes by push, to every device subscribed.
    pub push_kinds: Vec<WebhookKind>,
    /// The devices subscribed to push.
    pub push_subscriptions: i64,
    /// `true`: invitations from accounts never played with (never seated together at a game
    /// that started) are refused: the inviter gets 403 `invitation_refused`.
    pub refuse_stranger_invitations: bool,
}

/// Changes to the settings; what is absent stays.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoticeChanges {
    pub language: Option<Language>,
    pub email_kinds: Option<Vec<WebhookKind>>,
    #[schema(minimum = 0, maximum = 168)]
    #[serde(default, deserialize_with = "crate::whole_number::whole_number")]
    pub email_every_hours: Option<i32>,
    pub push_kinds: Option<Vec<WebhookKind>>,
    /// `true`: refuse invitations from accounts never played with.
    pub refuse_stranger_invitations: Option<bool>,
}

/// All notice kinds, as stored.
const ALL_KINDS: [WebhookKind; 5] = [
    WebhookKind::YourTurn,
    WebhookKind::GameStarted,
    WebhookKind::GameFinished,
    WebhookKind::DeadlineSoon,
    WebhookKind::Invitation,
];

fn kinds_of(stored: &[String]) -> Vec<WebhookKind> {
    ALL_KINDS
        .into_iter()
        .filter(|k| stored.iter().any(|s| s == k.as_str()))
        .collect()
}

fn stored_kinds(kinds: &[WebhookKind]) -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = kinds.iter().map(|k| k.as_str()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

pub(crate) fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

fn fresh_token() -> String {
    baumeister_domain::fairness::to_hex(&random_bytes())
}

/// Creates the account's settings row if it has none (every other change starts here).
pub(crate) async fn ensure(
    client: &impl deadpool_postgres::GenericClient,
    account: i64,
) -> Result<()> {
    client
        .execute(
            "INSERT INTO notice_settings (account_id, unsubscribe_token)
             SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $1)
             ON CONFLICT (account_id) DO NOTHING",
            &[&account, &fresh_token()],
        )
        .await?;
    Ok(())
}

impl Store {
    /// The account's settings (the defaults when it never set any).
    pub async fn notice_settings(&self, account: i64) -> Result<NoticeSettings> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT language, email, email_confirmed_at IS NOT NULL, email_kinds, email_every_hours, push_kinds,
                        (SELECT count(*) FROM push_subscriptions p WHERE p.account_id = n.account_id),
                        refuse_stranger_invitations
                 FROM notice_settings n WHERE account_id = $1",
                &[&account],
            )
            .await?;
        Ok(match row {
            Some(row) => NoticeSettings {
                language: Language::parse(row.get(0)),
                email: row.get(1),
                email_confirmed: row.get(2),
                email_kinds: kinds_of(&row.get::<_, Vec<String>>(3)),
                email_every_hours: row.get(4),
                push_kinds: kinds_of(&row.get::<_, Vec<String>>(5)),
                push_subscriptions: row.get(6),
                refuse_stranger_invitations: row.get(7),
            },
            None => NoticeSettings {
                language: Language::En,
                email: None,
                email_confirmed: false,
                email_kinds: ALL_KINDS.to_vec(),
                email_every_hours: 0,
                push_kinds: ALL_KINDS.to_vec(),
                push_subscriptions: 0,
                refuse_stranger_invitations: false,
            },
        })
    }

    /// Changes the account's settings (validated by the caller: hours 0 to 168).
    pub async fn change_notice_settings(
        &self,
        account: i64,
        changes: &NoticeChanges,
    ) -> Result<NoticeSettings> {
        {
            let client = self.pool.get().await?;
            ensure(&client, account).await?;
            let email_kinds = changes.email_kinds.as_deref().map(stored_kinds);
            let push_kinds = changes.push_kinds.as_deref().map(stored_kinds);
            let changed = client
                .execute(
                    "UPDATE notice_settings SET
                         language = coalesce($2, language),
                         email_kinds = coalesce($3, email_kinds),
                         email_every_hours = coalesce($4, email_every_hours),
                         push_kinds = coalesce($5, push_kinds),
                         refuse_stranger_invitations = coalesce($7, refuse_stranger_invitations),
                         -- A shorter interval counts from the last mail at once.
                         email_next_ms = CASE WHEN $4::integer IS NULL THEN email_next_ms
                                              ELSE least(email_next_ms, $6 + $4::bigint * 3600000) END
                     WHERE account_id = $1",
                    &[
                        &account,
                        &changes.language.map(Language::as_str),
                        &email_kinds,
                        &changes.email_every_hours,
                        &push_kinds,
                        &self.now_ms(),
                        &changes.refuse_stranger_invitations,
                    ],
                )
                .await?;
            if changed == 0 {
                return Err(StoreError::Refused(Refusal::UnknownAccount));
            }
        }
        self.notice_settings(account).await
    }

    /// Sets the account's address (unconfirmed) and queues a mail with the confirmation link's
    /// token to it, in one transaction. Mail queued for an earlier address is dropped. An
    /// address already confirmed stays confirmed and nothing is sent.
    pub async fn set_email(&self, account: i64, address: &str) -> Result<NoticeSettings> {
        let now = self.now_ms();
        let token = fresh_token();
        {
            let mut client = self.pool.get().await?;
            let tx = client.transaction().await?;
            ensure(&tx, account).await?;
            let row = tx
                .query_opt(
                    "SELECT email, email_confirmed_at IS NOT NULL, language,
                            (SELECT count(*) FROM notice_deliveries d
                             WHERE d.account_id = n.account_id AND d.kind = 'email_confirmation'
                               AND d.created_at > now() - interval '1 day')
                     FROM notice_settings n WHERE account_id = $1 FOR UPDATE",
                    &[&account],
                )
                .await?
                .ok_or(Refusal::UnknownAccount)?;
            let (old, confirmed, language, sent_today): (Option<String>, bool, String, i64) =
                (row.get(0), row.get(1), row.get(2), row.get(3));
            if confirmed && old.as_deref() == Some(address) {
                return self.notice_settings(account).await;
            }
            if sent_today >= CONFIRMATIONS_PER_DAY {
                return Err(StoreError::Refused(Refusal::TooManyConfirmations(
                    CONFIRMATIONS_PER_DAY,
                )));
            }
            tx.execute(
                "UPDATE notice_settings SET email = $2, email_confirmed_at = NULL,
                        email_token_hash = $3, email_token_expires_ms = $4
                 WHERE account_id = $1",
                &[
                    &account,
                    &address,
                    &token_hash(&token),
                    &(now + CONFIRMATION_TTL_MS),
                ],
            )
            .await?;
            drop_pending_mail(&tx, account).await?;
            let body =
                serde_json::json!({"address": address, "token": token, "language": language});
            tx.execute(
                "INSERT INTO notice_deliveries (account_id, channel, kind, body, next_attempt_ms)
                 VALUES ($1, 'email', 'email_confirmation', $2, $3)",
                &[&account, &body, &now],
            )
            .await?;
            tx.commit().await?;
        }
        self.hub.notices.notify_one();
        self.notice_settings(account).await
    }

    /// Removes the account's address; mail not yet sent is dropped.
    pub async fn remove_email(&self, account: i64) -> Result<()> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let changed = tx
            .execute(
                "UPDATE notice_settings SET email = NULL, email_confirmed_at = NULL,
                        email_token_hash = NULL, email_token_expires_ms = NULL
                 WHERE account_id = $1 AND email IS NOT NULL",
                &[&account],
            )
            .await?;
        if changed == 0 {
            return Err(StoreError::Refused(Refusal::NoEmail));
        }
        drop_pending_mail(&tx, account).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Confirms the address whose confirmation link carries `token`.
    pub async fn confirm_email(&self, token: &str) -> Result<()> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "UPDATE notice_settings SET
                     email_confirmed_at = CASE WHEN email_token_expires_ms > $2 THEN now() END,
                     email_token_hash = CASE WHEN email_token_expires_ms > $2 THEN NULL ELSE email_token_hash END
                 WHERE email_token_hash = $1
                 RETURNING email_confirmed_at IS NOT NULL",
                &[&token_hash(token), &self.now_ms()],
            )
            .await?
            .ok_or(Refusal::ConfirmationInvalid)?;
        if row.get::<_, bool>(0) {
            Ok(())
        } else {
            Err(StoreError::Refused(Refusal::ConfirmationExpired))
        }
    }

    /// Whether `token` is an unsubscribe link's (for the page that asks before it unsubscribes).
    pub async fn unsubscribe_token_known(&self, token: &str) -> Result<bool> {
        let client = self.pool.get().await?;
        Ok(client
            .query_opt(
                "SELECT 1 FROM notice_settings WHERE unsubscribe_token = $1",
                &[&token],
            )
            .await?
            .is_some())
    }

    /// One-click unsubscribe (RFC 8058): no more mail of any kind to the link's account (the
    /// address stays, so the account can choose kinds again); mail not yet sent is dropped.
    pub async fn unsubscribe(&self, token: &str) -> Result<()> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let account: i64 = tx
            .query_opt(
                "UPDATE notice_settings SET email_kinds = '{}' WHERE unsubscribe_token = $1 RETURNING account_id",
                &[&token],
            )
            .await?
            .ok_or(Refusal::UnsubscribeInvalid)?
            .get(0);
        drop_pending_mail(&tx, account).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Drops the account's mail not yet sent (its address changed or it unsubscribed).
async fn drop_pending_mail(
    client: &impl deadpool_postgres::GenericClient,
    account: i64,
) -> Result<()> {
    client
        .execute(
            "UPDATE notice_deliveries SET failed_at = now(), skipped = true, last_error = 'dropped'
             WHERE account_id = $1 AND channel = 'email' AND delivered_at IS NULL AND failed_at IS NULL",
            &[&account],
        )
        .await?;
    Ok(())
}
