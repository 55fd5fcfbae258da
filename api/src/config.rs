//! Configuration from the environment, with defaults that work on a developer's machine.

use std::env;
use std::time::Duration;

use crate::limits::Rate;

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/baumeister";

/// The shortest `JWT_SECRET` accepted: HS256 is only as strong as its secret.
pub const MIN_SECRET_BYTES: usize = 32;

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
        }
    }
}

/// How long a client may take over its part of a connection (docs/configuration.md), so that a
/// client that trickles its request or stops reading holds a connection for seconds, not forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientTimeouts {
    /// `CLIENT_HEADER_TIMEOUT_SECONDS`: a request's line and headers, from their first byte
    /// (from the connection's start for its first request); late: 408, or the connection closed.
    pub header: Duration,
    /// `CLIENT_BODY_TIMEOUT_SECONDS`: a request's whole body, from the end of its headers;
    /// late: 408 `request_timeout` and the connection closed.
    pub body: Duration,
    /// `SEND_TIMEOUT_SECONDS`: how long a response may wait for the client to read any of it.
    pub send: Duration,
    /// `KEEP_ALIVE_SECONDS`: how long an idle connection is kept between requests.
    pub keep_alive: Duration,
    /// `CLIENT_DISCONNECT_TIMEOUT_SECONDS`: how long a closing connection waits for the client's
    /// side of the close.
    pub disconnect: Duration,
}

impl Default for ClientTimeouts {
    fn default() -> Self {
        ClientTimeouts {
            header: Duration::from_secs(5),
            body: Duration::from_secs(10),
            send: Duration::from_secs(30),
            keep_alive: Duration::from_secs(15),
            disconnect: Duration::from_secs(1),
        }
    }
}

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
}

/// How bots' thinking is shared (docs/operations.md, "Fair bots"): a bot move is CPU work, so few run at once,
/// and one account's many bot games may not hold them all (`bot_schedule.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bots {
    /// `BOT_THINKERS`: bot moves thinking at once in this process.
    pub thinkers: usize,
    /// `BOT_THINKERS_PER_ACCOUNT`: of those, at most this many of one account's games (the
    /// creator's for bots' own seats, the seat's player's for the turn clock's bot).
    pub per_account: usize,
}

impl Default for Bots {
    /// Two thinkers, one per account: a second thinker stays free for everybody else however
    /// many bot games one account runs, and bots never hold more than two cores.
    fn default() -> Self {
        Bots {
            thinkers: 2,
            per_account: 1,
        }
    }
}

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

/// Notices to people (see docs/api.md, "Email and push"): mail and Web Push.
#[derive(Clone, Debug)]
pub struct Notices {
    /// `PUBLIC_URL`: where players reach the server (links in mail and pushes).
    pub public_url: String,
    /// `SMTP_URL`: the SMTP server (`smtp://host:port` plain, `smtp://host?tls=required`,
    /// `smtps://user:password@host`). Without it no mail is sent and no address is taken.
    pub smtp_url: Option<String>,
    /// `SMTP_FROM`: the sender (`Baumeister <games@example.org>`).
    pub mail_from: String,
    /// The VAPID key (`VAPID_PRIVATE_KEY` or `VAPID_KEY_FILE`) and subject (`VAPID_SUBJECT`).
    pub vapid: crate::notices::vapid::Vapid,
    /// `NOTICE_TURN_WINDOW_MINUTES`: at most one `your_turn` per game in this time, by mail and
    /// to each device subscribed to push.
    pub turn_window: Duration,
    /// `NOTICE_RETRY_BASE_SECONDS`: the pause after the first failed attempt (then doubled).
    pub retry_base: Duration,
    /// `NOTICE_MAX_ATTEMPTS`: attempts before a notice is given up.
    pub max_attempts: i32,
    /// `NOTICE_DELIVERY=off`: this process sends no notices (another process does).
    pub deliver: bool,
    /// `INVITATION_STRANGERS_PER_DAY`: distinct accounts never played with that one account
    /// may invite in 24 hours; `INVITATION_NOTICES_FROM_STRANGERS_PER_DAY`: invitations from
    /// such accounts that one account is told of by mail and push in 24 hours (the rest are
    /// only listed).
    pub invitations: baumeister_storage::InvitationBounds,
}

