//! The key chain: the one-way function F (the layout's hash truncated to the key
//! length), the MAC keys and MACs derived from chain elements, the interval arithmetic
//! a commitment announces, and generating a new chain.

use super::config::{Format, TeslaLayout};
use crate::authenticator::Timestamp;
use v2x_crypto::{hmac_sha1, hmac_sha256, sha256};

/// The label of the MAC-key PRF: `K'_i = HMAC(K_i, label)`.
const MAC_KEY_LABEL: &[u8] = b"TESLA MAC key";

fn sha1_digest(data: &[u8]) -> [u8; 20] {
    use sha1::Digest as _;
    sha1::Sha1::digest(data).into()
}

impl Format {
    /// F: one step down the chain.
    pub fn f(&self, key: &[u8]) -> Vec<u8> {
        let mut out = match self.layout {
            TeslaLayout::Paper004 => sha1_digest(key).to_vec(),
            TeslaLayout::Paper001 => sha256(key).to_vec(),
        };
        out.truncate(self.key_len);
        out
    }

    /// F applied `steps` times.
    pub fn f_n(&self, key: &[u8], steps: u32) -> Vec<u8> {
        let mut k = key.to_vec();
        for _ in 0..steps {
            k = self.f(&k);
        }
        k
    }

    fn hmac(&self, key: &[u8], data: &[u8]) -> Vec<u8> {
        match self.layout {
            TeslaLayout::Paper004 => hmac_sha1(key, data).to_vec(),
            TeslaLayout::Paper001 => hmac_sha256(key, data).to_vec(),
        }
    }

    /// K' = F'(K), the MAC key of an interval.
    pub fn mac_key(&self, key: &[u8]) -> Vec<u8> {
        let mut k = self.hmac(key, MAC_KEY_LABEL);
        k.truncate(self.key_len);
        k
    }

    /// The truncated MAC of `data` under `mac_key`.
    pub fn mac(&self, mac_key: &[u8], data: &[u8]) -> Vec<u8> {
        let mut m = self.hmac(mac_key, data);
        m.truncate(self.mac_len);
        m
    }
}

/// Chain timing announced in a commitment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainParams {
    /// Start of interval 1, µs.
    pub t0_us: u64,
    pub interval_us: u64,
    pub disclosure_delay: u32,
    pub chain_length: u32,
}

impl ChainParams {
    /// Interval of sender time `t` (0 before T0).
    pub fn interval_of(&self, t: Timestamp) -> u64 {
        match t.as_micros().checked_sub(self.t0_us) {
            Some(dt) => dt / self.interval_us.max(1) + 1,
            None => 0,
        }
    }

    /// Start of interval `i`.
    pub fn interval_start(&self, i: u64) -> Timestamp {
        Timestamp(
            self.t0_us
                .saturating_add(i.saturating_sub(1).saturating_mul(self.interval_us)),
        )
    }
}

/// A sender's chain: `K_N` drawn at random, `K_{i-1} = F(K_i)` down to the commitment `K_0`.
pub struct KeyChain {
    pub params: ChainParams,
    /// keys[i] = K_i, i = 0..=N.
    keys: Vec<Vec<u8>>,
}

impl KeyChain {
    pub fn generate(format: &Format, params: ChainParams) -> KeyChain {
        let n = params.chain_length as usize;
        let mut keys = vec![Vec::new(); n + 1];
        let mut k = v2x_crypto::random_bytes(format.key_len);
        for slot in keys.iter_mut().rev() {
            let next = format.f(&k);
            *slot = std::mem::replace(&mut k, next);
        }
        KeyChain { params, keys }
    }

    /// K_i, if `i` is in the chain.
    pub fn key(&self, i: u64) -> Option<&[u8]> {
        self.keys.get(usize::try_from(i).ok()?).map(Vec::as_slice)
    }

    /// The commitment K_0.
    pub fn commitment(&self) -> &[u8] {
        self.keys.first().map(Vec::as_slice).unwrap_or_default()
    }
}
