//! Bots' thinking: how many moves at once, and per account.

use super::env::at_least_one;

/// How bots' thinking is shared (docs/operations.md, "Fair bots"): a bot move is CPU work, so few run at once,
/// and one account's many bot games may not hold them all (`bot_schedule.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bots {
    /// `BOT_THINKERS`: bot moves thinking at once in this process.
    pub thinkers: usize,
    /// `BOT_THINKERS_PER_ACCOUNT`: of those, at most this many of one account's games (the
    /// creator's for bots' own seats, the seat's player's for the turn clock's bot).
    pub per_account: usize,
}

impl Default for Bots {
    /// Two thinkers, one per account: a second thinker stays free for everybody else however
    /// many bot games one account runs, and bots never hold more than two cores.
    fn default() -> Self {
        Bots {
            thinkers: 2,
            per_account: 1,
        }
    }
}

impl Bots {
    pub(super) fn from_env() -> Result<Bots, String> {
        let d = Bots::default();
        Ok(Bots {
            thinkers: at_least_one("BOT_THINKERS", d.thinkers as u64)? as usize,
            per_account: at_least_one("BOT_THINKERS_PER_ACCOUNT", d.per_account as u64)? as usize,
        })
    }
}
