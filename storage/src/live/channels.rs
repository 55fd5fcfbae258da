//! The channels of PostgreSQL's `NOTIFY` that the live listener (`hub.rs`) follows, named where
//! the listener is: the writers (appends, chat, rematches) name the channel they notify, and the
//! listener needs none of the writers' modules.

/// The channel every append notifies.
pub const CHANNEL: &str = "baumeister_live";

/// The channel every stored chat message (and removal) notifies.
pub const CHAT_CHANNEL: &str = "baumeister_chat";

/// The channel that tells the players of a game of its rematch proposal's changes.
pub const REMATCH_CHANNEL: &str = "baumeister_rematch";
