//! Chat at the table: a side channel beside the game (never one of its events: not in the
//! chain, the log, replays, exports or audits). See `baumeister_storage::ChatMessage`.
//!
//! Two channels per game. `table`: the seated players write; everybody who may see the game
//! reads, spectators and anonymous readers too, as anybody watching a physical table hears
//! the players. `spectators`: signed-in accounts without a seat write and read; players read
//! it only when they ask (`channel=spectators` here, `spectator_chat=true` on the game's
//! stream), so the bench's talk is not pushed at the table.

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::{ChatChannel, ChatMessage, Mute, CHAT_MAX_CHARS};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::body;
use crate::error::{ApiError, ApiResult, Problem};
use crate::routes::paging;
use crate::routes::path_params::GameId;
use crate::routes::problems::{BadQuery, NoOrBadToken, NoSuchAccount, NoSuchGame};
use crate::AppState;

/// The largest body of `POST /v1/games/{id}/chat`: room for 500 characters however escaped.
pub const CHAT_BODY_LIMIT: usize = 8 * 1024;

/// The 429 of chat messages.
const CHAT_LIMIT: &str = "`rate_limited`: this account sent more chat messages than `LIMIT_CHAT` allows (by default 10 per 10 s, both channels of every game together)";

/// A message to post.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChatMessage {
    pub channel: ChatChannel,
    /// Plain text, 1 to 500 characters (Unicode scalar values) once trimmed; newlines are
    /// allowed, other control characters are not. Stored as given: never HTML, and clients
    /// must render it as text.
    #[schema(
        min_length = 1,
        max_length = 500,
        pattern = "^[^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]*$",
        example = "Good luck, everybody!"
    )]
    pub text: String,
}

/// Which messages of a game's chat.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChatQuery {
    /// The channel (default `table`); `spectators` needs a token.
    pub channel: Option<ChatChannel>,
    /// Only messages with a smaller id: the `next_before` of the previous page.
    #[param(minimum = 0)]
    pub before: Option<i64>,
    /// Only messages with a larger id (e.g. the last one a client has).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Page size, 1–100 (default 50); a larger one is refused (400 `invalid_query`), not cut.
    #[param(minimum = 1, maximum = 100, default = 50)]
    pub limit: Option<i64>,
}

/// A page of a channel, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatPage {
    pub messages: Vec<ChatMessage>,
    /// More (older) messages within the bounds asked for: pass as `before` (keeping `after`)
    /// for the next page; absent on the last page.
    pub next_before: Option<i64>,
}

/// The accounts the caller muted.
#[derive(Debug, Serialize, ToSchema)]
pub struct MuteList {
    pub mutes: Vec<Mute>,
}

/// Trims the text and checks it is 1 to 500 characters of plain text.
pub fn check_text(text: &str) -> ApiResult<&str> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > CHAT_MAX_CHARS {
        return Err(ApiError::bad_request(
            "chat_text_length",
            format!("A chat message has 1 to {CHAT_MAX_CHARS} characters once trimmed; this one has {chars}."),
        ));
    }
    if let Some(c) = text.chars().find(|c| c.is_control() && *c != '\n') {
        return Err(ApiError::bad_request(
            "chat_text_not_plain",
            format!(
                "A chat message is plain text: newlines are allowed, other control characters (here U+{:04X}) are not.",
                u32::from(c)
            ),
        ));
    }
    Ok(text)
}

/// Post a chat message. At the `table` only seated players write; on the `spectators`
/// channel only signed-in accounts without a seat. The message is pushed as `event: chat` on
/// the game's stream (and on the players' own streams, for the table), and is never part of
/// the game: not in its events, replay, export or audit.
#[utoipa::path(post, path = "/v1/games/{id}/chat", tag = "chat",
    params(GameId),
    request_body = NewChatMessage,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Stored", body = ChatMessage),
        (status = 400, description = "Malformed body or unknown channel (`malformed_request`), text empty or longer than 500 characters once trimmed (`chat_text_length`), control characters other than newlines (`chat_text_not_plain`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 403, description = "Not seated, at the table (`not_seated`); seated, on the spectators' channel (`spectators_only`); the account is suspended (`account_suspended`, saying why and until when)", body = Problem, content_type = "application/problem+json"),
        NoSuchGame,
        (status = 429, description = CHAT_LIMIT, body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the next message may be sent"))),
    ))]
