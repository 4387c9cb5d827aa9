//! SN-DECAP: strict verification of a received message, as named steps that run in one
//! order; the first failure wins and names its reason.
//!
//! | # | step ([`DecapStep`]) | checks | reasons |
//! |---|---|---|---|
//! | 1 | decode | exact C-OER (no trailing bytes), protocol version 3 | `InvalidEncoding`, `IncompatibleProtocol` |
//! | 2 | decrypt | encrypted data: a recipient info for one of our keys, key unwrap, AES-CCM tag; the plaintext decoded as in 1 | `NotForThisRecipient`, `DecryptionFailed` |
//! | 3 | content | signed where a signature is required; unsecured inner data, a known hash and signature algorithm | `UnsignedMessage`, `InvalidEncoding` |
//! | 4 | header fields | generation time; generation location where the profile needs it | `MissingHeaderField` |
//! | 5 | freshness | generation time within the profile's window, expiry time | `StaleMessage`, `FutureMessage` |
//! | 6 | signer | `self` refused; a digest must name a known certificate (else a P2PCD request is queued); a carried certificate must decode | `UnsupportedSignerIdentifierType`, `SignerCertificateNotFound`, `InvalidCertificate` |
//! | 7 | replay look-up | (signer, generation time, Hash(tbsData)) not already accepted | `DuplicateMessage` |
//! | 8 | message signature | Hash(Hash(tbsData as received) ‖ Hash(signer certificate)) with the signer's key; optional low-s / x-only-r policy | `FalseSignature` |
//! | 9 | chain | every link's signature up to a trust anchor; 1609.2 §5.1.2 consistency of validity, region and permissions (cached per certificate) | `InvalidChainSignature`, `UntrustedRoot`, `IssuerCertificateNotFound`, `InvalidCertificate`, `InconsistentChain` |
//! | 10 | certificate validity | every certificate valid at the generation time | `CertificateNotYetValid`, `CertificateExpired` |
//! | 11 | revocation | no certificate on a CRL; the root's CRL current when one is expected | `RevokedCertificate`, `RevocationStatusUnknown` |
//! | 12 | region | generation location inside the certificate region | `OutsideRegion` |
//! | 13 | permissions | PSID in the signer's appPermissions; the SSP allows the message (ETSI CAM/DENM tables; a CAM/DENM that does not decode fails closed) | `PsidNotPermitted`, `SspNotPermitted`, `SspUnverifiable` |
//!
//! Why this order. Checks that cost nothing and need no state come first (1, 3–5):
//! freshness before any look-up, so a stale copy costs nothing. Decryption (2) must come
//! early, as everything else is inside. The replay look-up (7) only reads, and comes before
//! the signature so that a replayed copy costs no verification; its key holds no signature
//! bytes, so a re-encoded signature (s → n − s, compressed or x-only R) is still a copy. The
//! message signature (8), one verification with the signer's key, comes before the chain
//! (up to two verifications for a certificate not seen before), so a forged message never
//! costs more than one. What the certificates say (10–13) is only trusted once the chain
//! verified. Every state change waits until all steps passed: the replay window, the
//! symmetric key of an encrypted message, certificates learnt from P2PCD answers and the
//! certificate-due flag. Before the signature is known good only the P2PCD request for an
//! unknown signer digest is queued (step 6, bounded, and what P2PCD is for); after it, a
//! chain that validated is cached (step 9).
//!
//! [`SecurityEntity::precheck`] runs the read-only steps before the message signature
//! (1–7; the same code DECAP runs) and changes nothing: what a receiver can know of a
//! message before spending a verification on it (the testbed's DoS precheck). Every
//! [`Rejection`] names its step ([`Rejection::step`]), so whether a rejection cost a
//! verification is `step >= DecapStep::MessageSignature`. The property that the precheck
//! never rejects what DECAP accepts, and names DECAP's reason, is
//! `tests/precheck_matches_decap.rs`.
//!
//! [`DecapMode::SignatureOnly`] (never the default, insecure) runs steps 1–3, 6 and 8 only:
//! the message signature with the certificate the message carries (or a known one for a
//! digest), for studying captured traffic whose CA is not in the trust store.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use super::SecurityEntity;
use crate::certificate::{CertRef, Certificate, Issuer};
use crate::chain::validated;
use crate::convert;
use crate::encryption::{self, Decrypted};
use crate::message_signature::{verify_message_signature_with, SignatureForm};
use crate::profile::Profile;
pub use crate::reason::DecapStep;
use crate::reason::{RejectReason, Rejection};
use crate::region::GeoPoint;
use crate::replay::ReplayKey;
use crate::revocation::RevocationPolicy;
use crate::time::TaiTime;
use crate::validated::ValidatedChain;
use rasn_its::ieee1609dot2 as w;
use std::collections::HashMap;
use std::sync::Arc;
use v2x_crypto::{hash, Digest, HashAlg, HashedId8, Signature};
use v2x_wire::ieee1609dot2 as wire;
use v2x_wire::ItsAid;

