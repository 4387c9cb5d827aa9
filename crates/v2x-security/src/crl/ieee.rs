//! IEEE 1609.2 §7.3 CRLs: a `SecuredCrl` (SignedData, PSID 256) whose payload is
//! `CrlContents` with a full (or delta) hash-based CRL. Entries are HashedId10 (low ten
//! bytes of the whole-certificate hash) with the revoked certificate's expiry. Signed here
//! by the root CA acting as CRACA.

use super::{CrlBody, CrlError};
use crate::certificate::Certificate;
use crate::convert;
use crate::revocation::{CrlEntries, CrlFormat, HashedId10};
use crate::signed::{sign_data, SignerKind};
use crate::time::TaiTime;
use rasn::types::FixedOctetString;
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use rasn_its::ieee1609dot2::crl_base_types as crl;
use v2x_crypto::PrivateKey;
use v2x_wire::ItsAid;

/// The `crlSeries` our CRLs use.
pub const CRL_SERIES: u16 = 1;

/// Signs a full hash-based CRL with the CRACA (root) certificate and key.
pub fn issue_crl(
    revoked: &[&Certificate],
    serial: u32,
    issue_date: TaiTime,
    next_crl: TaiTime,
    craca: &Certificate,
    key: &PrivateKey,
) -> Result<Vec<u8>, CrlError> {
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
) -> Result<Vec<u8>, CrlError> {
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
        crl_series: bt::CrlSeries(CRL_SERIES),
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
    let payload = v2x_wire::ieee1609dot2::encode(&contents)?;
    let header = w::HeaderInfo::builder().psid(convert::psid(ItsAid::IEEE_CRL)).build();
    Ok(sign_data(&payload, header, craca, key, SignerKind::Digest)?)
}

/// Decodes the `CrlContents` payload of a 1609.2 CRL.
pub fn decode_body(payload: &[u8]) -> Result<CrlBody, CrlError> {
    let contents: crl::CrlContents = v2x_wire::ieee1609dot2::decode_exact(payload)?;
    let (serial, list) = match &contents.type_specific {
        crl::TypeSpecificCrlContents::FullHashCrl(h) | crl::TypeSpecificCrlContents::DeltaHashCrl(h) => {
            (h.crl_serial, &h.entries.0)
        }
        _ => return Err(CrlError::UnsupportedType),
    };
    let entries = list
        .iter()
        .map(|e| {
            let mut id = [0u8; 10];
            id.copy_from_slice(&e.id.0[..]);
            (id, e.expiry.0)
        })
        .collect();
    Ok(CrlBody {
        format: CrlFormat::Ieee1609Dot2,
        craca: Some(convert::hashed_id8_from_wire(&contents.crl_craca)),
        series: contents.crl_series.0,
        issued: contents.issue_date.0,
        serial,
        next_update: contents.next_crl.0,
        entries: CrlEntries::HashedId10(entries),
    })
}
