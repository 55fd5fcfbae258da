//! The first-party web client: static files from `api/web/`, compiled into the binary so that
//! `scripts/serve` needs nothing else. It is a client of the public API like any other, so it is
//! not part of the spec. The client routes inside the page (`/#/game/7`), so only `/` and the
//! files under `/web/` are served here and no API path can be shadowed.

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
    ("app.js", JS, include_str!("../web/app.js")),
    ("api.js", JS, include_str!("../web/api.js")),
    ("lobby.js", JS, include_str!("../web/lobby.js")),
    ("game.js", JS, include_str!("../web/game.js")),
    ("words.js", JS, include_str!("../web/words.js")),
    ("svg.js", JS, include_str!("../web/svg.js")),
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
];

const JS: &str = "text/javascript; charset=utf-8";

const INDEX: &str = include_str!("../web/index.html");

/// Strict by default: the page loads only its own scripts and talks only to its own origin.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                   script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

fn serve(kind: &str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(kind)
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        // The files change with the binary; a short cache keeps upgrades visible.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

/// `GET /`: the page.
pub async fn index() -> HttpResponse {
    serve("text/html; charset=utf-8", INDEX)
}

/// `GET /web/{file}`: one of the client's files.
pub async fn file(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let name = req.match_info().query("file");
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => Ok(serve(kind, body)),
        None => Err(ApiError::not_found(format!(
            "No file {} in the web client.",
            req.path()
        ))),
    }
}

/// The names of the client's files (for the test that every file referenced is served).
pub fn file_names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _, _)| *n)
}
