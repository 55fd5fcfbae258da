//! What an operator runs the server with besides serving: metrics, stopping, logs.

use std::time::Duration;

use super::env::{seconds, text};

/// `METRICS_TOKEN`, `SHUTDOWN_TIMEOUT_SECONDS` and `LOG_FORMAT` (docs/operations.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operations {
    /// `METRICS_TOKEN`: the bearer token `GET /metrics` wants; unset, `/metrics` answers 404 as
    /// an unknown route does.
    pub metrics_token: Option<String>,
    /// `SHUTDOWN_TIMEOUT_SECONDS`: after SIGTERM or SIGINT, how long requests in flight may take
    /// before the process exits anyway.
    pub shutdown_timeout: Duration,
}

/// The shortest `METRICS_TOKEN` accepted: it guards what the server tells about its load.
pub const MIN_METRICS_TOKEN_BYTES: usize = 16;

impl Default for Operations {
    fn default() -> Self {
        Operations {
            metrics_token: None,
            shutdown_timeout: Duration::from_secs(10),
        }
    }
}

impl Operations {
    pub(super) fn from_env() -> Result<Operations, String> {
        let metrics_token = text("METRICS_TOKEN");
        if let Some(token) = &metrics_token {
            if token.len() < MIN_METRICS_TOKEN_BYTES {
                return Err(format!(
                    "METRICS_TOKEN has {} bytes; use at least {MIN_METRICS_TOKEN_BYTES} (e.g. `openssl rand -hex 24`)",
                    token.len()
                ));
            }
        }
        Ok(Operations {
            metrics_token,
            shutdown_timeout: seconds(
                "SHUTDOWN_TIMEOUT_SECONDS",
                Operations::default().shutdown_timeout,
            )?,
        })
    }
}

/// How log lines are written: `LOG_FORMAT`, `text` (the default) or `json` (one object a line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

impl LogFormat {
    /// Read before anything else is (the logger comes first), so not part of [`super::Config`].
    pub fn from_env() -> Result<LogFormat, String> {
        match text("LOG_FORMAT").as_deref() {
            None | Some("text") => Ok(LogFormat::Text),
            Some("json") => Ok(LogFormat::Json),
            Some(other) => Err(format!("LOG_FORMAT is `text` or `json`, not `{other}`")),
        }
    }
}
