//! Baumeister's HTTP server: routes, auth, errors and the OpenAPI spec. Game-agnostic: every
//! game comes through `baumeister_domain::registry`.

mod accept_language;
pub mod auth;
pub mod body;
mod bot_players;
mod bot_schedule;
pub mod cli;
pub mod config;
pub mod error;
pub mod limits;
pub mod live;
pub mod moderation_cli;
pub mod names;
pub mod notices;
pub mod openapi;
mod prefer;
mod request_id;
pub mod routes;
pub mod shutdown;
pub mod slow_clients;
pub mod telemetry;
mod throttle;
pub mod web_client;

use actix_web::dev::AppConfig;
use actix_web::dev::Server;
use actix_web::error::{PathError, QueryPayloadError};
use actix_web::http::StatusCode;
use actix_web::{web, App, HttpRequest, HttpResponse};
use baumeister_storage::Store;
use utoipa_swagger_ui::SwaggerUi;

pub use config::Config;
use error::ApiError;

/// What every request handler shares.
pub struct AppState {
    pub store: Store,
    pub keys: auth::Keys,
    /// What tokens are checked against, as recently read.
    pub standings: auth::Standings,
    /// At most one password hash per core at once.
    pub hashing: auth::Hashing,
    pub limits: limits::Limiters,
    /// See [`Config::client_address_header`].
    pub client_address_header: Option<String>,
    /// A real argon2 hash to verify against when a name is unknown (constant-ish timing).
    pub dummy_hash: String,
    /// Live streams and webhooks.
    pub live: config::Live,
    /// Mail and push (whether mail is configured, the VAPID key, the public URL).
    pub notices: config::Notices,
    pub open_streams: live::open::OpenStreams,
    /// The reads the streams of a game share after a notice.
    pub shared_reads: live::shared::SharedReads,
    /// How long clients may take (see [`slow_clients`]).
    pub timeouts: config::ClientTimeouts,
    /// Password resets and deleted accounts' names.
    pub accounts: config::AccountCare,
    /// Metrics and stopping.
    pub operations: config::Operations,
    /// Set when the process stops (SIGTERM, SIGINT): streams are told to reconnect.
    pub shutdown: shutdown::Shutdown,
}

impl AppState {
    /// Refuses a `JWT_SECRET` shorter than [`config::MIN_SECRET_BYTES`].
    pub fn new(store: Store, config: &Config) -> Result<Self, String> {
        let secret = config.secret_bytes();
        if secret.len() < config::MIN_SECRET_BYTES {
            return Err(format!(
                "the JWT secret has {} bytes; use at least {}",
                secret.len(),
                config::MIN_SECRET_BYTES
            ));
        }
        // Metrics are recorded only where they can be read: installed before the first
        // request is counted.
        if config.operations.metrics_token.is_some() {
            telemetry::handle();
        }
        Ok(AppState {
            store,
            keys: auth::Keys::new(&secret, config.token_ttl_seconds),
            standings: auth::Standings::default(),
            hashing: auth::Hashing::default(),
            limits: limits::Limiters::new(&config.limits),
            client_address_header: config.client_address_header.clone(),
            dummy_hash: auth::hash_password("not a password of anybody").expect("argon2 hashes"),
            live: config.live.clone(),
            notices: config.notices.clone(),
            open_streams: Default::default(),
            shared_reads: Default::default(),
            timeouts: config.timeouts,
            accounts: config.accounts,
            operations: config.operations.clone(),
            shutdown: Default::default(),
        })
    }
}

pub use body::{BODY_LIMIT, IMPORT_BODY_LIMIT};

fn query_error(err: QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    ApiError::bad_request("invalid_query", err.to_string()).into()
}

fn path_error(err: PathError, req: &HttpRequest) -> actix_web::Error {
    let _ = err;
    ApiError::new(
        StatusCode::NOT_FOUND,
        "game_not_found",
        format!("No game at {}: game ids are whole numbers.", req.path()),
    )
    .into()
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::not_found(format!(
        "Nothing at {} {}; see /openapi.json.",
        req.method(),
        req.path()
    )))
}

async fn method_not_allowed(req: HttpRequest, allow: &'static str) -> HttpResponse {
    use actix_web::ResponseError;
    let mut response = method_not_allowed_error(&req).error_response();
    response.headers_mut().insert(
        actix_web::http::header::ALLOW,
        actix_web::http::header::HeaderValue::from_static(allow),
    );
    response
}

fn method_not_allowed_error(req: &HttpRequest) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} is not allowed on {}; see /openapi.json.",
            req.method(),
            req.path()
        ),
    )
}

async fn docs_redirect() -> HttpResponse {
    HttpResponse::Found()
        .insert_header(("Location", "/docs/"))
        .finish()
}

/// A resource answering the methods it has no route for with 405 and `Allow: allow`.
fn resource(path: &str, allow: &'static str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(move |req: HttpRequest| {
        method_not_allowed(req, allow)
    }))
}

