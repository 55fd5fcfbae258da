//! Live streams (Server-Sent Events): a game's events as the subscriber may see them, and the
//! caller's games. Woken by the process's live listener (see `baumeister_storage::Hub`), never
//! by polling; each message is judged by one snapshot of its game.

use std::sync::Arc;
use std::time::Duration;

use actix_web::web::Bytes;
use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::Refusal;
use baumeister_storage::{AccountNotice, ChatFeed, GameChat, MyGame};
use serde_json::json;
use tokio::sync::mpsc;

use crate::auth::{self, Claims};
use crate::error::{ApiError, ApiResult, Problem};
use crate::limits::ClientAddress;
use crate::live::shared::Frames;
use crate::live::sse;
use crate::routes::path_params::GameId;
use crate::routes::problems::{BadToken, NoOrBadToken, NoSuchGame, StreamLimit};
use crate::AppState;

/// One Server-Sent Events message as a client's parser hands it over (comment lines such as
/// `: keep-alive` are not messages).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct StreamMessage {
    /// The message's kind (`event:`): what `data` holds, as the operation says.
    pub event: String,
    /// `id:`, where the message has one: a version, to send as `Last-Event-ID` to resume.
    pub id: Option<String>,
    /// `data:`, a JSON document.
    pub data: String,
}

/// How long a client waits before reconnecting.
const RETRY_MS: u64 = 2000;

/// Where to resume a stream.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Header)]
pub struct StreamHeaders {
    /// The `id` of the last message received (a version): the stream resumes after it, with no
    /// gap and no duplicate. Browsers' `EventSource` sends it by itself when it reconnects.
    #[serde(rename = "Last-Event-ID")]
    #[param(required = false, minimum = 0)]
    pub last_event_id: i64,
}

/// Authentication for browsers.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// The token, for clients that cannot send `Authorization` (a browser's `EventSource`).
    /// Accepted on the streams only; prefer the header where you can (URLs end up in logs).
    #[param(required = false)]
    pub token: String,
}

/// The chat a game's stream pushes.
#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamChatQuery {
    /// `true`: a player gets the spectators' channel pushed too (accounts without a seat
    /// always get it; anonymous readers never do).
    #[param(required = false, default = false)]
    pub spectator_chat: bool,
    /// Resume the chat after this message id (the `id` of the last `chat` message received):
    /// the messages after it come first. Absent: the chat from now on.
    #[param(required = false, minimum = 0)]
    pub chat_after: i64,
}

/// Chat messages read per query while a stream catches up.
const CHAT_BATCH: i64 = 100;

/// How long a stream waits for an unavailable database before it ends with `event: error`.
const OUTAGE_PATIENCE: Duration = Duration::from_secs(30);

/// The stream's chat options (see [`StreamChatQuery`]).
fn stream_chat_query(req: &HttpRequest) -> ApiResult<(bool, Option<i64>)> {
    let q = web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
        .map(|q| q.into_inner())
        .unwrap_or_default();
    let spectators = match q.get("spectator_chat").map(String::as_str) {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "invalid_query",
                "`spectator_chat` is `true` or `false`.",
            ))
        }
    };
    let after = match q.get("chat_after") {
        None => None,
        Some(v) => Some(v.parse::<i64>().ok().filter(|v| *v >= 0).ok_or_else(|| {
            ApiError::bad_request(
                "invalid_query",
                "`chat_after` is the id of a chat message, 0 or more.",
            )
        })?),
    };
    Ok((spectators, after))
}

fn last_event_id(req: &HttpRequest) -> ApiResult<i64> {
    match req.headers().get("Last-Event-ID") {
        None => Ok(0),
        Some(v) => v
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|v| *v >= 0)
            .ok_or_else(|| {
                ApiError::bad_request(
                    "invalid_last_event_id",
                    "Last-Event-ID is the `id` of a message of this stream: a version, 0 or more.",
                )
            }),
    }
}

