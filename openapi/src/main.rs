//! Writes the spec generated from the code to `openapi/openapi.json`.
//! `cargo run -p baumeister-openapi` regenerates it; `… -- --check` fails when it is stale.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi.json");
    let spec = baumeister_api::openapi::spec_json();
    if std::env::args().any(|a| a == "--check") {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != spec {
            eprintln!(
                "{} is out of date: run `cargo run -p baumeister-openapi`",
                path.display()
            );
            return ExitCode::FAILURE;
        }
        println!("{} is current", path.display());
        return ExitCode::SUCCESS;
    }
    if let Err(e) = std::fs::write(&path, spec) {
        eprintln!("cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", path.display());
    ExitCode::SUCCESS
}
