//! Player accounts. Passwords arrive already hashed and names already normalised: both are the
//! server's concern. The database keeps names that a reader could confuse apart
//! (`account_skeleton`), and holds what a token must match on every request: the account's
//! token key and whether the operator made it an auditor.

use crate::error::{violated_constraint, Result, StoreError};
use crate::people::moderation::Suspension;
use crate::Refusal;
use crate::Store;

/// A stored account.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    /// Carried by its tokens; replaced to revoke them all.
    pub token_key: String,
    pub auditor: bool,
}

/// What a request's token is checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountStanding {
    pub name: String,
    pub token_key: String,
    pub auditor: bool,
    /// Whether the operator made it a moderator (`baumeister moderator grant`).
    pub moderator: bool,
    /// Its latest suspension, if any (in force while `until_ms` is ahead of the store's clock).
    pub suspension: Option<Suspension>,
}

impl Store {
    /// Registers a name (already normalised). Refused when the name, or one a reader could
    /// confuse with it, is taken, or retired (a deleted account's, see `account_care.rs`): the
    /// database's unique skeleton decides, also between two registrations racing.
    pub async fn create_account(&self, name: &str, password_hash: &str) -> Result<i64> {
        let client = self.pool.get().await?;
        self.check_not_retired(&client, name).await?;
        let inserted = client
            .query_one(
                "INSERT INTO accounts (name, skeleton, password_hash) VALUES ($1, account_skeleton($1), $2) RETURNING id",
                &[&name, &password_hash],
            )
            .await;
        match inserted {
            Ok(row) => Ok(row.get(0)),
            Err(e) if violated_constraint(&e).is_some() => {
                Err(match self.confusable_with(name).await? {
                    Some(existing) => name_refused(name, existing),
                    None => StoreError::Refused(Refusal::NameTaken(name.to_string())),
                })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Whether `name` may be registered: `Err` names the account it would be confused with.
    pub async fn check_name_free(&self, name: &str) -> Result<()> {
        self.check_not_retired(&self.pool.get().await?, name)
            .await?;
        match self.confusable_with(name).await? {
            Some(existing) => Err(name_refused(name, existing)),
            None => Ok(()),
        }
    }

    async fn confusable_with(&self, name: &str) -> Result<Option<String>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT name FROM accounts WHERE skeleton = account_skeleton($1) OR lower(name) = lower($1)",
                &[&name],
            )
            .await?;
        Ok(row.map(|r| r.get(0)))
    }

    /// The account of that name (case-insensitive).
    pub async fn find_account(&self, name: &str) -> Result<Option<Account>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT id, name, password_hash, token_key::text, auditor FROM accounts WHERE lower(name) = lower($1)",
                &[&name],
            )
            .await?;
        Ok(row.map(|r| Account {
            id: r.get(0),
            name: r.get(1),
            password_hash: r.get(2),
            token_key: r.get(3),
            auditor: r.get(4),
        }))
    }

    /// What a token of account `id` is checked against; `None` when the account is gone.
    pub async fn account_standing(&self, id: i64) -> Result<Option<AccountStanding>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT name, token_key::text, auditor, moderator, suspended_until_ms, suspension_reason
                 FROM accounts WHERE id = $1",
                &[&id],
            )
            .await?;
        Ok(row.map(|r| AccountStanding {
            name: r.get(0),
            token_key: r.get(1),
            auditor: r.get(2),
            moderator: r.get(3),
            suspension: Suspension::of(r.get(4), r.get(5)),
        }))
    }

    /// Gives the account a new token key: every token issued before is refused from now on.
    pub async fn revoke_tokens(&self, id: i64) -> Result<()> {
        let client = self.pool.get().await?;
        client
            .execute(
                "UPDATE accounts SET token_key = gen_random_uuid() WHERE id = $1",
                &[&id],
            )
            .await?;
        Ok(())
    }

    /// Grants or withdraws the auditor role of an existing account. Returns the account's
    /// name as stored, or `UnknownAccountName`.
    pub async fn set_auditor(&self, name: &str, auditor: bool) -> Result<String> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "UPDATE accounts SET auditor = $2 WHERE lower(name) = lower($1) AND deleted_at IS NULL
                 RETURNING name",
                &[&name, &auditor],
            )
            .await?;
        row.map(|r| r.get(0))
            .ok_or_else(|| StoreError::Refused(Refusal::UnknownAccountName(name.to_string())))
    }

    /// The auditors' names, in order.
    pub async fn auditors(&self) -> Result<Vec<String>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT name FROM accounts WHERE auditor ORDER BY lower(name)",
                &[],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

fn name_refused(name: &str, existing: String) -> StoreError {
    if existing.to_lowercase() == name.to_lowercase() {
        StoreError::Refused(Refusal::NameTaken(name.to_string()))
    } else {
        StoreError::Refused(Refusal::NameConfusable {
            name: name.to_string(),
            existing,
        })
    }
}
