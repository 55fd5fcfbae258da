//! The first-party web client: static files from `api/web/`, compiled into the binary so that
//! `scripts/serve` needs nothing else. It is a client of the public API like any other, so it is
//! not part of the spec. The client routes inside the page (`/#/game/7`), so only `/` and the
//! files under `/web/` are served here (and `/favicon.ico`, which browsers ask for by
//! themselves), so no API path can be shadowed.
//!
//! `WEB_CLIENT_DIR` (development only) serves the same files from that folder instead, read
//! on every request, so that the client can be changed without building the server again.
//!
//! Loading at once: the page names its files under `/web/v-<fingerprint>/` (a hash of every
//! file of the client), so those answers are cached for a year as `immutable`, and a new build
//! is a new address. The page itself (`/`) is revalidated on every visit with its ETag, so a
//! repeat visit costs one `304`. Text files are sent gzip-compressed to a browser that accepts
//! it (compressed once, on first use). With `WEB_CLIENT_DIR` nothing is cached: files change
//! under a running server.

use std::collections::HashMap;
use std::io::Write;
use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

use crate::error::ApiError;

/// Each kind's folder (`api/web/games/<kind>/`): its board, the sentences of its log and its
/// rules for players.
macro_rules! game_files {
    ($($kind:literal),*) => {
        &[$(
            (concat!("games/", $kind, "/board.js"), JS, include_str!(concat!("../web/games/", $kind, "/board.js"))),
            (concat!("games/", $kind, "/words.js"), JS, include_str!(concat!("../web/games/", $kind, "/words.js"))),
            (concat!("games/", $kind, "/rules.js"), JS, include_str!(concat!("../web/games/", $kind, "/rules.js"))),
        )*]
    };
}

/// Every text file of the client: the frame's and each kind's.
fn text_files() -> impl Iterator<Item = &'static (&'static str, &'static str, &'static str)> {
    FILES.iter().chain(GAME_FILES)
}

const GAME_FILES: &[(&str, &str, &str)] = game_files!(
    "burgbaumeister",
    "wettstreit",
    "space-builder",
    "mauerbauer",
    "carcassonne"
);

/// Every file of the client: its name under `/web/`, its media type and its bytes.
const FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../web/style.css"),
    ),
    (
        "tables.css",
        "text/css; charset=utf-8",
        include_str!("../web/tables.css"),
    ),
    ("app.js", JS, include_str!("../web/app.js")),
    ("api.js", JS, include_str!("../web/api.js")),
    ("lobby.js", JS, include_str!("../web/lobby.js")),
    ("game.js", JS, include_str!("../web/game.js")),
    ("words.js", JS, include_str!("../web/words.js")),
    ("svg.js", JS, include_str!("../web/svg.js")),
    ("sse.js", JS, include_str!("../web/sse.js")),
    ("zoom.js", JS, include_str!("../web/zoom.js")),
    ("moves-skip.js", JS, include_str!("../web/moves-skip.js")),
    ("notices.js", JS, include_str!("../web/notices.js")),
    ("account.js", JS, include_str!("../web/account.js")),
    ("icon.svg", SVG, include_str!("../web/icon.svg")),
    ("rules.js", JS, include_str!("../web/rules.js")),
    ("hints.js", JS, include_str!("../web/hints.js")),
    (
        "manifest.webmanifest",
        "application/manifest+json",
        include_str!("../web/manifest.webmanifest"),
    ),
    ("i18n/index.js", JS, include_str!("../web/i18n/index.js")),
    ("i18n/en.js", JS, include_str!("../web/i18n/en.js")),
    ("i18n/de.js", JS, include_str!("../web/i18n/de.js")),
    ("words/index.js", JS, include_str!("../web/words/index.js")),
    ("words/every.js", JS, include_str!("../web/words/every.js")),
    (
        "words/context.js",
        JS,
        include_str!("../web/words/context.js"),
    ),
    ("games/index.js", JS, include_str!("../web/games/index.js")),
    (
        "games/common.js",
        JS,
        include_str!("../web/games/common.js"),
    ),
    ("games/draw.js", JS, include_str!("../web/games/draw.js")),
    (
        "tables/index.js",
        JS,
        include_str!("../web/tables/index.js"),
    ),
    (
        "tables/create.js",
        JS,
        include_str!("../web/tables/create.js"),
    ),
    ("tables/bots.js", JS, include_str!("../web/tables/bots.js")),
    (
        "tables/invitations.js",
        JS,
        include_str!("../web/tables/invitations.js"),
    ),
    (
        "tables/rematch.js",
        JS,
        include_str!("../web/tables/rematch.js"),
    ),
    ("tables/chat.js", JS, include_str!("../web/tables/chat.js")),
    (
        "tables/profile.js",
        JS,
        include_str!("../web/tables/profile.js"),
    ),
    (
        "tables/leaderboard.js",
        JS,
        include_str!("../web/tables/leaderboard.js"),
    ),
    (
        "tables/report.js",
        JS,
        include_str!("../web/tables/report.js"),
    ),
    (
        "tables/moderation.js",
        JS,
        include_str!("../web/tables/moderation.js"),
    ),
    ("tables/undo.js", JS, include_str!("../web/tables/undo.js")),
    ("tables/live.js", JS, include_str!("../web/tables/live.js")),
];

