//! What a receiver trusts and knows: trust anchors (root CAs, from files or a verified
//! trust list), CA certificates available for chain building (verified when used), the
//! cache of certificates whose chains have been validated, and the revocation state.

use crate::certificate::{CertRef, Certificate};
use crate::permissions::issuance::ChainLength;
use crate::revocation::{HashedId10, RevocationSet};
use crate::validated::ValidatedChain;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use v2x_crypto::{HashAlg, HashedId8};

/// Default bound of the validated-certificate cache.
pub const DEFAULT_KNOWN_CAPACITY: usize = 4096;

/// Why a certificate cannot be a trust anchor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnchorError {
    #[error("{0} is not self-signed")]
    NotSelfSigned(HashedId8),
    #[error("{0}: its self-signature does not verify")]
    BadSelfSignature(HashedId8),
}

/// Something a caller should tell the user about trust material loaded under an insecure
/// option (this library prints nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustWarning {
    /// A trust list past its nextUpdate was loaded.
    ExpiredTrustList {
        signer: HashedId8,
        next_update: u32,
        now: u32,
    },
    /// A PKI directory without its CRL was trusted.
    MissingCrl { path: std::path::PathBuf },
    /// A root of a certificate directory without a CRL was trusted.
    RootWithoutCrl { root: HashedId8 },
}

impl std::fmt::Display for TrustWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrustWarning::ExpiredTrustList {
                signer,
                next_update,
                now,
            } => write!(
                f,
                "the trust list of {signer} was due to be replaced at {next_update} (TAI s, now {now}); loaded anyway (insecure option)"
            ),
            TrustWarning::MissingCrl { path } => write!(
                f,
                "{} is missing; trusting the PKI without revocation information (insecure option)",
                path.display()
            ),
            TrustWarning::RootWithoutCrl { root } => write!(
                f,
                "no CRL of root {root} in the trust directory; trusting its chains without revocation information (insecure option)"
            ),
        }
    }
}

/// The newest trust list loaded from one signer: its nextUpdate (TAI s) and ctlSequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TrustListVersion {
    pub next_update: u32,
    pub sequence: u8,
}

#[derive(Default, Clone)]
pub struct TrustStore {
    anchors: HashMap<HashedId8, CertRef>,
    /// CA certificates (EA, AA, sub-CAs) usable as chain links; each link is verified.
    cas: HashMap<HashedId8, CertRef>,
    known: HashMap<HashedId8, Arc<ValidatedChain>>,
    known_order: VecDeque<HashedId8>,
    known_capacity: usize,
    revocation: RevocationSet,
    lists: HashMap<HashedId8, TrustListVersion>,
    chain_length: ChainLength,
}

impl std::fmt::Debug for TrustStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrustStore")
            .field("anchors", &(self.anchors.len() / 2))
            .field("cas", &(self.cas.len() / 2))
            .field("known", &self.known.len())
            .field("revoked", &self.revocation.revoked_count())
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
    pub fn add_trust_anchor(&mut self, cert: CertRef) -> Result<(), AnchorError> {
        if !cert.is_self_signed() {
            return Err(AnchorError::NotSelfSigned(cert.hashed_id8()));
        }
        if !cert.verify_signature(None) {
            return Err(AnchorError::BadSelfSignature(cert.hashed_id8()));
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

    /// Every validated chain the store remembers, oldest first, each once.
    pub fn known_chains(&self) -> Vec<Arc<ValidatedChain>> {
        let mut seen = std::collections::HashSet::new();
        self.known_order
            .iter()
            .filter_map(|id| self.known.get(id))
            .filter(|v| seen.insert(Arc::as_ptr(v)))
            .cloned()
            .collect()
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

    /// Removes a CA certificate from the chain links (a trust list's delete command).
    pub fn remove_ca_certificate(&mut self, id: &HashedId8) {
        if let Some(c) = self.cas.get(id).cloned() {
            for id in both_ids(&c) {
                self.cas.remove(&id);
            }
        }
    }

    /// Marks a certificate as revoked (kept across CRL updates).
    pub fn revoke(&mut self, cert: &Certificate) {
        self.revocation.revoke_by_hand(cert.hashed_id10());
    }

    pub fn revoke_hashed_id10(&mut self, id: HashedId10) {
        self.revocation.revoke_by_hand(id);
    }

    pub fn is_revoked(&self, cert: &Certificate) -> bool {
        self.revocation.is_revoked(cert)
    }

    pub fn revoked_count(&self) -> usize {
        self.revocation.revoked_count()
    }

    /// The revocation state (CRLs held, expected CRL issuers).
    pub fn revocation(&self) -> &RevocationSet {
        &self.revocation
    }

    pub fn revocation_mut(&mut self) -> &mut RevocationSet {
        &mut self.revocation
    }

    /// Records that a CRL is expected from `root` (see [`RevocationSet::expect_crl_from`]).
    pub fn expect_crl_from(&mut self, root: &Certificate) {
        self.revocation.expect_crl_from(root.hashed_id8());
    }

    /// The newest trust list loaded from `signer`, if any.
    /// How chain lengths are judged when this store's chains are validated.
    pub fn chain_length(&self) -> ChainLength {
        self.chain_length
    }

    /// Sets how chain lengths are judged ([`ChainLength::InsecureLenient`]: lab data only);
    /// chains validated before are forgotten, so none escapes the new rule.
    pub fn set_chain_length(&mut self, mode: ChainLength) {
        if mode != self.chain_length {
            self.chain_length = mode;
            self.known.clear();
            self.known_order.clear();
        }
    }

    pub fn trust_list_version(&self, signer: &HashedId8) -> Option<TrustListVersion> {
        self.lists.get(signer).copied()
    }

    /// The newest trust list loaded from each signer.
    pub fn trust_list_versions(&self) -> impl Iterator<Item = (&HashedId8, &TrustListVersion)> {
        self.lists.iter()
    }

    pub(crate) fn set_trust_list_version(&mut self, signer: HashedId8, v: TrustListVersion) {
        self.lists.insert(signer, v);
    }
}
