//! Following games: live notices across server processes, the "my games" list, live
//! streams judged one snapshot at a time, and webhooks with their outbox.

pub mod announce;
pub mod channels;
pub mod hub;
pub mod mine;
pub(crate) mod outbox;
pub mod stream;
pub mod webhooks;

use crate::Store;

impl Store {
    /// The process's live listener: one connection that LISTENs and wakes this process's
    /// subscribers and webhook worker. Spawn it once per server process.
    pub async fn listen(self) {
        let config = match crate::db::connection_config(&self.url) {
            Ok(config) => config,
            Err(e) => {
                tracing::error!(error = %e, "no live notices");
                return;
            }
        };
        let hub = self.hub.clone();
        let store = self.clone();
        let first_connection = std::sync::atomic::AtomicBool::new(true);
        hub::listen(
            config,
            &hub.tag,
            move |heard| store.heard(heard),
            {
                let store = self.clone();
                move |notice| {
                    store.hub.chat_changed(notice);
                    // The players' own streams carry their tables' chat, not the spectators'.
                    if notice.channel == crate::ChatChannel::Table && store.hub.follows_accounts() {
                        let store = store.clone();
                        tokio::spawn(async move {
                            if let Some(accounts) = store.seated_accounts(notice.game_id).await {
                                store.hub.accounts_chat(&accounts, notice);
                            }
                        });
                    }
                }
            },
            {
                let store = self.clone();
                move |game_id| {
                    if store.hub.follows_accounts() {
                        let store = store.clone();
                        tokio::spawn(async move {
                            if let Some(accounts) = store.seated_accounts(game_id).await {
                                store.hub.accounts_rematch(&accounts, game_id);
                            }
                        });
                    }
                }
            },
            || {
                hub.resync();
                // Once per process: tell the others to read everything again, for what this
                // process may have announced and not sent before it last stopped
                // (`announce.rs`).
                if first_connection.swap(false, std::sync::atomic::Ordering::Relaxed) {
                    hub.queue_outgoing(hub::RESYNC.to_string());
                    // The others send to this process from when they hear that, or at the latest
                    // when their last look-up of the listeners (made before this one connected)
                    // has expired: what they committed until then is caught up by reading
                    // everything once more, after twice that.
                    let hub = hub.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(2 * announce::PEERS_HOLD).await;
                        hub.resync();
                    });
                }
            },
        )
        .await
    }

    /// Wakes what a notice concerns in this process: the game's subscribers, the bots, the
    /// webhook and notice workers, the seated accounts' subscribers.
    pub(crate) fn heard(&self, heard: hub::Heard) {
        let notice = match heard {
            hub::Heard::Game(notice) => notice,
            hub::Heard::Invited(invited) => {
                if invited.queued > 0 {
                    self.hub.outbox.notify_one();
                    self.hub.notices.notify_one();
                }
                self.hub.invited(invited.account_id, invited.invitation_id);
                return;
            }
            hub::Heard::Resync => {
                // Another process started: from now on this one's notices are for it too.
                *self.hub.peers.lock().unwrap() = Some((true, std::time::Instant::now()));
                self.hub.resync();
                self.hub.bots.notify_one();
                return;
            }
        };
        self.hub.game_changed(notice.game_id);
        if notice.wakes_bots {
            self.hub.bots.notify_one();
        }
        if notice.queued > 0 {
            self.hub.outbox.notify_one();
            self.hub.notices.notify_one();
        }
        if self.hub.follows_accounts() {
            let store = self.clone();
            tokio::spawn(async move { store.tell_accounts(notice.game_id).await });
        }
    }

    /// Tells the subscribers of the game's seated accounts (one query per notice and process).
    async fn tell_accounts(&self, game_id: i64) {
        if let Some(accounts) = self.seated_accounts(game_id).await {
            self.hub.accounts_changed(&accounts, game_id);
        }
    }

    /// The accounts seated at a game (`None`, logged, when they cannot be read).
    async fn seated_accounts(&self, game_id: i64) -> Option<Vec<i64>> {
        let accounts = async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    "SELECT account_id FROM seats WHERE game_id = $1",
                    &[&game_id],
                )
                .await?;
            crate::Result::Ok(rows.iter().map(|r| r.get(0)).collect::<Vec<i64>>())
        };
        match accounts.await {
            Ok(accounts) => Some(accounts),
            Err(e) => {
                tracing::warn!(error = %e, game = game_id, "cannot tell the players");
                None
            }
        }
    }

    /// Woken when a game changed (in any process): a bot may be to act now.
    pub async fn bots_woken(&self) {
        self.hub.bots.notified().await
    }

    /// Woken when an append may have queued webhook deliveries (in any process).
    pub async fn outbox_woken(&self) {
        self.hub.outbox.notified().await
    }

    /// Woken when an append may have queued notices by email or push (in any process).
    pub async fn notices_woken(&self) {
        self.hub.notices.notified().await
    }
}
