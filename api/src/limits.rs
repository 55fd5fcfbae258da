//! Abuse limits: keyed token buckets with bounded memory. Each key (a client address, an account,
//! an account name) has a bucket of `burst` tokens that refills at `burst / period`; a request
//! takes one token or is refused with the time until the next one (`Retry-After`).

use std::collections::HashMap;
use std::future::{ready, Ready};
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};

use crate::error::{ApiError, ApiResult};
use crate::AppState;

/// Abuse limits (see docs/security.md, "Limits"). `None` is no limit.
#[derive(Clone, Debug)]
pub struct Limits {
    /// `LIMIT_COMMANDS`: commands, games created and seats taken, per account.
    pub commands: Option<Rate>,
    /// `LIMIT_LOGINS`: `POST /v1/tokens` per client address.
    pub logins: Option<Rate>,
    /// `LIMIT_REGISTRATIONS`: `POST /v1/accounts` per client address.
    pub registrations: Option<Rate>,
    /// `LIMIT_NAME_ATTEMPTS`: logins and registrations per account name.
    pub name_attempts: Option<Rate>,
    /// `LIMIT_EXPENSIVE_READS`: reads of whole logs per client address: replays, audits,
    /// exports, filtered pages of events, live streams from the start of a log.
    pub expensive_reads: Option<Rate>,
    /// `LIMIT_CHAT`: chat messages per account (both channels, every game together).
    pub chat: Option<Rate>,
    /// `LIMIT_REPORTS`: reports filed per account (docs/moderation.md).
    pub reports: Option<Rate>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            commands: Some(Rate::per(120, 10)),
            logins: Some(Rate::per(20, 60)),
            registrations: Some(Rate::per(10, 60)),
            name_attempts: Some(Rate::per(6, 60)),
            expensive_reads: Some(Rate::per(60, 10)),
            chat: Some(Rate::per(10, 10)),
            reports: Some(Rate::per(10, 3600)),
        }
    }
}

/// How many requests a key may make: bursts of `burst`, `burst` per `period` on average.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub burst: u32,
    pub period: Duration,
}

impl Rate {
    pub const fn per(burst: u32, seconds: u64) -> Rate {
        Rate {
            burst,
            period: Duration::from_secs(seconds),
        }
    }

    /// `N/S` (N requests per S seconds), or `off`.
    pub fn parse(text: &str) -> Option<Option<Rate>> {
        let text = text.trim();
        if text == "off" {
            return Some(None);
        }
        let (burst, seconds) = text.split_once('/')?;
        let burst: u32 = burst.trim().parse().ok().filter(|b| *b > 0)?;
        let seconds: u64 = seconds
            .trim()
            .trim_end_matches('s')
            .parse()
            .ok()
            .filter(|s| *s > 0)?;
        Some(Some(Rate::per(burst, seconds)))
    }

    /// Seconds per token.
    fn interval(&self) -> f64 {
        self.period.as_secs_f64() / f64::from(self.burst)
    }
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.burst, self.period.as_secs())
    }
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Token buckets by key. At most `capacity` keys are remembered: when full, buckets that have
/// refilled completely are forgotten first (forgetting them changes nothing), then arbitrary
/// ones (an attacker who floods keys can only hand fresh buckets to others, never take tokens
/// from them).
pub struct Limiter<K> {
    rate: Option<Rate>,
    capacity: usize,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// `None` means no limit.
    pub fn new(rate: Option<Rate>, capacity: usize) -> Self {
        Limiter {
            rate,
            capacity,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token of `key`'s bucket, or says how long until one is there.
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: &K, now: Instant) -> Result<(), Duration> {
        let Some(rate) = self.rate else {
            return Ok(());
        };
        let burst = f64::from(rate.burst);
        let interval = rate.interval();
        let mut buckets = self.buckets.lock().unwrap();
        if buckets.len() >= self.capacity && !buckets.contains_key(key) {
            let refilled = |b: &Bucket| {
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() / interval >= burst
            };
            buckets.retain(|_, b| !refilled(b));
            while buckets.len() >= self.capacity {
                let any = buckets.keys().next().cloned().expect("not empty");
                buckets.remove(&any);
            }
        }
        let bucket = buckets.entry(key.clone()).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed / interval).min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) * interval))
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.buckets.lock().unwrap().len()
    }
}

/// How many keys each limiter remembers at most.
const KEYS_KEPT: usize = 100_000;

/// The server's limiters (see [`Limits`] for what each counts).
pub struct Limiters {
    pub commands: Limiter<i64>,
    pub logins: Limiter<IpAddr>,
    pub registrations: Limiter<IpAddr>,
    pub name_attempts: Limiter<String>,
    pub expensive_reads: Limiter<IpAddr>,
    pub chat: Limiter<i64>,
    pub reports: Limiter<i64>,
}