impl Default for Notices {
    fn default() -> Self {
        let key = crate::notices::vapid::fresh_key();
        Notices {
            public_url: "http://127.0.0.1:8080".into(),
            smtp_url: None,
            mail_from: "Baumeister <baumeister@localhost>".into(),
            vapid: crate::notices::vapid::Vapid::new(&key, "mailto:baumeister@localhost".into()),
            turn_window: Duration::from_secs(3600),
            retry_base: Duration::from_secs(30),
            max_attempts: 8,
            deliver: true,
            invitations: Default::default(),
        }
    }
}

impl Notices {
    fn from_env(
        bind: &str,
        number: impl Fn(&str, u64) -> Result<u64, String>,
    ) -> Result<Notices, String> {
        let d = Notices::default();
        let text = |name: &str| {
            env::var(name)
                .ok()
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let public_url = text("PUBLIC_URL")
            .unwrap_or_else(|| format!("http://{bind}"))
            .trim_end_matches('/')
            .to_string();
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(format!(
                "PUBLIC_URL starts with http:// or https://, not `{public_url}`"
            ));
        }
        let mail_from = text("SMTP_FROM").unwrap_or(d.mail_from);
        let subject = text("VAPID_SUBJECT").unwrap_or_else(|| {
            let address = mail_from
                .rsplit('<')
                .next()
                .unwrap_or(&mail_from)
                .trim_end_matches('>')
                .trim();
            format!("mailto:{address}")
        });
        if !(subject.starts_with("mailto:") || subject.starts_with("https://")) {
            return Err(format!(
                "VAPID_SUBJECT is a mailto: or https: URI, not `{subject}`"
            ));
        }
        let source = match (text("VAPID_PRIVATE_KEY"), text("VAPID_KEY_FILE")) {
            (Some(key), _) => crate::notices::vapid::VapidKeySource::Key(key),
            (None, Some(path)) => crate::notices::vapid::VapidKeySource::File(path.into()),
            (None, None) => crate::notices::vapid::VapidKeySource::Random,
        };
        Ok(Notices {
            public_url,
            smtp_url: text("SMTP_URL"),
            mail_from,
            vapid: source.load(subject)?,
            turn_window: Duration::from_secs(
                60 * number("NOTICE_TURN_WINDOW_MINUTES", d.turn_window.as_secs() / 60)?,
            ),
            retry_base: Duration::from_secs(
                number("NOTICE_RETRY_BASE_SECONDS", d.retry_base.as_secs())?.max(1),
            ),
            max_attempts: number("NOTICE_MAX_ATTEMPTS", d.max_attempts as u64)?.clamp(1, 100)
                as i32,
            deliver: match env::var("NOTICE_DELIVERY").as_deref() {
                Ok("on") | Ok("") | Err(_) => true,
                Ok("off") => false,
                Ok(v) => return Err(format!("NOTICE_DELIVERY is `on` or `off`, not `{v}`")),
            },
            invitations: baumeister_storage::InvitationBounds {
                strangers_per_sender: number(
                    "INVITATION_STRANGERS_PER_DAY",
                    d.invitations.strangers_per_sender as u64,
                )?
                .min(1_000_000) as i64,
                notices_per_recipient: number(
                    "INVITATION_NOTICES_FROM_STRANGERS_PER_DAY",
                    d.invitations.notices_per_recipient as u64,
                )?
                .min(1_000_000) as i64,
            },
        })
    }
}

/// Where the key that signs chain heads comes from.
#[derive(Clone, Debug, Default)]
pub enum SigningKeySource {
    /// A random key for this process only (warned).
    #[default]
    Random,
    /// The 32-byte seed itself.
    Seed([u8; 32]),
    /// A file with the seed in hexadecimal; created when missing.
    File(std::path::PathBuf),
}

/// `TRUSTED_KEYS`: public keys separated by commas or white space.
fn trusted_keys(text: &str) -> Result<Vec<String>, String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|k| !k.is_empty())
        .map(|k| {
            let bytes = baumeister_domain::fairness::from_hex(k).filter(|b| b.len() == 32);
            match bytes {
                Some(_) => Ok(k.to_ascii_lowercase()),
                None => Err(format!(
                    "TRUSTED_KEYS holds `{k}`, which is not 64 hexadecimal digits (an Ed25519 public key, as another server's GET /v1/keys shows it)"
                )),
            }
        })
        .collect()
}