/// How strictly SN-DECAP validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecapMode {
    /// Every check (the default).
    #[default]
    Strict,
    /// Lab mode: only the message signature, with the carried certificate. Insecure.
    SignatureOnly,
}

/// An accepted message.
#[derive(Debug, Clone)]
pub struct Decapped {
    pub payload: Vec<u8>,
    pub signed: bool,
    pub encrypted: bool,
    pub psid: Option<ItsAid>,
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
    pub profiles: HashMap<ItsAid, Profile>,
    /// Signature encodings accepted (default: every form 1609.2 allows).
    pub signature_form: SignatureForm,
    /// Missing or outdated CRLs (default: rejected when a CRL is expected).
    pub revocation: RevocationPolicy,
    /// How far senders' clocks are known to lag TAI: a generation time is read as this
    /// much later for the freshness check (and remembered that much longer for replays).
    /// Default zero. [`LEAP_SECONDS_SINCE_2004`] for senders whose clock counts UTC seconds
    /// since 2004 without the leap seconds (e.g. Vanetza), whose every message would
    /// otherwise look 5 s old.
    pub sender_clock_lag: std::time::Duration,
}

/// Leap seconds inserted since the 1609.2 epoch (2004-01-01): TAI − UTC went from 32 s to
/// 37 s (2005-12-31, 2008-12-31, 2012-06-30, 2015-06-30, 2016-12-31).
pub const LEAP_SECONDS_SINCE_2004: std::time::Duration = std::time::Duration::from_secs(5);

impl Default for DecapPolicy {
    fn default() -> Self {
        let mut profiles = HashMap::new();
        profiles.insert(ItsAid::CAM, Profile::cam());
        profiles.insert(ItsAid::DENM, Profile::denm());
        DecapPolicy {
            mode: DecapMode::Strict,
            accept_unsigned: false,
            profiles,
            signature_form: SignatureForm::default(),
            revocation: RevocationPolicy::default(),
            sender_clock_lag: std::time::Duration::ZERO,
        }
    }
}

impl DecapPolicy {
    pub fn profile_for(&self, psid: ItsAid) -> Profile {
        self.profiles
            .get(&psid)
            .cloned()
            .unwrap_or_else(|| Profile::generic(psid))
    }

    /// The longest freshness window of any profile: how long a message identity must be
    /// remembered to catch every replay that is still fresh.
    fn longest_window(&self) -> std::time::Duration {
        self.profiles
            .values()
            .map(|p| p.max_age)
            .max()
            .unwrap_or_default()
            .max(Profile::generic(ItsAid(0)).max_age)
    }
}

fn rej(reason: RejectReason, detail: impl Into<String>) -> Rejection {
    Rejection::new(reason, detail)
}

/// A signed message as the steps after "content" see it.
struct SignedMessage<'a> {
    /// The buffer the spans refer to (the message, or the decrypted plaintext).
    buffer: &'a [u8],
    signed: &'a w::SignedData,
    spans: &'a wire::SignedDataSpans,
    /// tbsData exactly as received.
    tbs: &'a [u8],
    psid: ItsAid,
    payload: Vec<u8>,
    hash_alg: HashAlg,
    signature: Signature,
    generation_time: Option<TaiTime>,
    generation_location: Option<GeoPoint>,
    profile: Profile,
}

impl SignedMessage<'_> {
    fn header(&self) -> &w::HeaderInfo {
        &self.signed.tbs_data.header_info
    }
}

/// What step 3 found.
enum Content<'a> {
    Unsigned(Vec<u8>),
    Signed(Box<SignedMessage<'a>>),
}

