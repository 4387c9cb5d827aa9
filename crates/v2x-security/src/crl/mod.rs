//! Certificate revocation lists in both formats: IEEE 1609.2 §7.3 hash-based CRLs
//! ([`ieee`], PSID 256) and ETSI TS 102 941 CRLs ([`etsi`], PSID 622).
//!
//! [`verify_crl`] tells the formats apart by the PSID of the signed data, requires the
//! signer to be a trust anchor permitted to sign that PSID (and, for 1609.2, to be the CRACA
//! the CRL names), verifies the signature over the received bytes and returns a
//! [`VerifiedCrl`]. [`TrustStore::apply_crl`] installs it, refusing one older than the CRL
//! already held from that issuer.

pub mod etsi;
pub mod ieee;

pub use ieee::{issue_crl, issue_crl_entries};

use crate::convert;
use crate::revocation::{CrlEntries, CrlFormat, OlderCrl, VerifiedCrl};
use crate::signed::{anchor_signer, verify_signed_data, SignedDataError};
use crate::trust_store::TrustStore;
use v2x_crypto::HashedId8;
use v2x_wire::ieee1609dot2::{self as wire, WireError};
use v2x_wire::ItsAid;

/// Why a CRL was not accepted (or could not be issued).
#[derive(Debug, thiserror::Error)]
pub enum CrlError {
    #[error("the CRL does not decode")]
    Decode(#[from] WireError),
    #[error("a CRL is signed data with an unsecured payload; this is not")]
    NotSigned,
    #[error("PSID {0} is neither the IEEE 1609.2 CRL PSID 256 nor the ETSI TS 102 941 CRL PSID 622")]
    Psid(ItsAid),
    #[error("the payload is not a CRL")]
    NotACrl,
    #[error("unsupported CRL type (only full and delta hash-based CRLs)")]
    UnsupportedType,
    #[error("the CRL names CRACA {craca}, but {signer} signed it")]
    CracaMismatch { craca: HashedId8, signer: HashedId8 },
    #[error("the signer {signer} has no permission for PSID {psid}")]
    NotPermitted { signer: HashedId8, psid: ItsAid },
    #[error("signed data")]
    Signature(#[from] SignedDataError),
    #[error(transparent)]
    Older(#[from] OlderCrl),
}

/// What a CRL body says, before its signer is established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrlBody {
    pub format: CrlFormat,
    /// The CRACA the body names (1609.2 only).
    pub craca: Option<HashedId8>,
    pub series: u16,
    pub issued: u32,
    pub serial: u32,
    pub next_update: u32,
    pub entries: CrlEntries,
}

/// Decodes a signed CRL of either format and verifies it was signed by a trust anchor of
/// `store` permitted to sign it.
pub fn verify_crl(bytes: &[u8], store: &TrustStore) -> Result<VerifiedCrl, CrlError> {
    let (data, spans) = wire::parse_data(bytes)?;
    let spans = spans.ok_or(CrlError::NotSigned)?;
    let signed = wire::signed_data(&data).ok_or(CrlError::NotSigned)?;
    let psid = convert::psid_value(&signed.tbs_data.header_info.psid).ok_or(CrlError::NotACrl)?;
    let payload = wire::signed_unsecured_payload(signed).ok_or(CrlError::NotSigned)?;
    let body = match psid {
        ItsAid::IEEE_CRL => ieee::decode_body(payload)?,
        ItsAid::ETSI_CRL => etsi::decode_body(payload)?,
        other => return Err(CrlError::Psid(other)),
    };
    let signer = anchor_signer(bytes, signed, &spans, store)?;
    if let Some(craca) = body.craca {
        if craca != signer.hashed_id8() {
            return Err(CrlError::CracaMismatch {
                craca,
                signer: signer.hashed_id8(),
            });
        }
    }
    if signer.permission_for(psid).is_none() {
        return Err(CrlError::NotPermitted {
            signer: signer.hashed_id8(),
            psid,
        });
    }
    verify_signed_data(bytes, signed, &spans, &signer)?;
    Ok(VerifiedCrl {
        format: body.format,
        issuer: signer.hashed_id8(),
        series: body.series,
        issued: body.issued,
        serial: body.serial,
        next_update: body.next_update,
        entries: body.entries,
    })
}

impl TrustStore {
    /// Verifies a CRL (either format) against the trust anchors and installs it: it replaces
    /// the CRL held from the same issuer unless it is older (then it is refused). Returns the
    /// number of entries.
    pub fn apply_crl(&mut self, bytes: &[u8]) -> Result<usize, CrlError> {
        let crl = verify_crl(bytes, self)?;
        tracing::debug!(issuer = %crl.issuer, format = ?crl.format, entries = crl.entries.len(), next_update = crl.next_update, "CRL installed");
        Ok(self.revocation_mut().install(crl)?)
    }
}
