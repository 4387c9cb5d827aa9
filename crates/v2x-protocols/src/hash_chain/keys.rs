//! The protected key store of a vehicle's tamper-proof device: the hash chain table
//! `k_0 = SHA-256(seed)`, `k_{i+1} = SHA-256(k_i)`. Keys never leave it; it only
//! computes and checks MACs.

use super::wire::MAC_LEN;
use crate::{RejectReason, Rejection};
use v2x_crypto::{ct_eq, hmac_sha256, sha256};

/// The hash chain table. Best-effort wipe on drop.
pub struct KeyStore {
    keys: Vec<[u8; 32]>,
}

impl std::fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeyStore({} keys, redacted)", self.keys.len())
    }
}

impl Drop for KeyStore {
    fn drop(&mut self) {
        for k in &mut self.keys {
            k.fill(0);
        }
        std::hint::black_box(&self.keys);
    }
}

impl KeyStore {
    /// Builds the table of `n` chained keys from the CA-provided seed.
    pub fn from_seed(seed: &[u8; 32], n: u32) -> KeyStore {
        let mut keys = Vec::with_capacity(n as usize);
        let mut k = sha256(seed);
        for _ in 0..n {
            keys.push(k);
            k = sha256(&k);
        }
        KeyStore { keys }
    }

    pub fn len(&self) -> u32 {
        self.keys.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// `HMAC-SHA256(k_index, identity ‖ payload ‖ ts)` truncated to 12 bytes; None for an
    /// index outside the table.
    pub fn mac(&self, index: u32, identity: &[u8], payload: &[u8], ts: u32) -> Option<[u8; MAC_LEN]> {
        let key = self.keys.get(index as usize)?;
        let mut data = Vec::with_capacity(identity.len() + payload.len() + 4);
        data.extend_from_slice(identity);
        data.extend_from_slice(payload);
        data.extend_from_slice(&ts.to_be_bytes());
        let full = hmac_sha256(key, &data);
        let mut out = [0u8; MAC_LEN];
        out.copy_from_slice(&full[..MAC_LEN]);
        Some(out)
    }

    /// Checks a tag in constant time. Err when the index is outside the table.
    pub fn verify(&self, index: u32, identity: &[u8], payload: &[u8], ts: u32, tag: &[u8]) -> Result<bool, Rejection> {
        let expected = self.mac(index, identity, payload, ts).ok_or_else(|| {
            Rejection::new(
                RejectReason::UnknownKey,
                format!("key index {index} outside the table of {}", self.len()),
            )
        })?;
        Ok(ct_eq(&expected, tag))
    }
}
