//! Configuration from the environment, with defaults that work on a developer's machine.

use std::env;

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/baumeister";

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
    /// `AUDITORS`: comma-separated account names whose tokens see everything.
    pub auditors: Vec<String>,
    /// `DATABASE_POOL_SIZE`.
    pub pool_size: usize,
    /// `WORKERS`: HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
}

impl Config {
    pub fn from_env() -> Result<Config, String> {
        let number = |name: &str, default: u64| -> Result<u64, String> {
            match env::var(name) {
                Ok(v) => v
                    .parse()
                    .map_err(|_| format!("{name} must be a whole number, not `{v}`")),
                Err(_) => Ok(default),
            }
        };
        Ok(Config {
            bind: env::var("BIND").unwrap_or_else(|_| "127.0.0.1:8080".into()),
            database_url: env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_DATABASE_URL.into()),
            jwt_secret: env::var("JWT_SECRET").ok().filter(|s| !s.is_empty()),
            token_ttl_seconds: number("TOKEN_TTL_SECONDS", 7 * 24 * 3600)?,
            auditors: env::var("AUDITORS")
                .unwrap_or_default()
                .split(',')
                .map(|s| s.trim().to_lowercase())
                .filter(|s| !s.is_empty())
                .collect(),
            pool_size: number("DATABASE_POOL_SIZE", 16)? as usize,
            workers: match env::var("WORKERS") {
                Ok(_) => Some(number("WORKERS", 0)? as usize).filter(|w| *w > 0),
                Err(_) => None,
            },
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
