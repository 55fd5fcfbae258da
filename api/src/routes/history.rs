//! A game's past as the caller may see it: its log, its board at an earlier version (replay)
//! and the audit that decides every stored command again.

use actix_web::{web, HttpResponse};
use baumeister_storage::{AuditReport, EventFilter, EventPage, SignedHead};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Problem};
use crate::limits::ClientAddress;
use crate::routes::path_params::GameId;
use crate::routes::play::any_view;
use crate::routes::problems::{BadToken, ExpensiveLimit, NoSuchGame};
use crate::AppState;

/// The 429 of filtered pages of the log.
const FILTER_LIMIT: &str = "`rate_limited`, only with `type` or `seat`: a filtered page may search the whole log, so it counts as a replay (`LIMIT_EXPENSIVE_READS`, by default 60 per 10 s per address); `Retry-After` says when to ask again";

/// A past board.
#[derive(Debug, Serialize, ToSchema)]
pub struct Replay {
    pub game_id: i64,
    /// The version shown.
    pub at: i64,
    /// The game's current version.
    pub version: i64,
    /// The board as the caller may see it as of `at`.
    #[schema(schema_with = any_view)]
    pub view: Box<serde_json::value::RawValue>,
    /// The chain head at `version` (the game's version when the replay was judged, not `at`),
    /// signed by the server.
    pub head: SignedHead,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events after this version (default 0: from the start).
    #[param(minimum = 0, default = 0)]
    pub after: Option<i64>,
    /// At most this many, 1–1000 (default 100); a larger `limit` is refused (400
    /// `invalid_query`), not cut.
    #[param(minimum = 1, maximum = 1000, default = 100)]
    pub limit: Option<i64>,
    /// Only events of these types, comma-separated (as the caller sees them: a filter never
    /// tells more than the unfiltered log). `next_after` continues past what was searched.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub types: Option<String>,
    /// Only events caused by this seat's commands.
    #[param(minimum = 0, maximum = 255)]
    pub seat: Option<u8>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReplayQuery {
    /// The version to show, 1 to the game's version.
    #[param(minimum = 1)]
    pub at: i64,
}

/// The game's log as the caller may see it.
#[utoipa::path(get, path = "/v1/games/{id}/events", tag = "play",
    params(GameId, EventsQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of the log", body = EventPage),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        BadToken, NoSuchGame,
        (status = 429, description = FILTER_LIMIT, body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the next replay, audit or filtered page may be asked for"))),
    ))]
pub async fn events(
    state: web::Data<AppState>,
    caller: Caller,
    client: ClientAddress,
    id: web::Path<i64>,
    query: web::Query<EventsQuery>,
) -> ApiResult<HttpResponse> {
    let after = query.after.unwrap_or(0);
    let limit = query.limit.unwrap_or(100);
    if after < 0 || !(1..=1000).contains(&limit) {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`after` is 0 or more; `limit` is 1 to 1000.",
        ));
    }
    let filter = EventFilter {
        types: query
            .types
            .as_deref()
            .map(|t| {
                t.split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        seat: query.seat,
    };
    // A filtered page may search the whole log for its matches, as a replay reads it.
    if !filter.types.is_empty() || filter.seat.is_some() {
        state.limits.expensive_read(&client)?;
    }
    let page = state
        .store
        .events(id.into_inner(), caller.reader(), after, limit, &filter)
        .await?;
    Ok(HttpResponse::Ok().json(page))
}

/// The board as the caller may see it as of a past version.
///
/// Refused although the schema allows it: an `at` beyond the game's version (400
/// `version_out_of_range`; the game's `version` says how far it goes).
#[utoipa::path(get, path = "/v1/games/{id}/replay", tag = "play",
    params(GameId, ReplayQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The past board", body = Replay),
        (status = 400, description = "Bad query or version out of range (`version_out_of_range`)", body = Problem, content_type = "application/problem+json"),
        BadToken, NoSuchGame, ExpensiveLimit,
    ))]
pub async fn replay(
    state: web::Data<AppState>,
    caller: Caller,
    client: ClientAddress,
    id: web::Path<i64>,
    query: web::Query<ReplayQuery>,
) -> ApiResult<HttpResponse> {
    state.limits.expensive_read(&client)?;
    let game_id = id.into_inner();
    let (version, view, head) = state
        .store
        .replay(game_id, caller.reader(), query.at)
        .await?;
    Ok(HttpResponse::Ok().json(Replay {
        game_id,
        at: query.at,
        version,
        view,
        head,
    }))
}

/// Audit the game: recompute the hash chain and decide every stored command again with its
/// stored seed and clock; the events must come out identical. Names versions only, no secrets.
#[utoipa::path(get, path = "/v1/games/{id}/audit", tag = "play",
    params(GameId),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The audit's findings", body = AuditReport),
        BadToken, NoSuchGame, ExpensiveLimit,
    ))]
pub async fn audit(
    state: web::Data<AppState>,
    caller: Caller,
    client: ClientAddress,
    id: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    state.limits.expensive_read(&client)?;
    let report = state.store.audit(id.into_inner(), caller.reader()).await?;
    Ok(HttpResponse::Ok().json(report))
}
