//! The command line: serving, and the operator's commands. Configuration comes from the
//! environment (see docs/configuration.md); the command line says only what to do.

use actix_web::web;
use baumeister_storage::Store;
use clap::{Parser, Subcommand};

use crate::moderation_cli::{ModeratorAction, ReportsAction};
use crate::{server, AppState, Config};

#[derive(Debug, Parser)]
#[command(
    name = "baumeister",
    version,
    about = "Serves builder board games by web; configured by the environment (BIND, DATABASE_URL, JWT_SECRET, …: see docs/configuration.md)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API (what `baumeister` alone does).
    Serve,
    /// Derive the lobby and every viewer's board again from the events.
    RebuildProjections,
    /// Check an export (`GET /v1/games/{id}/export`) offline: the commitment, every seed, every
    /// decision, the hash chain and the signature. Prints `verified` or the first difference
    /// (exit status 1). Needs no database and no network.
    Verify {
        /// The export, a JSON file (`-` for standard input).
        file: std::path::PathBuf,
    },
    /// Who may see every game whole.
    Auditor {
        #[command(subcommand)]
        action: AuditorAction,
    },
    /// Moderate chat messages.
    Chat {
        #[command(subcommand)]
        action: ChatAction,
    },
    /// Who works the reports' queue, and the log of every moderator's action.
    Moderator {
        #[command(subcommand)]
        action: ModeratorAction,
    },
    /// Suspend an account until a time: it may not chat, create or join games, seat bots or
    /// invite; its running games go on. Replaces a suspension it has.
    Suspend {
        name: String,
        /// When it ends: an RFC 3339 time (`2026-12-24T18:00:00Z`) or a time from now
        /// (`90m`, `12h`, `7d`).
        #[arg(long)]
        until: String,
        /// Why (shown to the account, and recorded).
        #[arg(long)]
        reason: String,
        /// Who suspends it (recorded; default: the `USER` of the environment).
        #[arg(long)]
        by: Option<String>,
    },
    /// Lift an account's suspension now.
    Unsuspend {
        name: String,
        /// Why (recorded).
        #[arg(long)]
        reason: String,
        /// Who lifts it (recorded; default: the `USER` of the environment).
        #[arg(long)]
        by: Option<String>,
    },
    /// List the suspensions in force, the soonest to end first.
    Suspensions,
    /// Players' reports of chat messages and players.
    Reports {
        #[command(subcommand)]
        action: ReportsAction,
    },
}

#[derive(Debug, Subcommand)]
pub enum ChatAction {
    /// Remove a message: its text is withheld from every read from now on (it shows as
    /// removed, also to live streams), and who removed it, when and why are recorded.
    Remove {
        /// The message's id (`id` in `GET /v1/games/{id}/chat`).
        id: i64,
        /// Why (recorded with the removal).
        #[arg(long)]
        reason: String,
        /// Who removes it (recorded; default: the `USER` of the environment).
        #[arg(long)]
        by: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum AuditorAction {
    /// Make an existing account an auditor (its requests see every game whole within a second).
    Grant { name: String },
    /// Take the auditor role away from an account.
    Revoke { name: String },
    /// List the auditors.
    List,
}

/// Runs a command; `Err` is what to tell the operator.
pub async fn run(cli: Cli, config: Config) -> Result<(), String> {
    let command = cli.command.unwrap_or(Command::Serve);
    let store = Store::connect(&config.database_url, config.pool_size, config.workers)
        .await
        .map_err(|e| {
            format!("cannot use the database at DATABASE_URL ({e}); set it, or start PostgreSQL on 127.0.0.1:5432")
        })?;
    match command {
        Command::Verify { .. } => unreachable!("handled above"),
        Command::Serve => {
            let store = store
                .with_signer(config.signing_key.signer()?)
                .with_trusted_keys(config.trusted_keys.clone())
                .with_snapshot_every(config.snapshot_every)
                .with_append_batches(config.append_batches);
            serve(store, &config).await
        }
        Command::RebuildProjections => {
            let games = store
                .rebuild_all_projections()
                .await
                .map_err(|e| format!("rebuilding the projections failed: {e}"))?;
            tracing::info!(games, "projections rebuilt from the events");
            Ok(())
        }
        Command::Auditor { action } => auditor(&store, action).await,
        Command::Chat { action } => chat(&store, action).await,
        Command::Moderator { action } => crate::moderation_cli::moderator(&store, action).await,
        Command::Suspend {
            name,
            until,
            reason,
            by,
        } => crate::moderation_cli::suspend(&store, &name, &until, &reason, by).await,
        Command::Unsuspend { name, reason, by } => {
            crate::moderation_cli::unsuspend(&store, &name, &reason, by).await
        }
        Command::Suspensions => crate::moderation_cli::suspensions(&store).await,
        Command::Reports { action } => crate::moderation_cli::reports(&store, action).await,
    }
}

/// `baumeister chat …`.
pub async fn chat(store: &Store, action: ChatAction) -> Result<(), String> {
    match action {
        ChatAction::Remove { id, reason, by } => {
            let reason = reason.trim();
            if reason.is_empty() {
                return Err("say why: --reason \"…\"".into());
            }
            let by = crate::moderation_cli::operator(by);
            let removed = store
                .remove_chat(id, &by, reason)
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "removed chat message {} by {} in game {} ({})",
                removed.id,
                removed.author,
                removed.game_id,
                removed.channel.as_str()
            );
            Ok(())
        }
    }
}

/// `baumeister verify FILE`: no database, no network, no configuration: the file alone.
pub fn verify(file: &std::path::Path) -> Result<(), String> {
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("reading standard input: {e}"))?
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?
    };
    let export: baumeister_storage::Export = serde_json::from_str(&text).map_err(|e| {
        format!(
            "differs: format: {} is not a Baumeister export ({e})",
            file.display()
        )
    })?;
    match baumeister_storage::verify_export(&export) {
        Ok(verified) => {
            println!("{verified}");
            Ok(())
        }
        Err(difference) => {
            println!("differs: {difference}");
            Err(format!("{} does not verify: {difference}", file.display()))
        }
    }
}

