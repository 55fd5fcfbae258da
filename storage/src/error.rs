use baumeister_domain::DomainError;

pub use crate::refusal::{Class, Refusal};

/// Everything the store can answer instead of doing what was asked, split as the API must
/// answer it: a [`Refusal`] or a rule of the game ([`DomainError`]) is the caller's to change
/// (a 4xx); the rest are faults of the server or its database, which the caller can only wait
/// out (503) or report (500).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    Domain(#[from] DomainError),
    #[error("the game is too busy right now; try again")]
    Contention,
    #[error("database: {0}")]
    Database(tokio_postgres::Error),
    /// The connection to the database is gone or cannot be made (it is down, restarting or
    /// out of reach): nothing a client did, and it passes.
    #[error("the database does not answer: {0}")]
    Unavailable(String),
    #[error("database pool: {0}")]
    Pool(String),
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        StoreError::Unavailable(e.to_string())
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        if lost_connection(&e) {
            crate::lost_connections::connection_lost();
            StoreError::Unavailable(e.to_string())
        } else {
            StoreError::Database(e)
        }
    }
}

/// Whether a statement failed because the database went away rather than because of the
/// statement: the connection closed or broke, the server is shutting down, starting or
/// refusing connections, or the node no longer takes writes (a primary demoted, or a standby
/// not yet done with its promotion: docs/failover.md).
fn lost_connection(e: &tokio_postgres::Error) -> bool {
    use tokio_postgres::error::SqlState;
    match e.code() {
        Some(code) => {
            code.code().starts_with("08")
                || [
                    SqlState::ADMIN_SHUTDOWN,
                    SqlState::CRASH_SHUTDOWN,
                    SqlState::CANNOT_CONNECT_NOW,
                    SqlState::READ_ONLY_SQL_TRANSACTION,
                ]
                .contains(code)
        }
        None => {
            e.is_closed() || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
        }
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// The name of the unique constraint a statement violated, if that is why it failed.
pub(crate) fn violated_constraint(e: &tokio_postgres::Error) -> Option<&str> {
    let db = e.as_db_error()?;
    if *db.code() == tokio_postgres::error::SqlState::UNIQUE_VIOLATION {
        db.constraint()
    } else {
        None
    }
}

/// Maps a foreign-key violation (an account id from a token that no longer exists, after the
/// database was reset under the same JWT secret) to `UnknownAccount`.
pub(crate) fn account_must_exist(e: tokio_postgres::Error) -> StoreError {
    match e.code() {
        Some(c) if *c == tokio_postgres::error::SqlState::FOREIGN_KEY_VIOLATION => {
            StoreError::Refused(Refusal::UnknownAccount)
        }
        _ => e.into(),
    }
}

/// A transaction that lost a race the database noticed (serialization failure, deadlock).
/// A commit refused by a serialization failure or a deadlock is a lost race (`Contention`,
/// decided again by the caller); any other failure is what it is.
pub(crate) fn lost_race(e: tokio_postgres::Error) -> StoreError {
    if is_retryable(&e) {
        StoreError::Contention
    } else {
        e.into()
    }
}

pub(crate) fn is_retryable(e: &tokio_postgres::Error) -> bool {
    use tokio_postgres::error::SqlState;
    matches!(
        e.code(),
        Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED
    )
}
