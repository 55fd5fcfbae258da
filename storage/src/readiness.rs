//! What `GET /readyz` and `GET /metrics` ask the database: whether its migrations are the ones
//! this binary carries, and how much the outboxes hold.

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::Result;
use crate::Store;

/// How the database's applied migrations compare with the ones embedded in this binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MigrationState {
    /// Every embedded migration is applied, unchanged, and no other.
    Current,
    /// An embedded migration is not applied (the database is older than this binary).
    Behind,
    /// The database has a migration this binary does not know (a newer binary applied it):
    /// this binary would refuse to start on it, so it does not take traffic either.
    Ahead,
    /// A migration of the same version was applied with other contents.
    Divergent,
}

/// The migrations: what this binary expects and what the database has.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Migrations {
    pub state: MigrationState,
    /// The newest migration this binary carries.
    pub expected: u32,
    /// The newest migration the database has applied (0: none).
    pub applied: u32,
}

/// Deliveries waiting in one outbox.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backlog {
    /// Neither delivered nor given up.
    pub pending: i64,
    /// Age of the oldest of them, in seconds (0 when none waits).
    pub oldest_seconds: f64,
}

/// The webhook and notice outboxes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backlogs {
    pub webhooks: Backlog,
    pub notices: Backlog,
}

/// Compares applied migrations (version, checksum) with embedded ones.
fn compare(embedded: &[(u32, String)], applied: &[(u32, String)]) -> MigrationState {
    let known = |v: u32| embedded.iter().any(|(e, _)| *e == v);
    if applied.iter().any(|(v, _)| !known(*v)) {
        return MigrationState::Ahead;
    }
    for (version, checksum) in embedded {
        match applied.iter().find(|(v, _)| v == version) {
            None => return MigrationState::Behind,
            Some((_, c)) if c != checksum => return MigrationState::Divergent,
            Some(_) => {}
        }
    }
    MigrationState::Current
}

impl Store {
    /// The database's migrations against this binary's (one small read of refinery's table).
    pub async fn migrations(&self) -> Result<Migrations> {
        let embedded = crate::db::embedded_migrations();
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT version, checksum FROM refinery_schema_history ORDER BY version",
                &[],
            )
            .await?;
        let applied: Vec<(u32, String)> = rows
            .iter()
            .map(|r| {
                (
                    r.get::<_, i32>(0) as u32,
                    r.get::<_, Option<String>>(1).unwrap_or_default(),
                )
            })
            .collect();
        Ok(Migrations {
            state: compare(&embedded, &applied),
            expected: embedded.iter().map(|(v, _)| *v).max().unwrap_or(0),
            applied: applied.iter().map(|(v, _)| *v).max().unwrap_or(0),
        })
    }

    /// Pending deliveries and the oldest one's age, per outbox: two counts over the partial
    /// indexes of pending rows (`webhook_deliveries_due`, `notice_deliveries_pending`), read
    /// when metrics are scraped, never on the command path.
    pub async fn backlogs(&self) -> Result<Backlogs> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "SELECT (SELECT count(*) FROM webhook_deliveries
                          WHERE delivered_at IS NULL AND failed_at IS NULL),
                        (SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8
                           FROM webhook_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL),
                        (SELECT count(*) FROM notice_deliveries
                          WHERE delivered_at IS NULL AND failed_at IS NULL),
                        (SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8
                           FROM notice_deliveries WHERE delivered_at IS NULL AND failed_at IS NULL)",
                &[],
            )
            .await?;
        Ok(Backlogs {
            webhooks: Backlog {
                pending: row.get(0),
                oldest_seconds: row.get(1),
            },
            notices: Backlog {
                pending: row.get(2),
                oldest_seconds: row.get(3),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(versions: &[(u32, &str)]) -> Vec<(u32, String)> {
        versions.iter().map(|(v, c)| (*v, c.to_string())).collect()
    }

    #[test]
    fn migrations_compare_as_current_behind_ahead_or_divergent() {
        let embedded = list(&[(1, "a"), (2, "b")]);
        assert_eq!(compare(&embedded, &embedded), MigrationState::Current);
        assert_eq!(
            compare(&embedded, &list(&[(1, "a")])),
            MigrationState::Behind
        );
        assert_eq!(
            compare(&embedded, &list(&[(1, "a"), (2, "b"), (3, "c")])),
            MigrationState::Ahead
        );
        assert_eq!(
            compare(&embedded, &list(&[(1, "a"), (2, "x")])),
            MigrationState::Divergent
        );
    }
}
