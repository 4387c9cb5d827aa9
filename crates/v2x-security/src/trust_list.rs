//! ETSI TS 102 941 certificate trust lists: the EU ECTL (signed by the trust-list manager,
//! listing root CAs) and root-CA CTLs (signed by a root CA, listing its EAs and AAs).
//!
//! Loading a list verifies its signature (an ECTL with the TLM certificate given, an RCA CTL
//! with one of the trust anchors), requires the CTL PSID 624 and a signer permitted to use
//! it, refuses a list older than the one already loaded from the same signer, and checks
//! `nextUpdate` against the given time: an outdated list is refused, unless
//! [`TrustListPolicy::insecure_accept_expired`] is set — then it loads and the returned
//! [`TrustWarning`] says so (this library prints nothing; the caller reports it).

use crate::certificate::{CertRef, Certificate, CertificateError};
use crate::convert;
use crate::signed::{anchor_signer, sign_data, verify_signed_data, SignedDataError, SignerKind};
use crate::time::TaiTime;
use crate::trust_store::{TrustListVersion, TrustStore, TrustWarning};
use std::sync::Arc;
use v2x_crypto::HashedId8;
use v2x_wire::ieee1609dot2::{self as wire, WireError};
use v2x_wire::trust_list::{
    parse_trust_list, AaEntry, CtlCommand, CtlDelete, CtlEntry, CtlFormat, EtsiTs102941Data, EtsiTs102941DataContent,
    SignedTrustList, TrustListDeletion, TrustListEntry, TrustListIssuer,
};
use v2x_wire::ItsAid;

/// How trust lists are loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TrustListPolicy {
    /// INSECURE lab option: load a list past its nextUpdate (with a warning) instead of
    /// refusing it.
    pub insecure_accept_expired: bool,
}

/// What loading a list did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrustListLoad {
    /// Certificates added (anchors and CA certificates).
    pub loaded: usize,
    pub warnings: Vec<TrustWarning>,
}

