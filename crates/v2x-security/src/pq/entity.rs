//! SN-ENCAP and SN-DECAP of the experimental post-quantum messages, with the standard stack's
//! steps, order and reason codes (crate::entity::decap) plus the downgrade checks:
//!
//! | step | checks | reasons |
//! |---|---|---|
//! | decode | the 0xE1 structure exactly, the 1609.2 tbsData in exact C-OER | `invalid-encoding`, `incompatible-protocol` |
//! | content | the design and the message signature scheme are the policy's (another design whose signature lacks a part the policy's has is a downgrade, any other is incompatible), a composite carries both parts, a standard 1609.2 message is a downgrade; unsecured inner data | `downgrade-refused`, `incompatible-protocol`, `invalid-encoding` |
//! | header fields | generation time; generation location (DENM) | `missing-header-field` |
//! | freshness | per profile (CAM 2 s / 200 ms, DENM 60 s / 1 s) | `stale-message`, `future-message` |
//! | signer | a digest names a known ticket; a carried certificate decodes | `signer-certificate-not-found`, `invalid-certificate` |
//! | replay look-up | (signer, generation time, Hash(tbsData)) not accepted before | `duplicate-message` |
//! | message signature | the signer's key of the design's scheme; the signature over SHA-256(tbsData) ‖ SHA-256(signer certificate), each composite part | `downgrade-refused`, `false-signature` |
//! | chain | ticket under a known AA under a trusted root; issuer signatures of the design's scheme; kind, validity and permission consistency | `downgrade-refused`, `invalid-chain-signature`, `untrusted-root`, `invalid-certificate`, `inconsistent-chain` |
//! | certificate validity | every certificate valid at the generation time | `certificate-not-yet-valid`, `certificate-expired` |
//! | revocation | no certificate of the chain revoked | `revoked-certificate` |
//! | permissions | the PSID among the ticket's; its SSP allows the payload (ETSI CAM/DENM tables) | `psid-not-permitted`, `ssp-not-permitted`, `ssp-unverifiable` |
//!
//! Not here yet (phase 1): regions (the experimental certificate has none), CRL messages
//! (revocation is a list held by the receiver), P2PCD requests for unknown digests.

use super::design::{scheme_from_wire_id, scheme_wire_id, PqDesign};
use super::pki::{PqCert, PqCredential, PqPki};
use crate::entity::DecapStep;
use crate::profile::Profile;
use crate::reason::{RejectReason, Rejection};
use crate::replay::ReplayWindow;
use crate::time::TaiTime;
use rasn_its::ieee1609dot2 as w;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::pq::SignatureScheme;
use v2x_crypto::{sha256, CryptoError, HashedId8};
use v2x_wire::experimental_pq::{CertKind, PqSecuredMessage, PqSigner, Tagged};
use v2x_wire::ieee1609dot2::{self as wire, assemble};
use v2x_wire::ItsAid;

fn rej(reason: RejectReason, detail: impl Into<String>) -> Rejection {
    Rejection::new(reason, detail)
}

/// What a message signature covers: SHA-256(tbsData) ‖ SHA-256(signer certificate), the
/// input 1609.2 hashes once more for ECDSA (which our ECDSA path does).
fn signature_input(tbs: &[u8], cert: &[u8]) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(sha256(tbs).as_ref());
    out[32..].copy_from_slice(sha256(cert).as_ref());
    out
}

/// The sending side: a ticket of the design, and when its certificate last went out.
pub struct PqSender {
    design: PqDesign,
    ticket: PqCredential,
    certificate_sent_at: Option<TaiTime>,
}

