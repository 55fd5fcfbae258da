//! The games this server offers, and each one's rules as this server plays them.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use baumeister_domain::{registry, DynGame, KindInfo};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult, Problem};

/// A game kind: what `POST /v1/games` needs, its commands and events, and where its rules are.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameKind {
    #[serde(flatten)]
    pub info: KindInfo,
    /// The rules as this server plays them, every decision where the rulebook is silent, the
    /// turn clock's default move, and every command and event by name (`text/markdown`).
    #[schema(example = "/v1/kinds/burgbaumeister/rules")]
    pub rules: String,
}

impl GameKind {
    fn of(game: &dyn DynGame) -> Self {
        GameKind {
            info: game.info(),
            rules: format!("/v1/kinds/{}/rules", game.kind()),
        }
    }
}

fn find(kind: &str) -> ApiResult<&'static dyn DynGame> {
    registry::find(kind).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "kind_not_found",
            format!("No game kind `{kind}` here; GET /v1/kinds lists them."),
        )
    })
}

/// The games offered, their seat counts and options.
#[utoipa::path(get, path = "/v1/kinds", tag = "games",
    responses((status = 200, description = "Every game kind", body = Vec<GameKind>)))]
pub async fn kinds() -> web::Json<Vec<GameKind>> {
    web::Json(registry::all().iter().map(|g| GameKind::of(*g)).collect())
}

/// One game: its options (schema name and defaults), seats, commands, events and rules.
#[utoipa::path(get, path = "/v1/kinds/{kind}", tag = "games",
    params(("kind" = String, Path, description = "A kind from `GET /v1/kinds`")),
    responses(
        (status = 200, description = "The game kind", body = GameKind),
        (status = 404, description = "No such kind (`kind_not_found`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn kind(kind: web::Path<String>) -> ApiResult<web::Json<GameKind>> {
    Ok(web::Json(GameKind::of(find(&kind)?)))
}

/// The rules of one game as this server plays them, in Markdown.
#[utoipa::path(get, path = "/v1/kinds/{kind}/rules", tag = "games",
    params(("kind" = String, Path, description = "A kind from `GET /v1/kinds`")),
    responses(
        (status = 200, description = "The rules document", body = String, content_type = "text/markdown"),
        (status = 404, description = "No such kind (`kind_not_found`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn kind_rules(kind: web::Path<String>) -> ApiResult<HttpResponse> {
    let game = find(&kind)?;
    Ok(HttpResponse::Ok()
        .content_type("text/markdown; charset=utf-8")
        .body(game.rules()))
}
