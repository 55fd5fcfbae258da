//! Baumeister's event store on PostgreSQL: accounts, the lobby, commands appended as events in
//! one transaction with their projections, and the reads that serve each viewer.

mod audit;
mod command;
mod db;
mod error;
mod live;
mod lost_connections;
pub mod notices;
pub mod pause;
mod people;
mod pools;
mod read;
mod reader;
mod readiness;
mod refusal;
mod time;
mod types;
pub mod whole_number;

pub use audit::{offline, trust};
pub use people::rating;

use std::sync::Arc;

pub use audit::chain::{Chain, GENESIS};
pub use audit::export::{Export, ExportCommand, ExportEvent, ExportSeat};
pub use audit::report::AuditReport;
pub use audit::verify::{verify_export, Difference, Verified};
pub use command::commands::{CommandRequest, Executed};
pub use command::undo::UndoRequest;
pub use db::{ensure_database, migrate, on_this_machine};
pub use error::{Class, Refusal, Result, StoreError};
pub use live::channels::REMATCH_CHANNEL;
pub use live::hub::{AccountNotice, AccountWatch, GameChat, GameWatch, Hub, Notice};
pub use live::mine::{MyGame, MyGamesFilter};
pub use live::stream::{GameRead, Seen, StreamBatch, StreamStatus};
pub use live::webhooks::{Delivery, Webhook, WebhookKind, WEBHOOKS_PER_ACCOUNT};
pub use notices::outbox::{ConfirmationMail, MailBatch, NoticeItem, PushDelivery};
pub use notices::push::{PushSubscription, PUSH_SUBSCRIPTIONS_PER_ACCOUNT};
pub use notices::settings::{NoticeChanges, NoticeSettings};
pub use notices::Language;
pub use people::account_care::{pseudonym, ResetDone, ResetRefusal, ResetTarget};
pub use people::accounts::{Account, AccountStanding};
pub use people::bots::{BotRead, BotTurn};
pub use people::chat::{
    ChatChannel, ChatFeed, ChatMessage, ChatNotice, Mute, CHAT_MAX_CHARS, MUTES_PER_ACCOUNT,
};
pub use people::invitation_bounds::InvitationBounds;
pub use people::invitations::{
    Invitation, InvitationState, Invitee, MyInvitation, DEFAULT_EXPIRY_HOURS, MAX_EXPIRY_HOURS,
};
pub use people::lobby::{LobbyFilter, Table};
pub use people::moderation::{
    ModerationAction, ModerationEntry, Suspended, Suspension, MODERATION_REASON_MAX_CHARS,
};
pub use people::rematch::{Rematch, RematchPlayer, RematchState};
pub use people::reports::{
    FiledReport, Report, ReportCategory, ReportState, ReportTarget, ReportedMessage,
    REPORT_MAX_CHARS,
};
pub use people::vacations::{VacationStatus, VACATION_DAYS_PER_YEAR};
pub use people::watch::Watching;
pub use rating::{
    KindRecord, LeaderboardEntry, PlayerProfile, RatingShown, RecentGame, RecentSeat,
};
pub use read::cache::Aggregate;
pub use read::reads::{EventFilter, Moves};
pub use read::representation::Representation;
pub use reader::Reader;
pub use readiness::{Backlog, Backlogs, MigrationState, Migrations};
pub use time::{now_ms, parse_rfc3339, rfc3339};
pub use trust::{SignedHead, Signer};
pub use types::*;

/// How many games' aggregates a process keeps in memory (least recently used out first). A game
/// not cached costs one read of its log and a fold on its next request.
const CACHED_GAMES: usize = 20_000;

/// The handle the server shares between requests.
#[derive(Clone)]
pub struct Store {
    pool: pools::Pools,
    /// The batches of common appends, with connections of their own (see `batch.rs`).
    batches: Arc<command::batch::Batches>,
    /// Whether appends go in batches at all (`APPEND_BATCHES`).
    batching: bool,
    cache: Arc<read::cache::Cache>,
    pauses: Arc<pause::PausePoints>,
    /// This process's live subscribers (see `live::hub`).
    hub: Arc<Hub>,
    /// Where the live listener connects.
    url: Arc<str>,
    trust: Arc<trust::Trust>,
    clock: Arc<time::Clock>,
}