/// Why SN-ENCAP failed.
#[derive(Debug, thiserror::Error)]
pub enum PqEncapError {
    #[error("signing")]
    Crypto(#[from] CryptoError),
    #[error("encoding")]
    Encoding(#[from] v2x_wire::cursor::CursorError),
}

impl PqSender {
    pub fn new(design: PqDesign, ticket: PqCredential) -> PqSender {
        PqSender {
            design,
            ticket,
            certificate_sent_at: None,
        }
    }

    pub fn design(&self) -> PqDesign {
        self.design
    }

    pub fn ticket(&self) -> &PqCredential {
        &self.ticket
    }

    /// A CAM signed as the CAM profile does: the certificate when none went out in the last
    /// second, a digest otherwise.
    pub fn encap_cam(&mut self, payload: &[u8], now: TaiTime) -> Result<Vec<u8>, PqEncapError> {
        let due = self
            .certificate_sent_at
            .is_none_or(|t| now.0.saturating_sub(t.0) >= 1_000_000);
        self.encap(payload, ItsAid::CAM, None, now, due)
    }

    /// SN-ENCAP with the signer chosen by the caller (`with_certificate`), e.g. a certificate
    /// schedule of `v2x-protocols`.
    pub fn encap(
        &mut self,
        payload: &[u8],
        psid: ItsAid,
        location: Option<assemble::GenerationLocation>,
        now: TaiTime,
        with_certificate: bool,
    ) -> Result<Vec<u8>, PqEncapError> {
        let tbs = assemble::unsecured_tbs_data(payload, psid.value(), now.0, location);
        let cert = self.ticket.cert.bytes();
        let signature = self.ticket.key.sign(&signature_input(&tbs, cert))?;
        let signer = if with_certificate {
            self.certificate_sent_at = Some(now);
            PqSigner::Certificate(cert.to_vec())
        } else {
            PqSigner::Digest(self.ticket.cert.id().0)
        };
        Ok(PqSecuredMessage {
            design: self.design.wire_id(),
            tbs,
            signer,
            signature: Tagged {
                scheme: scheme_wire_id(self.ticket.key.scheme()),
                bytes: signature,
            },
        }
        .encode()?)
    }
}

/// An accepted experimental message.
#[derive(Debug, Clone)]
pub struct PqDecapped {
    pub payload: Vec<u8>,
    pub psid: ItsAid,
    pub generation_time: TaiTime,
    pub signer: HashedId8,
    pub design: PqDesign,
    pub ssp: Option<Vec<u8>>,
}

type ReplayId = (HashedId8, u64, [u8; 32]);

/// The receiving side of one design: trust anchors, known authorities, validated tickets,
/// the replay window and the revoked certificates. A clone is an independent receiver with
/// the same trust (what a deployment hands each new station without validating its
/// authorities again).
#[derive(Clone)]
pub struct PqReceiver {
    design: PqDesign,
    roots: HashMap<HashedId8, Arc<PqCert>>,
    authorities: HashMap<HashedId8, Arc<PqCert>>,
    tickets: HashMap<HashedId8, Arc<PqCert>>,
    revoked: HashSet<HashedId8>,
    replay: ReplayWindow<ReplayId, TaiTime>,
    profiles: HashMap<ItsAid, Profile>,
}

/// Which step rejected, for tests that pin the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PqRejection {
    pub step: DecapStep,
    pub rejection: Rejection,
}

impl std::fmt::Display for PqRejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (step {})", self.rejection, self.step.name())
    }
}

/// Whether `got` lacks a post-quantum part `want` has (or is classical where hybrid is due).
fn is_downgrade(want: SignatureScheme, got: SignatureScheme) -> bool {
    want.is_post_quantum() && !got.is_post_quantum() || want.has_classical() && !got.has_classical()
}

impl PqReceiver {
    /// A receiver of `design` trusting `roots`; every authority must validate under one.
    pub fn new(
        design: PqDesign,
        roots: Vec<Arc<PqCert>>,
        authorities: Vec<Arc<PqCert>>,
    ) -> Result<PqReceiver, Rejection> {
        let mut r = PqReceiver {
            design,
            roots: roots.into_iter().map(|c| (c.id(), c)).collect(),
            authorities: HashMap::new(),
            tickets: HashMap::new(),
            revoked: HashSet::new(),
            replay: ReplayWindow::new(65_536),
            profiles: [(ItsAid::CAM, Profile::cam()), (ItsAid::DENM, Profile::denm())].into(),
        };
        for root in r.roots.values() {
            r.check_signature_scheme(root, "root")?;
            verify_issued_by(root, root)?;
        }
        for aa in authorities {
            let root = r
                .roots
                .get(&HashedId8(aa.certificate().issuer))
                .ok_or_else(|| rej(RejectReason::UntrustedRoot, "authority not issued by a trusted root"))?;
            r.check_issued(&aa, root, CertKind::Authority)?;
            r.authorities.insert(aa.id(), aa);
        }
        Ok(r)
    }

