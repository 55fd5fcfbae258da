//! The server's VAPID identity (RFC 8292): a P-256 key whose public half browsers subscribe
//! with (`GET /v1/push/key`), and the ES256 token that proves each push request comes from it.
//! The key comes from `VAPID_PRIVATE_KEY`, or from `VAPID_KEY_FILE` (created on first start,
//! like `SIGNING_KEY_FILE`), or is random per process (subscriptions then break on restart).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::SecretKey;
use serde::Serialize;

/// How long a VAPID token is valid (RFC 8292 allows at most 24 hours).
const TOKEN_SECONDS: u64 = 12 * 3600;

/// Where the key comes from.
#[derive(Clone, Debug, Default)]
pub enum VapidKeySource {
    #[default]
    Random,
    /// 32 bytes, base64url.
    Key(String),
    File(std::path::PathBuf),
}

/// The key, ready to sign.
#[derive(Clone)]
pub struct Vapid {
    encoding: EncodingKey,
    /// The uncompressed public point, base64url (what browsers pass as `applicationServerKey`).
    pub public_key: String,
    /// `mailto:` or `https:` URI: whom a push service contacts about our messages.
    pub subject: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public_key", &self.public_key)
            .finish_non_exhaustive()
    }
}

#[derive(Serialize)]
struct Claims<'a> {
    aud: &'a str,
    exp: u64,
    sub: &'a str,
}

fn parse_key(text: &str, source: &str) -> Result<SecretKey, String> {
    URL_SAFE_NO_PAD
        .decode(text.trim().trim_end_matches('='))
        .ok()
        .and_then(|bytes| SecretKey::from_slice(&bytes).ok())
        .ok_or_else(|| {
            format!("{source} must hold a P-256 private key: 32 bytes, base64url (`baumeister` writes one to VAPID_KEY_FILE when the file does not exist)")
        })
}

pub fn fresh_key() -> SecretKey {
    loop {
        let bytes = baumeister_storage::trust::random_bytes();
        if let Ok(key) = SecretKey::from_slice(&bytes) {
            return key;
        }
    }
}

impl VapidKeySource {
    /// The key, read or created.
    pub fn load(&self, subject: String) -> Result<Vapid, String> {
        let key = match self {
            VapidKeySource::Key(text) => parse_key(text, "VAPID_PRIVATE_KEY")?,
            VapidKeySource::File(path) => match std::fs::read_to_string(path) {
                Ok(text) => parse_key(&text, &format!("VAPID_KEY_FILE ({})", path.display()))?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let key = fresh_key();
                    crate::config::private_file::write_private(
                        path,
                        &URL_SAFE_NO_PAD.encode(key.to_bytes()),
                    )
                    .map_err(|e| format!("cannot create VAPID_KEY_FILE {}: {e}", path.display()))?;
                    tracing::warn!(
                        "VAPID_KEY_FILE {} did not exist: created it with a new VAPID key. Keep \
                         this file: browsers subscribed with another key get no pushes.",
                        path.display()
                    );
                    key
                }
                Err(e) => {
                    return Err(format!(
                        "cannot read VAPID_KEY_FILE {}: {e}",
                        path.display()
                    ))
                }
            },
            VapidKeySource::Random => {
                tracing::warn!(
                    "NEITHER VAPID_PRIVATE_KEY NOR VAPID_KEY_FILE IS SET: push subscriptions are \
                     made with a random key that dies with this process (and differs between \
                     processes). Set one in production."
                );
                fresh_key()
            }
        };
        Ok(Vapid::new(&key, subject))
    }
}