fn parse_seed(text: &str, source: &str) -> Result<[u8; 32], String> {
    baumeister_domain::fairness::from_hex(text.trim())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| {
            format!("{source} must hold 64 hexadecimal digits (an Ed25519 secret key, e.g. `openssl rand -hex 32`)")
        })
}

impl SigningKeySource {
    fn from_env() -> Result<Self, String> {
        if let Ok(seed) = env::var("SIGNING_KEY") {
            if !seed.is_empty() {
                return Ok(SigningKeySource::Seed(parse_seed(&seed, "SIGNING_KEY")?));
            }
        }
        match env::var("SIGNING_KEY_FILE") {
            Ok(path) if !path.is_empty() => Ok(SigningKeySource::File(path.into())),
            _ => Ok(SigningKeySource::Random),
        }
    }

    /// The signer; a missing key file is created with a fresh key.
    pub fn signer(&self) -> Result<baumeister_storage::Signer, String> {
        use baumeister_storage::Signer;
        match self {
            SigningKeySource::Seed(seed) => Ok(Signer::from_seed(seed)),
            SigningKeySource::File(path) => match std::fs::read_to_string(path) {
                Ok(text) => Ok(Signer::from_seed(&parse_seed(
                    &text,
                    &format!("SIGNING_KEY_FILE ({})", path.display()),
                )?)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let seed = baumeister_storage::trust::random_bytes();
                    write_private(path, &baumeister_domain::fairness::to_hex(&seed)).map_err(
                        |e| format!("cannot create SIGNING_KEY_FILE {}: {e}", path.display()),
                    )?;
                    tracing::warn!(
                        "SIGNING_KEY_FILE {} did not exist: created it with a NEW signing key. \
                         Heads signed with any earlier key no longer match GET /v1/keys; keep \
                         this file and back it up.",
                        path.display()
                    );
                    Ok(Signer::from_seed(&seed))
                }
                Err(e) => Err(format!(
                    "cannot read SIGNING_KEY_FILE {}: {e}",
                    path.display()
                )),
            },
            SigningKeySource::Random => {
                tracing::warn!(
                    "NEITHER SIGNING_KEY NOR SIGNING_KEY_FILE IS SET: chain heads are signed with \
                     a random key that dies with this process. Signatures players keep cannot be \
                     checked against GET /v1/keys after a restart. Set one in production."
                );
                Ok(Signer::random())
            }
        }
    }
}