    pub fn design(&self) -> PqDesign {
        self.design
    }

    /// Marks a certificate revoked (the experimental PKI has no CRL message yet).
    pub fn revoke(&mut self, id: HashedId8) {
        self.revoked.insert(id);
        self.tickets.remove(&id);
    }

    /// The certificate's issuer signature is of the design's scheme (a classical-only one
    /// where the design signs certificates post-quantum is a downgrade).
    fn check_signature_scheme(&self, cert: &PqCert, what: &str) -> Result<(), Rejection> {
        let want = self.design.certificate_scheme();
        let got = cert.signature_scheme();
        if got == want {
            return Ok(());
        }
        let reason = if is_downgrade(want, got) {
            RejectReason::DowngradeRefused
        } else {
            RejectReason::InvalidCertificate
        };
        Err(rej(
            reason,
            format!("{what} certificate signed with {got}; {} requires {want}", self.design),
        ))
    }

    /// `cert` of `kind` issued by `issuer`: scheme, signature, kind, depth, validity and
    /// permissions consistent.
    fn check_issued(&self, cert: &PqCert, issuer: &PqCert, kind: CertKind) -> Result<(), Rejection> {
        let c = cert.certificate();
        if c.kind != kind {
            return Err(rej(
                RejectReason::InvalidCertificate,
                format!("expected a {kind:?} certificate, got {:?}", c.kind),
            ));
        }
        self.check_signature_scheme(cert, &format!("{kind:?}"))?;
        verify_issued_by(cert, issuer)?;
        let i = issuer.certificate();
        let can_issue = match kind {
            CertKind::Root => false,
            CertKind::Authority => i.kind == CertKind::Root && i.max_depth >= 1,
            CertKind::EndEntity => i.kind != CertKind::EndEntity,
        };
        if !can_issue || c.max_depth >= i.max_depth.max(1) {
            return Err(rej(
                RejectReason::InconsistentChain,
                "issuer may not issue this certificate",
            ));
        }
        if cert.start() < issuer.start() || cert.end() > issuer.end() {
            return Err(rej(RejectReason::InconsistentChain, "validity not within the issuer's"));
        }
        for p in &c.permissions {
            if !i.permissions.iter().any(|q| q.psid == p.psid) {
                return Err(rej(
                    RejectReason::InconsistentChain,
                    format!("PSID {} not within the issuer's permissions", p.psid),
                ));
            }
        }
        Ok(())
    }

    /// SN-DECAP at `now`.
    pub fn decap_at(&mut self, bytes: &[u8], now: TaiTime) -> Result<PqDecapped, PqRejection> {
        let mut step = DecapStep::Decode;
        self.run(bytes, now, &mut step)
            .map_err(|rejection| PqRejection { step, rejection })
    }

