//! Proving a game: the hash chain and its signed heads, commit-and-reveal, the audit that
//! decides every command again, exports verified offline (`verify.rs`, with the checks before
//! the first command in `verify_prelude.rs` and those of the commands in `verify_commands.rs`)
//! and imports, and rebuilding the projections from the events alone.

pub(crate) mod chain;
pub(crate) mod export;
pub(crate) mod import;
pub mod offline;
pub(crate) mod rebuild;
pub(crate) mod report;
pub mod trust;
pub(crate) mod verify;
pub(crate) mod verify_commands;
pub(crate) mod verify_prelude;
