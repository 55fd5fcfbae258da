//! Web Push message encryption (RFC 8291): the `aes128gcm` content coding of RFC 8188 with keys
//! agreed by ECDH on P-256 between a fresh key of ours and the subscription's (`p256dh`), mixed
//! with the subscription's authentication secret (`auth`). One record: a push message is small.

use aes_gcm::aead::{AeadInPlace, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use hkdf::Hkdf;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use sha2::Sha256;

/// The record size written in the header (the whole message is one record, at most this).
const RECORD_SIZE: u32 = 4096;

/// The longest plaintext one record holds: the record size less the tag (16) and the
/// delimiter (1), and the header is outside the record.
pub const MAX_PLAINTEXT: usize = RECORD_SIZE as usize - 17;

/// Why a message cannot be encrypted to a subscription.
#[derive(Debug, PartialEq, Eq)]
pub enum EncryptError {
    /// `p256dh` is not an uncompressed P-256 point.
    BadPublicKey,
    /// `auth` is not 16 bytes.
    BadAuthSecret,
    /// The message does not fit one record.
    TooLong,
}

/// Checks a subscription's keys as the browser sent them (decoded): a P-256 point and a
/// 16-byte secret.
pub fn check_keys(p256dh: &[u8], auth: &[u8]) -> Result<(), EncryptError> {
    if p256dh.len() != 65 || PublicKey::from_sec1_bytes(p256dh).is_err() {
        return Err(EncryptError::BadPublicKey);
    }
    if auth.len() != 16 {
        return Err(EncryptError::BadAuthSecret);
    }
    Ok(())
}

/// Encrypts `plaintext` to a subscription with a fresh key and salt.
pub fn encrypt(plaintext: &[u8], p256dh: &[u8], auth: &[u8]) -> Result<Vec<u8>, EncryptError> {
    let ours = loop {
        let mut bytes = [0u8; 32];
        getrandom::getrandom(&mut bytes).expect("the operating system provides entropy");
        // Fails only for zero or a number past the group's order: draw again.
        if let Ok(key) = SecretKey::from_slice(&bytes) {
            break key;
        }
    };
    let mut salt = [0u8; 16];
    getrandom::getrandom(&mut salt).expect("the operating system provides entropy");
    encrypt_with(plaintext, p256dh, auth, &ours, &salt)
}

/// [`encrypt`] with our key and the salt given (the RFC's example fixes both).
pub fn encrypt_with(
    plaintext: &[u8],
    p256dh: &[u8],
    auth: &[u8],
    ours: &SecretKey,
    salt: &[u8; 16],
) -> Result<Vec<u8>, EncryptError> {
    check_keys(p256dh, auth)?;
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(EncryptError::TooLong);
    }
    let theirs = PublicKey::from_sec1_bytes(p256dh).map_err(|_| EncryptError::BadPublicKey)?;
    let our_public = ours.public_key().to_encoded_point(false);
    let shared = p256::ecdh::diffie_hellman(ours.to_nonzero_scalar(), theirs.as_affine());
    // IKM = HKDF(auth, ecdh_secret, "WebPush: info" 0x00 ua_public as_public, 32)
    let mut key_info = Vec::with_capacity(14 + 65 + 65);
    key_info.extend_from_slice(b"WebPush: info\0");
    key_info.extend_from_slice(p256dh);
    key_info.extend_from_slice(our_public.as_bytes());
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), shared.raw_secret_bytes())
        .expand(&key_info, &mut ikm)
        .expect("32 bytes is a valid HKDF length");
    // The content encryption key and nonce of RFC 8188, from the salt.
    let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
    let mut cek = [0u8; 16];
    let mut nonce = [0u8; 12];
    prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .expect("16 bytes is a valid HKDF length");
    prk.expand(b"Content-Encoding: nonce\0", &mut nonce)
        .expect("12 bytes is a valid HKDF length");
    // The last (only) record ends with the delimiter 0x02 and no padding.
    let mut record = Vec::with_capacity(plaintext.len() + 17);
    record.extend_from_slice(plaintext);
    record.push(2);
    Aes128Gcm::new_from_slice(&cek)
        .expect("16 bytes is an AES-128 key")
        .encrypt_in_place(Nonce::from_slice(&nonce), b"", &mut record)
        .expect("one record is within AES-GCM's limits");
    // Header: salt, record size, the key id's length and the key id (our public key).
    let mut body = Vec::with_capacity(16 + 4 + 1 + 65 + record.len());
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(65);
    body.extend_from_slice(our_public.as_bytes());
    body.extend_from_slice(&record);
    Ok(body)
}

#[cfg(test)]
mod tests {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;

    use super::*;

    fn b64(s: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(s).unwrap()
    }

    /// RFC 8291, Section 5 (and Appendix A): the example's keys, salt and message.
    #[test]
    fn the_rfc_8291_example_encrypts_to_the_rfcs_bytes() {
        let plaintext = b64("V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24");
        assert_eq!(plaintext, b"When I grow up, I want to be a watermelon");
        let as_private =
            SecretKey::from_slice(&b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")).unwrap();
        assert_eq!(
            as_private.public_key().to_encoded_point(false).as_bytes(),
            b64("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        );
        let ua_public = b64(
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        );
        let auth = b64("BTBZMqHH6r4Tts7J_aSIgg");
        let salt: [u8; 16] = b64("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        let body = encrypt_with(&plaintext, &ua_public, &auth, &as_private, &salt).unwrap();
        assert_eq!(
            URL_SAFE_NO_PAD.encode(&body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        );
        // The RFC's intermediate values agree too: the ECDH secret, from the other side.
        let ua_private =
            SecretKey::from_slice(&b64("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")).unwrap();
        let shared = p256::ecdh::diffie_hellman(
            ua_private.to_nonzero_scalar(),
            as_private.public_key().as_affine(),
        );
        assert_eq!(
            shared.raw_secret_bytes().as_slice(),
            b64("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs")
        );
    }

    #[test]
    fn fresh_keys_and_salts_make_each_message_different() {
        let ua = SecretKey::from_slice(&[7u8; 32]).unwrap();
        let ua_public = ua.public_key().to_encoded_point(false);
        let a = encrypt(b"your turn", ua_public.as_bytes(), &[1; 16]).unwrap();
        let b = encrypt(b"your turn", ua_public.as_bytes(), &[1; 16]).unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 86 + 9 + 1 + 16);
    }

    #[test]
    fn bad_keys_and_long_messages_are_refused() {
        let ua = SecretKey::from_slice(&[7u8; 32]).unwrap();
        let ua_public = ua.public_key().to_encoded_point(false);
        assert_eq!(
            encrypt(b"x", &[4; 65], &[1; 16]),
            Err(EncryptError::BadPublicKey)
        );
        assert_eq!(
            encrypt(b"x", ua_public.as_bytes(), &[1; 15]),
            Err(EncryptError::BadAuthSecret)
        );
        assert_eq!(
            encrypt(&[0; MAX_PLAINTEXT + 1], ua_public.as_bytes(), &[1; 16]),
            Err(EncryptError::TooLong)
        );
    }
}
