//! Live notices, fanned out in memory. Every committed append is announced (`announce.rs`): to
//! this process's subscribers in memory, and to the others as `NOTIFY baumeister_live,
//! '<tag>/<game>:<version>:…'` sent right after the commit; the rarer changes (a seat taken,
//! an invitation) NOTIFY inside their transactions. Each process keeps ONE listening
//! connection and wakes the subscribers of that game in memory. A subscriber never polls: it is
//! woken, then reads one snapshot of its game (the streams of a game woken by one notice share
//! that read: see [`Hub`]'s wake numbers).
//! When the listening connection is lost, every subscriber is woken once it is back (a notice
//! may have been missed meanwhile), and each compares the game's version with what it sent.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, watch, Notify};
use tokio_postgres::{AsyncMessage, NoTls};

use crate::live::channels::CHANNEL;
use crate::live::channels::{CHAT_CHANNEL, REMATCH_CHANNEL};
use crate::people::chat::ChatNotice;

/// A change to one game, as the notice says it: `<game>:<version>`, and from an append
/// `:<queued>:<bots>`: how many webhook deliveries and notices it queued (only then is the
/// webhook worker woken: most commands queue none, and a worker reading the outbox after every
/// command would double the database's statements), and `1` when the game seats a bot, else
/// `0` (only then is the bot sweep woken: its read after every command of every game cost
/// PostgreSQL about 0.04 ms per command). A notice without `<bots>` (a seat taken, the turn
/// clock handing a move to its bot) wakes the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notice {
    pub game_id: i64,
    pub version: i64,
    pub queued: i64,
    /// Whether a bot may have a move to make now.
    pub wakes_bots: bool,
}

impl Notice {
    pub fn parse(payload: &str) -> Option<Notice> {
        let mut parts = payload.split(':');
        let notice = Notice {
            game_id: parts.next()?.parse().ok()?,
            version: parts.next()?.parse().ok()?,
            queued: match parts.next() {
                Some(queued) => queued.parse().ok()?,
                None => 0,
            },
            wakes_bots: match parts.next() {
                Some("0") => false,
                Some("1") | None => true,
                Some(_) => return None,
            },
        };
        parts.next().is_none().then_some(notice)
    }

    /// The payload that [`Notice::parse`] reads back: an append's, with every part.
    pub fn payload(&self) -> String {
        let Notice {
            game_id,
            version,
            queued,
            wakes_bots,
        } = self;
        format!("{game_id}:{version}:{queued}:{}", u8::from(*wakes_bots))
    }
}

/// An account was invited to a game: `invitation:<account>:<invitation>:<queued>` on the same
/// channel (a game's notice starts with a digit), queued counting its webhook deliveries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invited {
    pub account_id: i64,
    pub invitation_id: i64,
    pub queued: i64,
}

/// What the channel carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    Game(Notice),
    Invited(Invited),
    /// Another process started: notices it announced before it stopped may have been lost
    /// (see `announce.rs`), so everything is read again.
    Resync,
}

const INVITED: &str = "invitation:";

/// The payload of [`Heard::Resync`].
pub(crate) const RESYNC: &str = "resync";

impl Heard {
    pub fn parse(payload: &str) -> Option<Heard> {
        if payload == RESYNC {
            return Some(Heard::Resync);
        }
        let Some(rest) = payload.strip_prefix(INVITED) else {
            return Notice::parse(payload).map(Heard::Game);
        };
        let mut parts = rest.split(':');
        let invited = Invited {
            account_id: parts.next()?.parse().ok()?,
            invitation_id: parts.next()?.parse().ok()?,
            queued: parts.next()?.parse().ok()?,
        };
        parts.next().is_none().then_some(Heard::Invited(invited))
    }
}

/// The payload of an [`Invited`] notice.
pub(crate) fn invitation_payload(account: i64, invitation: i64, queued: i64) -> String {
    format!("{INVITED}{account}:{invitation}:{queued}")
}

/// What an account's subscriber is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountNotice {
    /// This game of the account changed.
    Game(i64),
    /// A message at the table of a game the account sits at (or its removal).
    Chat(ChatNotice),
    /// The account was invited (this invitation's id).
    Invitation(i64),
    /// The rematch proposal of this finished game of the account changed.
    Rematch(i64),
    /// Notices may have been missed: read everything again.
    Resync,
}

/// What a game's subscriber is told of its chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChat {
    /// A message was stored, or removed.
    Message(ChatNotice),
    /// Notices may have been missed: read the chat after the last message sent.
    Resync,
}

