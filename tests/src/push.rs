//! A browser's side of Web Push for the tests: a device's keys (RFC 8291's `p256dh` and
//! `auth`) and the decryption of what a push service hands it (the `aes128gcm` content coding
//! of RFC 8188), written from the RFCs here, independently of the server's encryption.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hkdf::Hkdf;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// A subscribed device's keys.
pub struct Device {
    key: SecretKey,
    pub auth: [u8; 16],
}

impl Default for Device {
    fn default() -> Self {
        Self::new()
    }
}

impl Device {
    pub fn new() -> Device {
        let key = loop {
            let mut bytes = [0u8; 32];
            getrandom::getrandom(&mut bytes).unwrap();
            if let Ok(key) = SecretKey::from_slice(&bytes) {
                break key;
            }
        };
        let mut auth = [0u8; 16];
        getrandom::getrandom(&mut auth).unwrap();
        Device { key, auth }
    }

    pub fn public(&self) -> Vec<u8> {
        self.key
            .public_key()
            .to_encoded_point(false)
            .as_bytes()
            .to_vec()
    }

    /// The subscription as a browser's `PushSubscription.toJSON()` gives it.
    pub fn subscription(&self, endpoint: &str) -> serde_json::Value {
        serde_json::json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(self.public()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            }
        })
    }

    /// Decrypts a push message (one record); panics on anything a browser would refuse.
    pub fn decrypt(&self, body: &[u8]) -> Vec<u8> {
        let salt = &body[..16];
        let record_size = u32::from_be_bytes(body[16..20].try_into().unwrap());
        let id_len = body[20] as usize;
        assert_eq!(id_len, 65, "the key id is the sender's P-256 public key");
        let sender = &body[21..21 + id_len];
        let ciphertext = &body[21 + id_len..];
        assert!(ciphertext.len() <= record_size as usize, "one record");
        let sender = PublicKey::from_sec1_bytes(sender).expect("a P-256 point");
        let shared = p256::ecdh::diffie_hellman(self.key.to_nonzero_scalar(), sender.as_affine());
        let mut info = b"WebPush: info\0".to_vec();
        info.extend_from_slice(&self.public());
        info.extend_from_slice(sender.to_encoded_point(false).as_bytes());
        let mut ikm = [0u8; 32];
        Hkdf::<Sha256>::new(Some(&self.auth), shared.raw_secret_bytes())
            .expand(&info, &mut ikm)
            .unwrap();
        let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
        let (mut cek, mut nonce) = ([0u8; 16], [0u8; 12]);
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
            .unwrap();
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce)
            .unwrap();
        let mut plain = Aes128Gcm::new_from_slice(&cek)
            .unwrap()
            .decrypt(Nonce::from_slice(&nonce), ciphertext)
            .expect("the message decrypts with the device's keys");
        // The last record: padding zeros after the delimiter 2.
        while plain.last() == Some(&0) {
            plain.pop();
        }
        assert_eq!(plain.pop(), Some(2), "the last record's delimiter");
        plain
    }
}
