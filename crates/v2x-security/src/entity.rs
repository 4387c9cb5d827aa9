//! The security entity: SN-ENCAP (sign / encrypt with a profile) and SN-DECAP (strict
//! verification with a typed reason for every rejection).
//!
//! SN-DECAP checks, in this order (first failure wins):
//! 1. decoding (exact C-OER, no trailing bytes) -> `InvalidEncoding`;
//!    protocol version 3 -> `IncompatibleProtocol`
//! 2. decryption when encrypted: a recipient info for one of our keys ->
//!    `NotForThisRecipient`; key unwrap and AES-CCM tag -> `DecryptionFailed`
//! 3. signed at all -> `UnsignedMessage` (unless unsigned data is explicitly accepted);
//!    required header fields -> `MissingHeaderField`
//! 4. signer resolution: `self` -> `UnsupportedSignerIdentifierType`; an unknown
//!    digest -> `SignerCertificateNotFound` and a P2PCD request for its HashedId3 goes
//!    into our next CAM
//! 5. chain: every link's signature up to a trust anchor -> `InvalidChainSignature` /
//!    `UntrustedRoot`; consistency of validity, region, permissions ->
//!    `InconsistentChain` (cached per certificate once validated)
//! 6. validity at the generation time -> `CertificateNotYetValid` / `CertificateExpired`
//! 7. region of the generation location -> `OutsideRegion`
//! 8. PSID / SSP -> `PsidNotPermitted` / `SspNotPermitted`
//! 9. revocation -> `RevokedCertificate`
//! 10. freshness (per profile) -> `StaleMessage` / `FutureMessage`
//! 11. replay -> `DuplicateMessage`
//! 12. message signature over Hash(Hash(tbsData as received) || Hash(signer cert)) ->
//!     `FalseSignature`
//!
//! [`DecapMode::SignatureOnly`] (never the default) skips 5-11: it checks only the
//! message signature with the certificate the message carries (or a known one for a
//! digest), for studying captured traffic whose CA is not in the trust store.

use crate::certificate::{join_hash, CertRef, Certificate};
use crate::chain::{validated, ValidatedChain};
use crate::convert;
use crate::encryption::{self, DecryptionKey, Recipient, SymmetricKey};
use crate::p2pcd::P2pcdState;
use crate::profile::{Profile, ProfileKind, SignerPolicy, PSID_CAM, PSID_DENM};
use crate::pseudonym::{Credentials, PseudonymPool};
use crate::reason::{RejectReason, Rejection};
use crate::region::GeoPoint;
use crate::replay::{ReplayCache, ReplayKey};
use crate::time::TaiTime;
use crate::trust_store::TrustStore;
use crate::verification::SignatureVerifier;
use rasn::types::OctetString;
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use std::collections::HashMap;
use std::sync::Arc;
use v2x_crypto::{hash, HashedId8, VerifyStrategy};
use v2x_wire::ieee1609dot2 as wire;
use v2x_wire::ieee1609dot2::oer;

/// Bound of the established symmetric keys table.
const MAX_SYMMETRIC_KEYS: usize = 1024;

/// How strictly SN-DECAP validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecapMode {
    /// Every check (the default).
    #[default]
    Strict,
    /// Lab mode: only the message signature, with the carried certificate. Insecure.
    SignatureOnly,
}

/// A position with elevation, for the generation location.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Location {
    pub point: GeoPoint,
    /// Elevation in decimetres as on the wire (1609.2 Uint16 with offset; 0 = sea level).
    pub elevation: u16,
}

/// One SN-ENCAP request.
#[derive(Debug, Clone)]
pub struct EncapRequest<'a> {
    pub profile: ProfileKind,
    pub payload: &'a [u8],
    /// Overrides the profile's PSID.
    pub psid: Option<u64>,
    /// Generation location (required by the DENM profile).
    pub location: Option<Location>,
    /// Encrypt (after signing, unless `sign` is false) to this recipient.
    pub encrypt_to: Option<Recipient>,
    /// Sign (default true). `false` with `encrypt_to` gives encrypted-only data;
    /// `false` without it gives unsecured data.
    pub sign: bool,
    /// Generation time (default: now).
    pub time: Option<TaiTime>,
}

