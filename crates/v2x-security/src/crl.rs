//! Certificate revocation lists in the IEEE 1609.2 format (§7.3): a `SecuredCrl`
//! (SignedData, PSID 256, payload `CrlContents` with a `fullHashCrl`), signed here by
//! the root CA acting as CRACA. Entries are HashedId10 (low ten bytes of the
//! whole-certificate hash) with the revoked certificate's expiry.

use crate::certificate::Certificate;
use crate::convert;
use crate::signed::{sign_data, verify_signed_data, SignerKind};
use crate::time::TaiTime;
use crate::trust_store::{HashedId10, TrustError, TrustStore};
use rasn::types::FixedOctetString;
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use rasn_its::ieee1609dot2::crl_base_types as crl;
use v2x_crypto::{HashedId8, PrivateKey};

/// PSID of CRLs (1609.2 §7.3.1).
pub const CRL_PSID: u64 = 256;

/// A verified CRL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crl {
    pub craca: HashedId8,
    pub serial: u32,
    pub issue_date: u32,
    pub next_crl: u32,
    /// (HashedId10, expiry Time32) of each revoked certificate.
    pub entries: Vec<(HashedId10, u32)>,
}

/// Signs a full hash-based CRL with the CRACA (root) certificate and key.
pub fn issue_crl(
    revoked: &[&Certificate],
    serial: u32,
    issue_date: TaiTime,
    next_crl: TaiTime,
    craca: &Certificate,
    key: &PrivateKey,
) -> Result<Vec<u8>, String> {
    let entries: Vec<(HashedId10, u32)> = revoked
        .iter()
        .map(|c| (c.hashed_id10(), u32::try_from(c.validity().end).unwrap_or(u32::MAX)))
        .collect();
    issue_crl_entries(&entries, serial, issue_date, next_crl, craca, key)
}

/// Like [`issue_crl`] from (HashedId10, expiry) entries.
pub fn issue_crl_entries(
    revoked: &[(HashedId10, u32)],
    serial: u32,
    issue_date: TaiTime,
    next_crl: TaiTime,
    craca: &Certificate,
    key: &PrivateKey,
) -> Result<Vec<u8>, String> {
    let entries = revoked
        .iter()
        .map(|(id, expiry)| {
            crl::HashBasedRevocationInfo::builder()
                .id(bt::HashedId10(FixedOctetString::from(*id)))
                .expiry(bt::Time32(*expiry))
                .build()
        })
        .collect();
    let contents = crl::CrlContents {
        version: 1,
        crl_series: bt::CrlSeries(1),
        crl_craca: convert::hashed_id8_to_wire(craca.hashed_id8()),
        issue_date: bt::Time32(issue_date.to_time32()),
        next_crl: bt::Time32(next_crl.to_time32()),
        priority_info: crl::CrlPriorityInfo::builder().build(),
        type_specific: crl::TypeSpecificCrlContents::FullHashCrl(
            crl::ToBeSignedHashIdCrl::builder()
                .crl_serial(serial)
                .entries(crl::SequenceOfHashBasedRevocationInfo(entries))
                .build(),
        ),
    };
    let payload = v2x_wire::ieee1609dot2::encode(&contents).map_err(|e| e.to_string())?;
    let header = w::HeaderInfo::builder().psid(convert::psid(CRL_PSID)).build();
    sign_data(&payload, header, craca, key, SignerKind::Digest)
}

/// Decodes a SecuredCrl and verifies it was signed by a trust anchor of `store` that
/// is also the CRL's CRACA.
pub fn verify_crl(bytes: &[u8], store: &TrustStore) -> Result<Crl, TrustError> {
    let bad = |s: String| TrustError::TrustList(format!("CRL: {s}"));
    let (data, spans) = v2x_wire::ieee1609dot2::parse_data(bytes).map_err(|e| bad(e.to_string()))?;
    let spans = spans.ok_or_else(|| bad("not signed".into()))?;
    let signed = v2x_wire::ieee1609dot2::signed_data(&data).ok_or_else(|| bad("not signed".into()))?;
    if convert::psid_value(&signed.tbs_data.header_info.psid) != Some(CRL_PSID) {
        return Err(bad("PSID is not 256".into()));
    }
    let payload = v2x_wire::ieee1609dot2::signed_unsecured_payload(signed).ok_or_else(|| bad("no payload".into()))?;
    let contents: crl::CrlContents = v2x_wire::ieee1609dot2::decode_exact(payload).map_err(|e| bad(e.to_string()))?;
    let craca = convert::hashed_id8_from_wire(&contents.crl_craca);
    let signer = store
        .anchors()
        .find(|a| a.hashed_id8() == craca)
        .cloned()
        .ok_or_else(|| bad(format!("CRACA {craca} is not a trust anchor")))?;
    verify_signed_data(bytes, signed, &spans, &signer).map_err(bad)?;
    let entries = match &contents.type_specific {
        crl::TypeSpecificCrlContents::FullHashCrl(h) | crl::TypeSpecificCrlContents::DeltaHashCrl(h) => h
            .entries
            .0
            .iter()
            .map(|e| {
                let mut id = [0u8; 10];
                id.copy_from_slice(&e.id.0[..]);
                (id, e.expiry.0)
            })
            .collect(),
        _ => return Err(bad("only hash-based CRLs are supported".into())),
    };
    let serial = match &contents.type_specific {
        crl::TypeSpecificCrlContents::FullHashCrl(h) | crl::TypeSpecificCrlContents::DeltaHashCrl(h) => h.crl_serial,
        _ => 0,
    };
    Ok(Crl {
        craca,
        serial,
        issue_date: contents.issue_date.0,
        next_crl: contents.next_crl.0,
        entries,
    })
}

impl TrustStore {
    /// Verifies a CRL against the trust anchors and adds its entries to the
    /// revocation set. Returns the number of entries.
    pub fn apply_crl(&mut self, bytes: &[u8]) -> Result<usize, TrustError> {
        let crl = verify_crl(bytes, self)?;
        for (id, _) in &crl.entries {
            self.revoke_hashed_id10(*id);
        }
        Ok(crl.entries.len())
    }
}