/// The signer as step 6 resolved it.
struct Signer {
    cert: CertRef,
    /// The validated chain when the certificate was already known (cache hit).
    chain: Option<Arc<ValidatedChain>>,
    /// Certificates the message carries that may be chain links (rest of the signer
    /// sequence, a P2PCD answer).
    extra: Vec<CertRef>,
}

/// Which step ran last and who signed, for the trace events and the rejection.
struct Progress {
    step: DecapStep,
    /// The signer the message names (its certificate's HashedId8), once step 6 read it.
    signer: Option<HashedId8>,
}

impl Progress {
    fn start() -> Progress {
        Progress {
            step: DecapStep::Decode,
            signer: None,
        }
    }

    /// `r` as found by the step that ran last.
    fn rejection(&self, r: Rejection) -> Rejection {
        r.at(self.step)
    }
}

/// What steps 1–2 produced: the message as received, and its decrypted content when it
/// was encrypted.
struct Opened {
    outer: w::Ieee1609Dot2Data,
    outer_spans: Option<wire::SignedDataSpans>,
    decrypted: Option<(Decrypted, w::Ieee1609Dot2Data, Option<wire::SignedDataSpans>)>,
}

impl Opened {
    /// The data the later steps read, its spans, the buffer those refer to and the key it
    /// was decrypted with.
    #[allow(clippy::type_complexity)]
    fn content<'a>(
        &'a self,
        bytes: &'a [u8],
    ) -> (
        &'a w::Ieee1609Dot2Data,
        Option<&'a wire::SignedDataSpans>,
        &'a [u8],
        Option<&'a Decrypted>,
    ) {
        match &self.decrypted {
            Some((d, inner, spans)) => (inner, spans.as_ref(), &d.plaintext[..], Some(d)),
            None => (&self.outer, self.outer_spans.as_ref(), bytes, None),
        }
    }
}

/// What the steps before the message signature (3–7) found.
enum BeforeSignature<'a> {
    /// Unsecured data the policy accepts (nothing more to check).
    Unsigned(Vec<u8>),
    Signed(Box<Checked<'a>>),
}

/// A signed message that passed steps 3–7.
struct Checked<'a> {
    msg: SignedMessage<'a>,
    signer: Signer,
    tbs_hash: Digest,
    /// Strict mode: the identity the replay window records once the message is accepted.
    replay_key: Option<ReplayKey>,
}

/// A rejection before the message signature, and the signer digest step 6 did not know
/// (SN-DECAP queues a P2PCD request for it; the read-only precheck does not).
struct Early {
    rejection: Rejection,
    unknown_signer: Option<HashedId8>,
}

impl From<Rejection> for Early {
    fn from(rejection: Rejection) -> Early {
        Early {
            rejection,
            unknown_signer: None,
        }
    }
}

/// What SN-DECAP's read-only steps before the message signature found, without changing
/// anything ([`SecurityEntity::precheck`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Precheck {
    /// The signer the message names (its certificate's HashedId8), once step 6 read it:
    /// also on a rejection from step 6 on (e.g. the unknown digest of
    /// `signer-certificate-not-found`).
    pub signer: Option<HashedId8>,
    /// Whether step 6 found the signer's certificate among those whose chain validated
    /// here (a cache hit: DECAP will not validate a chain for it).
    pub signer_known: bool,
    /// The message's identity in the replay window (strict mode, once step 7 computed it):
    /// what DECAP records when it accepts the message. A re-encoded copy has the same.
    pub identity: Option<ReplayKey>,
    /// `Ok` when every step before the message signature passed; else the first
    /// rejection, with its step.
    pub verdict: Result<(), Rejection>,
}

impl SecurityEntity {
    /// Verifies (and decrypts) a received message at the current time.
    pub fn decap(&mut self, bytes: &[u8]) -> Result<Decapped, Rejection> {
        self.decap_at(bytes, TaiTime::now())
    }

