//! Provably fair randomness: commit and reveal. When a game is created the server draws a
//! secret (32 random bytes) and publishes `SHA-256(secret)`; every player adds a client seed;
//! each command's randomness is `HMAC-SHA256(key = secret, message = the client seeds in seat
//! order, each followed by a newline, then the command's position in decimal)`, whose 32 bytes
//! become the state of the game's generator ([`crate::rng::GameRng::from_key`]). Once the game
//! has ended the secret is revealed and anybody can recompute every draw (docs/fairness.md has a
//! worked example). The position is the number of events before the command (0 for the set-up),
//! so no draw can be chosen again once the game has started.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// The longest client seed accepted, in characters.
pub const CLIENT_SEED_MAX: usize = 64;

/// The commitment published from the start: SHA-256 of the secret's 32 bytes.
pub fn commitment(secret: &[u8]) -> [u8; 32] {
    Sha256::digest(secret).into()
}

/// The HMAC message of the command at `position`: every client seed in seat order, each
/// followed by `\n`, then `position` in decimal.
pub fn seed_message(client_seeds: &[String], position: i64) -> Vec<u8> {
    let mut message = Vec::new();
    for seed in client_seeds {
        message.extend_from_slice(seed.as_bytes());
        message.push(b'\n');
    }
    message.extend_from_slice(position.to_string().as_bytes());
    message
}

/// The 32 bytes that seed the command at `position` (see the module's documentation).
pub fn derive_key(secret: &[u8], client_seeds: &[String], position: i64) -> [u8; 32] {
    SeedKey::new(secret).derive(client_seeds, position)
}

/// A game's secret keyed into HMAC once: [`derive_key`] for every command of a game, without
/// hashing the secret's two padded blocks again each time.
#[derive(Clone)]
pub struct SeedKey(Hmac<Sha256>);

impl SeedKey {
    pub fn new(secret: &[u8]) -> Self {
        SeedKey(<Hmac<Sha256> as Mac>::new_from_slice(secret).expect("HMAC takes any key"))
    }

    /// [`derive_key`] with this secret.
    pub fn derive(&self, client_seeds: &[String], position: i64) -> [u8; 32] {
        let mut mac = self.0.clone();
        mac.update(&seed_message(client_seeds, position));
        mac.finalize().into_bytes().into()
    }
}

impl std::fmt::Debug for SeedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeedKey(…)")
    }
}

/// Whether `seed` may be a client seed: 1–64 of `A–Z a–z 0–9 _ . -` (no separator can hide in
/// it, and it reads the same everywhere).
pub fn valid_client_seed(seed: &str) -> bool {
    (1..=CLIENT_SEED_MAX).contains(&seed.len())
        && seed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Lower-case hexadecimal.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Hexadecimal (either case) to bytes; `None` when it is not.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.as_bytes()
        .chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of docs/fairness.md: change one and change the other.
    #[test]
    fn the_documented_example_holds() {
        let secret =
            from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f").unwrap();
        assert_eq!(
            to_hex(&commitment(&secret)),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        let seeds = vec!["anna".to_string(), "bert".to_string()];
        assert_eq!(seed_message(&seeds, 0), b"anna\nbert\n0");
        assert_eq!(
            to_hex(&derive_key(&secret, &seeds, 0)),
            DOCUMENTED_SETUP_KEY
        );
        assert_eq!(
            to_hex(&derive_key(&secret, &seeds, 7)),
            "c25fef4a41a529573395cf52b97f8b132e2d232dcf17241fe7b1b1739abc578b"
        );
        let mut rng = crate::rng::GameRng::from_key(&derive_key(&secret, &seeds, 0));
        assert_eq!(rng.next_u64(), DOCUMENTED_FIRST_DRAW);
    }

    const DOCUMENTED_SETUP_KEY: &str =
        "487d2cd62deeeac8df16dfd87c30d4a82ae26389c7f774954cea2e119b6ca870";
    const DOCUMENTED_FIRST_DRAW: u64 = 11_980_411_804_187_794_134;

    #[test]
    fn client_seeds_are_plain() {
        assert!(valid_client_seed("anna-2026.x_y"));
        assert!(!valid_client_seed(""));
        assert!(!valid_client_seed("a\nb"));
        assert!(!valid_client_seed("a b"));
        assert!(!valid_client_seed(&"x".repeat(65)));
    }

    #[test]
    fn hex_round_trips() {
        assert_eq!(
            from_hex(&to_hex(&[0, 1, 254, 255])).unwrap(),
            [0, 1, 254, 255]
        );
        assert_eq!(from_hex("0g"), None);
        assert_eq!(from_hex("abc"), None);
    }
}
