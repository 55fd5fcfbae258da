//! Configuration from the environment, with defaults that work on a developer's machine: a
//! file per concern (every variable: docs/configuration.md, which a test holds to this code).

mod accounts;
mod bots;
mod env;
mod limits;
mod live;
mod notices;
mod operations;
pub(crate) mod private_file;
mod signing;
mod timeouts;

use std::env as process_env;

pub use self::accounts::AccountCare;
pub use self::bots::Bots;
pub use self::live::Live;
pub use self::notices::Notices;
pub use self::operations::{LogFormat, Operations};
pub use self::signing::SigningKeySource;
pub use self::timeouts::ClientTimeouts;
pub use crate::limits::Limits;
use env::{at_least_one, number, switch, text};

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/baumeister";

/// The shortest `JWT_SECRET` accepted: HS256 is only as strong as its secret.
pub const MIN_SECRET_BYTES: usize = 32;

#[derive(Clone, Debug)]
pub struct Config {
    /// `BIND`: where to listen.
    pub bind: String,
    /// `DATABASE_URL`.
    pub database_url: String,
    /// `JWT_SECRET`; `None` means a random one for this process only.
    pub jwt_secret: Option<String>,
    /// `TOKEN_TTL_SECONDS`: how long a token is valid.
    pub token_ttl_seconds: u64,
    /// `DATABASE_POOL_SIZE`.
    pub pool_size: usize,
    /// `WORKERS`: HTTP worker threads (default: [`default_workers`]).
    pub workers: usize,
    /// `CLIENT_ADDRESS_HEADER`: behind a reverse proxy, the header in which it passes the
    /// client's address (e.g. `X-Real-IP`); unset, the address is the connection's peer.
    pub client_address_header: Option<String>,
    pub limits: Limits,
    /// Live streams and webhooks.
    pub live: Live,
    /// Notices to people: email and Web Push.
    pub notices: Notices,
    /// `SIGNING_KEY` (64 hexadecimal digits: the Ed25519 secret seed) or `SIGNING_KEY_FILE`
    /// (a file holding them, created with a fresh key when missing); neither: a random key per
    /// process, loudly warned.
    pub signing_key: SigningKeySource,
    /// `TRUSTED_KEYS`: other servers' Ed25519 public keys (64 hexadecimal digits each, separated
    /// by commas or spaces) whose signed exports `POST /v1/games/import` accepts, besides this
    /// server's own. Empty: only this server's own exports are imported.
    pub trusted_keys: Vec<String>,
    /// `SNAPSHOT_EVERY`: a state snapshot every this many events (default 100).
    pub snapshot_every: i64,
    /// `APPEND_BATCHES`: whether players' commands to different games that arrive together
    /// are appended in one statement (`on`, the default; `off`: each alone, as before
    /// November 2026's group commit).
    pub append_batches: bool,
    pub timeouts: ClientTimeouts,
    pub bots: Bots,
    /// Password resets and deleted accounts' names.
    pub accounts: AccountCare,
    /// Metrics and stopping (`METRICS_TOKEN`, `SHUTDOWN_TIMEOUT_SECONDS`).
    pub operations: Operations,
}

/// HTTP worker threads unless `WORKERS` says otherwise: one per core, but half the cores (at
/// least one) when PostgreSQL runs on this machine. There it spends about one and a half times
/// the server's CPU per command, so a worker per core only adds threads that wait for a core:
/// on two cores one worker played as many commands per second for 13 % less of the server's
/// CPU per command (docs/performance.md, "The command path").
pub fn default_workers(cores: usize, database_here: bool) -> usize {
    if database_here {
        (cores / 2).max(1)
    } else {
        cores.max(1)
    }
}

impl Config {
    pub fn from_env() -> Result<Config, String> {
        if process_env::var_os("AUDITORS").is_some() {
            // Names in the environment could be claimed by whoever registered them first.
            tracing::warn!(
                "AUDITORS is no longer read: auditors are granted to existing accounts with \
                 `baumeister auditor grant NAME` (see docs/security.md, \"Auditors\")"
            );
        }
        let jwt_secret = process_env::var("JWT_SECRET")
            .ok()
            .filter(|s| !s.is_empty());
        if let Some(secret) = &jwt_secret {
            if secret.len() < MIN_SECRET_BYTES {
                return Err(format!(
                    "JWT_SECRET has {} bytes; use at least {MIN_SECRET_BYTES} random bytes (e.g. `openssl rand -base64 48`)",
                    secret.len()
                ));
            }
        }
        let bind = process_env::var("BIND").unwrap_or_else(|_| "127.0.0.1:8080".into());
        let database_url =
            process_env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_DATABASE_URL.into());
        Ok(Config {
            notices: Notices::from_env(&bind)?,
            bind,
            workers: match number("WORKERS", 0)? as usize {
                0 => default_workers(
                    std::thread::available_parallelism().map_or(1, |n| n.get()),
                    baumeister_storage::on_this_machine(&database_url),
                ),
                workers => workers,
            },
            database_url,
            jwt_secret,
            token_ttl_seconds: number("TOKEN_TTL_SECONDS", 7 * 24 * 3600)?,
            pool_size: number("DATABASE_POOL_SIZE", 16)? as usize,
            client_address_header: text("CLIENT_ADDRESS_HEADER"),
            limits: limits::from_env()?,
            live: Live::from_env()?,
            signing_key: SigningKeySource::from_env()?,
            trusted_keys: signing::trusted_keys(
                &process_env::var("TRUSTED_KEYS").unwrap_or_default(),
            )?,
            snapshot_every: at_least_one("SNAPSHOT_EVERY", 100)? as i64,
            append_batches: switch("APPEND_BATCHES", true)?,
            bots: Bots::from_env()?,
            timeouts: ClientTimeouts::from_env()?,
            accounts: AccountCare::from_env()?,
            operations: Operations::from_env()?,
        })
    }

    /// The JWT secret, or a random one (tokens then die with the process).
    pub fn secret_bytes(&self) -> Vec<u8> {
        match &self.jwt_secret {
            Some(s) => s.as_bytes().to_vec(),
            None => {
                tracing::warn!(
                    "JWT_SECRET is not set: using a random secret. Every token becomes invalid when \
                     the server restarts, and several servers will not accept each other's tokens. \
                     Set JWT_SECRET in production."
                );
                let mut bytes = vec![0u8; 32];
                getrandom::getrandom(&mut bytes).expect("the operating system provides entropy");
                bytes
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::default_workers;

    #[test]
    fn a_database_on_this_machine_leaves_it_half_the_cores() {
        assert_eq!(default_workers(1, true), 1);
        assert_eq!(default_workers(2, true), 1);
        assert_eq!(default_workers(3, true), 1);
        assert_eq!(default_workers(8, true), 4);
    }

    #[test]
    fn a_database_elsewhere_leaves_every_core_to_the_workers() {
        assert_eq!(default_workers(1, false), 1);
        assert_eq!(default_workers(2, false), 2);
        assert_eq!(default_workers(8, false), 8);
    }
}