/// Why a trust list was not loaded.
#[derive(Debug, thiserror::Error)]
pub enum TrustListError {
    #[error("the signer {0} is not a valid self-signed certificate")]
    BadSigner(HashedId8),
    #[error("the list does not decode")]
    Decode(#[from] WireError),
    #[error("expected a list signed by the {expected:?}, this one is signed by the {found:?}")]
    WrongIssuer {
        expected: TrustListIssuer,
        found: TrustListIssuer,
    },
    #[error("PSID {0} is not the CTL PSID 624")]
    Psid(ItsAid),
    #[error("the signer {signer} has no permission for PSID 624 (CTL)")]
    NotPermitted { signer: HashedId8 },
    #[error("signed data")]
    Signature(#[from] SignedDataError),
    #[error("entry {index} is not a usable certificate")]
    Certificate {
        index: usize,
        #[source]
        source: CertificateError,
    },
    #[error("access point {0:?} is not an IA5 string")]
    AccessPoint(String),
    #[error("the list of {signer} was due to be replaced at {next_update} (TAI s), now {now}: refused")]
    Expired {
        signer: HashedId8,
        next_update: u32,
        now: u32,
    },
    #[error("a list of {signer} with nextUpdate {} (sequence {}) is older than the one loaded (nextUpdate {}, sequence {}): refused", offered.next_update, offered.sequence, held.next_update, held.sequence)]
    Older {
        signer: HashedId8,
        held: TrustListVersion,
        offered: TrustListVersion,
    },
}

/// A trust list whose signature verified.
#[derive(Debug)]
pub struct VerifiedTrustList {
    pub list: v2x_wire::trust_list::TrustList,
    /// HashedId8 of the certificate that signed the list.
    pub signer: HashedId8,
    pub root_cas: Vec<CertRef>,
    /// EA and AA certificates.
    pub authorities: Vec<CertRef>,
    pub tlm_certificates: Vec<CertRef>,
}

impl VerifiedTrustList {
    fn version(&self) -> TrustListVersion {
        TrustListVersion {
            next_update: self.list.next_update.0,
            sequence: self.list.sequence,
        }
    }
}

/// Checks the PSID, the signer's permission and the signature of a parsed list.
fn verify_parsed(
    bytes: &[u8],
    parsed: SignedTrustList,
    signer: &Certificate,
) -> Result<VerifiedTrustList, TrustListError> {
    let signed = wire::signed_data(&parsed.outer).ok_or(SignedDataError::UnsupportedSigner)?;
    let psid = convert::psid_value(&signed.tbs_data.header_info.psid).unwrap_or(ItsAid(u64::MAX));
    if psid != ItsAid::CTL {
        return Err(TrustListError::Psid(psid));
    }
    if signer.permission_for(ItsAid::CTL).is_none() {
        return Err(TrustListError::NotPermitted {
            signer: signer.hashed_id8(),
        });
    }
    verify_signed_data(bytes, signed, &parsed.spans, signer)?;
    let mut root_cas = Vec::new();
    let mut authorities = Vec::new();
    let mut tlm_certificates = Vec::new();
    for (index, e) in parsed.list.entries.iter().enumerate() {
        let cert = |e: &v2x_wire::trust_list::EncodedCertificate| {
            Certificate::from_bytes(&e.encoded)
                .map(Arc::new)
                .map_err(|source| TrustListError::Certificate { index, source })
        };
        match e {
            TrustListEntry::RootCa { certificate, .. } => root_cas.push(cert(certificate)?),
            TrustListEntry::Ea { certificate, .. } | TrustListEntry::Aa { certificate, .. } => {
                authorities.push(cert(certificate)?)
            }
            TrustListEntry::Tlm { certificate, .. } => tlm_certificates.push(cert(certificate)?),
            TrustListEntry::Dc { .. } => {}
        }
    }
    Ok(VerifiedTrustList {
        list: parsed.list,
        signer: signer.hashed_id8(),
        root_cas,
        authorities,
        tlm_certificates,
    })
}

/// Decodes an ECTL and verifies its signature with `tlm` (a valid self-signed certificate).
pub fn verify_trust_list(bytes: &[u8], tlm: &Certificate) -> Result<VerifiedTrustList, TrustListError> {
    if !tlm.is_self_signed() || !tlm.verify_signature(None) {
        return Err(TrustListError::BadSigner(tlm.hashed_id8()));
    }
    let parsed = parse_trust_list(bytes)?;
    if parsed.list.issuer != TrustListIssuer::Tlm {
        return Err(TrustListError::WrongIssuer {
            expected: TrustListIssuer::Tlm,
            found: parsed.list.issuer,
        });
    }
    verify_parsed(bytes, parsed, tlm)
}

/// Decodes a root CA's CTL and verifies its signature with the trust anchor of `store` that
/// signed it.
pub fn verify_rca_ctl(bytes: &[u8], store: &TrustStore) -> Result<VerifiedTrustList, TrustListError> {
    let parsed = parse_trust_list(bytes)?;
    if parsed.list.issuer != TrustListIssuer::RootCa {
        return Err(TrustListError::WrongIssuer {
            expected: TrustListIssuer::RootCa,
            found: parsed.list.issuer,
        });
    }
    let signed = wire::signed_data(&parsed.outer).ok_or(SignedDataError::UnsupportedSigner)?;
    let signer = anchor_signer(bytes, signed, &parsed.spans, store)?;
    verify_parsed(bytes, parsed, &signer)
}

impl TrustStore {
    /// Verifies an ECTL with `tlm` and loads its root CAs as trust anchors (each
    /// self-signature verified; those that fail are skipped) and any EA/AA certificates as
    /// chain links, if it is current at `now` (see [`TrustListPolicy`]) and not older than
    /// the list already loaded from that TLM.
    pub fn load_ectl(
        &mut self,
        bytes: &[u8],
        tlm: &Certificate,
        now: TaiTime,
        policy: TrustListPolicy,
    ) -> Result<TrustListLoad, TrustListError> {
        let v = verify_trust_list(bytes, tlm)?;
        self.install_list(v, now, policy)
    }

    /// Verifies a root CA's CTL (signed by one of this store's anchors) and loads its EA and
    /// AA certificates as chain links, applying its delete commands; freshness and rollback
    /// as for [`TrustStore::load_ectl`].
    pub fn load_rca_ctl(
        &mut self,
        bytes: &[u8],
        now: TaiTime,
        policy: TrustListPolicy,
    ) -> Result<TrustListLoad, TrustListError> {
        let v = verify_rca_ctl(bytes, self)?;
        self.install_list(v, now, policy)
    }

    fn install_list(
        &mut self,
        v: VerifiedTrustList,
        now: TaiTime,
        policy: TrustListPolicy,
    ) -> Result<TrustListLoad, TrustListError> {
        let signer = v.signer;
        let mut load = TrustListLoad::default();
        let next_update = v.list.next_update.0;
        if now > TaiTime::from_time32(next_update) {
            if !policy.insecure_accept_expired {
                return Err(TrustListError::Expired {
                    signer,
                    next_update,
                    now: now.to_time32(),
                });
            }
            load.warnings.push(TrustWarning::ExpiredTrustList {
                signer,
                next_update,
                now: now.to_time32(),
            });
        }
        let offered = v.version();
        if let Some(held) = self.trust_list_version(&signer) {
            if offered < held {
                return Err(TrustListError::Older { signer, held, offered });
            }
        }
        for d in &v.list.deletions {
            if let TrustListDeletion::Certificate(id) = d {
                self.remove_ca_certificate(&convert::hashed_id8_from_wire(id));
            }
        }
        for r in v.root_cas {
            if self.add_trust_anchor(r).is_ok() {
                load.loaded += 1;
            }
        }
        for c in v.authorities {
            self.add_ca_certificate(c);
            load.loaded += 1;
        }
        self.set_trust_list_version(signer, offered);
        tracing::debug!(%signer, loaded = load.loaded, next_update, "trust list loaded");
        Ok(load)
    }
}

/// What a root CA's CTL lists: AA certificates to add (with their access point URL) and
/// certificates to delete.
#[derive(Debug, Clone, Default)]
pub struct RcaCtlContent<'a> {
    pub add_aas: Vec<(&'a Certificate, &'a str)>,
    pub delete: Vec<HashedId8>,
    /// A full list (replaces the previous one) or a delta.
    pub is_full: bool,
    pub sequence: u8,
}

/// Signs a root CA's CTL (TS 102 941 `ToBeSignedRcaCtl`, PSID 624) with `rca` and its key.
pub fn issue_rca_ctl(
    content: &RcaCtlContent<'_>,
    next_update: TaiTime,
    rca: &Certificate,
    key: &v2x_crypto::PrivateKey,
) -> Result<Vec<u8>, TrustListError> {
    let mut commands = Vec::new();
    for (aa, url) in &content.add_aas {
        let url = rasn::types::Ia5String::try_from(url.to_string())
            .map_err(|_| TrustListError::AccessPoint(url.to_string()))?;
        commands.push(CtlCommand::Add(Box::new(CtlEntry::Aa(AaEntry {
            aa_certificate: aa.decoded().clone(),
            access_point: url,
        }))));
    }
    for id in &content.delete {
        commands.push(CtlCommand::Delete(CtlDelete::Cert(convert::hashed_id8_to_wire(*id))));
    }
    let body = EtsiTs102941Data {
        version: 1,
        content: EtsiTs102941DataContent::CertificateTrustListRca(CtlFormat::new(
            rasn_its::ieee1609dot2::base_types::Time32(next_update.to_time32()),
            content.is_full,
            content.sequence,
            commands,
        )),
    };
    let payload = wire::encode(&body)?;
    let header = rasn_its::ieee1609dot2::HeaderInfo::builder()
        .psid(convert::psid(ItsAid::CTL))
        .build();
    Ok(sign_data(&payload, header, rca, key, SignerKind::Digest)?)
}
