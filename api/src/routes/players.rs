//! Players' profiles and the kinds' leaderboards (Glicko-2 ratings per kind).

use actix_web::{web, HttpResponse};
use baumeister_storage::{LeaderboardEntry, PlayerProfile};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::error::{ApiError, ApiResult, Problem};
use crate::routes::paging;
use crate::routes::path_params::KindName;
use crate::routes::problems::{BadToken, NoSuchAccount, NoSuchKind};
use crate::AppState;

/// A player's profile: member since, per kind the games played, won and running and the rating,
/// and the last 20 finished games with their results (places: the winners first, then by score;
/// equal places drew). A private game is counted and listed only for those who may watch it
/// (its players, the accounts invited by name, auditors).
#[utoipa::path(get, path = "/v1/players/{name}", tag = "players",
    params(("name" = String, Path, description = "The account's name (any case)")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The profile", body = PlayerProfile),
        BadToken, NoSuchAccount,
    ))]
pub async fn player_profile(
    state: web::Data<AppState>,
    caller: Caller,
    name: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(state.store.player_profile(&name, caller.reader()).await?))
}

/// A page of the leaderboard.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// Page size, 1–100 (default 20); a larger one is refused (400 `invalid_query`), not cut.
    #[param(minimum = 1, maximum = 100, default = 20)]
    pub limit: Option<i64>,
    /// How many entries to skip (default 0).
    #[param(minimum = 0, default = 0)]
    pub offset: Option<i64>,
}

/// A page of a kind's leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderboardPage {
    pub kind: String,
    pub players: Vec<LeaderboardEntry>,
    /// Pass as `offset` for the next page; absent on the last page.
    pub next_offset: Option<i64>,
}

/// A kind's leaderboard: accounts with at least one rated game of the kind, by Glicko-2 rating
/// (best first; equal ratings by the earlier account). Private games are never rated; `played`
/// counts a private game only for those who may watch it.
#[utoipa::path(get, path = "/v1/kinds/{kind}/leaderboard", tag = "players",
    params(KindName, LeaderboardQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of the leaderboard", body = LeaderboardPage),
        (status = 400, description = "Bad page (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        BadToken, NoSuchKind,
    ))]
pub async fn leaderboard(
    state: web::Data<AppState>,
    caller: Caller,
    kind: web::Path<String>,
    query: web::Query<LeaderboardQuery>,
) -> ApiResult<HttpResponse> {
    let kind = kind.into_inner();
    if baumeister_domain::registry::find(&kind).is_none() {
        return Err(ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "kind_not_found",
            format!("No game kind `{}`; see GET /v1/kinds.", kind.escape_debug()),
        ));
    }
    let limit = query.limit.unwrap_or(20);
    let offset = query.offset.unwrap_or(0);
    paging::check_offset_page(limit, offset)?;
    let mut players = state
        .store
        .leaderboard(&kind, limit + 1, offset, caller.reader())
        .await?;
    let next_offset = paging::next_offset(&mut players, limit, offset);
    Ok(HttpResponse::Ok().json(LeaderboardPage {
        kind,
        players,
        next_offset,
    }))
}