    /// Verifies (and decrypts) a received message as of `now`.
    pub fn decap_at(&mut self, bytes: &[u8], now: TaiTime) -> Result<Decapped, Rejection> {
        let mut progress = Progress::start();
        let result = self
            .run_decap(bytes, now, &mut progress)
            .map_err(|r| progress.rejection(r));
        match &result {
            Ok(d) => tracing::debug!(
                target: "v2x_security::decap",
                signer = ?progress.signer,
                psid = ?d.psid.map(ItsAid::value),
                mode = ?d.mode,
                encrypted = d.encrypted,
                "accepted"
            ),
            Err(r) => tracing::debug!(
                target: "v2x_security::decap",
                signer = ?progress.signer,
                step = progress.step.name(),
                reason = r.reason.code(),
                detail = %r.detail,
                "rejected"
            ),
        }
        result
    }

    /// SN-DECAP's read-only steps before the message signature (1–7 in strict mode; 1–3
    /// and 6 in signature-only mode), as of `now`, changing nothing: what a receiver can
    /// know of a message before spending a verification on it. [`Self::decap_at`] runs the
    /// same steps (the same code) and then the rest, so the precheck never rejects a
    /// message DECAP would accept, and a rejection from these steps is DECAP's.
    ///
    /// One look-ahead beyond them, in strict mode: the signer's certificate (the carried
    /// one, or the chain a digest names) must be valid at the generation time, step 10's
    /// check. DECAP accepts nothing that fails it; but where the message also has a fault
    /// that only a verification finds (a false signature, step 8, or a chain that does not
    /// verify, step 9), DECAP names that fault first.
    pub fn precheck(&self, bytes: &[u8], now: TaiTime) -> Precheck {
        let mut progress = Progress::start();
        let mut identity = None;
        let verdict = self
            .precheck_steps(bytes, now, &mut progress, &mut identity)
            .map_err(|r| progress.rejection(r));
        Precheck {
            signer_known: verdict.is_ok() && progress.signer.is_some_and(|id| self.store.known(&id).is_some()),
            signer: progress.signer,
            identity,
            verdict,
        }
    }

    fn precheck_steps(
        &self,
        bytes: &[u8],
        now: TaiTime,
        progress: &mut Progress,
        identity: &mut Option<ReplayKey>,
    ) -> Result<(), Rejection> {
        let opened = self.open(bytes, progress)?;
        let checked = match self.before_signature(&opened, bytes, now, progress) {
            Ok(BeforeSignature::Signed(c)) => c,
            Ok(BeforeSignature::Unsigned(_)) => return Ok(()),
            Err(e) => return Err(e.rejection),
        };
        *identity = checked.replay_key;
        if self.policy.mode == DecapMode::Strict {
            progress.step = DecapStep::CertificateValidity;
            let generated = checked.msg.generation_time.unwrap_or_default();
            match &checked.signer.chain {
                Some(chain) => chain.check_validity_at(generated)?,
                None => crate::validated::check_certificate_validity(&checked.signer.cert, generated)?,
            }
        }
        Ok(())
    }

    /// Steps 1–2: the exact C-OER message, decrypted when encrypted.
    fn open(&self, bytes: &[u8], progress: &mut Progress) -> Result<Opened, Rejection> {
        progress.step = DecapStep::Decode;
        let (outer, outer_spans) = decode(bytes)?;
        progress.step = DecapStep::Decrypt;
        let decrypted = match &outer.content {
            w::Ieee1609Dot2Content::EncryptedData(enc) => Some(self.decrypt(enc)?),
            _ => None,
        };
        Ok(Opened {
            outer,
            outer_spans,
            decrypted,
        })
    }

