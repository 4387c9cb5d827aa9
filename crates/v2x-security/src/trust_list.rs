//! ETSI TS 102 941 certificate trust lists (the EU ECTL): verify the list's signature
//! with the trust-list manager certificate, then load its root CAs as trust anchors
//! (each self-signature verified) and its EA/AA certificates as chain links.
//!
//! `nextUpdate` is reported, not enforced: an outdated list is still the best
//! information a station has, and the certificates in it carry their own validity.

use crate::certificate::{CertRef, Certificate};
use crate::signed::verify_signed_data;
use crate::trust_store::{TrustError, TrustStore};
use std::sync::Arc;
use v2x_wire::trust_list::{parse_trust_list, TrustListEntry, TrustListIssuer};

/// A trust list whose signature verified.
#[derive(Debug)]
pub struct VerifiedTrustList {
    pub list: v2x_wire::trust_list::TrustList,
    pub root_cas: Vec<CertRef>,
    /// EA and AA certificates.
    pub authorities: Vec<CertRef>,
    pub tlm_certificates: Vec<CertRef>,
}

fn cert(e: &v2x_wire::trust_list::EncodedCertificate) -> Result<CertRef, TrustError> {
    Certificate::from_bytes(&e.encoded)
        .map(Arc::new)
        .map_err(|e| TrustError::TrustList(e.to_string()))
}

/// Decodes `bytes` and verifies its signature with `tlm` (which must be a valid
/// self-signed certificate).
pub fn verify_trust_list(bytes: &[u8], tlm: &Certificate) -> Result<VerifiedTrustList, TrustError> {
    if !tlm.is_self_signed() || !tlm.verify_signature(None) {
        return Err(TrustError::TrustList(
            "TLM certificate is not a valid self-signed certificate".into(),
        ));
    }
    let parsed = parse_trust_list(bytes).map_err(|e| TrustError::TrustList(e.to_string()))?;
    if parsed.list.issuer != TrustListIssuer::Tlm {
        return Err(TrustError::TrustList("not a TLM-signed list (ECTL)".into()));
    }
    let signed = v2x_wire::ieee1609dot2::signed_data(&parsed.outer)
        .ok_or_else(|| TrustError::TrustList("not signed data".into()))?;
    verify_signed_data(bytes, signed, &parsed.spans, tlm).map_err(TrustError::TrustList)?;
    let mut root_cas = Vec::new();
    let mut authorities = Vec::new();
    let mut tlm_certificates = Vec::new();
    for e in &parsed.list.entries {
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
        root_cas,
        authorities,
        tlm_certificates,
    })
}

impl TrustStore {
    /// Verifies an ECTL with `tlm` and loads its entries. Returns how many
    /// certificates were loaded (root CAs whose self-signature fails are skipped).
    pub fn load_ectl(&mut self, bytes: &[u8], tlm: &Certificate) -> Result<usize, TrustError> {
        let v = verify_trust_list(bytes, tlm)?;
        Ok(self.load_trusted_list_entries(v.root_cas, v.authorities))
    }
}
