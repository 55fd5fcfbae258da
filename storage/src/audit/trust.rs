//! What makes a game's history checkable by others: its identity and commit-and-reveal keys
//! (the randomness of every command, see `baumeister_domain::fairness`), and the server's
//! Ed25519 key that signs each game's chain head.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use baumeister_domain::fairness::{from_hex, to_hex, SeedKey};
use baumeister_domain::Ctx;
use deadpool_postgres::GenericClient;
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use lru::LruCache;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::audit::chain::Chain;
use crate::error::Result;
use crate::fresh_seed;

/// Every how many events a game's snapshot is kept, unless its keys say otherwise (a game's
/// keys carry the period: `snapshot_every`).
pub(crate) const DEFAULT_EVERY: i64 = 100;

/// A game's chain head, signed by the server: whoever keeps it can later prove that the
/// history up to `version` was changed, if it ever is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SignedHead {
    /// The game's global id (its `fairness.uid`; `local-<id>` for games older than signing).
    pub game: String,
    /// The number of events the head covers.
    pub version: i64,
    /// The hash of event `version` (64 zeros before the first), hexadecimal.
    pub hash: String,
    /// Ed25519 signature of [`head_message`], hexadecimal (64 bytes).
    pub signature: String,
    /// The signing key (hexadecimal, 32 bytes), one of `GET /v1/keys`.
    pub key: String,
}

/// What the signature covers: `baumeister-head/1 <game> <version> <hash>` in UTF-8.
pub fn head_message(game: &str, version: i64, hash: &str) -> String {
    format!("baumeister-head/1 {game} {version} {hash}")
}

/// Checks a head's signature against its `key` (and only that key: whether the key is the
/// server's is for the caller to decide).
pub fn verify_head(head: &SignedHead) -> std::result::Result<(), String> {
    let key: [u8; 32] = from_hex(&head.key)
        .and_then(|k| k.try_into().ok())
        .ok_or("the signing key is not 32 bytes of hexadecimal")?;
    let key =
        VerifyingKey::from_bytes(&key).map_err(|_| "the signing key is not a valid Ed25519 key")?;
    let signature: [u8; 64] = from_hex(&head.signature)
        .and_then(|s| s.try_into().ok())
        .ok_or("the signature is not 64 bytes of hexadecimal")?;
    key.verify_strict(
        head_message(&head.game, head.version, &head.hash).as_bytes(),
        &Signature::from_bytes(&signature),
    )
    .map_err(|_| "the signature does not match the head and the key".to_string())
}

/// The server's signing key.
pub struct Signer {
    key: SigningKey,
}

impl Signer {
    /// The key whose 32-byte secret seed this is (`SIGNING_KEY`, or the key file's content).
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        Signer {
            key: SigningKey::from_bytes(seed),
        }
    }

    /// A fresh random key (the server warns when it has to use one).
    pub fn random() -> Self {
        Self::from_seed(&random_bytes())
    }

    /// The public key, hexadecimal.
    pub fn public_key(&self) -> String {
        to_hex(self.key.verifying_key().as_bytes())
    }

    /// Signs any message (snapshots are signed so that a changed one is not used).
    pub(crate) fn sign_bytes(&self, message: &[u8]) -> Vec<u8> {
        self.key.sign(message).to_bytes().to_vec()
    }

    /// Whether `signature` is this key's over `message`.
    pub(crate) fn signed(&self, message: &[u8], signature: &[u8]) -> bool {
        let Ok(signature) = <[u8; 64]>::try_from(signature) else {
            return false;
        };
        self.key
            .verifying_key()
            .verify_strict(message, &Signature::from_bytes(&signature))
            .is_ok()
    }

    pub fn sign(&self, game: &str, version: i64, hash: &[u8]) -> SignedHead {
        let hash = to_hex(hash);
        let signature = self.key.sign(head_message(game, version, &hash).as_bytes());
        SignedHead {
            game: game.to_string(),
            version,
            hash,
            signature: to_hex(&signature.to_bytes()),
            key: self.public_key(),
        }
    }
}

/// 32 bytes from the operating system's entropy.
pub fn random_bytes() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).expect("the operating system provides entropy");
    bytes
}