    /// Steps 3–7, reading only.
    fn before_signature<'a>(
        &self,
        opened: &'a Opened,
        bytes: &'a [u8],
        now: TaiTime,
        progress: &mut Progress,
    ) -> Result<BeforeSignature<'a>, Early> {
        let strict = self.policy.mode == DecapMode::Strict;
        let (data, spans, buffer, _) = opened.content(bytes);

        progress.step = DecapStep::Content;
        let msg = match content(data, spans, buffer, &self.policy)? {
            Content::Unsigned(payload) => return Ok(BeforeSignature::Unsigned(payload)),
            Content::Signed(m) => *m,
        };

        if strict {
            progress.step = DecapStep::HeaderFields;
            header_fields(&msg)?;
            progress.step = DecapStep::Freshness;
            freshness(&msg, now, self.policy.sender_clock_lag)?;
        }

        progress.step = DecapStep::Signer;
        let signer = self.resolve_signer(&msg, strict, progress)?;

        let tbs_hash = hash(msg.hash_alg, msg.tbs);
        let replay_key = if strict {
            progress.step = DecapStep::ReplayLookup;
            Some(self.replay_lookup(&msg, &signer.cert, &tbs_hash, now)?)
        } else {
            None
        };
        Ok(BeforeSignature::Signed(Box::new(Checked {
            msg,
            signer,
            tbs_hash,
            replay_key,
        })))
    }

    /// The steps, top to bottom.
    fn run_decap(&mut self, bytes: &[u8], now: TaiTime, progress: &mut Progress) -> Result<Decapped, Rejection> {
        let strict = self.policy.mode == DecapMode::Strict;
        let opened = self.open(bytes, progress)?;
        let key = opened.content(bytes).3;
        let checked = match self.before_signature(&opened, bytes, now, progress) {
            Ok(BeforeSignature::Signed(c)) => c,
            Ok(BeforeSignature::Unsigned(payload)) => {
                self.record_symmetric_key(key);
                return Ok(Decapped {
                    payload,
                    signed: false,
                    encrypted: key.is_some(),
                    psid: None,
                    generation_time: None,
                    generation_location: None,
                    signer: None,
                    ssp: None,
                    mode: self.policy.mode,
                    region_checked: false,
                    symmetric_key: key.map(|k| k.key_id),
                });
            }
            Err(e) => {
                // The one state change before the signature: ask for an unknown signer.
                if let Some(id) = e.unknown_signer {
                    self.p2pcd.want(id.to_hashed_id3());
                }
                return Err(e.rejection);
            }
        };
        let Checked {
            msg,
            signer,
            tbs_hash,
            replay_key,
        } = *checked;

        progress.step = DecapStep::MessageSignature;
        verify_message_signature_with(
            &mut self.verifier,
            &signer.cert,
            msg.hash_alg,
            &tbs_hash,
            &msg.signature,
            self.policy.signature_form,
        )
        .map_err(|e| Rejection::caused_by(RejectReason::FalseSignature, "message signature", &e))?;

        if !strict {
            self.record_symmetric_key(key);
            // The digest-signed messages that follow name this certificate.
            self.signature_only_learnt
                .insert(signer.cert.hashed_id8(), signer.cert.clone());
            return Ok(accepted(msg, signer.cert, None, false, self.policy.mode, key));
        }

        progress.step = DecapStep::Chain;
        let newly_heard = signer.chain.is_none();
        let chain = match signer.chain {
            Some(c) => c,
            None => self.validate_signer_chain(&signer.cert, &signer.extra)?,
        };

        progress.step = DecapStep::CertificateValidity;
        chain.check_validity_at(msg.generation_time.unwrap_or_default())?;

        progress.step = DecapStep::Revocation;
        chain.check_revocation(self.store.revocation(), now, self.policy.revocation)?;

        progress.step = DecapStep::Region;
        let region_checked = match msg.generation_location {
            Some(p) => chain.check_location(p)?,
            None => chain.region().is_none(),
        };

        progress.step = DecapStep::Permissions;
        let ssp = permissions(chain.leaf(), &msg)?;

        // Accepted: every state change happens here.
        if let Some(k) = replay_key {
            self.remember(k, now);
        }
        self.record_symmetric_key(key);
        if newly_heard {
            self.certificate_due = true;
            self.p2pcd.received(chain.leaf().hashed_id3());
        }
        self.process_p2pcd(msg.header(), requested_certificate(msg.buffer, msg.spans));
        let leaf = chain.leaf().clone();
        Ok(accepted(msg, leaf, ssp, region_checked, self.policy.mode, key))
    }

    /// Step 2: decrypts with one of our keys and decodes the plaintext.
    #[allow(clippy::type_complexity)]
    fn decrypt(
        &self,
        enc: &w::EncryptedData,
    ) -> Result<(Decrypted, w::Ieee1609Dot2Data, Option<wire::SignedDataSpans>), Rejection> {
        let decrypted = encryption::decrypt(enc, &self.decryption_keys, &self.symmetric_keys)?;
        let (inner, spans) =
            decode(&decrypted.plaintext).map_err(|r| rej(r.reason, format!("decrypted plaintext: {}", r.detail)))?;
        if matches!(inner.content, w::Ieee1609Dot2Content::EncryptedData(_)) {
            return Err(rej(RejectReason::InvalidEncoding, "nested encryption"));
        }
        Ok((decrypted, inner, spans))
    }

    /// Step 6: who signed. A digest must name a certificate whose chain validated earlier
    /// (else the rejection names the digest, for the P2PCD request DECAP queues).
    fn resolve_signer(&self, msg: &SignedMessage<'_>, strict: bool, progress: &mut Progress) -> Result<Signer, Early> {
        match &msg.signed.signer {
            w::SignerIdentifier::Digest(d) => {
                let id = convert::hashed_id8_from_wire(d);
                progress.signer = Some(id);
                if !strict {
                    if let Some(cert) = self.signature_only_learnt.get(&id) {
                        return Ok(Signer {
                            cert: cert.clone(),
                            chain: None,
                            extra: Vec::new(),
                        });
                    }
                }
                match self.store.known(&id) {
                    // A digest under one hash algorithm names no certificate whose key signs
                    // with another (a SHA-384 HashedId8 never resolves a P-256 signer).
                    Some(v) if v.leaf().curve().hash_alg() != msg.hash_alg => Err(rej(
                        RejectReason::SignerCertificateNotFound,
                        format!(
                            "signer digest {id} with hashId {:?} matches only a {:?} certificate, whose key signs with {:?}",
                            msg.hash_alg,
                            v.leaf().curve(),
                            v.leaf().curve().hash_alg()
                        ),
                    )
                    .into()),
                    Some(v) => {
                        tracing::trace!(signer = %id, "signer digest: known certificate (cache hit)");
                        Ok(Signer {
                            cert: v.leaf().clone(),
                            chain: Some(v.clone()),
                            extra: Vec::new(),
                        })
                    }
                    None => {
                        tracing::trace!(signer = %id, "signer digest: unknown certificate (cache miss)");
                        Err(Early {
                            rejection: rej(
                                RejectReason::SignerCertificateNotFound,
                                format!("unknown signer digest {id}; P2PCD request queued"),
                            ),
                            unknown_signer: Some(id),
                        })
                    }
                }
            }
            w::SignerIdentifier::Certificate(certs) => {
                let spans = &msg.spans.signer_certificates;
                if certs.0.len() != spans.len() {
                    return Err(rej(RejectReason::InvalidEncoding, "signer certificate spans").into());
                }
                let first = spans
                    .first()
                    .and_then(|r| msg.buffer.get(r.clone()))
                    .ok_or_else(|| rej(RejectReason::InvalidCertificate, "empty signer certificate list"))?;
                let id = v2x_crypto::hashed_id8(HashAlg::Sha256, first);
                progress.signer = Some(id);
                if let Some(v) = self.store.known(&id).filter(|v| v.leaf().encoded() == first) {
                    tracing::trace!(signer = %id, "signer certificate: known (cache hit)");
                    return Ok(Signer {
                        cert: v.leaf().clone(),
                        chain: Some(v.clone()),
                        extra: Vec::new(),
                    });
                }
                tracing::trace!(signer = %id, "signer certificate: not known (cache miss)");
                let cert = self
                    .decoded_certificate(id, first)
                    .map_err(|e| Rejection::caused_by(RejectReason::InvalidCertificate, "signer certificate", &e))?;
                let mut extra = Vec::new();
                if strict {
                    // A certificate answered by P2PCD in this very message may be the missing
                    // link (every link is verified anyway).
                    extra.extend(requested_certificate(msg.buffer, msg.spans));
                    for r in spans.iter().skip(1) {
                        let b = msg
                            .buffer
                            .get(r.clone())
                            .ok_or_else(|| rej(RejectReason::InvalidEncoding, "signer certificate span"))?;
                        extra.push(Arc::new(Certificate::from_bytes(b).map_err(|e| {
                            Rejection::caused_by(RejectReason::InvalidCertificate, "signer chain certificate", &e)
                        })?));
                    }
                }
                Ok(Signer {
                    cert,
                    chain: None,
                    extra,
                })
            }
            w::SignerIdentifier::SelfSigned(()) => {
                Err(rej(RejectReason::UnsupportedSignerIdentifierType, "signer 'self'").into())
            }
            _ => Err(rej(RejectReason::UnsupportedSignerIdentifierType, "unknown signer kind").into()),
        }
    }

    /// Step 7: has this message been accepted before? (Reads only; recorded after step 13.)
    fn replay_lookup(
        &self,
        msg: &SignedMessage<'_>,
        signer: &Certificate,
        tbs_hash: &Digest,
        now: TaiTime,
    ) -> Result<ReplayKey, Rejection> {
        let mut h16 = [0u8; 16];
        for (d, s) in h16.iter_mut().zip(tbs_hash.as_ref()) {
            *d = *s;
        }
        let key = ReplayKey {
            signer: signer.hashed_id8(),
            generation_time: msg.generation_time.unwrap_or_default().0,
            tbs_hash: h16,
        };
        if self.replay.contains(&key, now) {
            return Err(rej(RejectReason::DuplicateMessage, "already received"));
        }
        Ok(key)
    }

    /// Records an accepted message's identity while a copy could still pass the freshness
    /// check (generation time + the longest window of the profiles).
    fn remember(&mut self, key: ReplayKey, now: TaiTime) {
        let expires = TaiTime(key.generation_time)
            .saturating_add(self.policy.sender_clock_lag)
            .saturating_add(self.policy.longest_window());
        self.replay.insert(key, expires, now);
    }

    /// Step 9: validates (and caches) the signer's chain; an unknown issuer is asked for
    /// with P2PCD.
    fn validate_signer_chain(&mut self, leaf: &CertRef, extra: &[CertRef]) -> Result<Arc<ValidatedChain>, Rejection> {
        validated(leaf, extra, &mut self.store).inspect_err(|e| {
            if e.reason == RejectReason::IssuerCertificateNotFound {
                if let Issuer::Digest(_, id) = leaf.issuer() {
                    if self.store.authority(&id).is_none() && !extra.iter().any(|c| c.hashed_id8() == id) {
                        self.p2pcd.want(id.to_hashed_id3());
                    }
                }
            }
        })
    }

    fn record_symmetric_key(&mut self, key: Option<&Decrypted>) {
        if let Some(k) = key {
            self.establish_symmetric_key(k.key_id, k.key);
        }
    }

    /// P2PCD bookkeeping of an accepted message: requests for our certificates, and CA
    /// certificates answered to anyone's request.
    fn process_p2pcd(&mut self, header: &w::HeaderInfo, answered: Option<CertRef>) {
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
        if let Some(c) = answered {
            self.p2pcd.received(c.hashed_id3());
            if c.is_ca() {
                self.store.add_ca_certificate(c);
            }
        }
    }
}