    fn run(&mut self, bytes: &[u8], now: TaiTime, step: &mut DecapStep) -> Result<PqDecapped, Rejection> {
        *step = DecapStep::Decode;
        if bytes.first() != Some(&v2x_wire::experimental_pq::MAGIC)
            && wire::decode_exact::<w::Ieee1609Dot2Data>(bytes).is_ok()
        {
            // A standard 1609.2 message: classical signatures only, where the policy requires
            // the design (the downgrade an attacker who strips the post-quantum part makes).
            *step = DecapStep::Content;
            return Err(rej(
                RejectReason::DowngradeRefused,
                format!(
                    "a standard IEEE 1609.2 message (no post-quantum signature); the policy requires {}",
                    self.design
                ),
            ));
        }
        let msg = PqSecuredMessage::decode(bytes)
            .map_err(|e| Rejection::caused_by(RejectReason::InvalidEncoding, "experimental message", &e))?;
        let tbs: w::ToBeSignedData = wire::decode_exact(&msg.tbs)
            .map_err(|e| Rejection::caused_by(RejectReason::InvalidEncoding, "tbsData", &e))?;

        *step = DecapStep::Content;
        self.check_design(&msg)?;
        let payload = match tbs.payload.data.as_ref().map(|d| &d.content) {
            Some(w::Ieee1609Dot2Content::UnsecuredData(p)) => p.0.to_vec(),
            _ => {
                return Err(rej(
                    RejectReason::InvalidEncoding,
                    "only unsecured inner data is supported",
                ))
            }
        };
        let header = &tbs.header_info;
        let psid = crate::convert::psid_value(&header.psid)
            .ok_or_else(|| rej(RejectReason::InvalidEncoding, "PSID out of range"))?;
        let profile = self
            .profiles
            .get(&psid)
            .cloned()
            .unwrap_or_else(|| Profile::generic(psid));

        *step = DecapStep::HeaderFields;
        let generation_time = header
            .generation_time
            .as_ref()
            .map(|t| TaiTime(t.0))
            .ok_or_else(|| rej(RejectReason::MissingHeaderField, "generationTime"))?;
        if profile.generation_location && header.generation_location.is_none() {
            return Err(rej(RejectReason::MissingHeaderField, "generationLocation"));
        }

        *step = DecapStep::Freshness;
        if generation_time < now.saturating_sub(profile.max_age) {
            return Err(rej(
                RejectReason::StaleMessage,
                format!("generated {} µs before now", now.0 - generation_time.0),
            ));
        }
        if generation_time > now.saturating_add(profile.max_future_skew) {
            return Err(rej(
                RejectReason::FutureMessage,
                format!("generated {} µs after now", generation_time.0 - now.0),
            ));
        }

        *step = DecapStep::Signer;
        let (ticket, known) = match &msg.signer {
            PqSigner::Digest(d) => match self.tickets.get(&HashedId8(*d)) {
                Some(t) => (t.clone(), true),
                None => {
                    return Err(rej(
                        RejectReason::SignerCertificateNotFound,
                        format!("unknown signer digest {}", HashedId8(*d)),
                    ))
                }
            },
            PqSigner::Certificate(c) => {
                let id = v2x_crypto::hashed_id8(v2x_crypto::HashAlg::Sha256, c);
                match self.tickets.get(&id) {
                    Some(t) => (t.clone(), true),
                    None => (
                        Arc::new(PqCert::from_bytes(c).map_err(|e| {
                            Rejection::caused_by(RejectReason::InvalidCertificate, "signer certificate", &e)
                        })?),
                        false,
                    ),
                }
            }
        };

        *step = DecapStep::ReplayLookup;
        let replay_id: ReplayId = (
            ticket.id(),
            generation_time.0,
            sha256(&msg.tbs).as_ref().try_into().expect("32"),
        );
        if self.replay.contains(&replay_id, now) {
            return Err(rej(RejectReason::DuplicateMessage, "already accepted"));
        }

        *step = DecapStep::MessageSignature;
        self.check_message_signature(&msg, &ticket)?;

        *step = DecapStep::Chain;
        let aa = if known {
            self.authorities.get(&HashedId8(ticket.certificate().issuer)).cloned()
        } else {
            let aa = self
                .authorities
                .get(&HashedId8(ticket.certificate().issuer))
                .cloned()
                .ok_or_else(|| rej(RejectReason::UntrustedRoot, "ticket issuer is not a known authority"))?;
            self.check_issued(&ticket, &aa, CertKind::EndEntity)?;
            Some(aa)
        }
        .ok_or_else(|| rej(RejectReason::UntrustedRoot, "ticket issuer is no longer known"))?;
        let root = self
            .roots
            .get(&HashedId8(aa.certificate().issuer))
            .cloned()
            .ok_or_else(|| rej(RejectReason::UntrustedRoot, "authority issuer is not a trusted root"))?;
        let chain = [&ticket, &aa, &root];

        *step = DecapStep::CertificateValidity;
        for c in chain {
            if generation_time < c.start() {
                return Err(rej(
                    RejectReason::CertificateNotYetValid,
                    format!("certificate {}", c.id()),
                ));
            }
            if generation_time > c.end() {
                return Err(rej(RejectReason::CertificateExpired, format!("certificate {}", c.id())));
            }
        }

        *step = DecapStep::Revocation;
        if let Some(c) = chain.iter().find(|c| self.revoked.contains(&c.id())) {
            return Err(rej(RejectReason::RevokedCertificate, format!("certificate {}", c.id())));
        }

        *step = DecapStep::Permissions;
        let ssp = ticket.permission_for(psid).ok_or_else(|| {
            rej(
                RejectReason::PsidNotPermitted,
                format!("certificate does not permit PSID {psid}"),
            )
        })?;
        profile
            .ssp
            .check(ssp, &payload)
            .map_err(|e| Rejection::caused_by(e.reason(), "SSP", &e))?;
        let ssp = ssp.map(<[u8]>::to_vec);

        // Accepted: state changes only now.
        let remember = profile.max_age.max(Duration::from_secs(60));
        self.replay
            .insert(replay_id, generation_time.saturating_add(remember), now);
        self.tickets.insert(ticket.id(), ticket.clone());
        Ok(PqDecapped {
            payload,
            psid,
            generation_time,
            signer: ticket.id(),
            design: self.design,
            ssp,
        })
    }

