//! The key that signs chain heads, and the other servers' keys whose exports are trusted.

use std::env;

use super::private_file::write_private;

/// Where the key that signs chain heads comes from.
#[derive(Clone, Debug, Default)]
pub enum SigningKeySource {
    /// A random key for this process only (warned).
    #[default]
    Random,
    /// The 32-byte seed itself.
    Seed([u8; 32]),
    /// A file with the seed in hexadecimal; created when missing.
    File(std::path::PathBuf),
}

/// `TRUSTED_KEYS`: public keys separated by commas or white space.
pub(super) fn trusted_keys(text: &str) -> Result<Vec<String>, String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|k| !k.is_empty())
        .map(|k| {
            let bytes = baumeister_domain::fairness::from_hex(k).filter(|b| b.len() == 32);
            match bytes {
                Some(_) => Ok(k.to_ascii_lowercase()),
                None => Err(format!(
                    "TRUSTED_KEYS holds `{k}`, which is not 64 hexadecimal digits (an Ed25519 public key, as another server's GET /v1/keys shows it)"
                )),
            }
        })
        .collect()
}

fn parse_seed(text: &str, source: &str) -> Result<[u8; 32], String> {
    baumeister_domain::fairness::from_hex(text.trim())
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| {
            format!("{source} must hold 64 hexadecimal digits (an Ed25519 secret key, e.g. `openssl rand -hex 32`)")
        })
}

impl SigningKeySource {
    pub(super) fn from_env() -> Result<Self, String> {
        if let Ok(seed) = env::var("SIGNING_KEY") {
            if !seed.is_empty() {
                return Ok(SigningKeySource::Seed(parse_seed(&seed, "SIGNING_KEY")?));
            }
        }
        match env::var("SIGNING_KEY_FILE") {
            Ok(path) if !path.is_empty() => Ok(SigningKeySource::File(path.into())),
            _ => Ok(SigningKeySource::Random),
        }
    }

    /// The signer; a missing key file is created with a fresh key.
    pub fn signer(&self) -> Result<baumeister_storage::Signer, String> {
        use baumeister_storage::Signer;
        match self {
            SigningKeySource::Seed(seed) => Ok(Signer::from_seed(seed)),
            SigningKeySource::File(path) => match std::fs::read_to_string(path) {
                Ok(text) => Ok(Signer::from_seed(&parse_seed(
                    &text,
                    &format!("SIGNING_KEY_FILE ({})", path.display()),
                )?)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let seed = baumeister_storage::trust::random_bytes();
                    write_private(path, &baumeister_domain::fairness::to_hex(&seed)).map_err(
                        |e| format!("cannot create SIGNING_KEY_FILE {}: {e}", path.display()),
                    )?;
                    tracing::warn!(
                        "SIGNING_KEY_FILE {} did not exist: created it with a NEW signing key. \
                         Heads signed with any earlier key no longer match GET /v1/keys; keep \
                         this file and back it up.",
                        path.display()
                    );
                    Ok(Signer::from_seed(&seed))
                }
                Err(e) => Err(format!(
                    "cannot read SIGNING_KEY_FILE {}: {e}",
                    path.display()
                )),
            },
            SigningKeySource::Random => {
                tracing::warn!(
                    "NEITHER SIGNING_KEY NOR SIGNING_KEY_FILE IS SET: chain heads are signed with \
                     a random key that dies with this process. Signatures players keep cannot be \
                     checked against GET /v1/keys after a restart. Set one in production."
                );
                Ok(Signer::random())
            }
        }
    }
}
