//! `baumeister`: the server. Configuration comes from the environment (see README.md).

use actix_web::web;
use baumeister_api::{server, AppState, Config};
use baumeister_storage::Store;
use tracing_subscriber::EnvFilter;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            tracing::error!("{e}");
            std::process::exit(2);
        }
    };
    let store = match Store::connect(&config.database_url, config.pool_size).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(
                error = %e,
                "cannot use the database at DATABASE_URL (set it, or start PostgreSQL on 127.0.0.1:5432)"
            );
            std::process::exit(1);
        }
    };
    // `baumeister rebuild-projections`: derive the lobby and every view again from the events.
    if std::env::args().nth(1).as_deref() == Some("rebuild-projections") {
        match store.rebuild_all_projections().await {
            Ok(n) => {
                tracing::info!(games = n, "projections rebuilt from the events");
                return Ok(());
            }
            Err(e) => {
                tracing::error!(error = %e, "rebuilding the projections failed");
                std::process::exit(1);
            }
        }
    }
    // Rounds with a deadline end on time even when nobody looks at the game.
    actix_web::rt::spawn(
        store
            .clone()
            .sweep_deadlines(std::time::Duration::from_secs(1)),
    );
    let state = web::Data::new(AppState::new(store, &config));
    let listener = std::net::TcpListener::bind(&config.bind)?;
    tracing::info!(
        address = %listener.local_addr()?,
        "Baumeister is listening; the API is described at /openapi.json and /docs"
    );
    server(state, listener, config.workers)?.await
}
