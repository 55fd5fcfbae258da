//! The end-to-end harness: each test gets its own server on a free port and its own database,
//! created from a migrated template database (fast: `CREATE DATABASE … TEMPLATE`).

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use actix_web::web;
use baumeister_api::config::Limits;
use baumeister_api::{AppState, Config};
use baumeister_domain::{registry, DynGame, GameState, Viewer};
use baumeister_storage::Store;
use serde_json::{json, Value};
use tokio::sync::OnceCell;
use tokio_postgres::NoTls;

pub use serde_json;

pub mod ceiling;
pub mod conformance;
pub mod given;
pub mod person_builder;
pub mod plain_http;
pub mod process;
pub mod proxy;
pub mod push;
pub mod random_play;
pub mod receiver;
pub mod smtp;
pub mod sse;
pub mod steps;
pub mod turns;
pub mod watchers;

/// The server's URL for the database named `db`, derived from `DATABASE_URL` (or the local
/// default), so tests run wherever the server would.
pub fn database_url(db: &str) -> String {
    let base = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| baumeister_api::config::DEFAULT_DATABASE_URL.to_string());
    let (head, query) = match base.split_once('?') {
        Some((h, q)) => (h.to_string(), format!("?{q}")),
        None => (base.clone(), String::new()),
    };
    let scheme_end = head.find("://").map(|i| i + 3).unwrap_or(0);
    let host_part = match head[scheme_end..].find('/') {
        Some(i) => &head[..scheme_end + i],
        None => &head[..],
    };
    format!("{host_part}/{db}{query}")
}

/// `url` with its host and port replaced by 127.0.0.1:`port` (a proxy's), and the `host:port`
/// it named (what the proxy passes on to).
pub fn via_port(url: &str, port: u16) -> (String, String) {
    let scheme_end = url.find("://").map(|i| i + 3).expect("a postgres:// URL");
    let rest = &url[scheme_end..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let (user, host) = match authority.rsplit_once('@') {
        Some((user, host)) => (format!("{user}@"), host),
        None => (String::new(), authority),
    };
    let upstream = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:5432")
    };
    let proxied = format!(
        "{}{user}127.0.0.1:{port}{}",
        &url[..scheme_end],
        &rest[authority_end..]
    );
    (proxied, upstream)
}

async fn admin() -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(&database_url("postgres"), NoTls)
        .await
        .expect("PostgreSQL answers at DATABASE_URL (run the tests with scripts/test)");
    tokio::spawn(connection);
    client
}

/// The template's name changes with the migrations, so a stale template is never used.
fn template_name() -> String {
    use std::hash::{Hash, Hasher};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("migrations/ exists")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for f in files {
        std::fs::read(&f).unwrap().hash(&mut h);
    }
    format!("bm_template_{:016x}", h.finish())
}

static TEMPLATE: OnceCell<String> = OnceCell::const_new();

async fn template() -> &'static str {
    TEMPLATE
        .get_or_init(|| async {
            let name = template_name();
            let admin = admin().await;
            // Test binaries may run at once (nextest): one creates the template, the others wait.
            admin
                .execute("SELECT pg_advisory_lock(727274)", &[])
                .await
                .unwrap();
            let exists = admin
                .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
                .await
                .unwrap()
                .is_some();
            if !exists {
                let building = format!("{name}_building");
                for sql in [
                    format!("DROP DATABASE IF EXISTS \"{building}\" WITH (FORCE)"),
                    format!("CREATE DATABASE \"{building}\""),
                ] {
                    admin.batch_execute(&sql).await.unwrap();
                }
                baumeister_storage::migrate(&database_url(&building))
                    .await
                    .unwrap();
                rename_when_free(&admin, &building, &name).await;
            }
            // Nobody needs to connect to the template, and a connection to it (autovacuum's,
            // which visits every database that allows connections) makes `CREATE DATABASE …
            // TEMPLATE` fail until it leaves: a test once gave up after 5 s of that.
            admin
                .batch_execute(&format!(
                    "ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS false"
                ))
                .await
                .unwrap();
            admin
                .execute("SELECT pg_advisory_unlock(727274)", &[])
                .await
                .unwrap();
            name
        })
        .await
}

