//! Chat at the table: a side channel beside the game, never one of its events. Messages live in
//! `chat_messages` (V13), outside the chain, the log, replays, exports and audits; each is
//! announced with `NOTIFY baumeister_chat` in the statement that stores it, and the live hub
//! wakes the game's streams and its players' account streams (see `live/`).
//!
//! Who reads what: the `table` channel is written by the seated players and read by everybody
//! who may see the game (spectators too, as around a physical table); the `spectators` channel
//! is written and read by signed-in accounts without a seat, and read by a player only when
//! the player asks for it. An account's mutes leave the muted authors out of its reads.

use deadpool_postgres::GenericClient;
use serde::{Deserialize, Serialize};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;
use utoipa::ToSchema;

use crate::error::{account_must_exist, Result, StoreError};
use crate::live::channels::CHAT_CHANNEL;
use crate::people::watch::Watching;
use crate::reader::Reader;
use crate::Refusal;
use crate::{rfc3339, Store};

/// The longest message, in characters (Unicode scalar values), after trimming.
pub const CHAT_MAX_CHARS: usize = 500;

/// At most this many accounts muted per account (reads filter by them).
pub const MUTES_PER_ACCOUNT: i64 = 1000;

/// The advisory lock class under which one game's messages are written one at a time (the key
/// is the game id): ids then commit in order within a game, so a stream that has sent up to an
/// id never misses a smaller one committed later.
const CHAT_LOCK_CLASS: i32 = 0x63_68_61_74; // "chat"

/// A game's two chat channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChatChannel {
    /// The players' table: seated players write; everybody who may see the game reads.
    Table,
    /// The spectators' bench: signed-in accounts without a seat write and read.
    Spectators,
}

impl ChatChannel {
    pub fn as_str(self) -> &'static str {
        match self {
            ChatChannel::Table => "table",
            ChatChannel::Spectators => "spectators",
        }
    }

    pub fn parse(text: &str) -> Option<ChatChannel> {
        match text {
            "table" => Some(ChatChannel::Table),
            "spectators" => Some(ChatChannel::Spectators),
            _ => None,
        }
    }
}

/// One chat message. Plain text: clients render `text` as text, never as HTML.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChatMessage {
    /// Unique across games; the cursor of pages (`before`, `after`) and of streams.
    pub id: i64,
    pub game_id: i64,
    pub channel: ChatChannel,
    /// The author's account name.
    pub author: String,
    /// The text as written (trimmed); `null` when an operator removed the message.
    pub text: Option<String>,
    /// When it was written (RFC 3339).
    pub at: String,
    /// The game's version when it was written: a replay shows it after that many events.
    pub version: i64,
    /// Whether an operator removed the message (its text is then withheld).
    pub removed: bool,
}

/// A message's notice: `<game>:<id>:<channel>`, and `:removed` when an operator removed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatNotice {
    pub game_id: i64,
    pub id: i64,
    pub channel: ChatChannel,
    pub removed: bool,
}

impl ChatNotice {
    pub fn parse(payload: &str) -> Option<ChatNotice> {
        let mut parts = payload.split(':');
        let notice = ChatNotice {
            game_id: parts.next()?.parse().ok()?,
            id: parts.next()?.parse().ok()?,
            channel: ChatChannel::parse(parts.next()?)?,
            removed: match parts.next() {
                None => false,
                Some("removed") => true,
                Some(_) => return None,
            },
        };
        parts.next().is_none().then_some(notice)
    }
}

/// Which channels a live stream pushes to its reader. The seat is judged at each read (a
/// spectator who takes a seat stops getting the spectators' channel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatFeed {
    /// The reader's account (`None`: anonymous, the table only).
    pub reader: Option<i64>,
    /// A player asked for the spectators' channel too.
    pub spectators_when_seated: bool,
}

/// A muted account, as `GET /v1/me/mutes` lists it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Mute {
    pub name: String,
    /// Since when (RFC 3339).
    pub since: String,
}

const COLUMNS: &str = "m.id, m.game_id, m.channel, a.name,
    CASE WHEN m.removed_at IS NULL THEN m.text END,
    (extract(epoch FROM m.at) * 1000)::bigint, m.version, m.removed_at IS NOT NULL";

/// Leaves out the authors `$reader` muted (no reader: nobody is muted).
fn not_muted(reader: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM chat_mutes u WHERE u.account_id = {reader} AND u.muted_id = m.account_id)"
    )
}