/// Step 1: exact C-OER, protocol version 3.
fn decode(bytes: &[u8]) -> Result<(w::Ieee1609Dot2Data, Option<wire::SignedDataSpans>), Rejection> {
    match wire::peek_protocol_version(bytes) {
        None => return Err(rej(RejectReason::InvalidEncoding, "empty message")),
        Some(3) => {}
        Some(v) => return Err(rej(RejectReason::IncompatibleProtocol, format!("protocol version {v}"))),
    }
    wire::parse_data(bytes).map_err(|e| Rejection::caused_by(RejectReason::InvalidEncoding, "decoding", &e))
}

/// Step 3: unsecured or signed content, and the parts of a signed message later steps use.
fn content<'a>(
    data: &'a w::Ieee1609Dot2Data,
    spans: Option<&'a wire::SignedDataSpans>,
    buffer: &'a [u8],
    policy: &DecapPolicy,
) -> Result<Content<'a>, Rejection> {
    let signed = match &data.content {
        w::Ieee1609Dot2Content::UnsecuredData(p) => {
            if !policy.accept_unsigned {
                return Err(rej(
                    RejectReason::UnsignedMessage,
                    "unsecured data where a signature is required",
                ));
            }
            return Ok(Content::Unsigned(p.0.to_vec()));
        }
        w::Ieee1609Dot2Content::SignedData(s) => s,
        w::Ieee1609Dot2Content::EncryptedData(_) => {
            return Err(rej(RejectReason::InvalidEncoding, "nested encryption"));
        }
        _ => return Err(rej(RejectReason::InvalidEncoding, "unsupported content type")),
    };
    let spans = spans.ok_or_else(|| rej(RejectReason::InvalidEncoding, "signed data without spans"))?;
    let tbs = buffer
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
    let hash_alg = convert::hash_alg_from_wire(&signed.hash_id)
        .map_err(|e| Rejection::caused_by(RejectReason::InvalidEncoding, "hashId", &e))?;
    let signature = convert::signature(&signed.signature)
        .map_err(|e| Rejection::caused_by(RejectReason::InvalidEncoding, "signature", &e))?;
    Ok(Content::Signed(Box::new(SignedMessage {
        buffer,
        signed,
        spans,
        tbs,
        psid,
        payload,
        hash_alg,
        signature,
        generation_time: header.generation_time.as_ref().map(|t| TaiTime(t.0)),
        generation_location: header.generation_location.as_ref().map(|l| GeoPoint {
            lat: *l.latitude.0,
            lon: l.longitude.0 .0,
        }),
        profile: policy.profile_for(psid),
    })))
}