/// The game's new events as the caller may see them, live.
///
/// Messages: `event: event` with `id: <version>` and as `data` the same item as in
/// `GET /v1/games/{id}/events` (`LoggedEvent`), one per event the caller may see; after each
/// change, `event: status` with `id: <version>` and `data` a `StreamStatus`; a comment line
/// (`: keep-alive`) every `STREAM_KEEPALIVE_SECONDS` (15) when nothing else was sent; and,
/// when the token stops being valid, `event: error` with a `Problem`, after which the stream
/// ends. Reconnect with `Last-Event-ID` to resume exactly after the last `id` received. When
/// the server process stops (a restart, an upgrade), `event: reconnect` (data `{}`, with
/// `retry:` the milliseconds to wait) comes last and the stream ends: reconnect as after any
/// drop (another process, or this one once back, resumes it).
///
/// Chat: `event: chat` with `data` a `ChatMessage` (no `id:` line: chat does not move
/// `Last-Event-ID`), for each new message the caller may read, from the stream's start (or
/// after `chat_after`): the `table` channel for everybody, the `spectators` channel for
/// signed-in accounts without a seat (and players who ask with `spectator_chat=true`), never
/// from an author the caller muted. A message an operator removes comes again with
/// `removed: true` and no text. Reconnect with `chat_after` set to the last chat `id` received
/// to miss none.
#[utoipa::path(get, path = "/v1/games/{id}/stream", tag = "live",
    params(GameId, StreamHeaders, StreamQuery, StreamChatQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A stream of Server-Sent Events (see above); the data of `event` messages is a `LoggedEvent`, of `status` messages a `StreamStatus`, of `chat` messages a `ChatMessage`", content_type = "text/event-stream", body = StreamMessage),
        (status = 400, description = "`Last-Event-ID` is not a version (`invalid_last_event_id`); `spectator_chat` or `chat_after` is malformed (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        BadToken, NoSuchGame, StreamLimit,
    ))]
pub async fn game_stream(
    state: web::Data<AppState>,
    req: HttpRequest,
    client: ClientAddress,
    id: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let (caller, claims) = auth::stream_caller(&req, &state).await?;
    let slot = state
        .open_streams
        .open(client.0, state.live.streams_per_address)?;
    let after = last_event_id(&req)?;
    let (spectator_chat, chat_after) = stream_chat_query(&req)?;
    // A stream from the start of the log (`Last-Event-ID: 0`, or none) reads all of it, as
    // a replay does: it counts as one.
    if after == 0 {
        state.limits.expensive_read(&client)?;
    }
    let game_id = id.into_inner();
    // Subscribed before the first read: a change committed meanwhile wakes the loop.
    let watch = state.store.watch_game(game_id);
    let reader = caller.reader();
    let read = state.store.game_read(game_id, after, Some(reader)).await?;
    let seen = state.store.seen_by(&read, reader).await?;
    let admitted_for_good = read.watching(seen).lasts();
    let first = Frames::of(&read, seen)?;
    drop(read);
    // So does one resumed so far back that it has more than a batch to catch up.
    if after > 0 && first.more() {
        state.limits.expensive_read(&client)?;
    }
    // Read after subscribing, like the events: a message stored meanwhile is pushed.
    let chat_sent = match chat_after {
        Some(id) => id,
        None => state.store.latest_chat_id(game_id).await?,
    };
    let chat = ChatFeed {
        reader: caller.account_id(),
        spectators_when_seated: spectator_chat,
    };
    let (tx, response) = sse::channel();
    actix_web::rt::spawn(async move {
        let mut stream = GameStream {
            state,
            claims,
            game_id,
            tx,
            sent: after,
            status_sent: None,
            chat,
            chat_sent,
            admitted_for_good,
        };
        let _ = stream.run(watch, Arc::new(first)).await;
        drop(slot);
    });
    Ok(response)
}

struct GameStream {
    state: web::Data<AppState>,
    claims: Option<Claims>,
    game_id: i64,
    tx: mpsc::Sender<Bytes>,
    /// Every event up to this version has been sent (or was not the subscriber's to see).
    sent: i64,
    status_sent: Option<i64>,
    /// Which chat channels the subscriber gets.
    chat: ChatFeed,
    /// Every chat message up to this id has been sent (or was not the subscriber's to read).
    chat_sent: i64,
    /// The gate admitted the subscriber for good (a public game, or its seat): the pushes that
    /// follow need no statement to be judged again.
    admitted_for_good: bool,
}

