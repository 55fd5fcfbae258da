//! What an account does to itself (docs/accounts.md): change its password, reset a forgotten one
//! with a one-use token from a mail, delete itself, and download everything stored about it.
//!
//! Deletion keeps the account's row under a pseudonym: seats, commands, chat messages and
//! ratings point at it, and every game it played must stay whole, replayable and verifiable.
//! Player names are in no event and no hash (an export names its players beside the chain,
//! from the accounts as they are now), so the pseudonym changes views and exports, never a
//! chain or a signature.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::{Result, StoreError};
use crate::notices::settings::token_hash;
use crate::Refusal;
use crate::Store;

/// The password hash of a deleted account: not a hash, so no login can succeed.
const DELETED_HASH: &str = "!deleted";

/// The pseudonym of deleted account `id`: `deleted~` and 16 hexadecimal digits of a hash of the
/// id. Stable (the same every time it is derived), and never a name anybody holds or can
/// register: `~` is in no registrable name.
pub fn pseudonym(id: i64) -> String {
    let digest = Sha256::digest(format!("baumeister/deleted-account/{id}").as_bytes());
    format!(
        "deleted~{}",
        &baumeister_domain::fairness::to_hex(&digest)[..16]
    )
}

/// A password-reset request that may be mailed: the account, where to, in which language.
#[derive(Clone, Debug)]
pub struct ResetTarget {
    pub account_id: i64,
    pub name: String,
    pub address: String,
    pub language: crate::Language,
}

/// Why a reset token was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetRefusal {
    /// Unknown, used already, or ended by a later reset or password change.
    Invalid,
    Expired,
}

/// The account a reset token was used for, with its new token key.
#[derive(Clone, Debug)]
pub struct ResetDone {
    pub account_id: i64,
    pub name: String,
    pub token_key: String,
    pub auditor: bool,
}

/// Ends every reset token of the account (a reset, or a changed password).
async fn end_resets(tx: &deadpool_postgres::Transaction<'_>, account: i64) -> Result<()> {
    tx.execute(
        "UPDATE password_resets SET spent = true WHERE account_id = $1 AND NOT spent",
        &[&account],
    )
    .await?;
    Ok(())
}

