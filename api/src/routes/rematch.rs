//! Rematches: play a finished game again with the same players, seats rotated by one.

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::Rematch;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::error::{ApiResult, Problem};
use crate::routes::path_params::FinishedGameId;
use crate::routes::problems::{
    BadClientSeed, BadToken, CommandLimit, NoOrBadToken, NoRematch, NotSeatedOrSuspended,
    RematchNotOpen,
};
use crate::routes::seating::{seat_request, SeatBody};
use crate::AppState;

/// Proposing or accepting a rematch (the body is optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RematchAnswer {
    /// Your own entropy for the rematch's randomness (docs/fairness.md): 1–64 of
    /// `A–Z a–z 0–9 _ . -`. Absent: the server picks one. Everybody sees it.
    #[schema(pattern = "^[A-Za-z0-9_.-]{1,64}$", example = "my-lucky-seed-42")]
    pub client_seed: Option<String>,
}

impl SeatBody for RematchAnswer {
    fn client_seed(&self) -> &Option<String> {
        &self.client_seed
    }
}

/// Propose a rematch of a finished game you sat at.
///
/// The same kind, options and `rated`, the same players, the seats rotated by one (the player of
/// seat 1 takes seat 0, …, the player of seat 0 the last seat), so that another player starts
/// where seat order matters. You have accepted; each other player accepts or declines. When the
/// last one accepts, the new game is created and started (`new_game`). The players are told on
/// `GET /v1/me/stream` (`event: rematch`). A proposal not accepted by everybody within 7 days
/// expires; after a declined or expired one, anybody may propose again.
#[utoipa::path(post, path = "/v1/games/{id}/rematch", tag = "games",
    params(FinishedGameId),
    request_body(content = Option<RematchAnswer>, description = "Optional: your client seed for the rematch."),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Proposed", body = Rematch),
        BadClientSeed, NoOrBadToken, NotSeatedOrSuspended,
        (status = 404, description = "No such game, or a private game you may not watch (`game_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game has not finished (`game_not_finished`), or a proposal is open or accepted already (`rematch_exists`)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn propose_rematch(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let (account, body): (_, RematchAnswer) = seat_request(&state, caller, &req, body).await?;
    crate::routes::moderation::not_suspended(&state, &account)?;
    let seed = body.client_seed;
    let rematch = state
        .store
        .propose_rematch(id.into_inner(), account.id, seed.as_deref())
        .await?;
    Ok(HttpResponse::Created().json(rematch))
}

/// The latest rematch proposal of a game: who answered what, and the new game once started.
/// A private game's proposal is for those who may watch the game (others: `game_not_found`).
#[utoipa::path(get, path = "/v1/games/{id}/rematch", tag = "games",
    params(FinishedGameId),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The latest proposal", body = Rematch),
        BadToken,
        (status = 404, description = "No such game, or a private game you may not watch (`game_not_found`); or no proposal yet (`no_rematch`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn show_rematch(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
) -> ApiResult<HttpResponse> {
    let rematch = state
        .store
        .rematch(id.into_inner(), caller.reader())
        .await?;
    Ok(HttpResponse::Ok().json(rematch))
}

async fn answer(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
    accept: bool,
) -> ApiResult<HttpResponse> {
    let (account, body): (_, RematchAnswer) = seat_request(&state, caller, &req, body).await?;
    if accept {
        // Declining takes no seat: a suspended account may still say no.
        crate::routes::moderation::not_suspended(&state, &account)?;
    }
    let seed = body.client_seed;
    let rematch = state
        .store
        .answer_rematch(id.into_inner(), account.id, accept, seed.as_deref())
        .await?;
    Ok(HttpResponse::Ok().json(rematch))
}

/// Accept the open rematch proposal; the last acceptance creates and starts the new game.
#[utoipa::path(post, path = "/v1/games/{id}/rematch/accept", tag = "games",
    params(FinishedGameId),
    request_body(content = Option<RematchAnswer>, description = "Optional: your client seed for the rematch."),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Accepted; `new_game` once everybody has", body = Rematch),
        BadClientSeed, NoOrBadToken, NotSeatedOrSuspended, NoRematch, RematchNotOpen, CommandLimit,
    ))]
pub async fn accept_rematch(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    answer(state, caller, id, req, body, true).await
}

/// Decline the open rematch proposal (anybody may propose again afterwards).
#[utoipa::path(post, path = "/v1/games/{id}/rematch/decline", tag = "games",
    params(FinishedGameId),
    request_body(content = Option<RematchAnswer>, description = "Optional and ignored: a client seed."),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Declined", body = Rematch),
        BadClientSeed, NoOrBadToken,
        (status = 403, description = "You did not sit at this game (`not_seated`)", body = Problem, content_type = "application/problem+json"),
        NoRematch, RematchNotOpen, CommandLimit,
    ))]
pub async fn decline_rematch(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    answer(state, caller, id, req, body, false).await
}
