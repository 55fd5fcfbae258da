//! Log lines that could come once per request while something is down (the database gone:
//! every request answered 503) are written at most once a second, with how many were left out.

use std::sync::atomic::{AtomicU64, Ordering};

pub struct Throttle {
    last_ms: AtomicU64,
    left_out: AtomicU64,
}

impl Throttle {
    pub const fn new() -> Self {
        Throttle {
            last_ms: AtomicU64::new(0),
            left_out: AtomicU64::new(0),
        }
    }

    /// `Some(how many were left out since the last line)` when a line may be written now.
    pub fn allow(&self) -> Option<u64> {
        let now = baumeister_storage::now_ms() as u64;
        let last = self.last_ms.load(Ordering::Relaxed);
        if now >= last + 1000
            && self
                .last_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            Some(self.left_out.swap(0, Ordering::Relaxed))
        } else {
            self.left_out.fetch_add(1, Ordering::Relaxed);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Throttle;

    #[test]
    fn one_line_a_second_counting_those_left_out() {
        let throttle = Throttle::new();
        assert_eq!(throttle.allow(), Some(0));
        assert_eq!(throttle.allow(), None);
        assert_eq!(throttle.allow(), None);
        throttle
            .last_ms
            .store(0, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(throttle.allow(), Some(2));
    }
}
