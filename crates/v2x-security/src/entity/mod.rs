//! The security entity of one station: SN-ENCAP ([`encap`]: sign and/or encrypt with a
//! profile) and SN-DECAP ([`decap`]: strict verification as named steps in one documented
//! order, a typed reason for every rejection).
//!
//! This module holds the entity's state — signing credentials, trust store, replay window,
//! P2PCD bookkeeping, established symmetric keys — and the policies of both directions.

pub mod decap;
pub mod encap;

pub use decap::{DecapMode, DecapPolicy, DecapStep, Decapped, Precheck, LEAP_SECONDS_SINCE_2004};
pub use encap::{EncapError, EncapPolicy, EncapRequest, Encapsulated};

use crate::certificate::CertRef;
use crate::encryption::{DecryptionKey, SymmetricKey};
use crate::p2pcd::P2pcdState;
use crate::profile::{Profile, ProfileKind, SignerPolicy};
use crate::pseudonym::{Credentials, PseudonymPool};
use crate::region::GeoPoint;
use crate::replay::ReplayCache;
use crate::time::TaiTime;
use crate::trust_store::TrustStore;
use crate::verification::SignatureVerifier;
use std::collections::HashMap;
use v2x_crypto::{HashedId8, VerifyStrategy};
use v2x_wire::ItsAid;

/// Bound of the established symmetric keys table.
const MAX_SYMMETRIC_KEYS: usize = 1024;
/// Bound of the memo of decoded certificates.
const MAX_DECODED: usize = 4096;

/// A position with elevation, for the generation location.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Location {
    pub point: GeoPoint,
    /// Elevation in decimetres as on the wire (1609.2 Uint16 with offset; 0 = sea level).
    pub elevation: u16,
}

/// The security entity of one station.
pub struct SecurityEntity {
    pseudonyms: Option<PseudonymPool>,
    /// Our issuing chain (AA, root...) to answer P2PCD requests for CA certificates.
    own_chain: Vec<CertRef>,
    store: TrustStore,
    policy: DecapPolicy,
    encap_policy: EncapPolicy,
    encap_profiles: HashMap<ProfileKind, Profile>,
    replay: ReplayCache,
    p2pcd: P2pcdState,
    last_full_certificate: Option<TaiTime>,
    certificate_due: bool,
    symmetric_keys: HashMap<HashedId8, SymmetricKey>,
    decryption_keys: Vec<DecryptionKey>,
    /// How message signatures are verified (plain by default; precomputed tables opt-in).
    verifier: SignatureVerifier,
    /// Sign with R in compressed form (lets receivers check R exactly and batch-verify).
    compressed_r: bool,
    /// Certificates decoded from received messages, by the HashedId8 of their bytes, before
    /// any chain validated them: a memo of decoding (a pure function of the bytes), which a
    /// flood repeating a few certificates would otherwise pay at every packet. It changes no
    /// verdict; bounded (cleared when full).
    decoded: std::sync::Mutex<HashMap<HashedId8, CertRef>>,
    /// [`DecapMode::SignatureOnly`] only: certificates whose message signature verified,
    /// so that the digest-signed messages that follow resolve. NOT validated (no chain,
    /// validity or revocation): never consulted in strict mode, never in the trust store.
    signature_only_learnt: HashMap<HashedId8, CertRef>,
}

impl std::fmt::Debug for SecurityEntity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecurityEntity")
            .field(
                "signer",
                &self.pseudonyms.as_ref().map(|p| p.active().certificate.hashed_id8()),
            )
            .field("store", &self.store)
            .field("mode", &self.policy.mode)
            .finish()
    }
}

impl SecurityEntity {
    /// A receive-only entity with a trust store.
    pub fn new(store: TrustStore) -> SecurityEntity {
        let mut encap_profiles = HashMap::new();
        encap_profiles.insert(ProfileKind::Cam, Profile::cam());
        encap_profiles.insert(ProfileKind::Denm, Profile::denm());
        encap_profiles.insert(ProfileKind::Generic, Profile::generic(ItsAid::CAM));
        SecurityEntity {
            pseudonyms: None,
            own_chain: Vec::new(),
            store,
            policy: DecapPolicy::default(),
            encap_policy: EncapPolicy::default(),
            encap_profiles,
            replay: ReplayCache::default(),
            p2pcd: P2pcdState::default(),
            last_full_certificate: None,
            certificate_due: true,
            symmetric_keys: HashMap::new(),
            decryption_keys: Vec::new(),
            verifier: SignatureVerifier::default(),
            compressed_r: false,
            decoded: std::sync::Mutex::new(HashMap::new()),
            signature_only_learnt: HashMap::new(),
        }
    }

    /// An entity that signs with `pseudonyms`; `chain` is the issuing chain of the
    /// tickets (AA first, root last), used to answer P2PCD requests.
    pub fn with_pseudonyms(store: TrustStore, pseudonyms: PseudonymPool, chain: Vec<CertRef>) -> SecurityEntity {
        let mut e = SecurityEntity::new(store);
        for t in pseudonyms.tickets() {
            if let Some(k) = &t.encryption_key {
                e.decryption_keys.push(DecryptionKey {
                    certificate: t.certificate.clone(),
                    key: k.clone(),
                });
            }
        }
        e.pseudonyms = Some(pseudonyms);
        e.own_chain = chain;
        e
    }

    /// An entity that signs with one certificate.
    pub fn with_credentials(store: TrustStore, credentials: Credentials, chain: Vec<CertRef>) -> SecurityEntity {
        match PseudonymPool::new(vec![credentials]) {
            Some(pool) => SecurityEntity::with_pseudonyms(store, pool, chain),
            None => SecurityEntity::new(store),
        }
    }

