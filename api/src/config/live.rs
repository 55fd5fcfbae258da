//! Live streams and webhooks.

use std::env;
use std::time::Duration;

use super::env::{at_least_a_second, number, seconds, switch};

/// Live streams and webhooks (docs/api.md, "Following your games").
#[derive(Clone, Debug)]
pub struct Live {
    /// `STREAM_KEEPALIVE_SECONDS`: how often a quiet stream sends a comment line.
    pub keepalive: Duration,
    /// `WEBHOOK_ALLOW_PRIVATE`: deliver to loopback, private and link-local addresses too.
    pub allow_private: bool,
    /// `WEBHOOK_RETRY_BASE_SECONDS`: the pause after the first failed attempt, doubled after
    /// each further one (at most an hour).
    pub retry_base: Duration,
    /// `WEBHOOK_MAX_ATTEMPTS`: attempts before a delivery is given up.
    pub max_attempts: i32,
    /// `WEBHOOK_TIMEOUT_SECONDS`: how long one attempt may take.
    pub timeout: Duration,
    /// `DEADLINE_SOON_MINUTES`: how long before a deadline `deadline_soon` is sent.
    pub deadline_soon: Duration,
    /// `STREAMS_PER_ADDRESS`: live streams one client address may hold open (per process).
    pub streams_per_address: usize,
    /// `WEBHOOK_DELIVERY`: whether this process sends webhook deliveries (`off`: another
    /// process sends them, or none is to leave this machine, as in the fuzz test; tests also
    /// stop a process between a command and its delivery with it).
    pub deliver: bool,
    /// How webhook hosts are looked up: the system's resolver (tests answer for themselves,
    /// e.g. differently at registration and at delivery).
    pub resolver: crate::live::resolve::Resolver,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            keepalive: Duration::from_secs(15),
            allow_private: false,
            retry_base: Duration::from_secs(10),
            max_attempts: 12,
            timeout: Duration::from_secs(10),
            deadline_soon: Duration::from_secs(60 * 60),
            streams_per_address: 50,
            deliver: true,
            resolver: Default::default(),
        }
    }
}

impl Live {
    pub(super) fn from_env() -> Result<Live, String> {
        let d = Live::default();
        Ok(Live {
            keepalive: at_least_a_second("STREAM_KEEPALIVE_SECONDS", d.keepalive)?,
            allow_private: match env::var("WEBHOOK_ALLOW_PRIVATE").as_deref() {
                Ok("1") | Ok("true") | Ok("yes") => true,
                Ok("0") | Ok("false") | Ok("no") | Ok("") | Err(_) => false,
                Ok(v) => {
                    return Err(format!(
                        "WEBHOOK_ALLOW_PRIVATE is `true` or `false`, not `{v}`"
                    ))
                }
            },
            retry_base: seconds("WEBHOOK_RETRY_BASE_SECONDS", d.retry_base)?,
            max_attempts: number("WEBHOOK_MAX_ATTEMPTS", d.max_attempts as u64)?.clamp(1, 100)
                as i32,
            timeout: seconds("WEBHOOK_TIMEOUT_SECONDS", d.timeout)?.max(Duration::from_secs(1)),
            deadline_soon: Duration::from_secs(
                60 * number("DEADLINE_SOON_MINUTES", d.deadline_soon.as_secs() / 60)?,
            ),
            streams_per_address: number("STREAMS_PER_ADDRESS", d.streams_per_address as u64)?.max(1)
                as usize,
            deliver: switch("WEBHOOK_DELIVERY", true)?,
            resolver: d.resolver,
        })
    }
}