    /// The design octet and the message signature are the policy's; a composite signature
    /// carries both parts.
    fn check_design(&self, msg: &PqSecuredMessage) -> Result<(), Rejection> {
        let d = self.design;
        let want = d.message_scheme();
        let got = scheme_from_wire_id(msg.signature.scheme);
        if msg.design != d.wire_id() {
            if !PqDesign::ALL.iter().any(|x| x.wire_id() == msg.design) {
                return Err(rej(
                    RejectReason::IncompatibleProtocol,
                    format!("unknown design {}", msg.design),
                ));
            }
            // The octet names a family (pq-only, composite, partially hybrid); the scheme the
            // algorithm.
            let other = PqDesign::ALL
                .iter()
                .find(|x| x.wire_id() == msg.design && Some(x.message_scheme()) == got)
                .map_or_else(|| format!("octet {}", msg.design), |x| x.name());
            // Another design: a downgrade when its signature lacks a part the policy's has
            // (the post-quantum one, or the classical one of a hybrid), merely foreign otherwise.
            let reason = match got {
                Some(g) if is_downgrade(want, g) => RejectReason::DowngradeRefused,
                _ => RejectReason::IncompatibleProtocol,
            };
            return Err(rej(
                reason,
                format!(
                    "message of design {other} signed with {}; the policy requires {d} only",
                    got.map_or_else(|| format!("{:#04x}", msg.signature.scheme), |g| g.to_string())
                ),
            ));
        }
        let got = got.ok_or_else(|| {
            rej(
                RejectReason::IncompatibleProtocol,
                format!("unknown signature scheme {:#04x}", msg.signature.scheme),
            )
        })?;
        if got != want {
            let reason = if is_downgrade(want, got) {
                RejectReason::DowngradeRefused
            } else {
                RejectReason::IncompatibleProtocol
            };
            return Err(rej(reason, format!("message signed with {got}; {d} requires {want}")));
        }
        if let SignatureScheme::Composite(a) = want {
            if msg.signature.bytes.len() <= 64 {
                return Err(rej(
                    RejectReason::DowngradeRefused,
                    format!("composite signature without its {} part", a.name()),
                ));
            }
        }
        if msg.signature.bytes.len() != want.signature_len() {
            return Err(rej(RejectReason::InvalidEncoding, "signature length"));
        }
        Ok(())
    }

