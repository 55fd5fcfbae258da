//! `baumeister`: the server and the operator's commands (`baumeister --help`).

use baumeister_api::cli::{run, verify, Cli, Command};
use baumeister_api::config::LogFormat;
use baumeister_api::Config;
use clap::Parser;
use tracing_subscriber::EnvFilter;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[actix_web::main]
async fn main() {
    let cli = Cli::parse();
    let format = LogFormat::from_env();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only for a terminal: not in the journal, a file or a pipe.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let logger = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(terminal)
        .with_writer(std::io::stderr);
    if format == Ok(LogFormat::Json) {
        // One JSON object a line; the spans it is in (a request's carries its `id`) with it.
        logger
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .init();
    } else {
        logger.init();
    }
    if let Err(e) = format {
        tracing::error!("{e}");
        std::process::exit(1);
    }
    let result = match &cli.command {
        Some(Command::Verify { file }) => verify(file),
        _ => match Config::from_env() {
            Ok(config) => run(cli, config).await,
            Err(e) => Err(e),
        },
    };
    if let Err(e) = result {
        tracing::error!("{e}");
        std::process::exit(1);
    }
}
