//! The starting points the story tests share ("given …"): a server with a game already running,
//! a game against bots, two processes on one database, a server whose database is behind a
//! proxy the test can cut.

use serde_json::Value;

use crate::proxy::Proxy;
use crate::{database_url, via_port, Reply, TestServer};

/// A server where ada (seat 0) and bea (seat 1) play a game of `kind` with `options`; the
/// server, their tokens and the game's id.
pub async fn ada_and_bea_playing(kind: &str, options: Value) -> (TestServer, Vec<String>, i64) {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea"]).await;
    let id = s.game(kind, options, &tokens).await;
    (s, tokens, id)
}

/// A server where anna creates the game `body` describes (bots take their seats at once),
/// expecting 201; the server, her token and the creation's reply.
pub async fn anna_creates_game(body: Value) -> (TestServer, String, Reply) {
    let s = TestServer::start().await;
    let anna = s.player("anna").await;
    let r = s.post("/v1/games", Some(&anna), &body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    (s, anna, r)
}

/// A server, a second process on its database (no limit on commands) and the tokens of the
/// players `names`, registered on the first.
pub async fn two_processes(names: &[&str]) -> (TestServer, TestServer, Vec<String>) {
    let a = TestServer::start().await;
    let b = a.another(|c| c.limits.commands = None).await;
    let tokens = a.players(names).await;
    (a, b, tokens)
}

/// A server (no limit on commands) that reaches its database only through a proxy the test can
/// cut, and ada's and bea's tokens; the proxy, the server and the tokens.
pub async fn ada_and_bea_behind_a_proxy() -> (Proxy, TestServer, Vec<String>) {
    let (_, upstream) = via_port(&database_url("postgres"), 0);
    let proxy = Proxy::start(upstream).await;
    let s = TestServer::start_with(|c| {
        c.limits.commands = None;
        c.database_url = via_port(&c.database_url, proxy.port).0;
    })
    .await;
    let tokens = s.players(&["ada", "bea"]).await;
    (proxy, s, tokens)
}
