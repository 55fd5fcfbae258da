//! The caller's own: the games they sit at (which wait for them) and their webhooks.

use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_storage::{Lifecycle, MyGame, MyGamesFilter, Webhook, WebhookKind};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Caller;
use crate::body::{self, BODY_LIMIT};
use crate::error::{ApiError, ApiResult, Problem};
use crate::live::targets;
use crate::routes::paging;
use crate::routes::problems::NoOrBadToken;
use crate::AppState;

/// Which of the caller's games.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MyGamesQuery {
    /// `me`: only games waiting for the caller's command.
    #[param(pattern = "^me$")]
    pub to_act: Option<String>,
    /// Only games in this state.
    pub status: Option<Lifecycle>,
    /// Page size, 1–100 (default 20); a larger one is refused (400 `invalid_query`), not cut.
    #[param(minimum = 1, maximum = 100, default = 20)]
    pub limit: Option<i64>,
    /// How many games to skip (default 0).
    #[param(minimum = 0, default = 0)]
    pub offset: Option<i64>,
}

/// A page of the caller's games, most recently active first.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyGamePage {
    pub games: Vec<MyGame>,
    /// Pass as `offset` for the next page; absent on the last page.
    pub next_offset: Option<i64>,
}

/// The games the caller sits at, most recently active first: whose turn, the turn clock's
/// deadline, the last activity. `to_act=me` lists those waiting for the caller.
#[utoipa::path(get, path = "/v1/me/games", tag = "live",
    params(MyGamesQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "A page of the caller's games", body = MyGamePage),
        (status = 400, description = "Bad filter (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
    ))]
pub async fn my_games(
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<MyGamesQuery>,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let q = query.into_inner();
    let to_act = match q.to_act.as_deref() {
        None => false,
        Some("me") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "invalid_query",
                "`to_act` is `me` (the games waiting for you) or absent.",
            ))
        }
    };
    let limit = q.limit.unwrap_or(20);
    let offset = q.offset.unwrap_or(0);
    paging::check_offset_page(limit, offset)?;
    let filter = MyGamesFilter {
        status: q.status,
        to_act,
        limit: limit + 1,
        offset,
    };
    let mut games = state.store.my_games(account.id, &filter).await?;
    let next_offset = paging::next_offset(&mut games, limit, offset);
    Ok(HttpResponse::Ok().json(MyGamePage { games, next_offset }))
}

/// A webhook to register.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhook {
    /// Where deliveries are POSTed: `http://` or `https://`, no user or password, at most
    /// 2000 characters; by default only public addresses (see docs/api.md, "Following your games").
    #[schema(
        example = "https://bot.example.com/baumeister",
        max_length = 2000,
        pattern = "^\\s*https?://"
    )]
    pub url: String,
    /// What to deliver (at least one).
    #[schema(min_items = 1)]
    pub kinds: Vec<WebhookKind>,
}

/// A webhook just registered, with its secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedWebhook {
    #[serde(flatten)]
    pub webhook: Webhook,
    /// Signs every delivery (`Baumeister-Signature`). Shown this once: keep it.
    pub secret: String,
}

/// The caller's webhooks.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    pub webhooks: Vec<Webhook>,
}

/// Register a webhook: the server POSTs a signed JSON body to `url` for each chosen kind of
/// event in the caller's games (at least once; deduplicate by `Baumeister-Delivery`).
///
/// Refused although the schema allows it: a URL that does not parse, names no host or carries
/// a user name or password (400 `invalid_webhook`), and one whose address is not public (422).
#[utoipa::path(post, path = "/v1/me/webhooks", tag = "live",
    request_body = NewWebhook,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Registered; `secret` is shown only now", body = CreatedWebhook),
        (status = 400, description = "Malformed, no kinds, or a URL that is not http(s) (`invalid_webhook`)", body = Problem, content_type = "application/problem+json"),
        NoOrBadToken,
        (status = 409, description = "The account has 10 webhooks already (`too_many_webhooks`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The URL's address is not public and the operator does not allow that (`webhook_url_not_allowed`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn create_webhook(
    state: web::Data<AppState>,
    caller: Caller,
    req: HttpRequest,
    body: web::Payload,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    state.limits.write(account.id)?;
    let body: NewWebhook = body::json(&req, body, BODY_LIMIT).await?;
    let url = body.url.trim();
    targets::parse(url).map_err(|e| ApiError::bad_request("invalid_webhook", e))?;
    targets::check_registration(url, state.live.allow_private, &state.live.resolver)
        .await
        .map_err(|e| {
            ApiError::new(
                actix_web::http::StatusCode::UNPROCESSABLE_ENTITY,
                "webhook_url_not_allowed",
                e,
            )
        })?;
    let mut kinds = body.kinds.clone();
    kinds.sort();
    kinds.dedup();
    if kinds.is_empty() {
        return Err(ApiError::bad_request(
            "invalid_webhook",
            "Name at least one of the kinds `your_turn`, `game_started`, `game_finished`, `deadline_soon`, `invitation`.",
        ));
    }
    let (webhook, secret) = state.store.create_webhook(account.id, url, &kinds).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/me/webhooks/{}", webhook.id)))
        .json(CreatedWebhook { webhook, secret }))
}

/// The caller's webhooks (without their secrets), with how their deliveries go.
#[utoipa::path(get, path = "/v1/me/webhooks", tag = "live",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's webhooks", body = WebhookList),
        NoOrBadToken,
    ))]
pub async fn list_webhooks(state: web::Data<AppState>, caller: Caller) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let webhooks = state.store.webhooks(account.id).await?;
    Ok(HttpResponse::Ok().json(WebhookList { webhooks }))
}

/// Remove a webhook; deliveries not yet made are dropped.
#[utoipa::path(delete, path = "/v1/me/webhooks/{id}", tag = "live",
    params(("id" = i64, Path, description = "The webhook")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Removed"),
        NoOrBadToken,
        (status = 404, description = "No such webhook of the caller's (`webhook_not_found`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn delete_webhook(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let account = caller.require()?;
    let id = ApiError::path_id(&id, "webhook_not_found", "Webhook")?;
    state.store.delete_webhook(account.id, id).await?;
    Ok(HttpResponse::NoContent().finish())
}