/// A game's subscribers: its changes (a wake number) and its chat.
struct GameSenders {
    /// The hub's wake number of the game's latest notice (see `Hub::wakes`).
    changes: watch::Sender<u64>,
    chat: broadcast::Sender<GameChat>,
}

/// This process's name on the channel: random, so that processes on several machines differ.
pub(crate) struct Tag(pub String);

impl Default for Tag {
    fn default() -> Tag {
        let mut bytes = [0u8; 8];
        getrandom::getrandom(&mut bytes).expect("the system's random source");
        Tag(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }
}

impl std::ops::Deref for Tag {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// Notices queued for the other processes and not yet sent; beyond this many the oldest are
/// dropped (only when PostgreSQL cannot take them for long: see `announce.rs`).
const OUTGOING_AT_MOST: usize = 100_000;

/// The subscribers of this process.
#[derive(Default)]
pub struct Hub {
    /// Per game: a wake number set on every notice (subscribers compare versions themselves).
    games: Mutex<HashMap<i64, GameSenders>>,
    /// Wake numbers, counted over every game and never given twice in a process: a read that a
    /// subscriber began after seeing number `n` serves every subscriber that sees `n` (it began
    /// after the notice that set it), which lets the streams of a game share one read per
    /// notice. A per-game counter would start again at 0 when a game's last subscriber leaves.
    wakes: AtomicU64,
    /// Per account: the games that changed.
    accounts: Mutex<HashMap<i64, broadcast::Sender<AccountNotice>>>,
    /// Wakes the webhook worker (an append may have queued deliveries).
    pub outbox: Notify,
    /// Wakes the worker of notices to people (email and push; `notices/`), on the same notices.
    pub notices: Notify,
    /// Wakes the bot sweep (a game changed: a bot may be to act).
    pub bots: Notify,
    /// This process's tag on the channel.
    pub(crate) tag: Tag,
    /// Committed appends' notices for the other processes (see `announce.rs`).
    outgoing: Mutex<std::collections::VecDeque<String>>,
    pub(crate) outgoing_ready: Notify,
    /// Whether a sender task runs (without one nothing is queued: a process that only runs
    /// commands, like the command line's, has nobody to tell).
    pub(crate) sending: AtomicBool,
    /// Whether other processes listen on this database, as last looked up (see
    /// `announce.rs`): `None` until first looked up, when notices are sent.
    pub(crate) peers: Mutex<Option<(bool, std::time::Instant)>>,
}

/// A subscription to one game; unsubscribes when dropped.
pub struct GameWatch {
    hub: Arc<Hub>,
    game_id: i64,
    /// The game's wake number (see [`Hub`]'s `wakes`): changed on every notice.
    pub changes: watch::Receiver<u64>,
    /// The game's chat messages and removals (a lagging subscriber reads what it missed).
    pub chat: broadcast::Receiver<GameChat>,
}

impl Drop for GameWatch {
    fn drop(&mut self) {
        let mut games = self.hub.games.lock().unwrap();
        if let Some(sender) = games.get(&self.game_id) {
            // This receiver is still alive here: it is the last one when the count is 1.
            if sender.changes.receiver_count() <= 1 {
                games.remove(&self.game_id);
            }
        }
    }
}

/// A subscription to an account's games; unsubscribes when dropped.
pub struct AccountWatch {
    hub: Arc<Hub>,
    account_id: i64,
    pub changes: broadcast::Receiver<AccountNotice>,
}

impl Drop for AccountWatch {
    fn drop(&mut self) {
        let mut accounts = self.hub.accounts.lock().unwrap();
        if let Some(sender) = accounts.get(&self.account_id) {
            if sender.receiver_count() <= 1 {
                accounts.remove(&self.account_id);
            }
        }
    }
}

impl Hub {
    pub fn watch_game(self: &Arc<Self>, game_id: i64) -> GameWatch {
        let mut games = self.games.lock().unwrap();
        let senders = games.entry(game_id).or_insert_with(|| GameSenders {
            changes: watch::channel(self.wakes.load(Ordering::Relaxed)).0,
            chat: broadcast::channel(64).0,
        });
        GameWatch {
            hub: self.clone(),
            game_id,
            changes: senders.changes.subscribe(),
            chat: senders.chat.subscribe(),
        }
    }

    pub fn watch_account(self: &Arc<Self>, account_id: i64) -> AccountWatch {
        let changes = self
            .accounts
            .lock()
            .unwrap()
            .entry(account_id)
            .or_insert_with(|| broadcast::channel(256).0)
            .subscribe();
        AccountWatch {
            hub: self.clone(),
            account_id,
            changes,
        }
    }

