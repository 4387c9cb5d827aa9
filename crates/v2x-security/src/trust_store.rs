//! What a receiver trusts and knows: trust anchors (root CAs, from files or a verified
//! ECTL), CA certificates available for chain building (verified when used), the cache
//! of certificates whose chains have been validated, and the revocation set.

use crate::certificate::{CertRef, Certificate};
use crate::chain::ValidatedChain;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use v2x_crypto::{HashAlg, HashedId8};

/// Default bound of the validated-certificate cache.
pub const DEFAULT_KNOWN_CAPACITY: usize = 4096;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrustError {
    #[error("not a usable trust anchor: {0}")]
    BadAnchor(String),
    #[error("trust list rejected: {0}")]
    TrustList(String),
}

/// Low ten bytes of a certificate's whole-certificate hash (1609.2 hash-based CRLs).
pub type HashedId10 = [u8; 10];

#[derive(Default, Clone)]
pub struct TrustStore {
    anchors: HashMap<HashedId8, CertRef>,
    /// CA certificates (EA, AA, sub-CAs) usable as chain links; each link is verified.
    cas: HashMap<HashedId8, CertRef>,
    known: HashMap<HashedId8, Arc<ValidatedChain>>,
    known_order: VecDeque<HashedId8>,
    known_capacity: usize,
    revoked: HashSet<HashedId10>,
}

impl std::fmt::Debug for TrustStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrustStore")
            .field("anchors", &(self.anchors.len() / 2))
            .field("cas", &(self.cas.len() / 2))
            .field("known", &self.known.len())
            .field("revoked", &self.revoked.len())
            .finish()
    }
}

fn both_ids(c: &Certificate) -> [HashedId8; 2] {
    [c.hashed_id8_with(HashAlg::Sha256), c.hashed_id8_with(HashAlg::Sha384)]
}

impl TrustStore {
    pub fn new() -> TrustStore {
        TrustStore {
            known_capacity: DEFAULT_KNOWN_CAPACITY,
            ..Default::default()
        }
    }

    /// Adds a root certificate as trust anchor. It must be self-signed, its
    /// self-signature must verify, and it must be a CA.
    pub fn add_trust_anchor(&mut self, cert: CertRef) -> Result<(), TrustError> {
        if !cert.is_self_signed() {
            return Err(TrustError::BadAnchor(format!(
                "{} is not self-signed",
                cert.hashed_id8()
            )));
        }
        if !cert.verify_signature(None) {
            return Err(TrustError::BadAnchor(format!(
                "{}: self-signature does not verify",
                cert.hashed_id8()
            )));
        }
        for id in both_ids(&cert) {
            self.anchors.insert(id, cert.clone());
        }
        Ok(())
    }

    /// Makes a CA certificate available for chain building. Nothing is trusted by this:
    /// the chain validator verifies every link up to an anchor.
    pub fn add_ca_certificate(&mut self, cert: CertRef) {
        for id in both_ids(&cert) {
            self.cas.insert(id, cert.clone());
        }
    }

    pub fn anchors(&self) -> impl Iterator<Item = &CertRef> {
        let mut seen = HashSet::new();
        self.anchors.values().filter(move |c| seen.insert(c.hashed_id8()))
    }

    pub fn is_anchor(&self, cert: &Certificate) -> bool {
        self.anchors
            .get(&cert.hashed_id8())
            .is_some_and(|a| a.encoded() == cert.encoded())
    }

    /// An anchor or CA certificate by HashedId8.
    pub fn authority(&self, id: &HashedId8) -> Option<&CertRef> {
        self.anchors.get(id).or_else(|| self.cas.get(id))
    }

    /// A validated certificate (and its chain) by HashedId8.
    pub fn known(&self, id: &HashedId8) -> Option<&Arc<ValidatedChain>> {
        self.known.get(id)
    }

    /// A validated certificate by HashedId3 (for answering P2PCD requests).
    pub fn find_by_hashed_id3(&self, id3: v2x_crypto::HashedId3) -> Option<CertRef> {
        self.known
            .values()
            .flat_map(|v| v.chain().iter())
            .chain(self.cas.values())
            .chain(self.anchors.values())
            .find(|c| c.hashed_id3() == id3)
            .cloned()
    }

    /// Records a validated chain under its leaf's HashedId8s (bounded, oldest evicted).
    pub fn remember(&mut self, chain: Arc<ValidatedChain>) {
        for id in both_ids(chain.leaf()) {
            if self.known.insert(id, chain.clone()).is_none() {
                self.known_order.push_back(id);
            }
        }
        while self.known.len() > self.known_capacity.max(2) {
            match self.known_order.pop_front() {
                Some(old) => {
                    self.known.remove(&old);
                }
                None => break,
            }
        }
    }

    pub fn set_known_capacity(&mut self, capacity: usize) {
        self.known_capacity = capacity;
    }

    /// Marks a certificate as revoked.
    pub fn revoke(&mut self, cert: &Certificate) {
        self.revoked.insert(cert.hashed_id10());
    }

    pub fn revoke_hashed_id10(&mut self, id: HashedId10) {
        self.revoked.insert(id);
    }

    pub fn is_revoked(&self, cert: &Certificate) -> bool {
        !self.revoked.is_empty() && self.revoked.contains(&cert.hashed_id10())
    }

    pub fn revoked_count(&self) -> usize {
        self.revoked.len()
    }

    /// Loads the root CAs (and EA/AA certificates as chain links) of a trust list
    /// whose signature has been checked by [`crate::trust_list::verify_trust_list`].
    pub(crate) fn load_trusted_list_entries(&mut self, roots: Vec<CertRef>, cas: Vec<CertRef>) -> usize {
        let mut n = 0;
        for r in roots {
            if self.add_trust_anchor(r).is_ok() {
                n += 1;
            }
        }
        for c in cas {
            self.add_ca_certificate(c);
            n += 1;
        }
        n
    }
}