    /// The ticket's key is of the design's message scheme (a classical-only signer where
    /// the design requires post-quantum or hybrid signatures is a downgrade).
    fn check_ticket_key(&self, ticket: &PqCert) -> Result<(), Rejection> {
        let want = self.design.message_scheme();
        let got = ticket.key().scheme();
        if got == want {
            return Ok(());
        }
        let reason = if is_downgrade(want, got) {
            RejectReason::DowngradeRefused
        } else {
            RejectReason::InvalidCertificate
        };
        Err(rej(
            reason,
            format!("signer key is {got}; {} requires {want}", self.design),
        ))
    }

    fn check_message_signature(&self, msg: &PqSecuredMessage, ticket: &PqCert) -> Result<(), Rejection> {
        let input = signature_input(&msg.tbs, ticket.bytes());
        // A classical-only signer where the design requires post-quantum or hybrid
        // signatures is refused as a downgrade before any verification.
        self.check_ticket_key(ticket)?;
        let key = ticket.key();
        let ok = match key.scheme() {
            SignatureScheme::Composite(_) => {
                let v = key
                    .verify_components(&input, &msg.signature.bytes)
                    .map_err(|e| Rejection::caused_by(RejectReason::FalseSignature, "message signature", &e))?;
                match (v.classical, v.post_quantum) {
                    (true, true) => true,
                    (c, p) => {
                        let failed = match (c, p) {
                            (false, false) => "both parts",
                            (false, true) => "the ECDSA part",
                            _ => "the post-quantum part",
                        };
                        return Err(rej(
                            RejectReason::FalseSignature,
                            format!("composite signature: {failed} do(es) not verify"),
                        ));
                    }
                }
            }
            _ => key
                .verify(&input, &msg.signature.bytes)
                .map_err(|e| Rejection::caused_by(RejectReason::FalseSignature, "message signature", &e))?,
        };
        if ok {
            Ok(())
        } else {
            Err(rej(RejectReason::FalseSignature, "message signature does not verify"))
        }
    }
}

/// `cert`'s signature verifies with `issuer`'s key (a composite: both parts).
fn verify_issued_by(cert: &PqCert, issuer: &PqCert) -> Result<(), Rejection> {
    if cert.signature_scheme() != issuer.key().scheme() {
        return Err(rej(
            RejectReason::InvalidChainSignature,
            format!(
                "signed with {}, issuer key is {}",
                cert.signature_scheme(),
                issuer.key().scheme()
            ),
        ));
    }
    let sig = &cert.certificate().signature.bytes;
    let ok = issuer
        .key()
        .verify(cert.to_be_signed(), sig)
        .map_err(|e| Rejection::caused_by(RejectReason::InvalidChainSignature, "certificate signature", &e))?;
    if ok {
        Ok(())
    } else {
        Err(rej(
            RejectReason::InvalidChainSignature,
            format!("issuer signature on {} does not verify", cert.id()),
        ))
    }
}

impl PqPki {
    /// A PKI of `design` from a root and an AA kept elsewhere (a PKI directory), checked by
    /// the design's receiver (here, so that the PKI does not depend on its entities); tickets it
    /// issues start an hour before `now`. Refused, with the reason a receiver would give,
    /// unless the root is the design's and the AA validates under it.
    pub fn from_parts(
        design: PqDesign,
        root: PqCredential,
        aa: PqCredential,
        now: TaiTime,
    ) -> Result<PqPki, crate::reason::Rejection> {
        for (what, c) in [("root", &root), ("AA", &aa)] {
            if c.key.verifying_key() != c.cert.key() {
                return Err(crate::reason::Rejection::new(
                    crate::reason::RejectReason::InvalidCertificate,
                    format!("the {what}'s private key is not the key of its certificate"),
                ));
            }
        }
        PqReceiver::new(design, vec![root.cert.clone()], vec![aa.cert.clone()])?;
        Ok(PqPki { design, root, aa, now })
    }

    pub fn sender(&self, ticket: PqCredential) -> PqSender {
        PqSender::new(self.design(), ticket)
    }

    /// A receiver of the design that trusts the root and knows the AA.
    pub fn receiver(&self) -> PqReceiver {
        PqReceiver::new(
            self.design(),
            vec![self.root().cert.clone()],
            vec![self.aa().cert.clone()],
        )
        .expect("the PKI's own AA validates under its root")
    }
}