/// Writes a file only its owner may read.
pub(crate) fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)?.write_all(text.as_bytes())
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
        let number = |name: &str, default: u64| -> Result<u64, String> {
            match env::var(name) {
                Ok(v) => v
                    .parse()
                    .map_err(|_| format!("{name} must be a whole number, not `{v}`")),
                Err(_) => Ok(default),
            }
        };
        let defaults = Limits::default();
        let rate = |name: &str, default: Option<Rate>| -> Result<Option<Rate>, String> {
            match env::var(name) {
                Ok(v) => Rate::parse(&v).ok_or_else(|| {
                    format!("{name} is `N/S` (N requests per S seconds) or `off`, not `{v}`")
                }),
                Err(_) => Ok(default),
            }
        };
        if env::var_os("AUDITORS").is_some() {
            // Names in the environment could be claimed by whoever registered them first.
            tracing::warn!(
                "AUDITORS is no longer read: auditors are granted to existing accounts with \
                 `baumeister auditor grant NAME` (see docs/security.md, \"Auditors\")"
            );
        }
        let jwt_secret = env::var("JWT_SECRET").ok().filter(|s| !s.is_empty());
        if let Some(secret) = &jwt_secret {
            if secret.len() < MIN_SECRET_BYTES {
                return Err(format!(
                    "JWT_SECRET has {} bytes; use at least {MIN_SECRET_BYTES} random bytes (e.g. `openssl rand -base64 48`)",
                    secret.len()
                ));
            }
        }
        let bind = env::var("BIND").unwrap_or_else(|_| "127.0.0.1:8080".into());
        let database_url = env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_DATABASE_URL.into());
        let notices = Notices::from_env(&bind, number)?;
        Ok(Config {
            bind,
            notices,
            database_url: database_url.clone(),
            jwt_secret,
            token_ttl_seconds: number("TOKEN_TTL_SECONDS", 7 * 24 * 3600)?,
            pool_size: number("DATABASE_POOL_SIZE", 16)? as usize,
            workers: match number("WORKERS", 0)? as usize {
                0 => default_workers(
                    std::thread::available_parallelism().map_or(1, |n| n.get()),
                    baumeister_storage::on_this_machine(&database_url),
                ),
                workers => workers,
            },
            client_address_header: env::var("CLIENT_ADDRESS_HEADER")
                .ok()
                .filter(|h| !h.is_empty()),
            limits: Limits {
                commands: rate("LIMIT_COMMANDS", defaults.commands)?,
                logins: rate("LIMIT_LOGINS", defaults.logins)?,
                registrations: rate("LIMIT_REGISTRATIONS", defaults.registrations)?,
                name_attempts: rate("LIMIT_NAME_ATTEMPTS", defaults.name_attempts)?,
                expensive_reads: rate("LIMIT_EXPENSIVE_READS", defaults.expensive_reads)?,
                chat: rate("LIMIT_CHAT", defaults.chat)?,
            },
            live: {
                let d = Live::default();
                let seconds = |name: &str, default: Duration| -> Result<Duration, String> {
                    Ok(Duration::from_secs(number(name, default.as_secs())?))
                };
                let keepalive = seconds("STREAM_KEEPALIVE_SECONDS", d.keepalive)?;
                if keepalive.is_zero() {
                    return Err("STREAM_KEEPALIVE_SECONDS must be 1 or more".into());
                }
                Live {
                    keepalive,
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
                    max_attempts: number("WEBHOOK_MAX_ATTEMPTS", d.max_attempts as u64)?
                        .clamp(1, 100) as i32,
                    timeout: seconds("WEBHOOK_TIMEOUT_SECONDS", d.timeout)?
                        .max(Duration::from_secs(1)),
                    deadline_soon: Duration::from_secs(
                        60 * number("DEADLINE_SOON_MINUTES", d.deadline_soon.as_secs() / 60)?,
                    ),
                    streams_per_address: number(
                        "STREAMS_PER_ADDRESS",
                        d.streams_per_address as u64,
                    )?
                    .max(1) as usize,
                    deliver: match env::var("WEBHOOK_DELIVERY").as_deref() {
                        Ok("on") | Ok("") | Err(_) => true,
                        Ok("off") => false,
                        Ok(v) => {
                            return Err(format!("WEBHOOK_DELIVERY is `on` or `off`, not `{v}`"))
                        }
                    },
                    resolver: d.resolver,
                }
            },
            signing_key: SigningKeySource::from_env()?,
            trusted_keys: trusted_keys(&env::var("TRUSTED_KEYS").unwrap_or_default())?,
            snapshot_every: match number("SNAPSHOT_EVERY", 100)? {
                0 => return Err("SNAPSHOT_EVERY must be 1 or more".into()),
                n => n as i64,
            },
            append_batches: match env::var("APPEND_BATCHES").as_deref() {
                Ok("on") | Ok("") | Err(_) => true,
                Ok("off") => false,
                Ok(v) => return Err(format!("APPEND_BATCHES is `on` or `off`, not `{v}`")),
            },
            bots: {
                let d = Bots::default();
                let at_least_one = |name: &str, default: usize| match number(name, default as u64)?
                {
                    0 => Err(format!("{name} must be 1 or more")),
                    n => Ok(n as usize),
                };
                Bots {
                    thinkers: at_least_one("BOT_THINKERS", d.thinkers)?,
                    per_account: at_least_one("BOT_THINKERS_PER_ACCOUNT", d.per_account)?,
                }
            },
            timeouts: {
                let d = ClientTimeouts::default();
                let seconds = |name: &str, default: Duration| -> Result<Duration, String> {
                    match number(name, default.as_secs())? {
                        0 => Err(format!("{name} must be 1 or more")),
                        n => Ok(Duration::from_secs(n)),
                    }
                };
                ClientTimeouts {
                    header: seconds("CLIENT_HEADER_TIMEOUT_SECONDS", d.header)?,
                    body: seconds("CLIENT_BODY_TIMEOUT_SECONDS", d.body)?,
                    send: seconds("SEND_TIMEOUT_SECONDS", d.send)?,
                    keep_alive: seconds("KEEP_ALIVE_SECONDS", d.keep_alive)?,
                    disconnect: seconds("CLIENT_DISCONNECT_TIMEOUT_SECONDS", d.disconnect)?,
                }
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
