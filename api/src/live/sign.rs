//! Webhook signatures: HMAC-SHA256 (RFC 2104) of `<timestamp>.<body>` under the webhook's
//! secret, sent as `Baumeister-Signature: t=<timestamp>,v1=<hex>`.

use sha2::{Digest, Sha256};

const BLOCK: usize = 64;

/// HMAC-SHA256 of `message` under `key`.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `Baumeister-Signature` header's value for `body` sent at `timestamp` (Unix seconds).
pub fn signature(secret: &str, timestamp: u64, body: &[u8]) -> String {
    let mut signed = format!("{timestamp}.").into_bytes();
    signed.extend_from_slice(body);
    format!(
        "t={timestamp},v1={}",
        hex(&hmac_sha256(secret.as_bytes(), &signed))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_4231_test_vectors() {
        assert_eq!(
            hex(&hmac_sha256(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // A key longer than the block is hashed first.
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn the_signature_covers_timestamp_and_body() {
        let s = signature("whsec_x", 1700000000, b"{}");
        assert!(s.starts_with("t=1700000000,v1="));
        assert_ne!(s, signature("whsec_x", 1700000001, b"{}"));
        assert_ne!(s, signature("whsec_x", 1700000000, b"{ }"));
        assert_ne!(s, signature("whsec_y", 1700000000, b"{}"));
    }
}