/// Step 4: the header fields the profile needs.
fn header_fields(msg: &SignedMessage<'_>) -> Result<(), Rejection> {
    if msg.generation_time.is_none() {
        return Err(rej(RejectReason::MissingHeaderField, "generationTime"));
    }
    if msg.profile.generation_location && msg.generation_location.is_none() {
        return Err(rej(RejectReason::MissingHeaderField, "generationLocation"));
    }
    Ok(())
}

/// Step 5: generation time within the profile's window; expiry time not passed.
fn freshness(msg: &SignedMessage<'_>, now: TaiTime, sender_clock_lag: std::time::Duration) -> Result<(), Rejection> {
    let gen = msg.generation_time.unwrap_or_default().saturating_add(sender_clock_lag);
    if gen < now.saturating_sub(msg.profile.max_age) {
        return Err(rej(
            RejectReason::StaleMessage,
            format!("generated {} µs before now", now.0 - gen.0),
        ));
    }
    if gen > now.saturating_add(msg.profile.max_future_skew) {
        return Err(rej(
            RejectReason::FutureMessage,
            format!("generated {} µs after now", gen.0 - now.0),
        ));
    }
    if let Some(expiry) = &msg.header().expiry_time {
        if now.0 > expiry.0 {
            return Err(rej(RejectReason::StaleMessage, "past its expiryTime"));
        }
    }
    Ok(())
}

