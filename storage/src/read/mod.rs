//! Reading a game: each viewer's board, log, moves and replays, folded from snapshots and the
//! aggregates this process keeps in memory.

pub(crate) mod cache;
pub(crate) mod fold;
pub(crate) mod reads;
pub(crate) mod representation;
pub(crate) mod snapshot;
pub(crate) mod snapshots;
pub(crate) mod starting_points;
