//! The hash chain over a game's events: each event's hash covers the previous hash and the
//! event itself, so editing or deleting a stored event breaks every hash after it. The chain
//! also covers the game's identity: its global uid's 16 bytes (see `trust.rs`), which an import
//! into another server keeps; games older than the uid are chained over their local id's 8
//! bytes, as they always were.
//!
//! The head's hash is shown to everybody while the game runs, and a hidden event has little
//! entropy (one card of twenty, 0–30 Taler): a plain hash of it can be inverted by hashing each
//! candidate. So format 2 makes every link a *commitment*: the hash covers a per-event salt,
//! HMAC-SHA256 of the game's committed secret, which nobody but the server can compute until
//! the secret is revealed at the end. Format 1 (plain) is how games created before it were
//! chained, and they keep verifying that way.

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The "previous hash" of a game's first event.
pub const GENESIS: [u8; 32] = [0; 32];

/// What a game's hashes cover besides its events.
#[derive(Clone)]
pub struct Chain {
    /// The uid's 16 bytes (the local id's 8 for games older than the uid).
    pub id: Vec<u8>,
    /// `None`: format 1, plain hashes. `Some(secret)`: format 2, each link salted with
    /// HMAC-SHA256(secret, …).
    salt_key: Option<Vec<u8>>,
    /// The secret keyed into HMAC once, for every event's salt.
    salt_mac: Option<Hmac<Sha256>>,
}

impl PartialEq for Chain {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.salt_key == other.salt_key
    }
}

impl Eq for Chain {}

/// The secret stays out of logs and panics.
impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chain")
            .field("id", &self.id)
            .field("format", &self.format())
            .finish()
    }
}

impl Chain {
    /// Format 1: plain SHA-256 links (games created before format 2).
    pub fn plain(id: Vec<u8>) -> Self {
        Chain {
            id,
            salt_key: None,
            salt_mac: None,
        }
    }

    /// Format 2: links salted with the game's committed secret.
    pub fn salted(id: Vec<u8>, secret: Vec<u8>) -> Self {
        let mac = Hmac::<Sha256>::new_from_slice(&secret).expect("HMAC takes any key length");
        Chain {
            id,
            salt_key: Some(secret),
            salt_mac: Some(mac),
        }
    }

    /// `format` 1 or 2 (anything else is refused by the caller); `secret` is needed for 2.
    pub fn of_format(format: u8, id: Vec<u8>, secret: &[u8]) -> Self {
        match format {
            1 => Chain::plain(id),
            _ => Chain::salted(id, secret.to_vec()),
        }
    }

    pub fn format(&self) -> u8 {
        if self.salt_key.is_some() {
            2
        } else {
            1
        }
    }

    /// Event `version`'s salt (format 2 only): HMAC-SHA256(key = secret, message =
    /// `baumeister-salt/2` 0x00 ‖ chain id ‖ version as 8 bytes big-endian). The message holds
    /// a `/` and a NUL, which no command's seed message can (client seeds are `A–Z a–z 0–9 _ .
    /// -`, joined by newlines), so a salt is never also some command's randomness.
    pub fn salt(&self, version: i64) -> Option<[u8; 32]> {
        let mut mac = self.salt_mac.clone()?;
        mac.update(b"baumeister-salt/2\0");
        mac.update(&self.id);
        mac.update(&version.to_be_bytes());
        Some(mac.finalize().into_bytes().into())
    }

    /// The hash of event `version` after `previous`.
    ///
    /// Format 1: SHA-256(previous ‖ id ‖ version (8 bytes BE) ‖ type ‖ 0x00 ‖ payload).
    /// Format 2: SHA-256(`baumeister-chain/2` 0x00 ‖ previous ‖ id ‖ version ‖ salt ‖ type ‖
    /// 0x00 ‖ payload).
    ///
    /// `payload` is hashed in serde_json's canonical form (keys sorted), which is also what
    /// reading it back from `jsonb` and re-serializing gives, so a verifier recomputes the same
    /// bytes.
    pub fn event_hash(
        &self,
        previous: &[u8],
        version: i64,
        kind: &str,
        payload: &Value,
    ) -> Vec<u8> {
        let mut h = Sha256::new();
        let salt = self.salt(version);
        if salt.is_some() {
            h.update(b"baumeister-chain/2\0");
        }
        h.update(previous);
        h.update(&self.id);
        h.update(version.to_be_bytes());
        if let Some(salt) = salt {
            h.update(salt);
        }
        h.update(kind.as_bytes());
        h.update([0]);
        serde_json::to_writer(Hashing(&mut h), payload).expect("JSON values serialize");
        h.finalize().to_vec()
    }
}

/// The JSON of a payload hashed as it is written, without a buffer for it.
struct Hashing<'h>(&'h mut Sha256);

impl std::io::Write for Hashing<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use baumeister_domain::fairness::to_hex;

    #[test]
    fn the_hash_depends_on_everything_it_covers() {
        let p = serde_json::json!({"type": "X", "a": 1});
        for chain in [Chain::plain(vec![1]), Chain::salted(vec![1], vec![9; 32])] {
            let other_id = Chain {
                id: vec![2],
                ..chain.clone()
            };
            let base = chain.event_hash(&GENESIS, 1, "X", &p);
            assert_eq!(base, chain.event_hash(&GENESIS, 1, "X", &p));
            assert_ne!(base, chain.event_hash(&[1; 32], 1, "X", &p));
            assert_ne!(base, other_id.event_hash(&GENESIS, 1, "X", &p));
            assert_ne!(base, chain.event_hash(&GENESIS, 2, "X", &p));
            assert_ne!(base, chain.event_hash(&GENESIS, 1, "Y", &p));
            assert_ne!(
                base,
                chain.event_hash(&GENESIS, 1, "X", &serde_json::json!({"a": 2}))
            );
        }
    }

    #[test]
    fn a_salted_link_depends_on_the_secret_and_is_not_the_plain_one() {
        let p = serde_json::json!({"type": "CardDrawn", "card": 7});
        let salted = Chain::salted(vec![1; 16], vec![9; 32]);
        let other_secret = Chain::salted(vec![1; 16], vec![8; 32]);
        let plain = Chain::plain(vec![1; 16]);
        let base = salted.event_hash(&GENESIS, 3, "CardDrawn", &p);
        assert_ne!(base, other_secret.event_hash(&GENESIS, 3, "CardDrawn", &p));
        assert_ne!(base, plain.event_hash(&GENESIS, 3, "CardDrawn", &p));
        assert_ne!(salted.salt(3), salted.salt(4), "a salt per event");
        assert_eq!(plain.salt(3), None);
    }

    /// The worked example of `docs/fairness.md` §4, so the page and the code cannot drift.
    #[test]
    fn the_worked_example_of_the_fairness_page() {
        let secret = baumeister_domain::fairness::from_hex(
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        )
        .unwrap();
        let uid = crate::audit::trust::uid_bytes("6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f");
        let chain = Chain::salted(uid, secret);
        let payload = serde_json::json!({"type": "CardDrawn", "seat": 1, "card": 7});
        assert_eq!(
            to_hex(&chain.salt(1).unwrap()),
            "57d7000155a2efa0004f8d3c3557b6975f8052e0547cee721b27f1a047184376",
        );
        assert_eq!(
            to_hex(&chain.event_hash(&GENESIS, 1, "CardDrawn", &payload)),
            "fcec8b491b86221613f6490b780e6b233e6953b11236ff16d3b430da6bdb0d82",
        );
    }
}