/// The client went away.
struct Gone;

impl GameStream {
    async fn send(&self, bytes: Bytes) -> Result<(), Gone> {
        self.tx.send(bytes).await.map_err(|_| Gone)
    }

    async fn run(
        &mut self,
        mut watch: baumeister_storage::GameWatch,
        first: Arc<Frames>,
    ) -> Result<(), Gone> {
        self.send(sse::retry(RETRY_MS)).await?;
        self.send_chat().await?;
        let mut batch = Some(first);
        let keepalive = self.state.live.keepalive;
        let stopped = self.state.shutdown.stopped();
        tokio::pin!(stopped);
        loop {
            if let Some(frames) = batch.take() {
                // The events, and the status when it is new: one write.
                let bytes = match &frames.with_status {
                    Some(all) if self.status_sent != Some(frames.version) => {
                        self.status_sent = Some(frames.version);
                        all
                    }
                    _ => &frames.events,
                };
                if !bytes.is_empty() {
                    self.send(bytes.clone()).await?;
                }
                self.sent = self.sent.max(frames.version);
                if frames.more() {
                    // More to catch up: read on (sharing with the streams as far behind).
                    let wake = *watch.changes.borrow();
                    batch = Some(self.next_batch(wake).await?);
                    continue;
                }
            }
            tokio::select! {
                changed = watch.changes.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    let wake = *watch.changes.borrow_and_update();
                    batch = Some(self.next_batch(wake).await?);
                }
                chat = watch.chat.recv() => match chat {
                    Ok(GameChat::Message(n)) if n.removed => self.send_removed(n.id).await?,
                    // Sent already, by a read woken by a later message.
                    Ok(GameChat::Message(n)) if n.id <= self.chat_sent => {}
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        self.send_chat().await?
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
                },
                _ = tokio::time::sleep(keepalive) => {
                    self.judge_token().await?;
                    self.send(sse::keepalive()).await?;
                }
                _ = &mut stopped => {
                    self.send(sse::reconnect(RETRY_MS)).await?;
                    return Ok(());
                }
                _ = self.tx.closed() => return Err(Gone),
            }
        }
    }

    /// Ends the stream with a problem (the client reconnects and misses nothing).
    async fn fail<T>(&self, e: baumeister_storage::StoreError) -> Result<T, Gone> {
        let e = ApiError::from(e);
        tracing::warn!(game = self.game_id, error = %e, "a live stream ends");
        self.send(sse::message("error", None, &e.problem())).await?;
        Err(Gone)
    }

    /// The chat messages after the last one sent, as the subscriber may read them now.
    async fn send_chat(&mut self) -> Result<(), Gone> {
        loop {
            let (chat, sent) = (self.chat, self.chat_sent);
            let messages = self
                .patiently(|| {
                    self.state
                        .store
                        .chat_since(self.game_id, chat, sent, CHAT_BATCH)
                })
                .await?;
            // Judged after the read: a message read after an invitation was revoked is
            // judged after the revocation too, and never sent.
            self.judge_watch().await?;
            for m in &messages {
                self.send(sse::message("chat", None, m)).await?;
                self.chat_sent = self.chat_sent.max(m.id);
            }
            if (messages.len() as i64) < CHAT_BATCH {
                return Ok(());
            }
        }
    }

    /// A message an operator removed, again, shown as removed (if the subscriber reads it).
    async fn send_removed(&mut self, id: i64) -> Result<(), Gone> {
        if id > self.chat_sent {
            // Not sent yet: it goes out, as removed, with the others in order.
            return self.send_chat().await;
        }
        let chat = self.chat;
        let message = self
            .patiently(|| self.state.store.chat_message_for(id, chat))
            .await?;
        self.judge_watch().await?;
        match message {
            Some(m) => self.send(sse::message("chat", None, &m)).await,
            None => Ok(()),
        }
    }

    /// The token judged again, as for a new request; the stream ends when it is refused.
    async fn judge_token(&self) -> Result<crate::auth::Caller, Gone> {
        match auth::still_valid(&self.state, &self.claims).await {
            Ok(caller) => Ok(caller),
            Err(e) => {
                self.send(sse::message("error", None, &e.problem())).await?;
                Err(Gone)
            }
        }
    }

    /// The token and the gate judged again before a push that is not an event, after what it
    /// pushes was read (the events' reads judge the gate themselves, after the read, see
    /// `Store::seen_by`): a subscriber who may no longer watch the game (its invitation
    /// revoked, declined or expired) is told it is not there and the stream ends.
    async fn judge_watch(&mut self) -> Result<(), Gone> {
        let caller = self.judge_token().await?;
        if self.admitted_for_good {
            return Ok(());
        }
        let reader = caller.reader();
        let watching = self
            .patiently(|| self.state.store.gate(self.game_id, reader))
            .await?;
        self.admitted_for_good = watching.lasts();
        Ok(())
    }

    /// What follows what was sent, after the game's wake number `wake`: one read per process
    /// for every stream of the game woken alike (see [`crate::live::shared`]), judged for
    /// this stream's caller as it stands now.
    async fn next_batch(&self, wake: u64) -> Result<Arc<Frames>, Gone> {
        let caller = self.judge_token().await?;
        let reader = caller.reader();
        let state = &self.state;
        self.patiently(|| {
            state
                .shared_reads
                .frames(&state.store, self.game_id, wake, self.sent, reader)
        })
        .await
    }

    /// A read the stream needs, waiting for a database that is away for a moment (a restart,
    /// a failover, pooled connections that broke meanwhile) rather than ending, so its client
    /// sees what happened once it is back without reconnecting. Any other failure, or an
    /// outage longer than [`OUTAGE_PATIENCE`], ends the stream with `event: error` (the client
    /// reconnects with Last-Event-ID and misses nothing).
    async fn patiently<T, F>(&self, mut read: impl FnMut() -> F) -> Result<T, Gone>
    where
        F: std::future::Future<Output = baumeister_storage::Result<T>>,
    {
        let outage = std::time::Instant::now();
        let mut pause = Duration::from_millis(100);
        loop {
            match read().await {
                Ok(value) => return Ok(value),
                Err(baumeister_storage::StoreError::Unavailable(_))
                    if outage.elapsed() < OUTAGE_PATIENCE =>
                {
                    tokio::select! {
                        _ = tokio::time::sleep(pause) => {}
                        _ = self.tx.closed() => return Err(Gone),
                    }
                    pause = (pause * 2).min(Duration::from_secs(2));
                }
                Err(e) => return self.fail(e).await,
            }
        }
    }
}