async fn auditor(store: &Store, action: AuditorAction) -> Result<(), String> {
    match action {
        AuditorAction::Grant { name } | AuditorAction::Revoke { name } if name.is_empty() => {
            Err("name an account".into())
        }
        AuditorAction::Grant { name } => {
            let name = store
                .set_auditor(&name, true)
                .await
                .map_err(|e| e.to_string())?;
            println!("{name} is an auditor");
            Ok(())
        }
        AuditorAction::Revoke { name } => {
            let name = store
                .set_auditor(&name, false)
                .await
                .map_err(|e| e.to_string())?;
            println!("{name} is no longer an auditor");
            Ok(())
        }
        AuditorAction::List => {
            for name in store.auditors().await.map_err(|e| e.to_string())? {
                println!("{name}");
            }
            Ok(())
        }
    }
}

async fn serve(store: Store, config: &Config) -> Result<(), String> {
    let state = web::Data::new(AppState::new(store.clone(), config)?);
    // Rounds with a deadline end on time even when nobody looks at the game; live notices and
    // webhooks are served by every process.
    crate::spawn_background(&store, config, std::time::Duration::from_secs(1));
    let listener = std::net::TcpListener::bind(&config.bind)
        .map_err(|e| format!("cannot listen on {} (BIND): {e}", config.bind))?;
    tracing::info!(
        address = %listener.local_addr().map_err(|e| e.to_string())?,
        workers = config.workers,
        "Baumeister is listening; the API is described at /openapi.json and /docs"
    );
    let server = server(state.clone(), listener, config.workers).map_err(|e| e.to_string())?;
    let handle = server.handle();
    actix_web::rt::spawn(async move {
        let signal = crate::shutdown::signalled().await;
        tracing::info!(
            signal,
            timeout_seconds = state.operations.shutdown_timeout.as_secs(),
            "stopping: no new connections; live streams told to reconnect; finishing requests in flight"
        );
        // Streams first: each is a response in flight that would otherwise hold the stop up
        // until its timeout.
        state.shutdown.begin();
        tokio::select! {
            _ = handle.stop(true) => {}
            // An operator who does not want to wait: a second signal stops at once.
            signal = crate::shutdown::signalled() => {
                tracing::warn!(signal, "stopping at once: requests in flight are dropped");
                handle.stop(false).await;
            }
        }
    });
    server.await.map_err(|e| e.to_string())?;
    // The background work (sweeps, bots, deliveries) ends with the runtime: each of its steps
    // is a transaction of its own, and a delivery cut short is sent again (at least once).
    tracing::info!("stopped");
    Ok(())
}