/// The messages a [`ChatFeed`] pushes to its reader: the table's, and the spectators' to a
/// reader who does not sit at the game `game`, or who asked for them (`spectators`); `reader`
/// and `spectators` are the feed's fields, given as placeholders.
fn in_feed(game: &str, reader: &str, spectators: &str) -> String {
    format!(
        "(m.channel = 'table' OR ({reader}::bigint IS NOT NULL AND ({spectators}
                    OR NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = {game} AND s.account_id = {reader}))))"
    )
}

fn message(row: &Row) -> Result<ChatMessage> {
    let channel: String = row.get(2);
    Ok(ChatMessage {
        id: row.get(0),
        game_id: row.get(1),
        channel: ChatChannel::parse(&channel).ok_or(StoreError::Corrupt(channel))?,
        author: row.get(3),
        text: row.get(4),
        at: rfc3339(row.get(5)),
        version: row.get(6),
        removed: row.get(7),
    })
}

impl Store {
    /// Stores a message by `author` (text already checked) and announces it. Only seated
    /// players write at the table, only accounts without a seat on the spectators' bench; a
    /// private game's outsider is told the game is not there (the gate first).
    pub async fn post_chat(
        &self,
        game_id: i64,
        author: Reader,
        channel: ChatChannel,
        text: &str,
    ) -> Result<ChatMessage> {
        let account = author.account().ok_or(Refusal::UnknownAccount)?;
        let mut client = self.pool.get().await?;
        self.chat_watchable(&client, game_id, author).await?;
        let tx = client.transaction().await?;
        tx.query_one(
            "SELECT pg_advisory_xact_lock($1, hashint8($2))",
            &[&CHAT_LOCK_CLASS, &game_id],
        )
        .await?;
        let sql = format!(
            "WITH m AS (
                 INSERT INTO chat_messages (game_id, channel, account_id, text, version)
                 SELECT g.id, $2, $3, $4, g.version FROM games g
                 WHERE g.id = $1
                   AND ($2 = 'table') = EXISTS (SELECT 1 FROM seats s WHERE s.game_id = $1 AND s.account_id = $3)
                 RETURNING *)
             SELECT {COLUMNS}, pg_notify('{CHAT_CHANNEL}', m.game_id || ':' || m.id || ':' || m.channel)::text
             FROM m JOIN accounts a ON a.id = m.account_id"
        );
        let row = tx
            .query_opt(&sql, &[&game_id, &channel.as_str(), &account, &text])
            .await
            .map_err(account_must_exist)?;
        let Some(row) = row else {
            let why = tx
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM games WHERE id = $1),
                            EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND account_id = $2)",
                    &[&game_id, &account],
                )
                .await?;
            let (game, seated): (bool, bool) = (why.get(0), why.get(1));
            return Err(if !game {
                StoreError::Refused(Refusal::GameNotFound(game_id))
            } else if seated {
                StoreError::Refused(Refusal::SpectatorsOnly)
            } else {
                StoreError::Refused(Refusal::NotSeated)
            });
        };
        let message = message(&row)?;
        tx.commit().await?;
        Ok(message)
    }

    /// A page of one channel as `reader` may read it (muted authors left out), newest first:
    /// ids below `before` and above `after` (either may be absent), at most `limit`.
    pub async fn chat_page(
        &self,
        game_id: i64,
        channel: ChatChannel,
        reader: Reader,
        before: Option<i64>,
        after: Option<i64>,
        limit: i64,
    ) -> Result<Vec<ChatMessage>> {
        let client = self.pool.get().await?;
        self.chat_watchable(&client, game_id, reader).await?;
        let reader = reader.account();
        let sql = format!(
            "SELECT {COLUMNS} FROM chat_messages m JOIN accounts a ON a.id = m.account_id
             WHERE m.game_id = $1 AND m.channel = $2
               AND ($3::bigint IS NULL OR m.id < $3) AND ($4::bigint IS NULL OR m.id > $4)
               AND {}
             ORDER BY m.id DESC LIMIT $6",
            not_muted("$5")
        );
        let rows = client
            .query(
                &sql,
                &[
                    &game_id,
                    &channel.as_str(),
                    &before,
                    &after,
                    &reader,
                    &limit,
                ],
            )
            .await?;
        rows.iter().map(message).collect()
    }

    /// The id of the game's latest message (0: none yet): where a live stream starts.
    pub async fn latest_chat_id(&self, game_id: i64) -> Result<i64> {
        let client = self.pool.get().await?;
        let row = client
            .query_one(
                "SELECT coalesce(max(id), 0) FROM chat_messages WHERE game_id = $1",
                &[&game_id],
            )
            .await?;
        Ok(row.get(0))
    }

    /// The messages after `after` that a stream pushes to its reader (see [`ChatFeed`]),
    /// oldest first, at most `limit`.
    pub async fn chat_since(
        &self,
        game_id: i64,
        feed: ChatFeed,
        after: i64,
        limit: i64,
    ) -> Result<Vec<ChatMessage>> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {COLUMNS} FROM chat_messages m JOIN accounts a ON a.id = m.account_id
             WHERE m.game_id = $1 AND m.id > $2
               AND {}
               AND {}
             ORDER BY m.id LIMIT $5",
            in_feed("$1", "$3", "$4"),
            not_muted("$3")
        );
        let rows = client
            .query(
                &sql,
                &[
                    &game_id,
                    &after,
                    &feed.reader,
                    &feed.spectators_when_seated,
                    &limit,
                ],
            )
            .await?;
        rows.iter().map(message).collect()
    }

    /// One message, if the feed's reader gets it pushed (a removed one too: it shows as
    /// removed).
    pub async fn chat_message_for(&self, id: i64, feed: ChatFeed) -> Result<Option<ChatMessage>> {
        let condition = format!(
            "{}
               AND {}",
            in_feed("m.game_id", "$2", "$3"),
            not_muted("$2")
        );
        self.one_message(
            &condition,
            &[&id, &feed.reader, &feed.spectators_when_seated],
        )
        .await
    }

    /// A table message for `account`'s own stream: only while it sits at the game, and not
    /// from an author it muted.
    pub async fn table_message_for_player(
        &self,
        id: i64,
        account: i64,
    ) -> Result<Option<ChatMessage>> {
        let condition = format!(
            "m.channel = 'table'
               AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = m.game_id AND s.account_id = $2)
               AND {}",
            not_muted("$2")
        );
        self.one_message(&condition, &[&id, &account]).await
    }

    /// The message `$1`, if it meets `condition` (SQL on the message `m`).
    async fn one_message(
        &self,
        condition: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<ChatMessage>> {
        let client = self.pool.get().await?;
        let sql = format!(
            "SELECT {COLUMNS} FROM chat_messages m JOIN accounts a ON a.id = m.account_id
             WHERE m.id = $1
               AND {condition}"
        );
        client
            .query_opt(&sql, params)
            .await?
            .as_ref()
            .map(message)
            .transpose()
    }

    /// An operator or a moderator removes a message: its text is withheld from every read from
    /// now on (kept in the table for the record, with who, when and why), the streams are told,
    /// and the moderation log records it in the same statement. The one removal of the command
    /// line (`baumeister chat remove`) and of the API (`POST /v1/moderation/messages/{id}/remove`).
    pub async fn remove_chat(&self, id: i64, by: &str, reason: &str) -> Result<ChatMessage> {
        let client = self.pool.get().await?;
        let sql = format!(
            "WITH m AS (
                 UPDATE chat_messages SET removed_at = now(), removed_by = $2, removed_reason = $3
                 WHERE id = $1 AND removed_at IS NULL
                 RETURNING *),
             log AS (
                 INSERT INTO moderation_log (at_ms, moderator, action, account, message_id, reason)
                 SELECT $4, $2, 'remove_message', a.name, m.id, $3 FROM m JOIN accounts a ON a.id = m.account_id)
             SELECT {COLUMNS}, pg_notify('{CHAT_CHANNEL}', m.game_id || ':' || m.id || ':' || m.channel || ':removed')::text
             FROM m JOIN accounts a ON a.id = m.account_id"
        );
        match client
            .query_opt(&sql, &[&id, &by, &reason, &self.now_ms()])
            .await?
        {
            Some(row) => message(&row),
            None => {
                let exists = client
                    .query_opt("SELECT 1 FROM chat_messages WHERE id = $1", &[&id])
                    .await?
                    .is_some();
                Err(if exists {
                    StoreError::Refused(Refusal::ChatMessageAlreadyRemoved(id))
                } else {
                    StoreError::Refused(Refusal::ChatMessageNotFound(id))
                })
            }
        }
    }

    /// Mutes the account named `name` for `account` (again: no change). Returns the name as
    /// registered.
    pub async fn mute(&self, account: i64, name: &str) -> Result<String> {
        let client = self.pool.get().await?;
        let (muted, name) = account_named(&client, name).await?;
        if muted == account {
            return Err(StoreError::Refused(Refusal::CannotMuteSelf));
        }
        let row = client
            .query_opt(
                "WITH new AS (
                     INSERT INTO chat_mutes (account_id, muted_id)
                     SELECT $1, $2 WHERE (SELECT count(*) FROM chat_mutes WHERE account_id = $1) < $3
                     ON CONFLICT DO NOTHING RETURNING 1)
                 SELECT 1 FROM new
                 UNION ALL SELECT 1 FROM chat_mutes WHERE account_id = $1 AND muted_id = $2",
                &[&account, &muted, &MUTES_PER_ACCOUNT],
            )
            .await
            .map_err(account_must_exist)?;
        match row {
            Some(_) => Ok(name),
            None => Err(StoreError::Refused(Refusal::TooManyMutes(
                MUTES_PER_ACCOUNT,
            ))),
        }
    }

    /// Unmutes the account named `name` (not muted: no change).
    pub async fn unmute(&self, account: i64, name: &str) -> Result<()> {
        let client = self.pool.get().await?;
        let (muted, _) = account_named(&client, name).await?;
        client
            .execute(
                "DELETE FROM chat_mutes WHERE account_id = $1 AND muted_id = $2",
                &[&account, &muted],
            )
            .await?;
        Ok(())
    }

    /// The accounts `account` muted, by name.
    pub async fn mutes(&self, account: i64) -> Result<Vec<Mute>> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT a.name, (extract(epoch FROM u.created_at) * 1000)::bigint
                 FROM chat_mutes u JOIN accounts a ON a.id = u.muted_id
                 WHERE u.account_id = $1 ORDER BY lower(a.name)",
                &[&account],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| Mute {
                name: r.get(0),
                since: rfc3339(r.get(1)),
            })
            .collect())
    }
}