/// The caller's games, live: a message whenever one of them changes.
///
/// Messages: `event: game` with `data` the game as `GET /v1/me/games` lists it (`MyGame`;
/// `your_turn` says whether it now waits for you), whenever one of your games changes (a
/// command, a seat taken, a deadline); `event: invitation` with `data` a `MyInvitation` (as
/// `GET /v1/me/invitations` lists it) when a player invites you to a game by name; `event:
/// chat` with `data` a `ChatMessage`, for each message at the `table` of a game you sit at
/// (not the spectators' channel, not from authors you muted; again with `removed: true` when
/// an operator removes it); `event: rematch` with `data` a `Rematch` whenever the rematch
/// proposal of a finished game you sat at changes (proposed, answered, started: `new_game`);
/// `event: resync` (data `{}`) when notices may have been missed (read `GET /v1/me/games` and
/// `GET /v1/me/invitations` again); keep-alive comments as on the game stream; `event: error`
/// and the end when the token stops being valid; `event: reconnect` and the end when the
/// server process stops (as on the game stream). Subscribe first, then read
/// `GET /v1/me/games`, to miss nothing.
#[utoipa::path(get, path = "/v1/me/stream", tag = "live",
    params(StreamQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A stream of Server-Sent Events (see above); the data of `game` messages is a `MyGame`, of `invitation` messages a `MyInvitation`, of `chat` messages a `ChatMessage`, of `rematch` messages a `Rematch`", content_type = "text/event-stream", body = StreamMessage),
        NoOrBadToken, StreamLimit,
    ))]