/// Step 13: the PSID is among the signer's appPermissions and its SSP allows the message.
/// Returns that SSP.
fn permissions(leaf: &Certificate, msg: &SignedMessage<'_>) -> Result<Option<Vec<u8>>, Rejection> {
    let Some(ssp) = leaf.permission_for(msg.psid) else {
        return Err(rej(
            RejectReason::PsidNotPermitted,
            format!("certificate does not permit PSID {}", msg.psid),
        ));
    };
    msg.profile.ssp.check(ssp, &msg.payload).map_err(|v| {
        Rejection::caused_by(
            v.reason(),
            &format!("PSID {} SSP {}", msg.psid, ssp.map_or("none".into(), hex::encode)),
            &v,
        )
    })?;
    Ok(ssp.map(<[u8]>::to_vec))
}

fn accepted(
    msg: SignedMessage<'_>,
    signer: CertRef,
    ssp: Option<Vec<u8>>,
    region_checked: bool,
    mode: DecapMode,
    key: Option<&Decrypted>,
) -> Decapped {
    let ssp = ssp.or_else(|| signer.permission_for(msg.psid).flatten().map(<[u8]>::to_vec));
    Decapped {
        payload: msg.payload,
        signed: true,
        encrypted: key.is_some(),
        psid: Some(msg.psid),
        generation_time: msg.generation_time,
        generation_location: msg.generation_location,
        signer: Some(signer),
        ssp,
        mode,
        region_checked,
        symmetric_key: key.map(|k| k.key_id),
    }
}

/// The certificate in `requestedCertificate` (P2PCD answer), if any and usable: its bytes as
/// received (so its HashedId8 and toBeSigned are those of the received encoding); its
/// signature is verified by the chain validator before any use.
fn requested_certificate(buffer: &[u8], spans: &wire::SignedDataSpans) -> Option<CertRef> {
    let bytes = buffer.get(spans.requested_certificate.clone()?)?;
    Certificate::from_bytes(bytes).ok().map(Arc::new)
}
