//! Changing a game: a player's command decided and appended in one statement (alone or in a
//! batch; the statements are `append_statements.rs`), the take-back, and the server's own
//! writers (deadlines, the turn clock, its bot), every one judged on the state it holds locked
//! or guarded by the version it read (docs/concurrency.md).

pub(crate) mod append;
pub(crate) mod append_statements;
pub(crate) mod batch;
pub(crate) mod clock_bot;
pub(crate) mod commands;
pub(crate) mod deadlines;
pub(crate) mod last_command;
pub(crate) mod lock;
pub(crate) mod turn_clock;
pub(crate) mod undo;