impl Limiters {
    pub fn new(limits: &Limits) -> Self {
        Limiters {
            commands: Limiter::new(limits.commands, KEYS_KEPT),
            logins: Limiter::new(limits.logins, KEYS_KEPT),
            registrations: Limiter::new(limits.registrations, KEYS_KEPT),
            name_attempts: Limiter::new(limits.name_attempts, KEYS_KEPT),
            expensive_reads: Limiter::new(limits.expensive_reads, KEYS_KEPT),
            chat: Limiter::new(limits.chat, KEYS_KEPT),
            reports: Limiter::new(limits.reports, KEYS_KEPT),
        }
    }
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// Takes a token, or refuses with 429 `rate_limited` naming `what` was too many.
    pub fn take(&self, key: &K, what: &str) -> ApiResult<()> {
        self.check(key)
            .map_err(|wait| ApiError::rate_limited(what, wait))
    }
}

impl Limiters {
    /// A command, a game created or a seat taken by `account`.
    pub fn write(&self, account: i64) -> ApiResult<()> {
        self.commands.take(&account, "commands from this account")
    }

    /// A chat message by `account` (its own bucket: chatting does not use up commands).
    pub fn chat(&self, account: i64) -> ApiResult<()> {
        self.chat.take(&account, "chat messages from this account")
    }

    /// A report filed by `account` (its own bucket).
    pub fn report(&self, account: i64) -> ApiResult<()> {
        self.reports.take(&account, "reports from this account")
    }

    /// A read of a whole log asked for by `client`: a replay, an audit, an export, a filtered
    /// page of events, or a live stream from the start of the log (or far behind it).
    pub fn expensive_read(&self, client: &ClientAddress) -> ApiResult<()> {
        self.expensive_reads.take(
            &client.0,
            "replays, audits and other reads of whole logs from this address",
        )
    }
}

/// The client's address, as limits count it: the connection's peer, or the address a trusted
/// reverse proxy passes in `CLIENT_ADDRESS_HEADER`. IPv6 clients count by their /64, which one
/// client usually holds whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddress(pub IpAddr);

fn client_address(req: &HttpRequest) -> IpAddr {
    let state = req.app_data::<web::Data<AppState>>();
    let forwarded = state
        .and_then(|s| s.client_address_header.as_deref())
        .and_then(|h| req.headers().get(h))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse::<IpAddr>().ok());
    let address = forwarded
        .or_else(|| req.peer_addr().map(|a| a.ip()))
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

impl FromRequest for ClientAddress {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(ClientAddress(client_address(req))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_one_request_per_interval() {
        let limiter = Limiter::new(Some(Rate::per(3, 3)), 10);
        let t = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.check_at(&"a", t), Ok(()));
        }
        let wait = limiter.check_at(&"a", t).unwrap_err();
        assert!((wait.as_secs_f64() - 1.0).abs() < 1e-6, "{wait:?}");
        assert_eq!(
            limiter.check_at(&"b", t),
            Ok(()),
            "other keys are not affected"
        );
        assert_eq!(limiter.check_at(&"a", t + Duration::from_secs(1)), Ok(()));
        assert!(limiter.check_at(&"a", t + Duration::from_secs(1)).is_err());
    }

    #[test]
    fn memory_stays_bounded_and_forgets_refilled_buckets_first() {
        let limiter = Limiter::new(Some(Rate::per(2, 10)), 3);
        let t = Instant::now();
        limiter.check_at(&0, t).unwrap();
        limiter.check_at(&0, t).unwrap();
        for key in 1..100 {
            limiter.check_at(&key, t).unwrap();
            assert!(limiter.len() <= 3);
        }
        let later = t + Duration::from_secs(60);
        for key in 100..103 {
            limiter.check_at(&key, later).unwrap();
        }
        assert_eq!(limiter.len(), 3);
    }

    #[test]
    fn no_rate_is_no_limit() {
        let limiter = Limiter::new(None, 1);
        for _ in 0..1000 {
            assert_eq!(limiter.check(&1), Ok(()));
        }
    }

    #[test]
    fn rates_parse_from_the_environment_form() {
        assert_eq!(Rate::parse("20/60"), Some(Some(Rate::per(20, 60))));
        assert_eq!(Rate::parse(" 5/10s "), Some(Some(Rate::per(5, 10))));
        assert_eq!(Rate::parse("off"), Some(None));
        for bad in ["", "20", "0/60", "20/0", "x/1", "-1/5"] {
            assert_eq!(Rate::parse(bad), None, "{bad}");
        }
    }
}