impl Store {
    /// The game's chat exists for `reader`: a private game's, only for those who may watch it
    /// (the gate, `watch.rs`), so chat does not reveal the game.
    pub(crate) async fn chat_watchable(
        &self,
        client: &impl GenericClient,
        game_id: i64,
        reader: Reader,
    ) -> Result<()> {
        let row = client
            .query_opt(
                "SELECT g.visibility = 'private',
                        (SELECT s.seat FROM seats s WHERE s.game_id = g.id AND s.account_id = $2)
                 FROM games g WHERE g.id = $1",
                &[&game_id, &reader.account()],
            )
            .await?
            .ok_or(Refusal::GameNotFound(game_id))?;
        let seat = row.get::<_, Option<i16>>(1).map(|s| s as u8);
        let seen = Watching {
            private: row.get(0),
            seat,
        };
        self.must_watch(client, game_id, seen, reader).await
    }
}

async fn account_named(client: &impl GenericClient, name: &str) -> Result<(i64, String)> {
    let row = client
        .query_opt(
            "SELECT id, name FROM accounts WHERE lower(name) = lower($1)",
            &[&name],
        )
        .await?
        .ok_or_else(|| StoreError::Refused(Refusal::UnknownAccountName(name.to_string())))?;
    Ok((row.get(0), row.get(1)))
}

#[cfg(test)]
mod tests {
    use super::{ChatChannel, ChatNotice};

    #[test]
    fn a_chat_notice_names_the_game_the_message_its_channel_and_a_removal() {
        assert_eq!(
            ChatNotice::parse("4:17:table"),
            Some(ChatNotice {
                game_id: 4,
                id: 17,
                channel: ChatChannel::Table,
                removed: false
            })
        );
        assert_eq!(
            ChatNotice::parse("4:17:spectators:removed").map(|n| (n.channel, n.removed)),
            Some((ChatChannel::Spectators, true))
        );
        for bad in [
            "",
            "4",
            "4:17",
            "4:x:table",
            "4:17:bench",
            "4:17:table:gone",
            "4:17:table:removed:1",
        ] {
            assert_eq!(ChatNotice::parse(bad), None, "{bad:?}");
        }
    }
}