pub async fn post(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
) -> ApiResult<HttpResponse> {
    let reader = caller.reader();
    let account = caller.require()?;
    crate::routes::moderation::not_suspended(&state, &account)?;
    state.limits.chat(account.id)?;
    let message: NewChatMessage = body::json(&req, payload, CHAT_BODY_LIMIT).await?;
    let text = check_text(&message.text)?;
    let stored = state
        .store
        .post_chat(id.into_inner(), reader, message.channel, text)
        .await?;
    Ok(HttpResponse::Created().json(stored))
}

/// A game's chat, one channel at a time, newest first (without the authors the caller muted;
/// a message an operator removed shows with `removed: true` and no text). The `table` is
/// readable by everybody who may see the game; `spectators` by any signed-in account (players
/// read it only by asking here).
#[utoipa::path(get, path = "/v1/games/{id}/chat", tag = "chat",
    params(GameId, ChatQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of messages, newest first", body = ChatPage),
        BadQuery,
        (status = 401, description = "Bad token; or none, for the spectators' channel (`token_missing`)", body = Problem, content_type = "application/problem+json"),
        NoSuchGame,
    ))]
pub async fn read(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    q: web::Query<ChatQuery>,
) -> ApiResult<HttpResponse> {
    let channel = q.channel.unwrap_or(ChatChannel::Table);
    let reader = caller.reader();
    if channel == ChatChannel::Spectators {
        caller.require()?;
    }
    let limit = q.limit.unwrap_or(50);
    if !(1..=100).contains(&limit)
        || q.before.is_some_and(|b| b < 0)
        || q.after.is_some_and(|a| a < 0)
    {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`limit` is 1 to 100; `before` and `after` are message ids, 0 or more.",
        ));
    }
    let mut messages = state
        .store
        .chat_page(
            id.into_inner(),
            channel,
            reader,
            q.before,
            q.after,
            limit + 1,
        )
        .await?;
    let next_before = paging::next_before(&mut messages, limit, |m| m.id);
    Ok(HttpResponse::Ok().json(ChatPage {
        messages,
        next_before,
    }))
}

/// The accounts whose chat messages the caller does not want to read.
#[utoipa::path(get, path = "/v1/me/mutes", tag = "chat",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The muted accounts, by name", body = MuteList),
        NoOrBadToken,
    ))]
pub async fn mutes(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let mutes = state.store.mutes(account.id).await?;
    Ok(HttpResponse::Ok().json(MuteList { mutes }))
}

/// Mute an account: its chat messages are left out of the caller's chat reads and pushes, in
/// every game, until unmuted. Muting again changes nothing.
#[utoipa::path(put, path = "/v1/me/mutes/{name}", tag = "chat",
    params(("name" = String, Path, description = "The account to mute")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Muted"),
        NoOrBadToken, NoSuchAccount,
        (status = 409, description = "The caller muted 1000 accounts already (`too_many_mutes`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "That is the caller (`cannot_mute_self`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn mute(
    state: web::Data<AppState>,
    caller: Caller,
    name: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.store.mute(account.id, &name).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Unmute an account (one not muted: no change).
#[utoipa::path(delete, path = "/v1/me/mutes/{name}", tag = "chat",
    params(("name" = String, Path, description = "The account to unmute")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Not muted (any more)"),
        NoOrBadToken, NoSuchAccount,
    ))]
pub async fn unmute(
    state: web::Data<AppState>,
    caller: Caller,
    name: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.store.unmute(account.id, &name).await?;
    Ok(HttpResponse::NoContent().finish())
}