    /// Wakes the game's subscribers.
    pub fn game_changed(&self, game_id: i64) {
        if let Some(sender) = self.games.lock().unwrap().get(&game_id) {
            sender.changes.send_replace(self.wake());
        }
    }

    /// A wake number never given before (called with `games` locked).
    fn wake(&self) -> u64 {
        self.wakes.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Tells the game's subscribers of a chat message or removal.
    pub fn chat_changed(&self, notice: ChatNotice) {
        if let Some(sender) = self.games.lock().unwrap().get(&notice.game_id) {
            let _ = sender.chat.send(GameChat::Message(notice));
        }
    }

    /// Tells these accounts' subscribers of a table message (or removal) at one of their games.
    pub fn accounts_chat(&self, accounts: &[i64], notice: ChatNotice) {
        let subscribers = self.accounts.lock().unwrap();
        for account in accounts {
            if let Some(sender) = subscribers.get(account) {
                let _ = sender.send(AccountNotice::Chat(notice));
            }
        }
    }

    /// Tells these accounts' subscribers that the rematch proposal of `game_id` changed.
    pub fn accounts_rematch(&self, accounts: &[i64], game_id: i64) {
        let subscribers = self.accounts.lock().unwrap();
        for account in accounts {
            if let Some(sender) = subscribers.get(account) {
                let _ = sender.send(AccountNotice::Rematch(game_id));
            }
        }
    }

    /// Whether any account follows its games in this process (only then are seats looked up).
    pub fn follows_accounts(&self) -> bool {
        !self.accounts.lock().unwrap().is_empty()
    }

    /// Tells these accounts' subscribers that `game_id` changed.
    pub fn accounts_changed(&self, accounts: &[i64], game_id: i64) {
        let subscribers = self.accounts.lock().unwrap();
        for account in accounts {
            if let Some(sender) = subscribers.get(account) {
                let _ = sender.send(AccountNotice::Game(game_id));
            }
        }
    }

    /// Tells the account's subscribers of a new invitation.
    pub fn invited(&self, account: i64, invitation: i64) {
        if let Some(sender) = self.accounts.lock().unwrap().get(&account) {
            let _ = sender.send(AccountNotice::Invitation(invitation));
        }
    }

    /// Queues a committed append's notice for the other processes.
    pub(crate) fn queue_outgoing(&self, notice: String) {
        if !self.sending.load(Ordering::Relaxed) {
            return;
        }
        let mut outgoing = self.outgoing.lock().unwrap();
        if outgoing.len() >= OUTGOING_AT_MOST {
            outgoing.pop_front();
        }
        outgoing.push_back(notice);
        drop(outgoing);
        self.outgoing_ready.notify_one();
    }

    /// At most `limit` queued notices, the oldest first.
    pub(crate) fn take_outgoing(&self, limit: usize) -> Vec<String> {
        let mut outgoing = self.outgoing.lock().unwrap();
        let n = outgoing.len().min(limit);
        outgoing.drain(..n).collect()
    }

    /// Wakes everybody: notices may have been missed.
    pub fn resync(&self) {
        for sender in self.games.lock().unwrap().values() {
            sender.changes.send_replace(self.wake());
            let _ = sender.chat.send(GameChat::Resync);
        }
        for sender in self.accounts.lock().unwrap().values() {
            let _ = sender.send(AccountNotice::Resync);
        }
        self.outbox.notify_one();
        self.notices.notify_one();
    }
}

/// The payload a notice of this process is sent with: `<tag>/<notice>`.
pub(crate) fn tagged(tag: &str, notice: &str) -> String {
    format!("{tag}/{notice}")
}

/// What a payload heard on the channel is for this process: `None` when it is this process's
/// own (already delivered in memory), else the notice without its sender's tag.
pub(crate) fn from_others<'a>(own_tag: &str, payload: &'a str) -> Option<&'a str> {
    match payload.split_once('/') {
        Some((tag, _)) if tag == own_tag => None,
        Some((_, notice)) => Some(notice),
        None => Some(payload),
    }
}

/// The `application_name` of a process's listening connection.
pub(crate) fn listener_name(tag: &str) -> String {
    format!("{LISTENER_PREFIX}{tag}")
}

pub(crate) const LISTENER_PREFIX: &str = "baumeister-live-";

/// Listens on one connection, forever, handing each game notice to `deliver`, each chat
/// notice to `deliver_chat` and each rematch notice (a game id) to `deliver_rematch`; reconnects with a growing pause when the connection is lost, then
/// calls `reconnected`.
pub(crate) async fn listen(
    mut config: tokio_postgres::Config,
    own_tag: &str,
    deliver: impl Fn(Heard) + Send + Sync,
    deliver_chat: impl Fn(ChatNotice) + Send + Sync,
    deliver_rematch: impl Fn(i64) + Send + Sync,
    reconnected: impl Fn(),
) {
    let mut pause = Duration::from_millis(100);
    loop {
        // Named after the process, so that each process can see whether others listen.
        config.application_name(listener_name(own_tag));
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    loop {
                        match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                            Some(Ok(AsyncMessage::Notification(n))) => {
                                let channel = n.channel().to_string();
                                if tx.send((channel, n.payload().to_string())).is_err() {
                                    return;
                                }
                            }
                            Some(Ok(_)) => {}
                            Some(Err(e)) => {
                                tracing::warn!(error = %e, "the live listener's connection failed");
                                return;
                            }
                            None => return,
                        }
                    }
                });
                match client
                    .batch_execute(&format!(
                        "LISTEN {CHANNEL}; LISTEN {CHAT_CHANNEL}; LISTEN {REMATCH_CHANNEL}"
                    ))
                    .await
                {
                    Ok(()) => {
                        pause = Duration::from_millis(100);
                        reconnected();
                        while let Some((channel, payload)) = rx.recv().await {
                            if channel == REMATCH_CHANNEL {
                                match payload.parse() {
                                    Ok(game_id) => deliver_rematch(game_id),
                                    Err(_) => {
                                        tracing::warn!(%payload, "an unreadable rematch notice")
                                    }
                                }
                                continue;
                            }
                            if channel == CHAT_CHANNEL {
                                match ChatNotice::parse(&payload) {
                                    Some(notice) => deliver_chat(notice),
                                    None => tracing::warn!(%payload, "an unreadable chat notice"),
                                }
                                continue;
                            }
                            // This process's own notices were delivered in memory already.
                            let Some(notice) = from_others(own_tag, &payload) else {
                                continue;
                            };
                            match Heard::parse(notice) {
                                Some(notice) => deliver(notice),
                                None => tracing::warn!(%payload, "an unreadable live notice"),
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "LISTEN failed"),
                }
                driver.abort();
            }
            Err(e) => tracing::warn!(error = %e, "the live listener cannot connect"),
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(5));
    }
}

