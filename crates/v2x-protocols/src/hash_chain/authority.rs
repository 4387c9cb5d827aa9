//! The certification authority of a hash-chain deployment: the system seed, the
//! pseudonym registry (conditional traceability), RSU certificates and the revocation
//! list that roadside units announce.

use super::wire::PID_LEN;
use crate::cert::{CompactCa, Credential, TrustAnchor};
use crate::setup::SetupError;
use std::collections::HashMap;
use v2x_crypto::Curve;

/// What the CA hands a registered driver (over a secure channel).
pub struct Registration {
    pub seed: [u8; 32],
    pub pseudonyms: Vec<[u8; PID_LEN]>,
}

impl std::fmt::Debug for Registration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Registration(seed redacted, {} pseudonyms)", self.pseudonyms.len())
    }
}

/// The certification authority: system seed, pseudonym registry, RSU certificates,
/// revocation list.
#[derive(Debug)]
pub struct HashChainCa {
    seed: [u8; 32],
    ca: CompactCa,
    owners: HashMap<[u8; PID_LEN], u32>,
    revoked: Vec<[u8; PID_LEN]>,
}

impl HashChainCa {
    pub fn new(rsu_curve: Curve) -> Result<HashChainCa, SetupError> {
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&v2x_crypto::random_bytes(32));
        Ok(HashChainCa {
            seed,
            ca: CompactCa::generate(rsu_curve)?,
            owners: HashMap::new(),
            revoked: Vec::new(),
        })
    }

    /// Registers driver `driver` and issues `count` fresh random PIDs.
    pub fn register(&mut self, driver: u32, count: u32) -> Registration {
        let mut pseudonyms = Vec::with_capacity(count as usize);
        while pseudonyms.len() < count as usize {
            let mut pid = [0u8; PID_LEN];
            pid.copy_from_slice(&v2x_crypto::random_bytes(PID_LEN));
            if self.owners.insert(pid, driver).is_none() {
                pseudonyms.push(pid);
            }
        }
        Registration {
            seed: self.seed,
            pseudonyms,
        }
    }

    /// Certifies a roadside unit.
    pub fn enrol_rsu(&self, id: u32) -> Result<Credential, SetupError> {
        Ok(self.ca.enrol(id, 0, u32::MAX)?)
    }

    pub fn anchor(&self) -> &TrustAnchor {
        self.ca.anchor()
    }

    /// Conditional traceability: which driver a PID belongs to.
    pub fn trace(&self, pid: &[u8]) -> Option<u32> {
        <[u8; PID_LEN]>::try_from(pid)
            .ok()
            .and_then(|p| self.owners.get(&p).copied())
    }

    /// Revokes one pseudo-identity (only the accused driver's, not the vehicle's).
    pub fn revoke_pseudonym(&mut self, pid: [u8; PID_LEN]) {
        if !self.revoked.contains(&pid) {
            self.revoked.push(pid);
        }
    }

    /// Revokes every PID of a driver.
    pub fn revoke_driver(&mut self, driver: u32) {
        let mut pids: Vec<_> = self
            .owners
            .iter()
            .filter(|(_, d)| **d == driver)
            .map(|(p, _)| *p)
            .collect();
        pids.sort();
        for p in pids {
            self.revoke_pseudonym(p);
        }
    }

    pub fn revocation_list(&self) -> &[[u8; PID_LEN]] {
        &self.revoked
    }
}