impl Store {
    /// Creates the database if needed, applies migrations and opens `pool_size` connections
    /// at most, split between the calling thread and `workers` HTTP worker threads.
    pub async fn connect(url: &str, pool_size: usize, workers: usize) -> Result<Store> {
        ensure_database(url).await?;
        migrate(url).await?;
        Ok(Store {
            pool: db::pools(url, pool_size, workers)?,
            batches: Arc::new(command::batch::Batches::new(db::pools(
                url,
                command::batch::IN_FLIGHT * (workers + 1),
                workers,
            )?)),
            batching: true,
            cache: Arc::new(read::cache::Cache::new(CACHED_GAMES)),
            pauses: Arc::default(),
            hub: Arc::default(),
            url: url.into(),
            trust: Arc::new(trust::Trust::new(Signer::random())),
            clock: Arc::default(),
        })
    }

    /// The store signing with `signer` (by default a random key per process). Call it before
    /// cloning the store.
    pub fn with_signer(mut self, signer: Signer) -> Store {
        Arc::get_mut(&mut self.trust)
            .expect("not yet cloned")
            .signer = signer;
        self
    }

    /// The store importing exports whose heads are signed by one of `keys` (hexadecimal
    /// Ed25519 public keys: `TRUSTED_KEYS`) besides its own. Call it before cloning the store.
    pub fn with_trusted_keys(mut self, keys: Vec<String>) -> Store {
        Arc::get_mut(&mut self.trust)
            .expect("not yet cloned")
            .trusted = keys.into_iter().map(|k| k.to_ascii_lowercase()).collect();
        self
    }

    /// The store appending players' commands to different games in batches (`on`, the
    /// default) or each alone (see `batch.rs`; `APPEND_BATCHES`).
    pub fn with_append_batches(mut self, on: bool) -> Store {
        self.batching = on;
        self
    }

    /// The store snapshotting every `every` events (`SNAPSHOT_EVERY`, default 100; at least 1).
    /// Call it before cloning the store, and after [`Store::with_signer`].
    pub fn with_snapshot_every(mut self, every: i64) -> Store {
        Arc::get_mut(&mut self.trust)
            .expect("not yet cloned")
            .snapshot_every = every.max(1);
        self
    }

    /// The public key this server signs chain heads with, hexadecimal.
    pub fn public_key(&self) -> String {
        self.trust.signer.public_key()
    }

    /// Now, by the store's clock: the time every command, deadline and vacation is judged by.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Moves this store's clock (and the server's that shares it) forward, so that a test sees
    /// turn clocks and vacations run out without waiting.
    #[cfg(feature = "pause-points")]
    pub fn advance_clock(&self, ms: i64) {
        self.clock.advance(ms);
    }

    /// Stops the next request that reaches `point` (see [`pause`]) until the test resumes it.
    #[cfg(feature = "pause-points")]
    pub fn pause_at(&self, point: &'static str) -> pause::Paused {
        self.pauses.arm(point)
    }

    /// Answers when the database does.
    pub async fn health(&self) -> Result<()> {
        let client = self.pool.get().await?;
        client.query_one("SELECT 1", &[]).await?;
        Ok(())
    }

    /// The kind of a game this process has in memory (a metric's label, read without a
    /// statement); `None` when it is not cached.
    pub fn cached_kind(&self, game_id: i64) -> Option<&'static str> {
        self.cache.get(game_id).map(|a| a.game.kind())
    }
}

/// A fresh RNG seed from the operating system's entropy. Seeds are stored with their command, so
/// they need not stay secret after use, only be unpredictable to players beforehand.
pub(crate) fn fresh_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::getrandom(&mut bytes).expect("the operating system provides entropy");
    u64::from_le_bytes(bytes)
}
