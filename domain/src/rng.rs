//! The game's random number generator.
//!
//! Our own small generator (xoshiro256** seeded through SplitMix64) rather than a crate's:
//! an audit re-runs `decide` with the stored seed years later and must get byte-identical
//! events, so the algorithm may never change under us with a dependency upgrade.

#[derive(Clone, Debug)]
pub struct GameRng {
    s: [u64; 4],
    /// How many numbers have been drawn: a command that drew none revealed no chance outcome,
    /// which is one half of whether it may be taken back (see [`crate::take_back`]).
    draws: u64,
}

impl GameRng {
    pub fn from_seed(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        GameRng {
            s: [next(), next(), next(), next()],
            draws: 0,
        }
    }

    /// The generator whose state is `key` read as four little-endian 64-bit words: how a
    /// command's derived key (see [`crate::fairness`]) feeds the game. The all-zero state, which
    /// xoshiro cannot leave, falls back to `from_seed(0)` (HMAC output is never all zero in
    /// practice).
    pub fn from_key(key: &[u8; 32]) -> Self {
        let word = |i: usize| u64::from_le_bytes(key[i * 8..i * 8 + 8].try_into().unwrap());
        let s = [word(0), word(1), word(2), word(3)];
        if s == [0; 4] {
            return Self::from_seed(0);
        }
        GameRng { s, draws: 0 }
    }

    /// How many 64-bit numbers this generator has handed out so far.
    pub fn draws(&self) -> u64 {
        self.draws
    }

    pub fn next_u64(&mut self) -> u64 {
        self.draws += 1;
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform number in `0..n` (rejection sampling, so no modulo bias). `n` must be > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }

    /// A uniform index into a slice of length `len` (> 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers_forever() {
        // Pinned: changing these numbers breaks the audit of every stored game.
        let mut rng = GameRng::from_seed(42);
        let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        let mut again = GameRng::from_seed(42);
        assert_eq!(got, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        let mut rng = GameRng::from_seed(42);
        let mut cards: Vec<u8> = (0..10).collect();
        rng.shuffle(&mut cards);
        assert_eq!(cards, PINNED_SHUFFLE);
    }

    const PINNED_SHUFFLE: [u8; 10] = [7, 3, 8, 9, 5, 6, 4, 1, 0, 2];

    #[test]
    fn below_stays_in_range() {
        let mut rng = GameRng::from_seed(7);
        for n in 1..50 {
            for _ in 0..50 {
                assert!(rng.below(n) < n);
            }
        }
    }
}
