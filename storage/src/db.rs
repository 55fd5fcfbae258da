//! Connecting: the database is created when missing, migrated, and pooled.

use std::str::FromStr;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::error::SqlState;
use tokio_postgres::NoTls;

use crate::error::{Result, StoreError};

mod embedded {
    refinery::embed_migrations!("../migrations");
}

/// Creates the database named in `url` if the server does not have it yet, so that an operator
/// only needs a running PostgreSQL and a user allowed to create databases.
pub async fn ensure_database(url: &str) -> Result<()> {
    let config = parse(url)?;
    match config.connect(NoTls).await {
        Ok((client, connection)) => {
            drop(client);
            let _ = connection.await;
            Ok(())
        }
        Err(e) if e.code() == Some(&SqlState::INVALID_CATALOG_NAME) => {
            let name = config
                .get_dbname()
                .ok_or_else(|| StoreError::Pool("DATABASE_URL names no database".into()))?
                .to_string();
            let mut admin = config.clone();
            admin.dbname("postgres");
            let (client, connection) = admin.connect(NoTls).await?;
            let task = tokio::spawn(connection);
            let sql = format!("CREATE DATABASE \"{}\"", name.replace('"', "\"\""));
            match client.batch_execute(&sql).await {
                Ok(()) => tracing::info!(database = %name, "created the database"),
                // Another process created it first.
                Err(e) if e.code() == Some(&SqlState::DUPLICATE_DATABASE) => {}
                Err(e) => return Err(e.into()),
            }
            drop(client);
            let _ = task.await;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// Applies the SQL files of `migrations/` that the database has not seen yet.
pub async fn migrate(url: &str) -> Result<()> {
    let (mut client, connection) = parse(url)?.connect(NoTls).await?;
    let task = tokio::spawn(connection);
    let report = embedded::migrations::runner()
        .run_async(&mut client)
        .await
        .map_err(|e| StoreError::Pool(format!("migration failed: {e}")))?;
    for m in report.applied_migrations() {
        tracing::info!(migration = %m, "applied");
    }
    drop(client);
    let _ = task.await;
    Ok(())
}

pub fn pool(url: &str, max_size: usize) -> Result<Pool> {
    let manager = Manager::from_config(
        parse(url)?,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(max_size)
        .build()
        .map_err(|e| StoreError::Pool(e.to_string()))
}

fn parse(url: &str) -> Result<tokio_postgres::Config> {
    tokio_postgres::Config::from_str(url)
        .map_err(|e| StoreError::Pool(format!("DATABASE_URL does not parse: {e}")))
}