async fn rename_when_free(admin: &tokio_postgres::Client, from: &str, to: &str) {
    for _ in 0..100 {
        match admin
            .batch_execute(&format!("ALTER DATABASE \"{from}\" RENAME TO \"{to}\""))
            .await
        {
            Ok(()) => return,
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    panic!("could not rename {from}");
}

/// A new database, migrated (cloned from the template), for one test; its name.
pub async fn fresh_database() -> String {
    let template = template().await;
    let db = format!(
        "bm_test_{}_{}",
        std::process::id(),
        NEXT_DB.fetch_add(1, Ordering::Relaxed)
    );
    let admin = admin().await;
    for _ in 0..100 {
        // Fails while another session is still leaving the template; PostgreSQL says so.
        match admin
            .batch_execute(&format!("CREATE DATABASE \"{db}\" TEMPLATE \"{template}\""))
            .await
        {
            Ok(()) => return db,
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    panic!("could not create {db} from {template}");
}

/// A connection to database `db` (on the PostgreSQL of `DATABASE_URL`).
pub async fn database(db: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(&database_url(db), NoTls)
        .await
        .expect("the test database answers");
    tokio::spawn(connection);
    client
}

/// Drops a database made by [`fresh_database`] (its connections are ended first).
pub async fn drop_database(db: &str) {
    let _ = admin()
        .await
        .batch_execute(&format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"))
        .await;
}

/// The JWT secret of every test server (so a test can forge tokens with it).
pub const SECRET: &str = "end-to-end-test-secret-of-32-bytes-or-more";

static NEXT_DB: AtomicU32 = AtomicU32::new(0);

/// A running server with its own database.
pub struct TestServer {
    pub base: String,
    /// The server's store, to arm pause points (`Store::pause_at`).
    pub store: Store,
    /// The server's configuration (to run operator commands against the same database).
    pub config: Config,
    pub db: String,
    pub client: awc::Client,
    handle: actix_web::dev::ServerHandle,
    /// Whether [`TestServer::finish`] drops the database (not for a second process on it).
    owns_db: bool,
}

/// A response: status, headers and the JSON body (`Null` when empty).
pub struct Reply {
    pub status: u16,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    /// The version a successful (200) read or command names.
    pub fn version(&self) -> i64 {
        assert_eq!(self.status, 200, "{}", self.body);
        self.body["version"].as_i64().unwrap()
    }

    /// The problem's `code` of an error response.
    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or("")
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

impl TestServer {
    /// A server configured as it ships, except that an account may send commands as fast as a
    /// test client plays (far faster than a person: whole games in seconds would trip the
    /// per-account command limit, and how fast depends on the machine).
    pub async fn start() -> TestServer {
        Self::start_with(|c| c.limits.commands = None).await
    }

    /// A server configured exactly as it ships, limits included.
    pub async fn start_as_shipped() -> TestServer {
        Self::start_with(|_| {}).await
    }

    /// A server whose configuration `adjust` changes first (limits, mostly).
    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> TestServer {
        let db = fresh_database().await;
        let mut server = Self::serve(&db, adjust).await;
        server.owns_db = true;
        server
    }

    /// A server on database `db`, made by the test (a restored backup, say): it is dropped
    /// when the server finishes.
    pub async fn on_database(db: &str, adjust: impl FnOnce(&mut Config)) -> TestServer {
        let mut server = Self::serve(db, adjust).await;
        server.owns_db = true;
        server
    }

    /// Another server process on this server's database: its own pool, cache, live listener
    /// and webhook worker, as a second machine behind a load balancer would have.
    pub async fn another(&self, adjust: impl FnOnce(&mut Config)) -> TestServer {
        Self::serve(&self.db, adjust).await
    }

    async fn serve(db: &str, adjust: impl FnOnce(&mut Config)) -> TestServer {
        let db = db.to_string();
        // Bound first, so that the links in mail and pushes name this server.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let mut config = Config {
            bind: "127.0.0.1:0".into(),
            database_url: database_url(&db),
            jwt_secret: Some(SECRET.into()),
            token_ttl_seconds: 3600,
            pool_size: 8,
            workers: 2,
            client_address_header: None,
            limits: Limits::default(),
            live: Default::default(),
            notices: baumeister_api::config::Notices {
                public_url: base.clone(),
                ..Default::default()
            },
            signing_key: Default::default(),
            trusted_keys: Vec::new(),
            snapshot_every: 100,
            append_batches: true,
            timeouts: Default::default(),
            bots: Default::default(),
            accounts: Default::default(),
            operations: Default::default(),
        };
        adjust(&mut config);
        let store = Store::connect(&config.database_url, config.pool_size, config.workers)
            .await
            .expect("store connects")
            .with_signer(config.signing_key.signer().expect("a usable signing key"))
            .with_trusted_keys(config.trusted_keys.clone())
            .with_snapshot_every(config.snapshot_every)
            .with_append_batches(config.append_batches);
        baumeister_api::spawn_background(&store, &config, Duration::from_millis(200));
        let state = web::Data::new(AppState::new(store.clone(), &config).expect("a valid config"));
        let server = baumeister_api::server(state, listener, config.workers).unwrap();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        let client = awc::Client::builder()
            .timeout(Duration::from_secs(60))
            .finish();
        TestServer {
            base,
            store,
            config,
            db,
            client,
            handle,
            owns_db: false,
        }
    }

    /// Stops the server's HTTP side (as if its process died), keeping the database.
    pub async fn stop(&self) {
        self.handle.stop(false).await;
    }

    /// Opens an SSE stream (`path` with the token as Bearer header, and `Last-Event-ID`).
    pub async fn stream(
        &self,
        path: &str,
        token: Option<&str>,
        last_event_id: Option<i64>,
    ) -> sse::Stream {
        let mut request = self.request("GET", path, token);
        if let Some(id) = last_event_id {
            request = request.insert_header(("Last-Event-ID", id.to_string()));
        }
        sse::Stream::open(request).await
    }

    /// Stops the server and drops its database.
    pub async fn finish(self) {
        // Not graceful: a live stream still open would hold the stop up for 30 s.
        self.handle.stop(false).await;
        if self.owns_db {
            drop_database(&self.db).await;
        }
    }

    /// A direct connection to this test's database, to check what was stored.
    pub async fn db(&self) -> tokio_postgres::Client {
        database(&self.db).await
    }

    /// Listens on the channel of the servers' live notices, as a process of its own would (but
    /// under no process's name: the servers do not count it as one).
    pub async fn live_notices(&self) -> LiveNotices {
        let (client, mut connection) = tokio_postgres::connect(&self.config.database_url, NoTls)
            .await
            .unwrap();
        let (heard, notices) = tokio::sync::mpsc::unbounded_channel();
        actix_web::rt::spawn(async move {
            while let Some(Ok(message)) =
                std::future::poll_fn(|cx| connection.poll_message(cx)).await
            {
                if let tokio_postgres::AsyncMessage::Notification(n) = message {
                    let _ = heard.send(n.payload().to_string());
                }
            }
        });
        client
            .batch_execute("LISTEN baumeister_live")
            .await
            .unwrap();
        LiveNotices {
            _client: client,
            notices,
        }
    }

    /// A request to build on (headers, method); send it with [`TestServer::send`].
    pub fn request(&self, method: &str, path: &str, token: Option<&str>) -> awc::ClientRequest {
        let method = awc::http::Method::from_bytes(method.as_bytes()).unwrap();
        let mut request = self
            .client
            .request(method, format!("{}{}", self.base, path));
        if let Some(token) = token {
            request = request.insert_header(("Authorization", format!("Bearer {token}")));
        }
        request
    }

    /// Sends a request with a raw body (or none) and reads the whole reply.
    /// Every answer is held to the spec (`conformance.rs`).
    pub async fn send(&self, request: awc::ClientRequest, body: Option<Vec<u8>>) -> Reply {
        let method = request.get_method().to_string();
        let path = request
            .get_uri()
            .path_and_query()
            .map(|p| p.to_string())
            .unwrap_or_default();
        let mut response = match body {
            Some(body) => request.send_body(body).await,
            None => request.send().await,
        }
        .expect("the server answers");
        let bytes = response
            .body()
            .limit(64 * 1024 * 1024)
            .await
            .expect("a body");
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
        };
        let status = response.status().as_u16();
        conformance::check(&method, &path, status, response.headers());
        Reply {
            status,
            headers: response.headers().clone(),
            body,
        }
    }

    /// The future borrows only the server, so requests can run at once (`tokio::join!`).
    pub fn get(
        &self,
        path: &str,
        token: Option<&str>,
    ) -> impl std::future::Future<Output = Reply> + '_ {
        self.send(self.request("GET", path, token), None)
    }

    pub fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> impl std::future::Future<Output = Reply> + '_ {
        let request = self
            .request("POST", path, token)
            .insert_header(("Content-Type", "application/json"));
        self.send(request, Some(serde_json::to_vec(body).unwrap()))
    }

    /// `POST /v1/accounts`.
    pub fn register(
        &self,
        name: &str,
        password: &str,
    ) -> impl std::future::Future<Output = Reply> + '_ {
        self.post(
            "/v1/accounts",
            None,
            &json!({"name": name, "password": password}),
        )
    }

    /// `POST /v1/tokens`.
    pub fn login(
        &self,
        name: &str,
        password: &str,
    ) -> impl std::future::Future<Output = Reply> + '_ {
        self.post(
            "/v1/tokens",
            None,
            &json!({"name": name, "password": password}),
        )
    }

    /// The whole log of game `id` as `token` may see it, page by page.
    pub async fn events(&self, id: i64, token: Option<&str>) -> Vec<Value> {
        let mut events = Vec::new();
        let mut after = 0;
        loop {
            let page = self
                .get(
                    &format!("/v1/games/{id}/events?after={after}&limit=1000"),
                    token,
                )
                .await;
            assert_eq!(page.status, 200, "{}", page.body);
            events.extend(page.body["events"].as_array().unwrap().iter().cloned());
            match page.body["next_after"].as_i64() {
                Some(next) => after = next,
                None => return events,
            }
        }
    }

    /// Registers `name` (password `password-of-<name>`) and returns a token.
    pub async fn player(&self, name: &str) -> String {
        let r = self.register(name, &format!("password-of-{name}")).await;
        assert_eq!(r.status, 201, "register {name}: {}", r.body);
        self.player_login(name).await
    }

    /// Logs `name` in again (see [`Self::player`]) and returns the new token.
    pub async fn player_login(&self, name: &str) -> String {
        let password = format!("password-of-{name}");
        let r = self
            .post(
                "/v1/tokens",
                None,
                &json!({"name": name, "password": password}),
            )
            .await;
        assert_eq!(r.status, 200, "login {name}: {}", r.body);
        r.body["token"].as_str().unwrap().to_string()
    }

    /// Registers `name`, has the operator make it an auditor, and returns a token.
    pub async fn auditor(&self, name: &str) -> String {
        let token = self.player(name).await;
        self.store.set_auditor(name, true).await.unwrap();
        token
    }

    /// Registers these players; their tokens in the same order (seat order, with [`Self::game`]).
    pub async fn players(&self, names: &[&str]) -> Vec<String> {
        let mut tokens = Vec::new();
        for name in names {
            tokens.push(self.player(name).await);
        }
        tokens
    }

    /// Sends one of `token`'s legal moves in game `id`, picked by `pick`: its reply, or `None`
    /// when the seat has no move now.
    pub async fn random_move(&self, id: i64, token: &str, pick: &mut Pick) -> Option<Reply> {
        let moves = self
            .get(&format!("/v1/games/{id}/moves"), Some(token))
            .await;
        assert_eq!(moves.status, 200, "{}", moves.body);
        let moves = moves.body["moves"].as_array().unwrap();
        if moves.is_empty() {
            return None;
        }
        let chosen = &moves[pick.below(moves.len())];
        Some(
            self.post(&format!("/v1/games/{id}/commands"), Some(token), chosen)
                .await,
        )
    }

    /// Sends the first of `token`'s legal moves in game `id` (its command alone, unpinned) and
    /// expects it accepted; the reply.
    pub async fn first_move(&self, id: i64, token: &str) -> Reply {
        let moves = self
            .get(&format!("/v1/games/{id}/moves"), Some(token))
            .await;
        let command = moves.body["moves"][0]["command"].clone();
        let r = self
            .post(
                &format!("/v1/games/{id}/commands"),
                Some(token),
                &json!({ "command": command }),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        r
    }

    /// Plays each seat's first listed move in game `id` (two seats, `tokens` by seat), starting
    /// with the seat `to_act` (a game's `to_act`) names, until the turn passes from seat 0 to
    /// seat 1; the body of the command's answer that passed it.
    pub async fn pass_turn_to_seat_1(
        &self,
        id: i64,
        tokens: &[String],
        mut to_act: Value,
    ) -> Value {
        loop {
            let seat = to_act[0].as_u64().unwrap() as usize;
            let r = self.first_move(id, &tokens[seat]).await;
            let before = std::mem::replace(&mut to_act, r.body["to_act"].clone());
            if to_act == json!([1]) && before == json!([0]) {
                return r.body;
            }
        }
    }

    /// Asserts that game `id`'s log runs from version 1 to its last with none missing, and
    /// holds one stored command of a seat per accepted (200) answer, `accepted` in all.
    pub async fn log_is_whole(&self, id: i64, accepted: usize) {
        let row = self
            .db()
            .await
            .query_one(
                "SELECT (SELECT count(*) FROM events WHERE game_id = $1),
                        (SELECT coalesce(max(version), 0) FROM events WHERE game_id = $1),
                        (SELECT count(*) FROM commands WHERE game_id = $1 AND seat IS NOT NULL)",
                &[&id],
            )
            .await
            .unwrap();
        let (events, last, commands): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        assert_eq!(events, last, "versions 1 to {last} with none missing");
        assert_eq!(commands, accepted as i64, "one stored command per 200");
    }

    /// Creates the game `body` describes (`POST /v1/games`) for `token`; returns its id.
    pub async fn create_game(&self, token: &str, body: &Value) -> i64 {
        let r = self.post("/v1/games", Some(token), body).await;
        assert_eq!(r.status, 201, "create: {}", r.body);
        r.body["id"].as_i64().unwrap()
    }

    /// Creates a game of `kind` with `seats` seats for `token` (seat 0), waiting for the
    /// others; returns its id.
    pub async fn open_game(&self, token: &str, kind: &str, seats: usize) -> i64 {
        let r = self
            .post(
                "/v1/games",
                Some(token),
                &json!({"kind": kind, "seats": seats}),
            )
            .await;
        assert_eq!(r.status, 201, "create: {}", r.body);
        r.body["id"].as_i64().unwrap()
    }

    /// Creates a game of `kind` for the first token and seats the others; returns its id.
    pub async fn game(&self, kind: &str, options: Value, tokens: &[String]) -> i64 {
        let r = self
            .post(
                "/v1/games",
                Some(&tokens[0]),
                &json!({"kind": kind, "seats": tokens.len(), "options": options}),
            )
            .await;
        assert_eq!(r.status, 201, "create: {}", r.body);
        let id = r.body["id"].as_i64().unwrap();
        for token in &tokens[1..] {
            let r = self
                .post(&format!("/v1/games/{id}/join"), Some(token), &json!({}))
                .await;
            assert_eq!(r.status, 200, "join: {}", r.body);
        }
        id
    }
}

/// A game's whole stored log, read straight from the database: what every read of the game
/// should answer is computed from it with the domain's own rules, at the version the response
/// names (the oracle for reads racing writes).
pub struct Truth {
    pub game: &'static dyn DynGame,
    /// Versions 1, 2, … in order.
    pub events: Vec<Value>,
}

impl Truth {
    /// Asserts that the events a command's 200 answer names are the log's at those versions,
    /// as `seat` sees them at the version the answer names.
    pub fn holds_answer(&self, answer: &Value, seat: u8) {
        let version = answer["version"].as_i64().unwrap();
        let events: Vec<(i64, Value)> = answer["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["version"].as_i64().unwrap(), e["event"].clone()))
            .collect();
        let first = events.first().map_or(version, |(v, _)| *v - 1);
        assert_eq!(events, self.log(version, first, Viewer::Seat(seat)));
    }

    pub fn state_at(&self, version: i64) -> GameState {
        self.game
            .replay(&self.events[..version as usize])
            .expect("the stored events replay")
    }

    /// The viewer the rules apply to at `version` (everything is public once the game ended).
    pub fn viewer_at(&self, version: i64, viewer: Viewer) -> Viewer {
        self.game.effective_viewer(&self.state_at(version), viewer)
    }

    /// `(version, event)` of the log page `after` as `viewer` may see it at `version`.
    pub fn log(&self, version: i64, after: i64, viewer: Viewer) -> Vec<(i64, Value)> {
        let state = self.state_at(version);
        let viewer = self.game.effective_viewer(&state, viewer);
        (after + 1..=version)
            .filter_map(|v| {
                self.game
                    .redact(&state, &self.events[v as usize - 1], viewer)
                    .map(|e| (v, e))
            })
            .collect()
    }

    /// The legal commands of `seat` at `version`.
    pub fn moves(&self, version: i64, seat: u8) -> Vec<Value> {
        self.game.legal_commands(&self.state_at(version), seat)
    }

    /// The board as `viewer` may see it at `version`.
    pub fn view(&self, version: i64, viewer: Viewer) -> Value {
        let state = self.state_at(version);
        let viewer = self.game.effective_viewer(&state, viewer);
        self.game.view(&state, viewer)
    }
}

impl TestServer {
    /// The game's stored log (see [`Truth`]).
    pub async fn truth(&self, id: i64) -> Truth {
        let db = self.db().await;
        let kind: String = db
            .query_one("SELECT kind FROM games WHERE id = $1", &[&id])
            .await
            .unwrap()
            .get(0);
        let events = db
            .query(
                "SELECT payload FROM events WHERE game_id = $1 ORDER BY version",
                &[&id],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        Truth {
            game: registry::find(&kind).expect("a known kind"),
            events,
        }
    }
}

/// One Space Builder player's client: polls its moves and sends one, until the game ends. Returns how many
/// commands it had accepted.
pub async fn space_builder_client(s: &TestServer, id: i64, token: &str, seed: u64) -> usize {
    let mut pick = Pick::new(seed);
    let mut accepted = 0;
    for _ in 0..20_000 {
        let moves = s.get(&format!("/v1/games/{id}/moves"), Some(token)).await;
        assert_eq!(moves.status, 200, "{}", moves.body);
        let moves = moves.body["moves"].as_array().unwrap().clone();
        if moves.is_empty() {
            let game = s.get(&format!("/v1/games/{id}"), Some(token)).await;
            if game.body["status"] == "finished" {
                return accepted;
            }
            actix_web::rt::time::sleep(Duration::from_millis(2)).await;
            continue;
        }
        let of = |t: &str| -> Vec<&Value> {
            moves.iter().filter(|m| m["command"]["type"] == t).collect()
        };
        let finish = of("DeclareCityFinished");
        let release = of("ReleaseBuildingCard");
        let look = of("LookAtBlueprint");
        let place = of("PlaceBuildingCard");
        let chosen = if !release.is_empty() {
            release[pick.below(release.len())].clone()
        } else if !look.is_empty() {
            look[0].clone()
        } else if !finish.is_empty() && pick.below(4) > 0 {
            finish[0].clone()
        } else if !place.is_empty() && pick.below(10) > 0 {
            place[pick.below(place.len())].clone()
        } else {
            moves[pick.below(moves.len())].clone()
        };
        // Sent without expected_version: a command that loses a race is decided again on the
        // new state, where it may no longer be legal (the round ended meanwhile): 422.
        let r = s
            .post(
                &format!("/v1/games/{id}/commands"),
                Some(token),
                &json!({"command": chosen["command"]}),
            )
            .await;
        match r.status {
            200 => accepted += 1,
            422 => {}
            other => panic!("{other} for {chosen}: {}", r.body),
        }
    }
    panic!("the game did not end");
}

/// A small deterministic generator for tests' choices.
pub struct Pick(u64);

impl Pick {
    pub fn new(seed: u64) -> Self {
        Pick(
            seed.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        )
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The payloads heard on the live channel (see [`TestServer::live_notices`]).
pub struct LiveNotices {
    _client: tokio_postgres::Client,
    notices: tokio::sync::mpsc::UnboundedReceiver<String>,
}

impl LiveNotices {
    /// The next payload `wanted` accepts, skipping the others; panics after `within`.
    pub async fn next(&mut self, wanted: impl Fn(&str) -> bool, within: Duration) -> String {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let notice = tokio::time::timeout_at(deadline, self.notices.recv())
                .await
                .expect("a live notice in time")
                .unwrap();
            if wanted(&notice) {
                return notice;
            }
        }
    }
}

/// Awaits every future at once, on this task (they may borrow the same server): a crowd of
/// clients without spawning.
pub async fn all_at_once<F: std::future::Future>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output> {
    let mut pending: Vec<_> = futures.map(|f| Some(Box::pin(f))).collect();
    let mut outputs: Vec<Option<F::Output>> = (0..pending.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut done = true;
        for (slot, output) in pending.iter_mut().zip(outputs.iter_mut()) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => {
                        *output = Some(value);
                        *slot = None;
                    }
                    std::task::Poll::Pending => done = false,
                }
            }
        }
        if done {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    outputs.into_iter().map(|o| o.expect("finished")).collect()
}
