//! What the tests that run the server binary as a process of its own share (`sigkill.rs`,
//! `bot_restart.rs`): starting it on a database and a free port. Each test file is a crate of
//! its own and includes this with `mod support;`.

use std::process::Child;

use baumeister_tests::process::serve_command;

pub use baumeister_tests::process::free_port;

/// This crate's binary (`serve`) as a process of its own on database `db`, signing heads with
/// the key `signing_key` (hex).
pub fn baumeister(db: &str, port: u16, signing_key: &str) -> Child {
    serve_command(env!("CARGO_BIN_EXE_baumeister"), db, port)
        .env("SIGNING_KEY", signing_key)
        .env("RUST_LOG", "error")
        .spawn()
        .expect("the binary starts")
}
