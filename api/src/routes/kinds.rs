//! The games this server offers, and each one's rules as this server plays them.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use baumeister_domain::{registry, DynGame, KindInfo, Language};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::error::{ApiError, ApiResult};
use crate::routes::path_params::KindName;
use crate::routes::problems::NoSuchKind;
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
    /// The options' schema (named by `options_schema`) and every schema it refers to, as the
    /// spec's components hold them: what a form for the options needs, without reading the whole
    /// spec.
    #[schema(value_type = Object)]
    pub options_schemas: BTreeMap<String, Value>,
}

impl GameKind {
    fn of(game: &dyn DynGame, schemas: &Value) -> Self {
        let info = game.info();
        let mut options_schemas = BTreeMap::new();
        let mut todo = vec![info.options_schema.clone()];
        while let Some(name) = todo.pop() {
            if options_schemas.contains_key(&name) {
                continue;
            }
            let schema = schemas.get(&name).cloned().unwrap_or(Value::Null);
            referred(&schema, &mut todo);
            options_schemas.insert(name, schema);
        }
        GameKind {
            info,
            rules: format!("/v1/kinds/{}/rules", game.kind()),
            options_schemas,
        }
    }
}

/// The names of the component schemas `schema` refers to (`$ref`).
fn referred(schema: &Value, names: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(r)) => {
                        names.push(r.rsplit('/').next().unwrap_or(r).to_string())
                    }
                    _ => referred(value, names),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| referred(v, names)),
        _ => {}
    }
}

/// `GET /v1/kinds` and each `GET /v1/kinds/{kind}`, serialized once for the process's life from
/// the registry and the spec (whose components hold the options' schemas).
struct Documents {
    all: &'static str,
    each: Vec<(&'static str, &'static str)>,
}

static DOCUMENTS: OnceLock<Documents> = OnceLock::new();

/// Serializes the kinds' documents with the schemas of `spec` (once: the spec is the same all
/// the process long). Called where the routes are registered, before any request.
pub fn prepare(spec: &[u8]) {
    DOCUMENTS.get_or_init(|| {
        let spec: Value = serde_json::from_slice(spec).unwrap_or(Value::Null);
        let schemas = &spec["components"]["schemas"];
        let kinds: Vec<GameKind> = registry::all()
            .iter()
            .map(|g| GameKind::of(*g, schemas))
            .collect();
        Documents {
            all: leak_json(&kinds),
            each: kinds.iter().map(|k| (k.info.kind, leak_json(k))).collect(),
        }
    });
}

fn documents() -> &'static Documents {
    DOCUMENTS
        .get()
        .expect("kinds::prepare runs where the routes are registered")
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
    web_client::unchanging_json(&req, "v1/kinds", documents().all)
}

/// One game: its options (schema name and defaults), seats, commands, events and rules.
#[utoipa::path(get, path = "/v1/kinds/{kind}", tag = "games",
    params(KindName, IfNoneMatch),
    responses(
        (status = 200, description = "The game kind", body = GameKind,
            headers(("ETag" = String, description = "The document's version: send it back as `If-None-Match`"),
                    ("Cache-Control" = String, description = "`no-cache`: the document changes only with the server; keep it and revalidate with `If-None-Match`"))),
        (status = 304, description = "Unchanged since the ETag sent in `If-None-Match`",
            headers(("ETag" = String, description = "The document's version"))),
        NoSuchKind,
    ))]
pub async fn kind(req: HttpRequest, kind: web::Path<String>) -> ApiResult<HttpResponse> {
    let game = find(&kind)?;
    let (name, text) = documents()
        .each
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
    params(KindName, RulesLanguage),
    responses(
        (status = 200, description = "The rules document", body = String, content_type = "text/markdown",
            headers(
                ("Content-Language" = String, description = "The document's language: `en` or `de`"),
                ("Vary" = String, description = "`Accept-Language`: caches keep one copy per language"),
            )),
        NoSuchKind,
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
