//! The hash chain over a game's events: each event's hash covers the previous hash and the
//! event itself, so editing or deleting a stored event breaks every hash after it. The chain
//! also covers the game's identity: its global uid's 16 bytes (see `trust.rs`), which an import
//! into another server keeps; games older than the uid are chained over their local id's 8
//! bytes, as they always were.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The "previous hash" of a game's first event.
pub const GENESIS: [u8; 32] = [0; 32];

/// `payload` is hashed in serde_json's canonical form (keys sorted), which is also what reading
/// it back from `jsonb` and re-serializing gives, so a verifier recomputes the same bytes.
pub fn event_hash(
    previous: &[u8],
    chain_id: &[u8],
    version: i64,
    kind: &str,
    payload: &Value,
) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(previous);
    h.update(chain_id);
    h.update(version.to_be_bytes());
    h.update(kind.as_bytes());
    h.update([0]);
    h.update(serde_json::to_vec(payload).expect("JSON values serialize"));
    h.finalize().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_depends_on_everything_it_covers() {
        let p = serde_json::json!({"type": "X", "a": 1});
        let base = event_hash(&GENESIS, &[1], 1, "X", &p);
        assert_eq!(base, event_hash(&GENESIS, &[1], 1, "X", &p));
        assert_ne!(base, event_hash(&[1; 32], &[1], 1, "X", &p));
        assert_ne!(base, event_hash(&GENESIS, &[2], 1, "X", &p));
        assert_ne!(base, event_hash(&GENESIS, &[1], 2, "X", &p));
        assert_ne!(base, event_hash(&GENESIS, &[1], 1, "Y", &p));
        assert_ne!(
            base,
            event_hash(&GENESIS, &[1], 1, "X", &serde_json::json!({"a": 2}))
        );
    }
}
