//! The server binary as a process of its own, for the tests that kill, signal or restart it
//! (the api crate's `tests/`): one way to start it, and a free port to start it on.

use std::process::{Command, Stdio};

use crate::database_url;

/// The secret such a server signs its tokens with: tokens outlive a restart.
pub const SECRET: &str = "the process tests' secret, 32 bytes or more";

/// `binary serve` on database `db` and `port`, its limits off (the tests play fast from one
/// address), its standard output dropped; the caller adds what its test needs and spawns it.
pub fn serve_command(binary: &str, db: &str, port: u16) -> Command {
    let mut command = Command::new(binary);
    command
        .arg("serve")
        .env("DATABASE_URL", database_url(db))
        .env("BIND", format!("127.0.0.1:{port}"))
        .env("JWT_SECRET", SECRET)
        .env("LIMIT_COMMANDS", "off")
        .env("LIMIT_LOGINS", "off")
        .env("LIMIT_REGISTRATIONS", "off")
        .env("LIMIT_NAME_ATTEMPTS", "off")
        .stdout(Stdio::null());
    command
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
