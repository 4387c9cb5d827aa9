//! IEEE 1609.2 ECIES key wrap (§5.3.5): KDF2-SHA256 with P1, XOR wrap of a 16-byte
//! AES key, HMAC-SHA256 tag truncated to 16 bytes.

use crate::{ecdh_x, hmac_sha256, CryptoError, PrivateKey, PublicKey};
use sha2::Digest as _;

/// An ECIES-wrapped AES-128 key: ephemeral public key V, wrapped key c, tag t.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EciesWrapped {
    pub ephemeral: PublicKey,
    pub c: [u8; 16],
    pub t: [u8; 16],
}

/// KDF2 of IEEE 1363a with SHA-256: K = H(Z || 1 || P1) || H(Z || 2 || P1) || ...
pub fn kdf2_sha256(z: &[u8], p1: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 32);
    let mut counter: u32 = 1;
    while out.len() < len {
        let mut h = sha2::Sha256::new();
        h.update(z);
        h.update(counter.to_be_bytes());
        h.update(p1);
        out.extend_from_slice(&h.finalize());
        counter += 1;
    }
    out.truncate(len);
    out
}

fn derive(z: &[u8], p1: &[u8]) -> ([u8; 16], [u8; 32]) {
    let k = kdf2_sha256(z, p1, 48);
    let mut ke = [0u8; 16];
    let mut km = [0u8; 32];
    ke.copy_from_slice(&k[..16]);
    km.copy_from_slice(&k[16..]);
    (ke, km)
}

fn tag(km: &[u8; 32], c: &[u8; 16]) -> [u8; 16] {
    let full = hmac_sha256(km, c);
    let mut t = [0u8; 16];
    t.copy_from_slice(&full[..16]);
    t
}

/// Wraps `key` for `recipient` with a fresh ephemeral key.
pub fn ecies_wrap(recipient: &PublicKey, key: &[u8; 16], p1: &[u8]) -> Result<EciesWrapped, CryptoError> {
    let (ephemeral, z) = crate::ecdsa::ephemeral_ecdh_x(recipient)?;
    Ok(wrap(ephemeral, &z, key, p1))
}

/// Wraps with a given ephemeral key (known-answer tests only need this).
pub fn ecies_wrap_with_ephemeral(
    recipient: &PublicKey,
    ephemeral: &PrivateKey,
    key: &[u8; 16],
    p1: &[u8],
) -> Result<EciesWrapped, CryptoError> {
    let z = ecdh_x(ephemeral, recipient)?;
    Ok(wrap(ephemeral.public_key().clone(), &z, key, p1))
}

fn wrap(ephemeral: PublicKey, z: &[u8], key: &[u8; 16], p1: &[u8]) -> EciesWrapped {
    let (ke, km) = derive(z, p1);
    let mut c = [0u8; 16];
    for i in 0..16 {
        c[i] = key[i] ^ ke[i];
    }
    EciesWrapped {
        ephemeral,
        c,
        t: tag(&km, &c),
    }
}

/// Unwraps; the tag is compared in constant time before the key is released.
pub fn ecies_unwrap(recipient: &PrivateKey, wrapped: &EciesWrapped, p1: &[u8]) -> Result<[u8; 16], CryptoError> {
    let z = ecdh_x(recipient, &wrapped.ephemeral)?;
    let (ke, km) = derive(&z, p1);
    let expected = tag(&km, &wrapped.c);
    if !crate::ct_eq(&expected, &wrapped.t) {
        return Err(CryptoError::TagMismatch);
    }
    let mut key = [0u8; 16];
    for i in 0..16 {
        key[i] = wrapped.c[i] ^ ke[i];
    }
    Ok(key)
}
