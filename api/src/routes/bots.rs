//! Seating bots at a game that waits for players.

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_domain::bots::Level;
use baumeister_storage::GameSummary;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::routes::path_params::GameId;
use crate::routes::problems::{CommandLimit, NoOrBadToken};
use crate::AppState;

/// A bot to seat: which seat, how well it plays.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBot {
    /// A free seat of the game (0-based; seat 0 is the creator's).
    #[schema(example = 1)]
    #[serde(deserialize_with = "crate::body::whole")]
    pub seat: u8,
    /// `random` (any legal command), `greedy` (the best one step ahead) or `strong` (a tree
    /// search over guesses of the hidden cards). Bots see only their own seat's board and log.
    /// Every level plays every kind.
    pub level: Level,
}

/// Seats the bots, in order, at a game the caller created; the first refusal stops.
pub async fn seat_bots(
    state: &AppState,
    game_id: i64,
    creator: i64,
    bots: &[NewBot],
) -> ApiResult<Option<GameSummary>> {
    let mut last = None;
    for bot in bots {
        last = Some(
            state
                .store
                .add_bot(game_id, creator, bot.seat, bot.level)
                .await?,
        );
    }
    Ok(last)
}

/// Seat a bot. Only the game's creator may, while the game waits for players; taking the last
/// seat starts the game. The bot plays through the same command path as everybody, its
/// commands recorded with its level.
#[utoipa::path(post, path = "/v1/games/{id}/bots", tag = "games",
    params(GameId),
    request_body = NewBot,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Seated", body = GameSummary),
        (status = 400, description = "Malformed body, unknown level, or a seat the game does not have (`no_such_seat`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 403, description = "Not the game's creator (`not_creator`); the account is suspended (`account_suspended`, saying why and until when)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game, or a private game you may not watch (`game_not_found`, judged before anything else)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The seat is taken (`seat_taken`), the game is not open (`game_not_open`), or no bot of the level is free (`no_bot_free`)", body = Problem, content_type = "application/problem+json"),
        CommandLimit,
    ))]
pub async fn add(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    crate::routes::moderation::not_suspended(&state, &account)?;
    let bot: NewBot = body::json(&req, body, BODY_LIMIT).await?;
    state.limits.write(account.id)?;
    let summary = seat_bots(&state, id.into_inner(), account.id, &[bot])
        .await?
        .ok_or_else(|| ApiError::internal("one bot was seated"))?;
    Ok(HttpResponse::Ok().json(summary))
}