/// The icons a home screen or an installed app asks for (the manifest's and `apple-touch-icon`),
/// drawn from `icon.svg` by `scripts/web-icons`.
const IMAGES: &[(&str, &str, &[u8])] = &[
    ("icon-180.png", PNG, include_bytes!("../web/icon-180.png")),
    ("icon-192.png", PNG, include_bytes!("../web/icon-192.png")),
    ("icon-512.png", PNG, include_bytes!("../web/icon-512.png")),
    (
        "icon-maskable-512.png",
        PNG,
        include_bytes!("../web/icon-maskable-512.png"),
    ),
];

const JS: &str = "text/javascript; charset=utf-8";
const PNG: &str = "image/png";
const SVG: &str = "image/svg+xml";

const INDEX: &str = include_str!("../web/index.html");

/// Strict by default: the page loads only its own scripts and talks only to its own origin.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                   script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/// A file's text: compiled in, or read from `WEB_CLIENT_DIR` when that is set (only names of
/// [`FILES`] are ever read, so no path from a request reaches the file system).
fn text(name: &str, compiled: &'static str) -> std::borrow::Cow<'static, str> {
    match std::env::var_os("WEB_CLIENT_DIR") {
        Some(dir) => std::fs::read_to_string(std::path::Path::new(&dir).join(name))
            .map(Into::into)
            .unwrap_or(compiled.into()),
        None => compiled.into(),
    }
}

/// An image's bytes: compiled in, or read from `WEB_CLIENT_DIR` as [`text`] does.
fn bytes(name: &str, compiled: &'static [u8]) -> std::borrow::Cow<'static, [u8]> {
    match std::env::var_os("WEB_CLIENT_DIR") {
        Some(dir) => std::fs::read(std::path::Path::new(&dir).join(name))
            .map(Into::into)
            .unwrap_or(compiled.into()),
        None => compiled.into(),
    }
}

fn developing() -> bool {
    std::env::var_os("WEB_CLIENT_DIR").is_some()
}

fn digest(parts: &[&[u8]]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The compiled client's fingerprint: a hash of every file's name and bytes.
fn fingerprint() -> &'static str {
    static PRINT: OnceLock<String> = OnceLock::new();
    PRINT.get_or_init(|| {
        let mut parts: Vec<&[u8]> = Vec::new();
        for (name, _, body) in text_files() {
            parts.extend([name.as_bytes(), body.as_bytes()]);
        }
        for (name, _, body) in IMAGES {
            parts.extend([name.as_bytes(), *body]);
        }
        parts.extend([INDEX.as_bytes(), SERVICE_WORKER.as_bytes()]);
        digest(&parts)
    })
}

/// The folder the page names its files in: fingerprinted, except while developing.
fn folder() -> String {
    if developing() {
        "/web/".into()
    } else {
        format!("/web/v-{}/", fingerprint())
    }
}

/// How an answer may be cached.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Caching {
    /// A fingerprinted address: its bytes never change.
    Immutable,
    /// Asked again every time, answered `304` while its ETag matches.
    Revalidate,
}

/// gzip of `body`, at the best compression: text files are compressed once and kept.
fn gzip(body: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(body).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// The compiled text file `name` compressed (once per process).
fn compressed(name: &'static str, body: &'static str) -> &'static [u8] {
    static CACHE: OnceLock<std::sync::Mutex<HashMap<&'static str, &'static [u8]>>> =
        OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(name)
        .or_insert_with(|| Box::leak(gzip(body.as_bytes()).into_boxed_slice()))
}

fn accepts_gzip(req: &HttpRequest) -> bool {
    req.headers()
        .get_all(header::ACCEPT_ENCODING)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    == Some(0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Whether the request's `If-None-Match` names `etag`.
fn unchanged(req: &HttpRequest, etag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| {
            let tag = tag.trim();
            tag == "*" || tag.trim_start_matches("W/") == etag
        })
}

/// A file's answer: its body as this request may take it (gzip or not), with the headers of
/// `caching`, or `304` when the browser holds these bytes already.
fn serve(req: &HttpRequest, kind: &str, body: Body, caching: Caching) -> HttpResponse {
    let plain = body.plain();
    let etag = format!("\"{}\"", digest(&[plain]));
    let mut answer = if unchanged(req, &etag) {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    answer
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::ETAG, etag.clone()))
        .insert_header((header::VARY, "Accept-Encoding"))
        .insert_header((
            header::CACHE_CONTROL,
            match caching {
                Caching::Immutable => "public, max-age=31536000, immutable",
                Caching::Revalidate => "no-cache",
            },
        ));
    if unchanged(req, &etag) {
        return answer.finish();
    }
    answer.content_type(kind);
    // Compressing a few hundred bytes gains nothing; images are compressed already.
    if body.is_text() && plain.len() > 512 && accepts_gzip(req) {
        answer.insert_header((header::CONTENT_ENCODING, "gzip"));
        return match body {
            Body::Compiled(name, text) if !developing() => answer.body(compressed(name, text)),
            other => answer.body(gzip(other.plain())),
        };
    }
    answer.body(plain.to_vec())
}

/// A file's bytes, compiled in (with its name, so that its compressed form is kept) or read.
enum Body {
    Compiled(&'static str, &'static str),
    Text(String),
    Image(Vec<u8>),
}

impl Body {
    fn plain(&self) -> &[u8] {
        match self {
            Body::Compiled(_, text) => text.as_bytes(),
            Body::Text(text) => text.as_bytes(),
            Body::Image(bytes) => bytes,
        }
    }

    fn is_text(&self) -> bool {
        !matches!(self, Body::Image(_))
    }

    /// The text file `name` (compiled in as `compiled`) as served now.
    fn text(name: &'static str, compiled: &'static str) -> Body {
        match text(name, compiled) {
            std::borrow::Cow::Borrowed(text) => Body::Compiled(name, text),
            std::borrow::Cow::Owned(text) => Body::Text(text),
        }
    }
}

/// The service worker that shows pushes (`api/web/sw.js`). Served at `/sw.js`, not under
/// `/web/`: a service worker controls only the pages under its own path, and the page is `/`.
const SERVICE_WORKER: &str = include_str!("../web/sw.js");

/// `GET /sw.js`: the service worker (never fingerprinted: browsers look for it by its name).
pub async fn service_worker(req: HttpRequest) -> HttpResponse {
    serve(
        &req,
        JS,
        Body::text("sw.js", SERVICE_WORKER),
        Caching::Revalidate,
    )
}

/// `GET /`: the page, naming its files in the fingerprinted folder; revalidated by its ETag.
pub async fn index(req: HttpRequest) -> HttpResponse {
    let page = text("index.html", INDEX).replace("\"/web/", &format!("\"{}", folder()));
    serve(
        &req,
        "text/html; charset=utf-8",
        Body::Text(page),
        Caching::Revalidate,
    )
}

/// `GET /favicon.ico`: the client's icon (an SVG; browsers read it whatever the name says).
pub async fn favicon(req: HttpRequest) -> HttpResponse {
    serve(
        &req,
        SVG,
        Body::text("icon.svg", include_str!("../web/icon.svg")),
        Caching::Revalidate,
    )
}

/// `GET /web/{file}`: one of the client's files; `GET /web/v-<fingerprint>/{file}` the same,
/// cached as immutable when the fingerprint is this build's (an older page's files are served
/// as they are now, revalidated).
pub async fn file(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let asked = req.match_info().query("file");
    let (name, caching) = match asked
        .strip_prefix("v-")
        .and_then(|rest| rest.split_once('/'))
    {
        Some((print, name)) if print == fingerprint() && !developing() => {
            (name, Caching::Immutable)
        }
        Some((_, name)) => (name, Caching::Revalidate),
        None => (asked, Caching::Revalidate),
    };
    if let Some((name, kind, body)) = IMAGES.iter().find(|(n, _, _)| *n == name) {
        let body = Body::Image(bytes(name, body).into_owned());
        return Ok(serve(&req, kind, body, caching));
    }
    match text_files().find(|(n, _, _)| *n == name) {
        Some((name, kind, body)) => Ok(serve(&req, kind, Body::text(name, body), caching)),
        None => Err(ApiError::not_found(format!(
            "No file {} in the web client.",
            req.path()
        ))),
    }
}

/// `GET /openapi.json`: the API's spec, sent as the kinds are (gzip when accepted, revalidated
/// by its ETag: a repeat read costs a `304`, not half a megabyte).
pub fn spec(req: &HttpRequest, spec: &[u8]) -> HttpResponse {
    static TEXT: OnceLock<&'static str> = OnceLock::new();
    let text: &'static str =
        TEXT.get_or_init(|| Box::leak(String::from_utf8_lossy(spec).into_owned().into_boxed_str()));
    unchanging_json(req, "openapi.json", text)
}

/// A JSON document that is the same all the process long (the kinds, the spec; `name` keeps its
/// compressed form), sent as the client's files are: gzip when accepted, revalidated by its
/// ETag, so a repeat read costs a `304`.
pub fn unchanging_json(req: &HttpRequest, name: &'static str, text: &'static str) -> HttpResponse {
    serve(
        req,
        "application/json",
        Body::Compiled(name, text),
        Caching::Revalidate,
    )
}

/// The names of the client's files (for the test that every file referenced is served).
pub fn file_names() -> impl Iterator<Item = &'static str> {
    text_files()
        .map(|(n, _, _)| *n)
        .chain(IMAGES.iter().map(|(n, _, _)| *n))
}
