//! The tamper-proof device (TPD): the vehicle's identity, the verifier of its driver's
//! two factors, and the keys (which never leave it); it signs every message after
//! checking the driver (7 hashes + 1 MAC). Also the hash `H` and the signature σ that
//! receivers recompute.

use super::wire::{OVERHEAD, PID_LEN, SIGMA_LEN};
use crate::authenticator::EncapError;
use v2x_crypto::{ct_eq, hmac_sha1};

/// Bytes of a hash output (SHA-1).
pub const H_LEN: usize = 20;

/// H: SHA-1 over the concatenation of `parts`.
pub fn h(parts: &[&[u8]]) -> [u8; H_LEN] {
    use sha1::Digest as _;
    let mut hasher = sha1::Sha1::new();
    for p in parts {
        hasher.update(p);
    }
    hasher.finalize().into()
}

/// σ = HMAC-SHA1(H(sk_e ‖ PID), PID ‖ Ts ‖ H(m)).
pub fn sigma(system_key: &[u8; 20], pid: &[u8], ts: u32, m: &[u8]) -> [u8; SIGMA_LEN] {
    let k = h(&[system_key, pid]);
    let hm = h(&[m]);
    let mut data = Vec::with_capacity(PID_LEN + 4 + H_LEN);
    data.extend_from_slice(pid);
    data.extend_from_slice(&ts.to_be_bytes());
    data.extend_from_slice(&hm);
    hmac_sha1(&k, &data)
}

/// A driver's two factors, as the driver presents them to the TPD.
#[derive(Clone)]
pub struct DriverFactors {
    pub biometric: Vec<u8>,
    pub password: Vec<u8>,
}

impl std::fmt::Debug for DriverFactors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DriverFactors(redacted)")
    }
}

/// The tamper-proof device: identity, factor verifier, keys. Keys never leave it.
pub struct Tpd {
    vid: Vec<u8>,
    verifier: [u8; H_LEN],
    k_trace: [u8; 20],
    epoch: u32,
    system_key: [u8; 20],
    previous: Option<(u32, [u8; 20])>,
}

impl std::fmt::Debug for Tpd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tpd(epoch {}, keys redacted)", self.epoch)
    }
}

impl Tpd {
    /// A TPD provisioned by the trusted authority.
    pub fn new(vid: Vec<u8>, verifier: [u8; H_LEN], k_trace: [u8; 20], epoch: u32, system_key: [u8; 20]) -> Tpd {
        Tpd {
            vid,
            verifier,
            k_trace,
            epoch,
            system_key,
            previous: None,
        }
    }

    /// Epoch of the current system key.
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// Installs the system key of a new epoch, keeping the previous one for the grace
    /// period.
    pub fn install_key(&mut self, epoch: u32, key: [u8; 20]) {
        self.previous = Some((self.epoch, self.system_key));
        self.epoch = epoch;
        self.system_key = key;
    }

    /// The system key of `epoch`, if the TPD holds it.
    pub fn key_for_epoch(&self, epoch: u32) -> Option<&[u8; 20]> {
        if epoch == self.epoch {
            return Some(&self.system_key);
        }
        match &self.previous {
            Some((e, k)) if *e == epoch => Some(k),
            _ => None,
        }
    }

    /// Signs `m` for the driver presenting `factors` (7 hashes + 1 MAC). Returns the
    /// header (PID ‖ σ ‖ Ts).
    pub fn sign(&self, factors: &DriverFactors, m: &[u8], ts: u32) -> Result<[u8; OVERHEAD], EncapError> {
        let h_bio = h(&[&factors.biometric]);
        let h_pw = h(&[&factors.password]);
        if !ct_eq(&h(&[&h_bio, &h_pw]), &self.verifier) {
            return Err(EncapError::NotReady(
                "two-factor authentication of the driver failed".into(),
            ));
        }
        let did = h(&[&self.vid, &h_bio]);
        let epoch = self.epoch.to_be_bytes();
        let pad = h(&[&self.k_trace, &epoch[1..], &ts.to_be_bytes()]);
        let mut out = [0u8; OVERHEAD];
        out[..3].copy_from_slice(&epoch[1..]);
        for i in 0..H_LEN {
            out[3 + i] = did[i] ^ pad[i];
        }
        let s = sigma(&self.system_key, &out[..PID_LEN], ts, m);
        out[PID_LEN..PID_LEN + SIGMA_LEN].copy_from_slice(&s);
        out[PID_LEN + SIGMA_LEN..].copy_from_slice(&ts.to_be_bytes());
        Ok(out)
    }

    /// The anonymous driver identity DID = H(VID ‖ H(BIO)) of the driver presenting `factors`.
    pub fn did(&self, factors: &DriverFactors) -> [u8; H_LEN] {
        h(&[&self.vid, &h(&[&factors.biometric])])
    }
}
