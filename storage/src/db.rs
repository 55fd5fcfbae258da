//! Connecting: the database is created when missing, migrated, and pooled.

use std::net::IpAddr;
use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime, Timeouts};
use tokio_postgres::config::Host;
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

/// The migrations embedded in this binary: version and checksum (as refinery stores it).
pub(crate) fn embedded_migrations() -> Vec<(u32, String)> {
    embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(|m| (m.version(), m.checksum().to_string()))
        .collect()
}

/// Any number of this, held while migrating (PostgreSQL's advisory locks are numbers).
const MIGRATION_LOCK: i64 = 0x6261_756d_6569_7374; // "baumeist"

/// Applies the SQL files of `migrations/` that the database has not seen yet. Processes that
/// start at once (several of a service, upgraded together) migrate one after the other: each
/// holds an advisory lock meanwhile, and the next finds the work done.
pub async fn migrate(url: &str) -> Result<()> {
    let (mut client, connection) = parse(url)?.connect(NoTls).await?;
    let task = tokio::spawn(connection);
    // Released with the session, when this connection closes.
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .await?;
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

/// How long a request waits for a connection of the pool, for a new connection to be made, or
/// for one to be checked before reuse. A request that cannot have one by then is answered 503
/// `database_unavailable` rather than held: while the database is down, every request fails
/// fast, and the pool makes new connections by itself once it is back.
const POOL_TIMEOUT: Duration = Duration::from_secs(3);

/// `max_size` connections in all, in one pool per thread that serves requests (see
/// `pools.rs`): the main thread, whose runtime runs the background work, and each of the
/// `workers` HTTP worker threads.
pub(crate) fn pools(url: &str, max_size: usize, workers: usize) -> Result<crate::pools::Pools> {
    let (pools, each) = crate::pools::split(max_size, workers + 1);
    Ok(crate::pools::Pools::new(
        (0..pools).map(|_| pool(url, each)).collect::<Result<_>>()?,
    ))
}

pub fn pool(url: &str, max_size: usize) -> Result<Pool> {
    let config = connection_config(url)?;
    // Hosts are tried one after the other (several for a replicated database), each for the
    // connect timeout: making a connection may take them all.
    let create = config
        .get_connect_timeout()
        .copied()
        .unwrap_or(POOL_TIMEOUT)
        * config.get_hosts().len().max(1) as u32;
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            // A connection whose socket closed is dropped when it comes back to the pool.
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(max_size)
        .runtime(Runtime::Tokio1)
        .timeouts(Timeouts {
            wait: Some(POOL_TIMEOUT),
            create: Some(create),
            recycle: Some(POOL_TIMEOUT),
        })
        // After one connection was found lost, none made before it is used again
        // (`lost_connections.rs`).
        .pre_recycle(crate::lost_connections::drop_older_than_last_loss())
        .build()
        .map_err(|e| StoreError::Pool(e.to_string()))
}

/// How a connection, pooled or the live listener's, is made from `url`: a database node that
/// vanishes (a machine or network gone, rather than a server that closes its sockets) is noticed
/// within seconds, so that the next connection goes to whichever node takes writes then.
pub(crate) fn connection_config(url: &str) -> Result<tokio_postgres::Config> {
    let mut config = parse(url)?;
    if config.get_connect_timeout().is_none() {
        // Split between the hosts, so that one that does not answer leaves time for the next
        // within the pool's timeout (at least a second each: a connection on a busy machine
        // takes milliseconds, not seconds).
        let hosts = config.get_hosts().len().max(1) as u32;
        config.connect_timeout((POOL_TIMEOUT / hosts).max(Duration::from_secs(1)));
    }
    // An idle connection to a vanished node is found out after 30 s of silence and three
    // unanswered probes 5 s apart, instead of the system's two hours and more.
    config.keepalives_idle(Duration::from_secs(30));
    config.keepalives_interval(Duration::from_secs(5));
    config.keepalives_retries(3);
    // A statement sent to a vanished node fails once the node has acknowledged nothing for this
    // long, instead of after the system's retransmissions (about 15 minutes). It bounds only
    // unacknowledged sending, not a slow statement: the node acknowledges what it receives.
    config.tcp_user_timeout(Duration::from_secs(10));
    Ok(config)
}

/// Whether every host that `url` names is this machine: `localhost`, a loopback address or a
/// Unix socket's directory. A URL that does not parse is judged elsewhere (connecting says why)
/// and counts as another machine here.
pub fn on_this_machine(url: &str) -> bool {
    let Ok(config) = parse(url) else {
        return false;
    };
    let hosts = config.get_hosts();
    !hosts.is_empty()
        && hosts.iter().all(|host| match host {
            Host::Tcp(name) => {
                name.eq_ignore_ascii_case("localhost")
                    || name
                        .trim_start_matches('[')
                        .trim_end_matches(']')
                        .parse::<IpAddr>()
                        .is_ok_and(|ip| ip.is_loopback())
            }
            Host::Unix(_) => true,
        })
}

fn parse(url: &str) -> Result<tokio_postgres::Config> {
    tokio_postgres::Config::from_str(url)
        .map_err(|e| StoreError::Pool(format!("DATABASE_URL does not parse: {e}")))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{connection_config, on_this_machine};

    #[test]
    fn the_connect_timeout_is_split_among_the_hosts_so_that_a_dead_first_leaves_time_for_the_next()
    {
        let timeout = |url| {
            *connection_config(url)
                .unwrap()
                .get_connect_timeout()
                .unwrap()
        };
        assert_eq!(
            timeout("postgres://postgres@db1/baumeister"),
            Duration::from_secs(3)
        );
        assert_eq!(
            timeout(
                "postgres://postgres@db1:5432,db2:5432/baumeister?target_session_attrs=read-write"
            ),
            Duration::from_millis(1500)
        );
        assert_eq!(
            timeout("postgres://postgres@a,b,c,d,e/baumeister"),
            Duration::from_secs(1),
            "at least a second each"
        );
        assert_eq!(
            timeout("postgres://postgres@a,b/baumeister?connect_timeout=7"),
            Duration::from_secs(7),
            "the URL's own is kept"
        );
        let config = connection_config("postgres://postgres@a,b/baumeister").unwrap();
        assert_eq!(
            config.get_tcp_user_timeout(),
            Some(&Duration::from_secs(10))
        );
        assert_eq!(config.get_keepalives_idle(), Duration::from_secs(30));
    }

    #[test]
    fn loopback_hosts_and_unix_sockets_are_this_machine() {
        for url in [
            "postgres://postgres@127.0.0.1:5432/baumeister",
            "postgres://postgres@localhost/baumeister",
            "postgres://postgres@[::1]:5432/baumeister",
            "postgres://postgres@/baumeister?host=/var/run/postgresql",
            "host=/var/run/postgresql user=postgres dbname=baumeister",
            "postgres://postgres@127.0.0.1,localhost/baumeister",
        ] {
            assert!(on_this_machine(url), "{url}");
        }
    }

    #[test]
    fn any_other_host_or_an_unparsable_url_is_another_machine() {
        for url in [
            "postgres://postgres@db.example.org/baumeister",
            "postgres://postgres@10.0.0.5:5432/baumeister",
            "postgres://postgres@127.0.0.1,db.example.org/baumeister",
            "not a url",
        ] {
            assert!(!on_this_machine(url), "{url}");
        }
    }
}