impl<'a> EncapRequest<'a> {
    pub fn new(profile: ProfileKind, payload: &'a [u8]) -> EncapRequest<'a> {
        EncapRequest {
            profile,
            payload,
            psid: None,
            location: None,
            encrypt_to: None,
            sign: true,
            time: None,
        }
    }
    pub fn cam(payload: &'a [u8]) -> EncapRequest<'a> {
        EncapRequest::new(ProfileKind::Cam, payload)
    }
    pub fn denm(payload: &'a [u8], location: Location) -> EncapRequest<'a> {
        EncapRequest {
            location: Some(location),
            ..EncapRequest::new(ProfileKind::Denm, payload)
        }
    }
    pub fn at(mut self, t: TaiTime) -> Self {
        self.time = Some(t);
        self
    }
    pub fn with_psid(mut self, psid: u64) -> Self {
        self.psid = Some(psid);
        self
    }
    pub fn with_location(mut self, l: Location) -> Self {
        self.location = Some(l);
        self
    }
    pub fn encrypted_to(mut self, r: Recipient) -> Self {
        self.encrypt_to = Some(r);
        self
    }
    pub fn unsigned(mut self) -> Self {
        self.sign = false;
        self
    }
}

/// Result of SN-ENCAP.
#[derive(Debug, Clone)]
pub struct Encapsulated {
    /// The encoded Ieee1609Dot2Data.
    pub bytes: Vec<u8>,
    /// Whether the signer was the full certificate (false: digest or unsigned).
    pub signer_was_certificate: bool,
    /// For encrypted data: the id of the data key, now an established symmetric key.
    pub symmetric_key: Option<HashedId8>,
}

/// Why SN-ENCAP could not produce a message.
#[derive(Debug, thiserror::Error)]
pub enum EncapError {
    #[error("no signing credentials configured")]
    NoCredentials,
    #[error("profile {0:?} needs a generation location")]
    MissingLocation(ProfileKind),
    #[error("the signing certificate does not permit PSID {0}")]
    PsidNotPermitted(u64),
    #[error("encryption: {0}")]
    Encryption(String),
    #[error("encoding: {0}")]
    Encode(String),
    #[error("crypto: {0}")]
    Crypto(#[from] v2x_crypto::CryptoError),
}

/// An accepted message.
#[derive(Debug, Clone)]
pub struct Decapped {
    pub payload: Vec<u8>,
    pub signed: bool,
    pub encrypted: bool,
    pub psid: Option<u64>,
    pub generation_time: Option<TaiTime>,
    pub generation_location: Option<GeoPoint>,
    /// The signer's certificate (for `signature_only` too: then it is NOT validated).
    pub signer: Option<CertRef>,
    /// The signer's SSP for the message's PSID.
    pub ssp: Option<Vec<u8>>,
    /// The mode it was accepted in.
    pub mode: DecapMode,
    /// False when the certificate region could not be checked (country regions).
    pub region_checked: bool,
    /// For encrypted data: the data key's id (an established symmetric key).
    pub symmetric_key: Option<HashedId8>,
}

/// Configuration of SN-DECAP.
#[derive(Debug, Clone)]
pub struct DecapPolicy {
    pub mode: DecapMode,
    /// Accept unsecured (unsigned) data. Default false.
    pub accept_unsigned: bool,
    /// Profiles by PSID; other PSIDs use `Profile::generic(psid)`.
    pub profiles: HashMap<u64, Profile>,
}

impl Default for DecapPolicy {
    fn default() -> Self {
        let mut profiles = HashMap::new();
        profiles.insert(PSID_CAM, Profile::cam());
        profiles.insert(PSID_DENM, Profile::denm());
        DecapPolicy {
            mode: DecapMode::Strict,
            accept_unsigned: false,
            profiles,
        }
    }
}

impl DecapPolicy {
    pub fn profile_for(&self, psid: u64) -> Profile {
        self.profiles
            .get(&psid)
            .cloned()
            .unwrap_or_else(|| Profile::generic(psid))
    }
}

/// The security entity of one station.
pub struct SecurityEntity {
    pseudonyms: Option<PseudonymPool>,
    /// Our issuing chain (AA, root...) to answer P2PCD requests for CA certificates.
    own_chain: Vec<CertRef>,
    store: TrustStore,
    policy: DecapPolicy,
    encap_profiles: HashMap<ProfileKind, Profile>,
    replay: ReplayCache,
    p2pcd: P2pcdState,
    last_full_certificate: Option<TaiTime>,
    certificate_due: bool,
    symmetric_keys: HashMap<HashedId8, SymmetricKey>,
    decryption_keys: Vec<DecryptionKey>,
    verifier: SignatureVerifier,
    /// Sign with R in compressed form (lets receivers check R exactly and batch-verify).
    compressed_r: bool,
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

fn rej(reason: RejectReason, detail: impl Into<String>) -> Rejection {
    Rejection::new(reason, detail)
}

impl SecurityEntity {
    /// A receive-only entity with a trust store.
    pub fn new(store: TrustStore) -> SecurityEntity {
        let mut encap_profiles = HashMap::new();
        encap_profiles.insert(ProfileKind::Cam, Profile::cam());
        encap_profiles.insert(ProfileKind::Denm, Profile::denm());
        encap_profiles.insert(ProfileKind::Generic, Profile::generic(PSID_CAM));
        SecurityEntity {
            pseudonyms: None,
            own_chain: Vec::new(),
            store,
            policy: DecapPolicy::default(),
            encap_profiles,
            replay: ReplayCache::default(),
            p2pcd: P2pcdState::default(),
            last_full_certificate: None,
            certificate_due: true,
            symmetric_keys: HashMap::new(),
            decryption_keys: Vec::new(),
            verifier: SignatureVerifier::default(),
            compressed_r: false,
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

    pub fn policy(&self) -> &DecapPolicy {
        &self.policy
    }

    pub fn policy_mut(&mut self) -> &mut DecapPolicy {
        &mut self.policy
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

    /// Established symmetric keys (by HashedId8) usable with [`Recipient::Symmetric`].
    pub fn has_symmetric_key(&self, id: &HashedId8) -> bool {
        self.symmetric_keys.contains_key(id)
    }

    fn remember_symmetric_keys_bound(&mut self) {
        if self.symmetric_keys.len() > MAX_SYMMETRIC_KEYS {
            // Keys are ephemeral per exchange; dropping all old ones is acceptable.
            self.symmetric_keys.clear();
        }
    }

    // ------------------------------------------------------------------ SN-ENCAP

    /// Secures a payload. See [`EncapRequest`].
    pub fn encap(&mut self, req: &EncapRequest<'_>) -> Result<Encapsulated, EncapError> {
        let now = req.time.unwrap_or_else(TaiTime::now);
        let profile = self
            .encap_profiles
            .get(&req.profile)
            .cloned()
            .unwrap_or_else(|| Profile::for_kind(req.profile, None));
        let psid = req.psid.unwrap_or(profile.psid);
        let mut signer_was_certificate = false;
        let inner = if req.sign {
            let (bytes, full) = self.sign(&profile, psid, req, now)?;
            signer_was_certificate = full;
            bytes
        } else {
            let data = wire::unsecured(req.payload.to_vec());
            v2x_wire::ieee1609dot2::encode(&data).map_err(|e| EncapError::Encode(e.to_string()))?
        };
        match &req.encrypt_to {
            None => Ok(Encapsulated {
                bytes: inner,
                signer_was_certificate,
                symmetric_key: None,
            }),
            Some(r) => {
                self.remember_symmetric_keys_bound();
                let (bytes, id) =
                    encryption::encrypt(&inner, r, &mut self.symmetric_keys).map_err(EncapError::Encryption)?;
                Ok(Encapsulated {
                    bytes,
                    signer_was_certificate,
                    symmetric_key: Some(id),
                })
            }
        }
    }

    fn sign(
        &mut self,
        profile: &Profile,
        psid: u64,
        req: &EncapRequest<'_>,
        now: TaiTime,
    ) -> Result<(Vec<u8>, bool), EncapError> {
        if let Some(p) = self.pseudonyms.as_mut() {
            if p.maybe_rotate(now) {
                self.last_full_certificate = None;
                self.certificate_due = true;
            }
        }
        let creds = self
            .pseudonyms
            .as_ref()
            .map(|p| p.active())
            .ok_or(EncapError::NoCredentials)?;
        let cert = creds.certificate.clone();
        if cert.permission_for(psid).is_none() {
            return Err(EncapError::PsidNotPermitted(psid));
        }
        if profile.generation_location && req.location.is_none() {
            return Err(EncapError::MissingLocation(profile.kind));
        }
        let full_certificate = match profile.signer {
            SignerPolicy::Certificate => true,
            SignerPolicy::DigestWithCertificateEvery(_) => self.certificate_due(now),
        };
        let is_cam = profile.kind == ProfileKind::Cam;
        // P2PCD: ask for certificates we miss, answer requests for our CA certificates.
        let requests = if is_cam { self.p2pcd.take_requests() } else { Vec::new() };
        let own_chain = &self.own_chain;
        let answer = if is_cam {
            self.p2pcd
                .take_asked(|id3| own_chain.iter().any(|c| c.hashed_id3() == id3))
                .and_then(|id3| own_chain.iter().find(|c| c.hashed_id3() == id3).cloned())
        } else {
            None
        };
        let location = match req.location {
            Some(l) => Some(bt::ThreeDLocation {
                latitude: bt::Latitude(
                    bt::NinetyDegreeInt::new(l.point.lat).ok_or_else(|| EncapError::Encode("latitude".into()))?,
                ),
                longitude: bt::Longitude(
                    bt::OneEightyDegreeInt::new(l.point.lon).ok_or_else(|| EncapError::Encode("longitude".into()))?,
                ),
                elevation: bt::Elevation(l.elevation),
            }),
            None => None,
        };
        if requests.is_empty() && answer.is_none() {
            let tbs_bytes = encode_simple_tbs(req.payload, psid, now, req.location);
            return self.finish_signing(&tbs_bytes, full_certificate, is_cam, now);
        }
        let header = w::HeaderInfo::builder()
            .psid(convert::psid(psid))
            .generation_time(bt::Time64(now.0))
            .maybe_generation_location(location)
            .maybe_inline_p2pcd_request(if requests.is_empty() {
                None
            } else {
                Some(bt::SequenceOfHashedId3(
                    requests.into_iter().map(convert::hashed_id3_to_wire).collect(),
                ))
            })
            .maybe_requested_certificate(answer.map(|c| c.decoded().clone()))
            .build();
        let payload = w::SignedDataPayload::builder()
            .data(w::Ieee1609Dot2Data {
                protocol_version: 3,
                content: w::Ieee1609Dot2Content::UnsecuredData(bt::Opaque(OctetString::from(req.payload))),
            })
            .build()
            .map_err(|e| EncapError::Encode(e.to_string()))?;
        let tbs = w::ToBeSignedData {
            payload,
            header_info: header,
        };
        let tbs_bytes = v2x_wire::ieee1609dot2::encode(&tbs).map_err(|e| EncapError::Encode(e.to_string()))?;
        self.finish_signing(&tbs_bytes, full_certificate, is_cam, now)
    }

    /// Signs encoded tbsData with the active ticket and builds the message.
    fn finish_signing(
        &mut self,
        tbs_bytes: &[u8],
        full_certificate: bool,
        is_cam: bool,
        now: TaiTime,
    ) -> Result<(Vec<u8>, bool), EncapError> {
        let creds = self
            .pseudonyms
            .as_ref()
            .map(|p| p.active())
            .ok_or(EncapError::NoCredentials)?;
        let cert = &creds.certificate;
        let key = &creds.signing_key;
        let alg = key.curve().hash_alg();
        let digest = join_hash(alg, hash(alg, tbs_bytes).as_ref(), cert.signer_hash().as_ref());
        let sig = if self.compressed_r {
            key.sign_digest_compressed_r(digest.as_ref())?
        } else {
            key.sign_digest(digest.as_ref())?
        };
        let bytes = encode_signed_data(alg, tbs_bytes, cert, full_certificate, &sig)?;
        if full_certificate && is_cam {
            self.last_full_certificate = Some(now);
            self.certificate_due = false;
        }
        Ok((bytes, full_certificate))
    }

    // ------------------------------------------------------------------ SN-DECAP

    /// Verifies (and decrypts) a received message at the current time.
    pub fn decap(&mut self, bytes: &[u8]) -> Result<Decapped, Rejection> {
        self.decap_at(bytes, TaiTime::now())
    }

    /// Verifies (and decrypts) a received message as of `now`.
    pub fn decap_at(&mut self, bytes: &[u8], now: TaiTime) -> Result<Decapped, Rejection> {
        match wire::peek_protocol_version(bytes) {
            None => return Err(rej(RejectReason::InvalidEncoding, "empty message")),
            Some(3) => {}
            Some(v) => return Err(rej(RejectReason::IncompatibleProtocol, format!("protocol version {v}"))),
        }
        let (data, spans) = wire::parse_data(bytes).map_err(|e| rej(RejectReason::InvalidEncoding, e.to_string()))?;
        match &data.content {
            w::Ieee1609Dot2Content::EncryptedData(enc) => {
                self.remember_symmetric_keys_bound();
                let (plain, key_id) = encryption::decrypt(enc, &self.decryption_keys, &mut self.symmetric_keys)?;
                match wire::peek_protocol_version(&plain) {
                    Some(3) => {}
                    Some(v) => {
                        return Err(rej(
                            RejectReason::IncompatibleProtocol,
                            format!("inner protocol version {v}"),
                        ))
                    }
                    None => return Err(rej(RejectReason::InvalidEncoding, "empty plaintext")),
                }
                let (inner, inner_spans) = wire::parse_data(&plain)
                    .map_err(|e| rej(RejectReason::InvalidEncoding, format!("plaintext: {e}")))?;
                if matches!(inner.content, w::Ieee1609Dot2Content::EncryptedData(_)) {
                    return Err(rej(RejectReason::InvalidEncoding, "nested encryption"));
                }
                let mut out = self.decap_plain(&plain, &inner, inner_spans.as_ref(), now)?;
                out.encrypted = true;
                out.symmetric_key = Some(key_id);
                Ok(out)
            }
            _ => self.decap_plain(bytes, &data, spans.as_ref(), now),
        }
    }

    fn decap_plain(
        &mut self,
        bytes: &[u8],
        data: &w::Ieee1609Dot2Data,
        spans: Option<&wire::SignedDataSpans>,
        now: TaiTime,
    ) -> Result<Decapped, Rejection> {
        let signed = match &data.content {
            w::Ieee1609Dot2Content::UnsecuredData(p) => {
                if !self.policy.accept_unsigned {
                    return Err(rej(
                        RejectReason::UnsignedMessage,
                        "unsecured data where a signature is required",
                    ));
                }
                return Ok(Decapped {
                    payload: p.0.to_vec(),
                    signed: false,
                    encrypted: false,
                    psid: None,
                    generation_time: None,
                    generation_location: None,
                    signer: None,
                    ssp: None,
                    mode: self.policy.mode,
                    region_checked: false,
                    symmetric_key: None,
                });
            }
            w::Ieee1609Dot2Content::SignedData(s) => s,
            w::Ieee1609Dot2Content::EncryptedData(_) => {
                return Err(rej(RejectReason::InvalidEncoding, "nested encryption"));
            }
            _ => return Err(rej(RejectReason::InvalidEncoding, "unsupported content type")),
        };
        let spans = spans.ok_or_else(|| rej(RejectReason::InvalidEncoding, "signed data without spans"))?;
        let tbs_bytes = bytes
            .get(spans.tbs_data.clone())
            .ok_or_else(|| rej(RejectReason::InvalidEncoding, "tbsData span"))?;
        let header = &signed.tbs_data.header_info;
        let psid =
            convert::psid_value(&header.psid).ok_or_else(|| rej(RejectReason::InvalidEncoding, "PSID out of range"))?;
        let payload = match &signed.tbs_data.payload.data {
            Some(inner) => match &inner.content {
                w::Ieee1609Dot2Content::UnsecuredData(p) => p.0.to_vec(),
                _ => {
                    return Err(rej(
                        RejectReason::InvalidEncoding,
                        "only unsecured inner data is supported",
                    ))
                }
            },
            None => {
                return Err(rej(
                    RejectReason::InvalidEncoding,
                    "no payload data (external payloads unsupported)",
                ))
            }
        };
        let alg = convert::hash_alg_from_wire(&signed.hash_id).map_err(|e| rej(RejectReason::InvalidEncoding, e.0))?;
        let sig = convert::signature(&signed.signature).map_err(|e| rej(RejectReason::InvalidEncoding, e.0))?;
        let profile = self.policy.profile_for(psid);
        let strict = self.policy.mode == DecapMode::Strict;
        let generation_time = header.generation_time.as_ref().map(|t| TaiTime(t.0));
        let generation_location = header.generation_location.as_ref().map(|l| GeoPoint {
            lat: *l.latitude.0,
            lon: l.longitude.0 .0,
        });
        if strict {
            if generation_time.is_none() {
                return Err(rej(RejectReason::MissingHeaderField, "generationTime"));
            }
            if profile.generation_location && generation_location.is_none() {
                return Err(rej(RejectReason::MissingHeaderField, "generationLocation"));
            }
        }

        // Signer resolution.
        let mut newly_heard = false;
        let (signer_cert, chain): (CertRef, Option<Arc<ValidatedChain>>) = match &signed.signer {
            w::SignerIdentifier::SelfSigned(()) => {
                return Err(rej(RejectReason::UnsupportedSignerIdentifierType, "signer 'self'"));
            }
            w::SignerIdentifier::Digest(d) => {
                let id = convert::hashed_id8_from_wire(d);
                match self.store.known(&id) {
                    Some(v) => (v.leaf().clone(), Some(v.clone())),
                    None => {
                        self.p2pcd.want(id.to_hashed_id3());
                        return Err(rej(
                            RejectReason::SignerCertificateNotFound,
                            format!("unknown signer digest {id}; P2PCD request queued"),
                        ));
                    }
                }
            }
            w::SignerIdentifier::Certificate(certs) => {
                let first = spans
                    .signer_certificates
                    .first()
                    .and_then(|r| bytes.get(r.clone()))
                    .ok_or_else(|| rej(RejectReason::InvalidCertificate, "empty signer certificate list"))?;
                if certs.0.len() != spans.signer_certificates.len() {
                    return Err(rej(RejectReason::InvalidEncoding, "signer certificate spans"));
                }
                let id = v2x_crypto::hashed_id8(v2x_crypto::HashAlg::Sha256, first);
                let cached = self.store.known(&id).filter(|v| v.leaf().encoded() == first).cloned();
                match cached {
                    Some(v) => (v.leaf().clone(), Some(v)),
                    None => {
                        let leaf = Arc::new(
                            Certificate::from_bytes(first)
                                .map_err(|e| rej(RejectReason::InvalidCertificate, e.to_string()))?,
                        );
                        if !strict {
                            (leaf, None)
                        } else {
                            let mut extra = Vec::new();
                            // A certificate answered by P2PCD in this very message may be
                            // the missing link (every link is verified anyway).
                            if let Some(c) = requested_certificate(header) {
                                extra.push(c);
                            }
                            for r in spans.signer_certificates.iter().skip(1) {
                                let b = bytes
                                    .get(r.clone())
                                    .ok_or_else(|| rej(RejectReason::InvalidEncoding, "span"))?;
                                extra.push(Arc::new(
                                    Certificate::from_bytes(b)
                                        .map_err(|e| rej(RejectReason::InvalidCertificate, e.to_string()))?,
                                ));
                            }
                            let v = match validated(&leaf, &extra, &mut self.store) {
                                Ok(v) => v,
                                Err(e) => {
                                    // Ask neighbours for an issuer we do not know (P2PCD).
                                    if e.reason == RejectReason::UntrustedRoot {
                                        if let crate::certificate::Issuer::Digest(_, id) = leaf.issuer() {
                                            if self.store.authority(&id).is_none()
                                                && !extra.iter().any(|c| c.hashed_id8() == id)
                                            {
                                                self.p2pcd.want(id.to_hashed_id3());
                                            }
                                        }
                                    }
                                    return Err(e);
                                }
                            };
                            newly_heard = true;
                            (leaf, Some(v))
                        }
                    }
                }
            }
            _ => {
                return Err(rej(
                    RejectReason::UnsupportedSignerIdentifierType,
                    "unknown signer kind",
                ))
            }
        };

        let ssp = signer_cert.permission_for(psid).map(|s| s.map(<[u8]>::to_vec));
        let mut region_checked = false;
        let mut replay_key = None;
        if strict {
            let chain = chain.ok_or_else(|| rej(RejectReason::UntrustedRoot, "no validated chain"))?;
            let gen = generation_time.unwrap_or_default();
            chain.check_validity_at(gen)?;
            region_checked = match generation_location {
                Some(p) => chain.check_location(p)?,
                None => chain.region().is_none(),
            };
            let Some(ssp) = &ssp else {
                return Err(rej(
                    RejectReason::PsidNotPermitted,
                    format!("certificate does not permit PSID {psid}"),
                ));
            };
            if let Some(req) = &profile.required_ssp {
                if !req.is_met_by(ssp.as_deref()) {
                    return Err(rej(
                        RejectReason::SspNotPermitted,
                        format!("SSP {:02x?} lacks required bits", ssp),
                    ));
                }
            }
            chain.check_revocation(&self.store)?;
            if gen < now.saturating_sub(profile.max_age) {
                return Err(rej(
                    RejectReason::StaleMessage,
                    format!("generated {} µs before now", now.0 - gen.0),
                ));
            }
            if gen > now.saturating_add(profile.max_future_skew) {
                return Err(rej(
                    RejectReason::FutureMessage,
                    format!("generated {} µs after now", gen.0 - now.0),
                ));
            }
            if let Some(expiry) = &header.expiry_time {
                if now.0 > expiry.0 {
                    return Err(rej(RejectReason::StaleMessage, "past its expiryTime"));
                }
            }
            let tbs_hash = hash(alg, tbs_bytes);
            let mut h16 = [0u8; 16];
            h16.copy_from_slice(&tbs_hash.as_ref()[..16]);
            let key = ReplayKey {
                signer: signer_cert.hashed_id8(),
                generation_time: gen.0,
                tbs_hash: h16,
            };
            if self.replay.contains(&key) {
                return Err(rej(RejectReason::DuplicateMessage, "already received"));
            }
            replay_key = Some((key, tbs_hash));
        }

        // Message signature over the received bytes.
        let tbs_hash = match &replay_key {
            Some((_, h)) if alg == signer_cert.curve().hash_alg() => *h,
            _ => hash(alg, tbs_bytes),
        };
        if alg != signer_cert.curve().hash_alg() {
            return Err(rej(
                RejectReason::FalseSignature,
                "hashId does not match the signer's curve",
            ));
        }
        let digest = join_hash(alg, tbs_hash.as_ref(), signer_cert.signer_hash().as_ref());
        if !self.verifier.verify(&signer_cert, digest.as_ref(), &sig) {
            return Err(rej(RejectReason::FalseSignature, "message signature does not verify"));
        }

        // Accepted: bookkeeping.
        if let Some((key, _)) = replay_key {
            self.replay.insert(key, now.saturating_sub(self.longest_window()));
        }
        if strict {
            if newly_heard {
                self.certificate_due = true;
                self.p2pcd.received(signer_cert.hashed_id3());
            }
            self.process_p2pcd(header);
        }
        Ok(Decapped {
            payload,
            signed: true,
            encrypted: false,
            psid: Some(psid),
            generation_time,
            generation_location,
            signer: Some(signer_cert),
            ssp: ssp.flatten(),
            mode: self.policy.mode,
            region_checked,
            symmetric_key: None,
        })
    }

    fn longest_window(&self) -> std::time::Duration {
        self.policy
            .profiles
            .values()
            .map(|p| p.max_age)
            .max()
            .unwrap_or_default()
            .max(Profile::generic(0).max_age)
    }

    fn process_p2pcd(&mut self, header: &w::HeaderInfo) {
        if let Some(reqs) = &header.inline_p2pcd_request {
            let own = self.signing_certificate().map(|c| c.hashed_id3());
            for r in reqs.0.iter() {
                let id3 = convert::hashed_id3_from_wire(r);
                if Some(id3) == own {
                    self.certificate_due = true;
                } else if self.own_chain.iter().any(|c| c.hashed_id3() == id3) {
                    self.p2pcd.asked(id3);
                }
            }
        }
        if let Some(c) = requested_certificate(header) {
            self.p2pcd.received(c.hashed_id3());
            if c.is_ca() {
                self.store.add_ca_certificate(c);
            }
        }
    }
}

/// The certificate in `requestedCertificate` (P2PCD answer), if any and usable.
fn requested_certificate(header: &w::HeaderInfo) -> Option<CertRef> {
    let cert = header.requested_certificate.as_ref()?;
    // Re-encoding is canonical for a certificate we decoded from an exact C-OER
    // buffer; its signature is verified by the chain validator before any use.
    let bytes = v2x_wire::ieee1609dot2::encode(cert).ok()?;
    Certificate::from_bytes(&bytes).ok().map(Arc::new)
}

/// C-OER of `ToBeSignedData` with unsecured payload data and a header of PSID,
/// generation time and optional generation location (the CAM/DENM hot path; other
/// headers go through the codec). Checked against the codec by a unit test.
pub(crate) fn encode_simple_tbs(payload: &[u8], psid: u64, time: TaiTime, location: Option<Location>) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 32);
    out.push(0x40); // SignedDataPayload preamble: data present
    out.extend_from_slice(&[3, 0x80]); // Ieee1609Dot2Data v3, unsecuredData
    oer::put_length(&mut out, payload.len());
    out.extend_from_slice(payload);
    // HeaderInfo preamble: generationTime (+ generationLocation) present, no extensions.
    out.push(if location.is_some() { 0x50 } else { 0x40 });
    oer::put_unsigned(&mut out, psid);
    out.extend_from_slice(&time.0.to_be_bytes());
    if let Some(l) = location {
        out.extend_from_slice(&l.point.lat.to_be_bytes());
        out.extend_from_slice(&l.point.lon.to_be_bytes());
        out.extend_from_slice(&l.elevation.to_be_bytes());
    }
    out
}

/// Encodes `Ieee1609Dot2Data { 3, signedData { hashId, tbsData, signer, signature } }`
/// around the exact `tbs` bytes that were signed. The fixed-layout parts (hashId, a
/// digest or single-certificate signer, a 256-bit x-only signature) are written
/// directly, which keeps SN-ENCAP close to the raw signing rate; other cases go
/// through the codec. Both paths give the same C-OER (checked by a unit test).
pub(crate) fn encode_signed_data(
    alg: v2x_crypto::HashAlg,
    tbs: &[u8],
    cert: &Certificate,
    full_certificate: bool,
    sig: &v2x_crypto::Signature,
) -> Result<Vec<u8>, EncapError> {
    let fast_sig_tag = match (sig.curve, &sig.r) {
        (v2x_crypto::Curve::NistP256, v2x_crypto::RPoint::XOnly(_)) => Some(0x80u8),
        (v2x_crypto::Curve::BrainpoolP256r1, v2x_crypto::RPoint::XOnly(_)) => Some(0x81u8),
        _ => None,
    };
    match (alg, fast_sig_tag, &sig.r) {
        (v2x_crypto::HashAlg::Sha256, Some(tag), v2x_crypto::RPoint::XOnly(r))
            if r.len() == 32 && sig.s.len() == 32 =>
        {
            let signer_len = if full_certificate { 3 + cert.encoded().len() } else { 9 };
            let mut out = Vec::with_capacity(3 + tbs.len() + signer_len + 66);
            out.extend_from_slice(&[3, 0x81, 0x00]); // version, signedData, hashId sha256
            out.extend_from_slice(tbs);
            if full_certificate {
                out.extend_from_slice(&[0x81, 0x01, 0x01]); // certificate, SEQUENCE OF quantity 1
                out.extend_from_slice(cert.encoded());
            } else {
                out.push(0x80); // digest
                out.extend_from_slice(&cert.hashed_id8().0);
            }
            out.push(tag); // ecdsaNistP256Signature / ecdsaBrainpoolP256r1Signature
            out.push(0x80); // rSig x-only
            out.extend_from_slice(r);
            out.extend_from_slice(&sig.s);
            Ok(out)
        }
        _ => {
            let signer = if full_certificate {
                w::SignerIdentifier::Certificate(w::SequenceOfCertificate(vec![cert.decoded().clone()]))
            } else {
                w::SignerIdentifier::Digest(convert::hashed_id8_to_wire(cert.hashed_id8()))
            };
            let sig = convert::signature_to_wire(sig).map_err(|e| EncapError::Encode(e.0))?;
            wire::encode_signed_data_from_parts(convert::hash_alg_to_wire(alg), tbs, &signer, &sig)
                .map_err(|e| EncapError::Encode(e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issue::{issue_certificate, CertificateSpec, IssuerKey};
    use v2x_crypto::{Curve, PrivateKey};

    #[test]
    fn direct_tbs_encoding_equals_the_codec() {
        for len in [0usize, 5, 127, 128, 300, 70_000] {
            for psid in [0u64, 36, 37, 256, 0x20_40_00] {
                for loc in [
                    None,
                    Some(Location {
                        point: crate::region::GeoPoint::from_degrees(-48.5, 11.25),
                        elevation: 3,
                    }),
                ] {
                    let payload = vec![0xa5u8; len];
                    let header = w::HeaderInfo::builder()
                        .psid(convert::psid(psid))
                        .generation_time(bt::Time64(0x0102_0304_0506_0708))
                        .maybe_generation_location(loc.map(|l| bt::ThreeDLocation {
                            latitude: bt::Latitude(bt::NinetyDegreeInt::new(l.point.lat).unwrap()),
                            longitude: bt::Longitude(bt::OneEightyDegreeInt::new(l.point.lon).unwrap()),
                            elevation: bt::Elevation(l.elevation),
                        }))
                        .build();
                    let tbs = w::ToBeSignedData {
                        payload: w::SignedDataPayload::builder()
                            .data(wire::unsecured(payload.clone()))
                            .build()
                            .unwrap(),
                        header_info: header,
                    };
                    let codec = v2x_wire::ieee1609dot2::encode(&tbs).unwrap();
                    let direct = encode_simple_tbs(&payload, psid, TaiTime(0x0102_0304_0506_0708), loc);
                    assert_eq!(direct, codec, "len={len} psid={psid} loc={loc:?}");
                }
            }
        }
    }

    #[test]
    fn direct_encoding_equals_the_codec() {
        for curve in [Curve::NistP256, Curve::BrainpoolP256r1] {
            let k = PrivateKey::generate(curve).unwrap();
            let mut spec =
                CertificateSpec::new(Some("x"), TaiTime::from_time32(10), std::time::Duration::from_secs(60));
            spec.issue_permissions = Some(crate::issue::IssuePermissions::All);
            let cert = issue_certificate(&spec, k.public_key(), IssuerKey::SelfSigned(&k)).unwrap();
            let tbs = w::ToBeSignedData {
                payload: w::SignedDataPayload::builder()
                    .data(wire::unsecured(b"abc".to_vec()))
                    .build()
                    .unwrap(),
                header_info: w::HeaderInfo::builder()
                    .psid(convert::psid(36))
                    .generation_time(bt::Time64(5))
                    .build(),
            };
            let tbs = v2x_wire::ieee1609dot2::encode(&tbs).unwrap();
            let sig = k.sign_digest(&[1u8; 32]).unwrap();
            for full in [false, true] {
                let fast = encode_signed_data(v2x_crypto::HashAlg::Sha256, &tbs, &cert, full, &sig).unwrap();
                let signer = if full {
                    w::SignerIdentifier::Certificate(w::SequenceOfCertificate(vec![cert.decoded().clone()]))
                } else {
                    w::SignerIdentifier::Digest(convert::hashed_id8_to_wire(cert.hashed_id8()))
                };
                let slow = wire::encode_signed_data_from_parts(
                    bt::HashAlgorithm::Sha256,
                    &tbs,
                    &signer,
                    &convert::signature_to_wire(&sig).unwrap(),
                )
                .unwrap();
                assert_eq!(fast, slow, "{curve} full={full}");
            }
        }
    }
}
