//! A misbehaviour authority (MA): it decrypts a report with its certificate's key,
//! verifies the reporter's signature and ticket (SN-DECAP: a ticket without misbehaviour
//! reporting among its permissions is `psid-not-permitted`), decodes the report, verifies
//! every evidence CAM against the trust store (the reported station's own signature is the
//! proof of what it sent), correlates reports by the reported station's certificate, and
//! decides: a certificate reported by `min_reporters` distinct tickets is revoked through
//! the ordinary CRL path ([`Revoker`]: the PKI root issues a CRL, in memory or in a PKI
//! directory; receivers apply it). Every rejection names its reason.

use super::asn::{decode_exact, AsrCam, EtsiTs103759Data, EtsiTs103759Mbr, MbrSec, ReportCodecError};
use super::MISBEHAVIOUR_REPORTING;
use std::collections::{BTreeSet, HashMap};
use v2x_crypto::HashedId8;
use v2x_security::{CertRef, Certificate, InMemoryPki, Pki, RejectReason, SecurityEntity, TaiTime, TrustStore};
use v2x_wire::ItsAid;

/// Why the authority refuses a report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MaRejection {
    #[error("not an EtsiTs103759Data: {0}")]
    Encoding(ReportCodecError),
    #[error("the report is not signed and encrypted (sTE)")]
    NotSignedThenEncrypted,
    #[error("SN-DECAP refused the report: {} ({detail})", reason.code())]
    Security { reason: RejectReason, detail: String },
    #[error("the report is signed under PSID {0:?}, not misbehaviour reporting")]
    WrongPsid(Option<ItsAid>),
    #[error("the report content does not decode: {0}")]
    Content(ReportCodecError),
    #[error("the report is about ITS-AID {0}, only CAM reports are handled")]
    UnsupportedAid(String),
    #[error("evidence PDU {index} is not an authentic CAM: {} ({detail})", reason.code())]
    Evidence {
        index: usize,
        reason: RejectReason,
        detail: String,
    },
    #[error("the evidence does not name the reported station's certificate")]
    NoSubject,
}

impl MaRejection {
    /// A short stable name of the reason.
    pub fn code(&self) -> &'static str {
        match self {
            MaRejection::Encoding(_) => "invalid-encoding",
            MaRejection::NotSignedThenEncrypted => "not-signed-then-encrypted",
            MaRejection::Security { reason, .. } => reason.code(),
            MaRejection::WrongPsid(_) => "psid-not-permitted",
            MaRejection::Content(_) => "invalid-report-content",
            MaRejection::UnsupportedAid(_) => "unsupported-aid",
            MaRejection::Evidence { .. } => "invalid-evidence",
            MaRejection::NoSubject => "no-subject",
        }
    }
}

/// What the authority did with an accepted report.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Recorded; `reporters` distinct tickets have reported `subject` so far.
    Recorded { subject: HashedId8, reporters: usize },
    /// `subject` revoked: the new CRL (1609.2, from the root) for receivers to apply.
    Revoked { subject: HashedId8, crl: Vec<u8> },
    /// Already revoked.
    AlreadyRevoked { subject: HashedId8 },
}

/// The CRL path an authority revokes through: the PKI whose root signs the CRL.
pub trait Revoker {
    /// The trust store reports and their evidence are verified against.
    fn store(&self) -> Result<TrustStore, String>;
    /// Revokes `newly` (`all`: every certificate revoked so far, `newly` last) and returns
    /// the CRL receivers are to apply.
    fn revoke(&mut self, newly: &Certificate, all: &[&Certificate], serial: u32) -> Result<Vec<u8>, String>;
}

/// A PKI in memory: a CRL listing every revoked certificate, issued at the PKI's `now`.
impl Revoker for &InMemoryPki {
    fn store(&self) -> Result<TrustStore, String> {
        Ok(InMemoryPki::store(self))
    }

    fn revoke(&mut self, _newly: &Certificate, all: &[&Certificate], serial: u32) -> Result<Vec<u8>, String> {
        self.crl(all, serial).map_err(|e| e.to_string())
    }
}

/// A PKI directory ([`Pki`]): [`Pki::revoke`] re-issues the root's `crl.oer` with the
/// certificate added and the next serial; that file is the CRL returned.
impl Revoker for Pki {
    fn store(&self) -> Result<TrustStore, String> {
        self.trust_store().map_err(|e| e.to_string())
    }

