//! The games this server offers, and each one's rules as this server plays them.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_domain::{registry, DynGame, KindInfo, Language};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use std::sync::OnceLock;

use crate::error::{ApiError, ApiResult, Problem};
use crate::{accept_language, web_client};

/// A game kind: what `POST /v1/games` needs, its commands and events, and where its rules are.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameKind {
    #[serde(flatten)]
    pub info: KindInfo,
    /// The rules as this server plays them, every decision where the rulebook is silent, the
    /// turn clock's default move, and every command and event by name (`text/markdown`; in
    /// English or German, as the request's `Accept-Language` prefers).
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
    params(IfNoneMatch),
    responses(
        (status = 200, description = "Every game kind", body = Vec<GameKind>,
            headers(("ETag" = String, description = "The document's version: send it back as `If-None-Match`"),
                    ("Cache-Control" = String, description = "`no-cache`: the document changes only with the server; keep it and revalidate with `If-None-Match`"))),
        (status = 304, description = "Unchanged since the ETag sent in `If-None-Match`",
            headers(("ETag" = String, description = "The document's version"))),
    ))]
pub async fn kinds(req: HttpRequest) -> HttpResponse {
    static TEXT: OnceLock<&'static str> = OnceLock::new();
    let text = TEXT.get_or_init(|| {
        let all: Vec<GameKind> = registry::all().iter().map(|g| GameKind::of(*g)).collect();
        leak_json(&all)
    });
    web_client::unchanging_json(&req, "v1/kinds", text)
}

/// One game: its options (schema name and defaults), seats, commands, events and rules.
#[utoipa::path(get, path = "/v1/kinds/{kind}", tag = "games",
    params(("kind" = String, Path, description = "A kind from `GET /v1/kinds`"), IfNoneMatch),
    responses(
        (status = 200, description = "The game kind", body = GameKind,
            headers(("ETag" = String, description = "The document's version: send it back as `If-None-Match`"),
                    ("Cache-Control" = String, description = "`no-cache`: the document changes only with the server; keep it and revalidate with `If-None-Match`"))),
        (status = 304, description = "Unchanged since the ETag sent in `If-None-Match`",
            headers(("ETag" = String, description = "The document's version"))),
        (status = 404, description = "No such kind (`kind_not_found`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn kind(req: HttpRequest, kind: web::Path<String>) -> ApiResult<HttpResponse> {
    static TEXTS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    let game = find(&kind)?;
    let texts = TEXTS.get_or_init(|| {
        registry::all()
            .iter()
            .map(|g| (g.kind(), leak_json(&GameKind::of(*g))))
            .collect()
    });
    let (name, text) = texts
        .iter()
        .find(|(k, _)| *k == game.kind())
        .copied()
        .expect("every kind found is in the registry");
    Ok(web_client::unchanging_json(&req, name, text))
}

/// A document serialized once for the process's life.
fn leak_json(value: &impl Serialize) -> &'static str {
    let text = serde_json::to_string(value).expect("kinds serialize");
    Box::leak(text.into_boxed_str())
}

/// A revalidation.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Header)]
pub struct IfNoneMatch {
    /// The `ETag` of the copy the client holds: `304` if it is still current.
    #[serde(rename = "If-None-Match")]
    #[param(required = false)]
    pub if_none_match: String,
}

/// The reader's languages, for the rules document.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Header)]
pub struct RulesLanguage {
    /// The languages the client reads, with RFC 9110 weights (`de-DE,de;q=0.9,en;q=0.8`).
    /// `de` (also `de-DE`, `de-AT`, …) answers German; anything else English: `en`, `*`, a
    /// language without a document, an absent or malformed header. Never an error.
    #[serde(rename = "Accept-Language")]
    #[param(required = false, example = "de-DE,de;q=0.9,en;q=0.8")]
    pub accept_language: String,
}

/// The rules of one game as this server plays them, in Markdown.
///
/// In the language the client prefers (`Accept-Language`) among those the document exists in,
/// English and German; English otherwise.
#[utoipa::path(get, path = "/v1/kinds/{kind}/rules", tag = "games",
    params(("kind" = String, Path, description = "A kind from `GET /v1/kinds`"), RulesLanguage),
    responses(
        (status = 200, description = "The rules document", body = String, content_type = "text/markdown",
            headers(
                ("Content-Language" = String, description = "The document's language: `en` or `de`"),
                ("Vary" = String, description = "`Accept-Language`: caches keep one copy per language"),
            )),
        (status = 404, description = "No such kind (`kind_not_found`)", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn kind_rules(req: HttpRequest, kind: web::Path<String>) -> ApiResult<HttpResponse> {
    let game = find(&kind)?;
    let available: Vec<Language> = Language::ALL
        .into_iter()
        .filter(|l| game.rules_in(*l).is_some())
        .collect();
    let language = accept_language::negotiate(&req, &available);
    let rules = game.rules_in(language).unwrap_or_else(|| game.rules());
    Ok(HttpResponse::Ok()
        .content_type("text/markdown; charset=utf-8")
        .insert_header((header::CONTENT_LANGUAGE, language.tag()))
        .insert_header((header::VARY, "Accept-Language"))
        .body(rules))
}