/// A game's identity and the keys of its randomness.
pub(crate) struct GameKeys {
    /// What the signed head names: the uid, or `local-<id>` for games older than fairness.
    pub name: String,
    /// What every event hash covers (the uid's 16 bytes; the local id's 8 for older games) and
    /// how (plain, or salted with the secret: see `chain.rs`).
    pub chain: Chain,
    /// The secret and every client seed, once the game has started (older games: none).
    pub fair: Option<(Vec<u8>, Vec<String>)>,
    /// An imported game's head, as the server it came from signed it: this server never signs
    /// another's history as its own.
    pub origin: Option<SignedHead>,
    /// The secret keyed for the commands' randomness: set with `fair`, by [`GameKeys::fair`].
    seed_key: Option<SeedKey>,
}

impl GameKeys {
    /// A game created before provable fairness: chained over its local id, seeds drawn fresh.
    pub fn legacy(game_id: i64) -> Self {
        GameKeys {
            name: format!("local-{game_id}"),
            chain: Chain::plain(game_id.to_be_bytes().to_vec()),
            fair: None,
            origin: None,
            seed_key: None,
        }
    }

    /// `chain_format`: 1 (plain) for games whose chain began before format 2, else 2.
    pub fn fair(uid: &str, secret: Vec<u8>, client_seeds: Vec<String>, chain_format: u8) -> Self {
        GameKeys {
            name: uid.to_string(),
            chain: Chain::of_format(chain_format, uid_bytes(uid), &secret),
            seed_key: Some(SeedKey::new(&secret)),
            fair: Some((secret, client_seeds)),
            origin: None,
        }
    }

    /// The randomness of the command decided after `position` events, and the value stored in
    /// the command's `seed` column (for a fair game the key's first 8 bytes: informative only,
    /// the audit derives the key again).
    pub fn ctx(&self, position: i64, now_ms: i64) -> (Ctx, u64) {
        match self.command_key(position) {
            Some(key) => {
                let stored = u64::from_le_bytes(key[..8].try_into().unwrap());
                (Ctx::from_key(&key, now_ms), stored)
            }
            None => {
                let seed = fresh_seed();
                (Ctx::new(seed, now_ms), seed)
            }
        }
    }
}

impl GameKeys {
    /// The key of the command decided after `position` events (`fairness::derive_key`), for a
    /// fair game; `None` for older games, whose seeds were drawn fresh.
    pub fn command_key(&self, position: i64) -> Option<[u8; 32]> {
        let ((_, seeds), seed_key) = self.fair.as_ref().zip(self.seed_key.as_ref())?;
        Some(seed_key.derive(seeds, position))
    }
}

/// A uuid's 16 bytes (its hexadecimal digits without the dashes).
pub fn uid_bytes(uid: &str) -> Vec<u8> {
    from_hex(&uid.replace('-', "")).unwrap_or_else(|| uid.as_bytes().to_vec())
}

/// The signer and the keys of started games, shared by the store's clones.
pub(crate) struct Trust {
    pub signer: Signer,
    /// Other servers' public keys (hexadecimal, lower case) whose signed exports are imported
    /// (`TRUSTED_KEYS`); this server's own key is always trusted.
    pub trusted: Vec<String>,
    /// A snapshot every this many events (`SNAPSHOT_EVERY`).
    pub snapshot_every: i64,
    keys: Mutex<LruCache<i64, Arc<GameKeys>>>,
    /// Each game's newest signed head: a command's response and the reads after it name the
    /// same head, and signing costs more than the rest of a cached read.
    heads: Mutex<LruCache<String, SignedHead>>,
}

/// Started games whose keys and newest heads are remembered (keys never change once a game
/// has started); the least recently used go first.
const KEYS_CAPACITY: usize = 20_000;

impl Trust {
    pub fn new(signer: Signer) -> Self {
        let capacity = NonZeroUsize::new(KEYS_CAPACITY).expect("not zero");
        Trust {
            signer,
            trusted: Vec::new(),
            snapshot_every: DEFAULT_EVERY,
            keys: Mutex::new(LruCache::new(capacity)),
            heads: Mutex::new(LruCache::new(capacity)),
        }
    }

    /// The keys of a started game: one query the first time, none after.
    pub async fn keys(&self, client: &impl GenericClient, game_id: i64) -> Result<Arc<GameKeys>> {
        if let Some(keys) = self.held_keys(game_id) {
            return Ok(keys);
        }
        let keys = Arc::new(load_keys(client, game_id).await?);
        self.remember(game_id, keys.clone());
        Ok(keys)
    }