pub async fn my_stream(
    state: web::Data<AppState>,
    req: HttpRequest,
    client: ClientAddress,
) -> ApiResult<HttpResponse> {
    let (caller, claims) = auth::stream_caller(&req, &state).await?;
    let account = caller.require()?.id;
    let slot = state
        .open_streams
        .open(client.0, state.live.streams_per_address)?;
    let mut watch = state.store.watch_account(account);
    let (tx, response) = sse::channel();
    actix_web::rt::spawn(async move {
        let send = |bytes: Bytes| {
            let tx = tx.clone();
            async move { tx.send(bytes).await.map_err(|_| Gone) }
        };
        let run = async {
            send(sse::retry(RETRY_MS)).await?;
            let stopped = state.shutdown.stopped();
            tokio::pin!(stopped);
            loop {
                tokio::select! {
                    notice = watch.changes.recv() => {
                        let reader = match auth::still_valid(&state, &claims).await {
                            Ok(caller) => caller.reader(),
                            Err(e) => {
                                send(sse::message("error", None, &e.problem())).await?;
                                return Err(Gone);
                            }
                        };
                        // Each item about a game is judged by the gate as it is sent: `game`
                        // and `chat` items are read only where the account sits (which
                        // passes the gate for good), a rematch through the gate itself.
                        match notice {
                            Ok(AccountNotice::Game(game_id)) => {
                                let game: Option<MyGame> = match state.store.my_game(account, game_id).await {
                                    Ok(game) => game,
                                    Err(e) => {
                                        tracing::warn!(error = %e, "reading a game for a stream failed");
                                        send(sse::message("resync", None, &json!({}))).await?;
                                        continue;
                                    }
                                };
                                if let Some(game) = game {
                                    send(sse::message("game", None, &game)).await?;
                                }
                            }
                            Ok(AccountNotice::Chat(n)) => {
                                match state.store.table_message_for_player(n.id, account).await {
                                    Ok(Some(m)) => send(sse::message("chat", None, &m)).await?,
                                    Ok(None) => {}
                                    Err(e) => {
                                        tracing::warn!(error = %e, "reading a chat message for a stream failed");
                                        send(sse::message("resync", None, &json!({}))).await?;
                                    }
                                }
                            }
                            Ok(AccountNotice::Invitation(id)) => {
                                match state.store.my_invitation(account, id).await {
                                    Ok(Some(invitation)) => {
                                        send(sse::message("invitation", None, &invitation)).await?;
                                    }
                                    // Answered, revoked or expired meanwhile: nothing to tell.
                                    Ok(None) => {}
                                    Err(e) => {
                                        tracing::warn!(error = %e, "reading an invitation for a stream failed");
                                        send(sse::message("resync", None, &json!({}))).await?;
                                    }
                                }
                            }
                            Ok(AccountNotice::Rematch(game_id)) => {
                                match state.store.rematch(game_id, reader).await {
                                    Ok(rematch) => send(sse::message("rematch", None, &rematch)).await?,
                                    // Not the account's to watch (or gone): nothing to tell.
                                    Err(baumeister_storage::StoreError::Refused(Refusal::GameNotFound(_))) => {}
                                    Err(e) => {
                                        tracing::warn!(error = %e, "reading a rematch for a stream failed");
                                        send(sse::message("resync", None, &json!({}))).await?;
                                    }
                                }
                            }
                            Ok(AccountNotice::Resync) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                                send(sse::message("resync", None, &json!({}))).await?;
                            }
                            Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
                        }
                    }
                    _ = tokio::time::sleep(state.live.keepalive) => {
                        if let Err(e) = auth::still_valid(&state, &claims).await {
                            send(sse::message("error", None, &e.problem())).await?;
                            return Err(Gone);
                        }
                        send(sse::keepalive()).await?;
                    }
                    _ = &mut stopped => {
                        send(sse::reconnect(RETRY_MS)).await?;
                        return Ok(());
                    }
                    _ = tx.closed() => return Err(Gone),
                }
            }
        };
        let _: Result<(), Gone> = run.await;
        drop(slot);
    });
    Ok(response)
}