/// Registers every route on an app: the API's from [`routes::table`], then the rest.
pub fn routes(cfg: &mut web::ServiceConfig, spec: web::Bytes) {
    use crate::web_client;
    // The kinds' documents carry the options' schemas, which the spec holds.
    routes::kinds::prepare(&spec);
    // Bodies are read by the handlers themselves, after the caller is checked (see [`body`]).
    cfg.app_data(web::QueryConfig::default().error_handler(query_error))
        .app_data(web::PathConfig::default().error_handler(path_error));
    // The routes are tried in the order registered, each pattern with a parameter by a regular
    // expression; the table says where that order matters.
    routes::table::register(cfg);
    // Outside the spec: the web client, the spec and its docs. No route of the table matches
    // their paths, so registering them after it changes no answer.
    cfg.service(resource("/sw.js", "GET").route(web::get().to(web_client::service_worker)))
        .service(resource("/", "GET").route(web::get().to(web_client::index)))
        .service(resource("/web/{file:.+}", "GET").route(web::get().to(web_client::file)))
        .service(resource("/favicon.ico", "GET").route(web::get().to(web_client::favicon)))
        .service(resource("/docs", "GET").route(web::get().to(docs_redirect)))
        .service(
            resource("/openapi.json", "GET").route(web::get().to(move |req: HttpRequest| {
                let spec = spec.clone();
                async move { web_client::spec(&req, &spec) }
            })),
        )
        .service(
            SwaggerUi::new("/docs/{_:.*}").config(utoipa_swagger_ui::Config::from("/openapi.json")),
        );
}

/// Starts what a server process runs beside its HTTP workers: the deadline sweep, the live
/// listener (one LISTEN connection), the sender of this process's notices to the others, and
/// the webhook worker. Call it on the server's runtime.
pub fn spawn_background(store: &Store, config: &Config, sweep_every: std::time::Duration) {
    actix_web::rt::spawn(store.clone().sweep_deadlines(sweep_every));
    actix_web::rt::spawn(store.clone().send_announcements());
    actix_web::rt::spawn(store.clone().listen());
    // Bots are woken by the live listener when a game changes; their own sweep is only the
    // fallback for a lost notice, so it runs at a tenth of the deadlines' rate.
    actix_web::rt::spawn(bot_players::run(
        store.clone(),
        config.bots,
        sweep_every * 10,
    ));
    if config.live.deliver {
        actix_web::rt::spawn(live::worker::run(store.clone(), config.live.clone()));
    }
    if config.operations.metrics_token.is_some() {
        actix_web::rt::spawn(telemetry::upkeep());
    }
    if config.notices.deliver {
        actix_web::rt::spawn(notices::worker::run(
            store.clone(),
            config.notices.clone(),
            config.live.clone(),
        ));
    }
}

/// Builds the server on an already bound listener (tests bind port 0). Built from actix's parts
/// rather than with `HttpServer`, to put every connection's socket under [`slow_clients`].
pub fn server(
    state: web::Data<AppState>,
    listener: std::net::TcpListener,
    workers: usize,
) -> std::io::Result<Server> {
    use actix_service::{IntoServiceFactory, ServiceFactoryExt};
    let spec = web::Bytes::from(openapi::spec_json());
    let timeouts = state.timeouts;
    let shutdown_timeout = state.operations.shutdown_timeout.as_secs();
    let local = listener.local_addr()?;
    // Signals are handled by `cli::serve` (see [`shutdown`]), which closes the live streams
    // first: actix's own handling would wait for them until its timeout.
    let builder = actix_server::Server::build()
        .workers(workers)
        .disable_signals()
        .shutdown_timeout(shutdown_timeout);
    let server = builder.listen("baumeister", listener, move || {
        let state = state.clone();
        let spec = spec.clone();
        let app = App::new()
            .app_data(state)
            .wrap(actix_web::middleware::from_fn(request_id::request_id))
            .wrap(actix_web::middleware::from_fn(slow_clients::mark_busy))
            .configure(|cfg| routes(cfg, spec))
            .default_service(web::to(not_found))
            .into_factory()
            .map_err(|e| e.error_response());
        let http = actix_http::HttpService::build()
            .keep_alive(timeouts.keep_alive)
            .client_request_timeout(timeouts.header)
            .client_disconnect_timeout(timeouts.disconnect)
            .local_addr(local)
            .on_connect_ext(|io: &slow_clients::Guarded, data| {
                data.insert(io.busy());
            })
            .h1(actix_service::map_config(app, |_| AppConfig::default()));
        actix_service::fn_service(move |io: actix_web::rt::net::TcpStream| {
            let peer = io.peer_addr().ok();
            async move {
                Ok::<_, actix_http::error::DispatchError>((
                    slow_clients::Guarded::new(io, timeouts),
                    peer,
                ))
            }
        })
        .and_then(http)
    })?;
    Ok(server.run())
}