    fn revoke(&mut self, newly: &Certificate, _all: &[&Certificate], _serial: u32) -> Result<Vec<u8>, String> {
        Pki::revoke(self, newly).map_err(|e| e.to_string())?;
        let path = self.dir().join("crl.oer");
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The authority.
pub struct Authority<R: Revoker> {
    pki: R,
    entity: SecurityEntity,
    store: TrustStore,
    /// Distinct reporters needed to revoke.
    pub min_reporters: usize,
    reports: HashMap<HashedId8, BTreeSet<HashedId8>>,
    subjects: HashMap<HashedId8, CertRef>,
    revoked: Vec<CertRef>,
    crl_serial: u32,
    last_reporter: Option<HashedId8>,
}

impl<R: Revoker> Authority<R> {
    /// An authority of `pki` whose encryption certificate and key are `credentials`.
    pub fn new(pki: R, credentials: v2x_security::Credentials, min_reporters: usize) -> Result<Authority<R>, String> {
        let store = pki.store()?;
        let mut entity = SecurityEntity::new(store.clone());
        if let Some(key) = credentials.encryption_key.clone() {
            entity.add_decryption_key(credentials.certificate.clone(), key);
        }
        Ok(Authority {
            pki,
            entity,
            store,
            min_reporters: min_reporters.max(1),
            reports: HashMap::new(),
            subjects: HashMap::new(),
            revoked: Vec::new(),
            crl_serial: 1,
            last_reporter: None,
        })
    }

    /// The ticket (HashedId8) that signed the last report accepted.
    pub fn last_reporter(&self) -> Option<HashedId8> {
        self.last_reporter
    }

    /// Receives one report at `now`.
    pub fn receive(&mut self, bytes: &[u8], now: TaiTime) -> Result<Decision, MaRejection> {
        let data = EtsiTs103759Data::decode(bytes).map_err(MaRejection::Encoding)?;
        let MbrSec::SignedThenEncrypted(secured) = data.content else {
            return Err(MaRejection::NotSignedThenEncrypted);
        };
        let d = self.entity.decap_at(&secured, now).map_err(|r| MaRejection::Security {
            reason: r.reason,
            detail: r.detail,
        })?;
        if d.psid != Some(MISBEHAVIOUR_REPORTING) || !d.encrypted {
            return Err(MaRejection::WrongPsid(d.psid));
        }
        let reporter = d
            .signer
            .as_ref()
            .map(|c| c.hashed_id8())
            .ok_or(MaRejection::NoSubject)?;
        let mbr: EtsiTs103759Mbr = decode_exact(&d.payload).map_err(MaRejection::Content)?;
        if mbr.report.aid != rasn::types::Integer::from(ItsAid::CAM.value() as i64) {
            return Err(MaRejection::UnsupportedAid(mbr.report.aid.to_string()));
        }
        let asr: AsrCam = decode_exact(&mbr.report.content).map_err(MaRejection::Content)?;
        // The subject: the signer of the first evidence PDU, verified as of the report's
        // generation (evidence is only as fresh as the report that carries it).
        let at = TaiTime(mbr.generation_time);
        let mut subject: Option<CertRef> = None;
        // One checker per report: a certificate the report carries (validated up to the
        // root first) verifies the evidence CAMs signed with its digest.
        let mut checker = SecurityEntity::new(self.store.clone());
        for stream in &asr.v2x_pdu_evidence {
            let Some(c) = &stream.certificate else { continue };
            let invalid = |reason, detail| MaRejection::Evidence {
                index: usize::from(stream.subject_pdu_index),
                reason,
                detail,
            };
            let bytes = rasn::coer::encode(c).map_err(|e| invalid(RejectReason::InvalidCertificate, e.to_string()))?;
            let cert = Certificate::from_bytes(&bytes)
                .map_err(|e| invalid(RejectReason::InvalidCertificate, e.to_string()))?;
            v2x_security::chain::validated(&std::sync::Arc::new(cert), &[], checker.trust_store_mut())
                .map_err(|r| invalid(r.reason, r.detail))?;
        }
        for (index, pdu) in asr.v2x_pdu_evidence.iter().flat_map(|s| s.v2x_pdus.iter()).enumerate() {
            let ev = checker.decap_at(pdu, at).map_err(|r| MaRejection::Evidence {
                index,
                reason: r.reason,
                detail: r.detail,
            })?;
            if index == 0 {
                subject = ev.signer;
            }
        }
        let subject = subject.ok_or(MaRejection::NoSubject)?;
        self.last_reporter = Some(reporter);
        let id = subject.hashed_id8();
        if self.revoked.iter().any(|c| c.hashed_id8() == id) {
            return Ok(Decision::AlreadyRevoked { subject: id });
        }
        self.subjects.insert(id, subject);
        let reporters = self.reports.entry(id).or_default();
        reporters.insert(reporter);
        let n = reporters.len();
        if n < self.min_reporters {
            return Ok(Decision::Recorded {
                subject: id,
                reporters: n,
            });
        }
        self.revoked.push(self.subjects[&id].clone());
        let list: Vec<&Certificate> = self.revoked.iter().map(|c| c.as_ref()).collect();
        let crl = self
            .pki
            .revoke(&self.subjects[&id], &list, self.crl_serial)
            .map_err(|e| MaRejection::Security {
                reason: RejectReason::InvalidCertificate,
                detail: format!("CRL issuance: {e}"),
            })?;
        self.crl_serial += 1;
        Ok(Decision::Revoked { subject: id, crl })
    }
}