/// A P-256 key as PKCS#8 DER (RFC 5915 inside RFC 5208), the form `jsonwebtoken` signs with:
/// a fixed prefix, the 32-byte scalar, a fixed infix and the 65-byte public point.
fn pkcs8(key: &SecretKey) -> Vec<u8> {
    const PREFIX: [u8; 36] = [
        0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
        0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x04, 0x6d, 0x30,
        0x6b, 0x02, 0x01, 0x01, 0x04, 0x20,
    ];
    const INFIX: [u8; 5] = [0xa1, 0x44, 0x03, 0x42, 0x00];
    let mut der = Vec::with_capacity(138);
    der.extend_from_slice(&PREFIX);
    der.extend_from_slice(&key.to_bytes());
    der.extend_from_slice(&INFIX);
    der.extend_from_slice(key.public_key().to_encoded_point(false).as_bytes());
    der
}

impl Vapid {
    pub fn new(key: &SecretKey, subject: String) -> Vapid {
        Vapid {
            encoding: EncodingKey::from_ec_der(&pkcs8(key)),
            public_key: URL_SAFE_NO_PAD.encode(key.public_key().to_encoded_point(false).as_bytes()),
            subject,
        }
    }

    /// The `Authorization` header for a push to `endpoint` (RFC 8292 `vapid` scheme): a token
    /// for the endpoint's origin, valid [`TOKEN_SECONDS`].
    pub fn authorization(&self, endpoint: &str, now_seconds: u64) -> Result<String, String> {
        let uri: actix_web::http::Uri = endpoint.parse().map_err(|_| "bad endpoint".to_string())?;
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return Err("bad endpoint".into());
        };
        let audience = format!("{scheme}://{authority}");
        let claims = Claims {
            aud: &audience,
            exp: now_seconds + TOKEN_SECONDS,
            sub: &self.subject,
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::ES256), &claims, &self.encoding)
            .map_err(|e| format!("signing the VAPID token failed: {e}"))?;
        Ok(format!("vapid t={token}, k={}", self.public_key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_names_the_endpoints_origin_and_verifies_with_the_public_key() {
        let key = SecretKey::from_slice(&[9u8; 32]).unwrap();
        let vapid = Vapid::new(&key, "mailto:ops@example.org".into());
        let header = vapid
            .authorization("https://push.example.net:8443/send/abc?x=1", 1_000_000)
            .unwrap();
        let (t, k) = header
            .strip_prefix("vapid t=")
            .unwrap()
            .split_once(", k=")
            .unwrap();
        assert_eq!(k, vapid.public_key);
        let point = URL_SAFE_NO_PAD.decode(k).unwrap();
        assert_eq!((point.len(), point[0]), (65, 4));
        let decoding = jsonwebtoken::DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(&point[1..33]),
            &URL_SAFE_NO_PAD.encode(&point[33..]),
        )
        .unwrap();
        let mut validation = jsonwebtoken::Validation::new(Algorithm::ES256);
        validation.validate_exp = false;
        validation.set_audience(&["https://push.example.net:8443"]);
        let claims = jsonwebtoken::decode::<serde_json::Value>(t, &decoding, &validation)
            .unwrap()
            .claims;
        assert_eq!(claims["sub"], "mailto:ops@example.org");
        assert_eq!(claims["exp"], 1_000_000 + TOKEN_SECONDS);
        // Another key's public half does not verify it.
        let other = Vapid::new(&SecretKey::from_slice(&[8u8; 32]).unwrap(), String::new());
        let point = URL_SAFE_NO_PAD.decode(&other.public_key).unwrap();
        let wrong = jsonwebtoken::DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(&point[1..33]),
            &URL_SAFE_NO_PAD.encode(&point[33..]),
        )
        .unwrap();
        assert!(jsonwebtoken::decode::<serde_json::Value>(t, &wrong, &validation).is_err());
    }

    #[test]
    fn a_key_file_is_created_once_and_read_after() {
        let path = std::env::temp_dir().join(format!("vapid-{}.key", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let source = VapidKeySource::File(path.clone());
        let first = source.load("mailto:a@b".into()).unwrap();
        let second = source.load("mailto:a@b".into()).unwrap();
        assert_eq!(first.public_key, second.public_key);
        std::fs::write(&path, "not a key").unwrap();
        assert!(source.load(String::new()).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