#[cfg(test)]
mod tests {
    use super::{from_others, invitation_payload, tagged, Heard, Invited, Notice};

    #[test]
    fn a_notice_names_the_game_its_version_and_what_it_queued() {
        let notice = |game_id, version, queued, wakes_bots| Notice {
            game_id,
            version,
            queued,
            wakes_bots,
        };
        assert_eq!(Notice::parse("42:17:2:0"), Some(notice(42, 17, 2, false)));
        assert_eq!(
            Notice::parse("42:17:0:1"),
            Some(notice(42, 17, 0, true)),
            "a game with a bot"
        );
        assert_eq!(
            Notice::parse("42:0"),
            Some(notice(42, 0, 0, true)),
            "a seat taken"
        );
        for bad in ["", "42", "x:1", "42:1:y", "42:1:2:3", "42:1:2:1:0"] {
            assert_eq!(Notice::parse(bad), None, "{bad:?}");
        }
        for written in [notice(42, 17, 2, false), notice(42, 17, 0, true)] {
            assert_eq!(Notice::parse(&written.payload()), Some(written));
        }
        assert_eq!(notice(42, 17, 2, false).payload(), "42:17:2:0");
    }

    #[test]
    fn an_invitation_notice_names_the_account_the_invitation_and_what_it_queued() {
        let payload = invitation_payload(7, 9, 1);
        assert_eq!(
            Heard::parse(&payload),
            Some(Heard::Invited(Invited {
                account_id: 7,
                invitation_id: 9,
                queued: 1
            }))
        );
        assert!(matches!(Heard::parse("42:17:2"), Some(Heard::Game(_))));
        assert_eq!(
            Heard::parse("resync"),
            Some(Heard::Resync),
            "another process started"
        );
        for bad in [
            "invitation:",
            "invitation:7:9",
            "invitation:7:9:1:2",
            "invitation:x:9:1",
        ] {
            assert_eq!(Heard::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_process_skips_its_own_notices_and_reads_the_others_and_the_untagged() {
        let mine = tagged("a1", "42:17:0:1");
        assert_eq!(from_others("a1", &mine), None);
        assert_eq!(from_others("b2", &mine), Some("42:17:0:1"));
        assert_eq!(
            from_others("a1", "42:0"),
            Some("42:0"),
            "a notice sent inside a transaction (a seat taken) has no tag"
        );
        assert_eq!(
            from_others("a1", "invitation:7:9:1"),
            Some("invitation:7:9:1")
        );
    }
}