    /// The game's keys if this process holds them, without reading them.
    pub fn held_keys(&self, game_id: i64) -> Option<Arc<GameKeys>> {
        self.keys.lock().unwrap().get(&game_id).cloned()
    }

    /// Whether a head signed by `key` (hexadecimal) may be imported.
    pub fn trusts(&self, key: &str) -> bool {
        let key = key.to_ascii_lowercase();
        key == self.signer.public_key() || self.trusted.contains(&key)
    }

    pub fn remember(&self, game_id: i64, keys: Arc<GameKeys>) {
        self.keys.lock().unwrap().put(game_id, keys);
    }

    /// The head of a game at `version` (whose event hash is `hash`): signed here, or for an
    /// imported game the head its own server signed (imported games are finished: their head
    /// never moves).
    pub fn head_of(&self, keys: &GameKeys, version: i64, hash: &[u8]) -> SignedHead {
        match &keys.origin {
            Some(origin) => origin.clone(),
            None => self.head(&keys.name, version, hash),
        }
    }

    /// The game's head at `version` (whose event hash is `hash`), signed.
    pub fn head(&self, game: &str, version: i64, hash: &[u8]) -> SignedHead {
        if let Some(head) = self.heads.lock().unwrap().get(game) {
            if head.version == version && from_hex(&head.hash).as_deref() == Some(hash) {
                return head.clone();
            }
        }
        let head = self.signer.sign(game, version, hash);
        let mut heads = self.heads.lock().unwrap();
        // Never replace a newer head with an older one (a replay or a slow reader).
        if heads
            .peek(game)
            .is_none_or(|newest| newest.version <= version)
        {
            heads.put(game.to_string(), head.clone());
        }
        head
    }
}

/// Reads a game's keys (as they are now: call it for started games, or within the
/// transaction that starts one).
pub(crate) async fn load_keys(client: &impl GenericClient, game_id: i64) -> Result<GameKeys> {
    let row = client
        .query_opt(
            "SELECT uid::text, secret, client_seeds, chain_format, imported -> 'head'
             FROM game_fairness WHERE game_id = $1",
            &[&game_id],
        )
        .await?;
    Ok(match row {
        Some(row) => GameKeys {
            origin: row
                .get::<_, Option<serde_json::Value>>(4)
                .map(serde_json::from_value)
                .transpose()
                .map_err(|e| crate::StoreError::Corrupt(format!("imported head: {e}")))?,
            ..GameKeys::fair(
                &row.get::<_, String>(0),
                row.get(1),
                row.get(2),
                row.get::<_, i16>(3) as u8,
            )
        },
        None => GameKeys::legacy(game_id),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_head_verifies_and_any_change_is_refused() {
        let signer = Signer::from_seed(&[7; 32]);
        let head = signer.sign("g", 3, &[1; 32]);
        assert_eq!(verify_head(&head), Ok(()));
        for change in [
            |h: &mut SignedHead| h.version = 4,
            |h: &mut SignedHead| h.game = "h".into(),
            |h: &mut SignedHead| h.hash = to_hex(&[2; 32]),
            |h: &mut SignedHead| h.key = Signer::from_seed(&[8; 32]).public_key(),
            |h: &mut SignedHead| h.signature.replace_range(0..2, "00"),
        ] {
            let mut changed = head.clone();
            change(&mut changed);
            if changed != head {
                assert!(verify_head(&changed).is_err(), "{changed:?}");
            }
        }
    }

    #[test]
    fn remembered_heads_are_the_heads_asked_for() {
        let trust = Trust::new(Signer::from_seed(&[7; 32]));
        let newer = trust.head("g", 5, &[5; 32]);
        assert_eq!(trust.head("g", 5, &[5; 32]), newer, "remembered");
        // An older version, or the same version with another hash (a rewritten history), is
        // signed for what it is, never answered with the remembered head.
        for (version, hash) in [(4, [4; 32]), (5, [6; 32])] {
            let head = trust.head("g", version, &hash);
            assert_eq!((head.version, head.hash.clone()), (version, to_hex(&hash)));
            assert_eq!(verify_head(&head), Ok(()));
        }
        assert_eq!(trust.head("h", 5, &[5; 32]).game, "h");
    }
}
