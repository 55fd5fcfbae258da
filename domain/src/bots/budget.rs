//! How long the strong bot may think about one move.

/// How long the strong bot may think about one move: whichever runs out first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search iterations (each: one guess of the hidden cards, one descent, one playout).
    pub iterations: u32,
    /// Wall-clock milliseconds; `None` for none (tests, where the choice must be reproducible).
    pub max_millis: Option<u64>,
}

impl Default for Budget {
    /// At most a second a move.
    fn default() -> Self {
        Budget {
            iterations: 2_000,
            max_millis: Some(1_000),
        }
    }
}
