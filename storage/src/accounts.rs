//! Player accounts. Passwords arrive already hashed: hashing is the server's concern.

use crate::error::{violated_constraint, Result, StoreError};
use crate::Store;

/// A stored account.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
}

impl Store {
    pub async fn create_account(&self, name: &str, password_hash: &str) -> Result<i64> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "INSERT INTO accounts (name, password_hash) VALUES ($1, $2) RETURNING id",
                &[&name, &password_hash],
            )
            .await
            .map_err(|e| match violated_constraint(&e) {
                Some("accounts_name_key") => StoreError::NameTaken(name.to_string()),
                _ => e.into(),
            })?;
        Ok(row.get(0))
    }

    /// The account of that name (case-insensitive).
    pub async fn find_account(&self, name: &str) -> Result<Option<Account>> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt(
                "SELECT id, name, password_hash FROM accounts WHERE lower(name) = lower($1)",
                &[&name],
            )
            .await?;
        Ok(row.map(|r| Account {
            id: r.get(0),
            name: r.get(1),
            password_hash: r.get(2),
        }))
    }

    /// Whether the account still exists (a token may outlive a deleted account).
    pub async fn account_exists(&self, id: i64) -> Result<bool> {
        let client = self.pool.get().await?;
        let row = client
            .query_opt("SELECT 1 FROM accounts WHERE id = $1", &[&id])
            .await?;
        Ok(row.is_some())
    }
}