    pub fn trust_store(&self) -> &TrustStore {
        &self.store
    }

    pub fn trust_store_mut(&mut self) -> &mut TrustStore {
        &mut self.store
    }

    /// The SN-DECAP policy.
    /// The identities of accepted messages (SN-DECAP's replay window).
    pub fn replay_cache(&self) -> &ReplayCache {
        &self.replay
    }

    pub fn replay_cache_mut(&mut self) -> &mut ReplayCache {
        &mut self.replay
    }

    pub fn policy(&self) -> &DecapPolicy {
        &self.policy
    }

    /// The certificates signature-only mode has learnt (not validated; see
    /// [`DecapMode::SignatureOnly`]).
    pub fn signature_only_certificates(&self) -> impl Iterator<Item = &CertRef> {
        self.signature_only_learnt.values()
    }

    /// Adds a certificate for signature-only mode to resolve digests with (a `--state` of an
    /// earlier signature-only run). Not validated, and never used in strict mode.
    pub fn learn_signature_only_certificate(&mut self, cert: CertRef) {
        self.signature_only_learnt.insert(cert.hashed_id8(), cert);
    }

    pub fn policy_mut(&mut self) -> &mut DecapPolicy {
        &mut self.policy
    }

    /// The SN-ENCAP policy (what the sender refuses to do).
    pub fn encap_policy_mut(&mut self) -> &mut EncapPolicy {
        &mut self.encap_policy
    }

    /// Selects strict (default) or signature-only decapsulation.
    /// How message signatures are verified (plain by default; `precomputed` is opt-in).
    pub fn set_verify_strategy(&mut self, strategy: VerifyStrategy) {
        self.verifier = SignatureVerifier::new(strategy);
    }

    pub fn verifier(&self) -> &SignatureVerifier {
        &self.verifier
    }

    /// The verifier itself, e.g. to hand its signer tables on to a new entity.
    pub fn verifier_mut(&mut self) -> &mut SignatureVerifier {
        &mut self.verifier
    }

    /// Our own messages carry R compressed instead of x-only (an option of 1609.2).
    pub fn set_sign_compressed_r(&mut self, on: bool) {
        self.compressed_r = on;
    }

    pub fn set_decap_mode(&mut self, mode: DecapMode) {
        self.policy.mode = mode;
    }

    /// The profile SN-ENCAP uses for `kind` (editable, e.g. the certificate interval).
    pub fn encap_profile_mut(&mut self, kind: ProfileKind) -> &mut Profile {
        self.encap_profiles
            .entry(kind)
            .or_insert_with(|| Profile::for_kind(kind, None))
    }

    /// Adds a private key for receiving encrypted data addressed to `certificate`.
    pub fn add_decryption_key(&mut self, certificate: CertRef, key: v2x_crypto::PrivateKey) {
        self.decryption_keys.push(DecryptionKey { certificate, key });
    }

    /// The active signing certificate.
    pub fn signing_certificate(&self) -> Option<&CertRef> {
        self.pseudonyms.as_ref().map(|p| &p.active().certificate)
    }

    pub fn pseudonyms_mut(&mut self) -> Option<&mut PseudonymPool> {
        self.pseudonyms.as_mut()
    }

    /// Switches to the next pseudonym; the next CAM carries the new certificate.
    pub fn rotate_pseudonym(&mut self, now: TaiTime) {
        if let Some(p) = self.pseudonyms.as_mut() {
            p.rotate(now);
            self.last_full_certificate = None;
            self.certificate_due = true;
        }
    }

    /// HashedId3s we will ask for in our next CAM.
    pub fn pending_p2pcd_requests(&self) -> Vec<v2x_crypto::HashedId3> {
        self.p2pcd.pending_requests().copied().collect()
    }

    /// Whether the next CAM will carry the full certificate.
    pub fn certificate_due(&self, now: TaiTime) -> bool {
        let interval = match self.encap_profiles.get(&ProfileKind::Cam).map(|p| p.signer) {
            Some(SignerPolicy::DigestWithCertificateEvery(iv)) => iv,
            _ => return true,
        };
        self.certificate_due
            || match self.last_full_certificate {
                None => true,
                Some(t) => now >= t.saturating_add(interval) || now < t,
            }
    }

    /// Established symmetric keys (by HashedId8) usable with [`crate::Recipient::Symmetric`].
    pub fn has_symmetric_key(&self, id: &HashedId8) -> bool {
        self.symmetric_keys.contains_key(id)
    }

    /// The certificate `bytes` (whose HashedId8 is `id`), decoded once.
    fn decoded_certificate(
        &self,
        id: HashedId8,
        bytes: &[u8],
    ) -> Result<CertRef, crate::certificate::CertificateError> {
        let mut memo = self.decoded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = memo.get(&id).filter(|c| c.encoded() == bytes) {
            return Ok(c.clone());
        }
        let c: CertRef = std::sync::Arc::new(crate::certificate::Certificate::from_bytes(bytes)?);
        if memo.len() >= MAX_DECODED {
            memo.clear();
        }
        memo.insert(id, c.clone());
        Ok(c)
    }

    /// Records an established symmetric key (bounded: keys are ephemeral per exchange, so
    /// when the table is full the old ones are dropped).
    fn establish_symmetric_key(&mut self, id: HashedId8, key: SymmetricKey) {
        if self.symmetric_keys.len() >= MAX_SYMMETRIC_KEYS {
            self.symmetric_keys.clear();
        }
        self.symmetric_keys.insert(id, key);
    }
}
