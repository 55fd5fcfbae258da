//! The first-party web client: static files from `api/web/`, compiled into the binary so that
//! `scripts/serve` needs nothing else. It is a client of the public API like any other, so it is
//! not part of the spec. The client routes inside the page (`/#/game/7`), so only `/` and the
//! files under `/web/` are served here (and `/favicon.ico`, which browsers ask for by
//! themselves), so no API path can be shadowed.
//!
//! `WEB_CLIENT_DIR` (development only) serves the same files from that folder instead, read
//! on every request, so that the client can be changed without building the server again.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use crate::error::ApiError;

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
    ("icon.svg", SVG, include_str!("../web/icon.svg")),
    ("rules.js", JS, include_str!("../web/rules.js")),
    (
        "manifest.webmanifest",
        "application/manifest+json",
        include_str!("../web/manifest.webmanifest"),
    ),
    ("i18n/index.js", JS, include_str!("../web/i18n/index.js")),
    ("i18n/en.js", JS, include_str!("../web/i18n/en.js")),
    ("i18n/de.js", JS, include_str!("../web/i18n/de.js")),
    ("words/index.js", JS, include_str!("../web/words/index.js")),
    (
        "words/burgbaumeister.js",
        JS,
        include_str!("../web/words/burgbaumeister.js"),
    ),
    (
        "words/wettstreit.js",
        JS,
        include_str!("../web/words/wettstreit.js"),
    ),
    (
        "words/space-builder.js",
        JS,
        include_str!("../web/words/space-builder.js"),
    ),
    (
        "words/mauerbauer.js",
        JS,
        include_str!("../web/words/mauerbauer.js"),
    ),
    (
        "words/carcassonne.js",
        JS,
        include_str!("../web/words/carcassonne.js"),
    ),
    ("words/every.js", JS, include_str!("../web/words/every.js")),
    (
        "boards/common.js",
        JS,
        include_str!("../web/boards/common.js"),
    ),
    (
        "boards/burgbaumeister.js",
        JS,
        include_str!("../web/boards/burgbaumeister.js"),
    ),
    (
        "boards/wettstreit.js",
        JS,
        include_str!("../web/boards/wettstreit.js"),
    ),
    (
        "boards/space-builder.js",
        JS,
        include_str!("../web/boards/space-builder.js"),
    ),
    (
        "boards/mauerbauer.js",
        JS,
        include_str!("../web/boards/mauerbauer.js"),
    ),
    (
        "boards/carcassonne.js",
        JS,
        include_str!("../web/boards/carcassonne.js"),
    ),
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

fn serve<B: Into<Vec<u8>>>(kind: &str, body: B) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(kind)
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        // The files change with the binary; a short cache keeps upgrades visible.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body.into())
}

/// The service worker that shows pushes (`api/web/sw.js`). Served at `/sw.js`, not under
/// `/web/`: a service worker controls only the pages under its own path, and the page is `/`.
const SERVICE_WORKER: &str = include_str!("../web/sw.js");

/// `GET /sw.js`: the service worker.
pub async fn service_worker() -> HttpResponse {
    serve(JS, text("sw.js", SERVICE_WORKER).into_owned())
}

/// `GET /`: the page.
pub async fn index() -> HttpResponse {
    serve(
        "text/html; charset=utf-8",
        text("index.html", INDEX).into_owned(),
    )
}

/// `GET /favicon.ico`: the client's icon (an SVG; browsers read it whatever the name says).
pub async fn favicon() -> HttpResponse {
    serve(
        SVG,
        text("icon.svg", include_str!("../web/icon.svg")).into_owned(),
    )
}

/// `GET /web/{file}`: one of the client's files.
pub async fn file(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let name = req.match_info().query("file");
    if let Some((name, kind, body)) = IMAGES.iter().find(|(n, _, _)| *n == name) {
        return Ok(serve(kind, bytes(name, body).into_owned()));
    }
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((name, kind, body)) => Ok(serve(kind, text(name, body).into_owned())),
        None => Err(ApiError::not_found(format!(
            "No file {} in the web client.",
            req.path()
        ))),
    }
}

/// The names of the client's files (for the test that every file referenced is served).
pub fn file_names() -> impl Iterator<Item = &'static str> {
    FILES
        .iter()
        .map(|(n, _, _)| *n)
        .chain(IMAGES.iter().map(|(n, _, _)| *n))
}