impl Store {
    /// The account `id`, unless deleted.
    pub async fn account_by_id(&self, id: i64) -> Result<Option<crate::Account>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT id, name, password_hash, token_key::text, auditor FROM accounts
                 WHERE id = $1 AND deleted_at IS NULL",
                &[&id],
            )
            .await?;
        Ok(row.map(|r| crate::Account {
            id: r.get(0),
            name: r.get(1),
            password_hash: r.get(2),
            token_key: r.get(3),
            auditor: r.get(4),
        }))
    }

    /// Replaces the password hash and the token key (every earlier token is refused from now
    /// on) and ends every reset token. Returns the new token key, for the caller's new token.
    pub async fn change_password(&self, id: i64, password_hash: &str) -> Result<String> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let row = tx
            .query_opt(
                "UPDATE accounts SET password_hash = $2, token_key = gen_random_uuid()
                 WHERE id = $1 AND deleted_at IS NULL RETURNING token_key::text",
                &[&id, &password_hash],
            )
            .await?
            .ok_or(Refusal::UnknownAccount)?;
        end_resets(&tx, id).await?;
        tx.commit().await?;
        Ok(row.get(0))
    }

    /// The accounts a reset asked for by `name_or_address` may be mailed to: the account of
    /// that name, or every account with that address (an address is not unique), and only
    /// where the address is confirmed. Bots and deleted accounts have none.
    pub async fn reset_targets(&self, name_or_address: &str) -> Result<Vec<ResetTarget>> {
        let client = self.pool.get().await?;
        let by_address = name_or_address.contains('@');
        let rows = client
            .query(
                "SELECT a.id, a.name, n.email, n.language FROM accounts a
                 JOIN notice_settings n ON n.account_id = a.id
                 WHERE n.email IS NOT NULL AND n.email_confirmed_at IS NOT NULL
                   AND a.deleted_at IS NULL AND NOT a.bot
                   AND CASE WHEN $2 THEN lower(n.email) = lower($1) ELSE lower(a.name) = lower($1) END
                 ORDER BY a.id LIMIT 10",
                &[&name_or_address, &by_address],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| ResetTarget {
                account_id: r.get(0),
                name: r.get(1),
                address: r.get(2),
                language: crate::Language::parse(r.get(3)),
            })
            .collect())
    }

    /// Records a reset token (its hash) for `target`, valid until `expires_ms`, unless the
    /// account, or its address, already had `per_hour` tokens in the last hour. Returns whether
    /// it was recorded (then the mail may go).
    pub async fn record_reset(
        &self,
        target: &ResetTarget,
        token: &str,
        expires_ms: i64,
        per_hour: i64,
    ) -> Result<bool> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        // The account's row lock makes two requests racing count each other.
        tx.execute(
            "SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE",
            &[&target.account_id],
        )
        .await?;
        let recent: i64 = tx
            .query_one(
                "SELECT count(*) FROM password_resets r
                 WHERE r.created_at > now() - interval '1 hour'
                   AND (r.account_id = $1 OR r.account_id IN
                        (SELECT account_id FROM notice_settings WHERE lower(email) = lower($2)))",
                &[&target.account_id, &target.address],
            )
            .await?
            .get(0);
        if recent >= per_hour {
            return Ok(false);
        }
        tx.execute(
            "DELETE FROM password_resets WHERE account_id = $1 AND created_at < now() - interval '1 day'",
            &[&target.account_id],
        )
        .await?;
        tx.execute(
            "INSERT INTO password_resets (token_hash, account_id, expires_ms) VALUES ($1, $2, $3)",
            &[&token_hash(token), &target.account_id, &expires_ms],
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Uses a reset token: the account gets `password_hash` and a new token key, and every
    /// reset token of the account ends. A token works once.
    pub async fn use_reset(
        &self,
        token: &str,
        password_hash: &str,
    ) -> Result<std::result::Result<ResetDone, ResetRefusal>> {
        let now = self.now_ms();
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let Some(row) = tx
            .query_opt(
                "UPDATE password_resets SET spent = true WHERE token_hash = $1 AND NOT spent
                 RETURNING account_id, expires_ms",
                &[&token_hash(token)],
            )
            .await?
        else {
            return Ok(Err(ResetRefusal::Invalid));
        };
        let (account, expires_ms): (i64, i64) = (row.get(0), row.get(1));
        if expires_ms <= now {
            // The expired token stays spent.
            tx.commit().await?;
            return Ok(Err(ResetRefusal::Expired));
        }
        let Some(row) = tx
            .query_opt(
                "UPDATE accounts SET password_hash = $2, token_key = gen_random_uuid()
                 WHERE id = $1 AND deleted_at IS NULL
                 RETURNING name, token_key::text, auditor",
                &[&account, &password_hash],
            )
            .await?
        else {
            return Ok(Err(ResetRefusal::Invalid));
        };
        end_resets(&tx, account).await?;
        tx.commit().await?;
        Ok(Ok(ResetDone {
            account_id: account,
            name: row.get(0),
            token_key: row.get(1),
            auditor: row.get(2),
        }))
    }

    /// Whether `name` (or a name a reader could confuse with it) belonged to a deleted account
    /// within the retirement period: `Err(NameRetired)` then.
    pub(crate) async fn check_not_retired(
        &self,
        client: &impl deadpool_postgres::GenericClient,
        name: &str,
    ) -> Result<()> {
        let retired = client
            .query_opt(
                "SELECT 1 FROM retired_names
                 WHERE skeleton = account_skeleton($1) AND retired_until > now()",
                &[&name],
            )
            .await?;
        match retired {
            Some(_) => Err(StoreError::Refused(Refusal::NameRetired(name.to_string()))),
            None => Ok(()),
        }
    }

    /// Deletes account `id`: its name becomes its pseudonym (the old one is retired for
    /// `retire_days`), its password, token key, address, settings, push subscriptions, webhooks,
    /// mutes (its own and others' of it), invitations, vacations and reset tokens go. Its seats,
    /// commands, chat messages, ratings and rematch answers stay, under the pseudonym. Returns
    /// the pseudonym and the running games it sits at (whose turns the clock now makes).
    pub async fn delete_account(&self, id: i64, retire_days: i64) -> Result<(String, Vec<i64>)> {
        let pseudonym = pseudonym(id);
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let old: String = tx
            .query_opt(
                "SELECT name FROM accounts WHERE id = $1 AND deleted_at IS NULL FOR UPDATE",
                &[&id],
            )
            .await?
            .ok_or(Refusal::UnknownAccount)?
            .get(0);
        tx.execute(
            "INSERT INTO retired_names (skeleton, retired_until)
             VALUES (account_skeleton($1), now() + make_interval(days => $2::int))
             ON CONFLICT (skeleton) DO UPDATE SET retired_until =
                 greatest(retired_names.retired_until, EXCLUDED.retired_until)",
            &[&old, &(retire_days.clamp(0, 36_500) as i32)],
        )
        .await?;
        // The pseudonym's skeleton has a `~`, which no registrable name's skeleton has.
        tx.execute(
            "UPDATE accounts SET name = $2, skeleton = account_skeleton($2), password_hash = $3,
                    token_key = gen_random_uuid(), auditor = false, deleted_at = now()
             WHERE id = $1",
            &[&id, &pseudonym, &DELETED_HASH],
        )
        .await?;
        for erase in [
            "DELETE FROM notice_deliveries WHERE account_id = $1",
            "DELETE FROM push_subscriptions WHERE account_id = $1",
            "DELETE FROM notice_settings WHERE account_id = $1",
            "DELETE FROM webhooks WHERE account_id = $1",
            "DELETE FROM chat_mutes WHERE account_id = $1 OR muted_id = $1",
            "DELETE FROM invitations WHERE invited_by = $1 OR account_id = $1",
            "DELETE FROM vacations WHERE account_id = $1",
            "DELETE FROM password_resets WHERE account_id = $1",
        ] {
            tx.execute(erase, &[&id]).await?;
        }
        let running: Vec<i64> = tx
            .query(
                "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id
                 WHERE s.account_id = $1 AND g.status = 'active' ORDER BY g.id",
                &[&id],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect();
        tx.commit().await?;
        Ok((pseudonym, running))
    }

    /// Gives every seat of a deleted account that is to act a turn deadline of now, so the turn
    /// clock makes its move (see `migrations/V26__account_care.sql`). The game rows are locked
    /// in id order (as vacations lock them, so the two cannot deadlock), and a row locked after
    /// a wait is judged again as it stands then (`to_act`, its deadline); a deleted account's
    /// seats never change. It changes no version and no seat. Returns the games changed.
    pub(crate) async fn departed_turns(&self, now: i64) -> Result<Vec<i64>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "WITH due AS (
                     SELECT g.id, s.seat FROM accounts a
                     JOIN seats s ON s.account_id = a.id JOIN games g ON g.id = s.game_id
                     WHERE a.deleted_at IS NOT NULL AND g.status = 'active'
                       AND s.seat = ANY (g.to_act)
                       AND coalesce(g.turn_deadlines[s.seat + 1], $1::bigint + 1) > $1::bigint
                     ORDER BY g.id FOR UPDATE OF g)
                 UPDATE games g SET
                     turn_deadlines = departed_deadlines(g.turn_deadlines, g.seat_count, due.seat, $1::bigint),
                     deadline_ms = least(coalesce(g.deadline_ms, $1::bigint), $1::bigint)
                 FROM due WHERE g.id = due.id
                 RETURNING g.id",
                &[&now],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Moves on the games where a deleted account is to act (see [`Store::departed_turns`]).
    pub async fn settle_departed(&self) -> Result<usize> {
        let now = self.now_ms();
        let games = self.departed_turns(now).await?;
        for game in &games {
            self.apply_deadline(*game, now).await?;
        }
        Ok(games.len())
    }

    /// Everything stored about account `id`, as one JSON document (docs/accounts.md): what the
    /// account itself may see, and nothing of other accounts beyond their public names.
    pub async fn account_data(&self, id: i64) -> Result<Value> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "SELECT json_build_object(
                  'account', (SELECT json_build_object('id', a.id, 'name', a.name,
                                 'created_at', a.created_at, 'auditor', a.auditor)
                              FROM accounts a WHERE a.id = $1),
                  'games', coalesce((SELECT json_agg(json_build_object(
                                 'id', g.id, 'kind', g.kind, 'status', g.status,
                                 'visibility', g.visibility, 'rated', g.rated,
                                 'created_at', g.created_at, 'created_by_you', g.created_by = $1,
                                 'your_seat', s.seat, 'joined_at', s.joined_at,
                                 'seats', (SELECT json_agg(json_build_object('seat', o.seat, 'player', p.name)
                                                           ORDER BY o.seat)
                                           FROM seats o JOIN accounts p ON p.id = o.account_id
                                           WHERE o.game_id = g.id),
                                 'scores', CASE WHEN g.status = 'finished' THEN g.progress -> 'scores' END,
                                 'winners', CASE WHEN g.status = 'finished' THEN g.progress -> 'winners' END)
                               ORDER BY g.id)
                             FROM seats s JOIN games g ON g.id = s.game_id WHERE s.account_id = $1), '[]'),
                  'commands_sent', (SELECT count(*) FROM commands WHERE account_id = $1),
                  'chat_messages', coalesce((SELECT json_agg(json_build_object(
                                 'id', c.id, 'game_id', c.game_id, 'channel', c.channel,
                                 'text', c.text, 'at', c.at, 'removed', c.removed_at IS NOT NULL)
                               ORDER BY c.id)
                             FROM chat_messages c WHERE c.account_id = $1), '[]'),
                  'invitations_sent', coalesce((SELECT json_agg(json_build_object(
                                 'id', i.id, 'game_id', i.game_id,
                                 'invitee', (SELECT p.name FROM accounts p WHERE p.id = i.account_id),
                                 'link', i.code_hash IS NOT NULL, 'uses', i.uses, 'state', i.state,
                                 'expires_ms', i.expires_ms, 'created_at', i.created_at)
                               ORDER BY i.id)
                             FROM invitations i WHERE i.invited_by = $1), '[]'),
                  'invitations_received', coalesce((SELECT json_agg(json_build_object(
                                 'id', i.id, 'game_id', i.game_id,
                                 'invited_by', (SELECT p.name FROM accounts p WHERE p.id = i.invited_by),
                                 'state', i.state, 'expires_ms', i.expires_ms,
                                 'created_at', i.created_at, 'answered_at', i.answered_at)
                               ORDER BY i.id)
                             FROM invitations i WHERE i.account_id = $1), '[]'),
                  'ratings', coalesce((SELECT json_agg(json_build_object(
                                 'kind', r.kind, 'rating', r.rating, 'deviation', r.deviation,
                                 'volatility', r.volatility, 'games', r.games, 'updated_at', r.updated_at)
                               ORDER BY r.kind)
                             FROM ratings r WHERE r.account_id = $1), '[]'),
                  'rating_changes', coalesce((SELECT json_agg(json_build_object(
                                 'game_id', r.game_id, 'seat', r.seat, 'place', r.place,
                                 'rating_before', r.rating_before, 'rating', r.rating)
                               ORDER BY r.game_id)
                             FROM rating_changes r WHERE r.account_id = $1), '[]'),
                  'vacations', coalesce((SELECT json_agg(json_build_object(
                                 'starts_ms', v.starts_ms, 'ends_ms', v.ends_ms) ORDER BY v.starts_ms)
                             FROM vacations v WHERE v.account_id = $1), '[]'),
                  'mutes', coalesce((SELECT json_agg(json_build_object(
                                 'name', p.name, 'since', m.created_at) ORDER BY m.created_at)
                             FROM chat_mutes m JOIN accounts p ON p.id = m.muted_id
                             WHERE m.account_id = $1), '[]'),
                  'webhooks', coalesce((SELECT json_agg(json_build_object(
                                 'id', w.id, 'url', w.url, 'kinds', w.kinds, 'created_at', w.created_at)
                               ORDER BY w.id)
                             FROM webhooks w WHERE w.account_id = $1), '[]'),
                  'push_subscriptions', coalesce((SELECT json_agg(json_build_object(
                                 'id', p.id, 'endpoint', p.endpoint, 'created_at', p.created_at)
                               ORDER BY p.id)
                             FROM push_subscriptions p WHERE p.account_id = $1), '[]'),
                  'password_resets_pending', (SELECT count(*) FROM password_resets
                                              WHERE account_id = $1 AND NOT spent AND expires_ms > $2))",
                &[&id, &self.now_ms()],
            )
            .await?;
        let mut data: Value = row.get(0);
        let settings = self.notice_settings(id).await?;
        data["notice_settings"] =
            serde_json::to_value(settings).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudonyms_are_stable_distinct_and_never_a_registrable_name() {
        assert_eq!(pseudonym(7), pseudonym(7));
        assert_ne!(pseudonym(7), pseudonym(8));
        assert!(pseudonym(7).starts_with("deleted~"));
        assert_eq!(pseudonym(7).len(), "deleted~".len() + 16);
        // `~` is not among a name's characters (api/src/names.rs).
        assert!(pseudonym(7).contains('~'));
    }
}
