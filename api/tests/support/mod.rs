//! What the tests that run the server binary as a process of its own share (`sigkill.rs`,
//! `bot_restart.rs`): starting it on a database and a free port. Each test file is a crate of
//! its own and includes this with `mod support;`.

use std::process::{Child, Command, Stdio};

use baumeister_tests::database_url;

/// The secret each such server signs its tokens with: tokens outlive a restart.
pub const SECRET: &str = "the process tests' secret, 32 bytes or more";

/// This crate's binary (`serve`) as a process of its own on database `db`, signing heads with
/// the key `signing_key` (hex), its limits off (the tests play fast from one address).
pub fn baumeister(db: &str, port: u16, signing_key: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_baumeister"))
        .arg("serve")
        .env("DATABASE_URL", database_url(db))
        .env("BIND", format!("127.0.0.1:{port}"))
        .env("JWT_SECRET", SECRET)
        .env("SIGNING_KEY", signing_key)
        .env("RUST_LOG", "error")
        .env("LIMIT_COMMANDS", "off")
        .env("LIMIT_LOGINS", "off")
        .env("LIMIT_REGISTRATIONS", "off")
        .env("LIMIT_NAME_ATTEMPTS", "off")
        .stdout(Stdio::null())
        .spawn()
        .expect("the binary starts")
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
