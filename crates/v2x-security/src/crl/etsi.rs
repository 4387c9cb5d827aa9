//! ETSI TS 102 941 CRLs (§6.3.3): `EtsiTs103097Data-Signed { EtsiTs102941Data { version v1,
//! certificateRevocationList ToBeSignedCrl } }`, signed by the root CA with PSID 622. The
//! entries are HashedId8 of revoked CA certificates (EA, AA). `thisUpdate` orders
//! successive CRLs; `nextUpdate` says when the next is due.

use super::{CrlBody, CrlError};
use crate::certificate::Certificate;
use crate::convert;
use crate::revocation::{CrlEntries, CrlFormat};
use crate::signed::{sign_data, SignerKind};
use crate::time::TaiTime;
use rasn::types::Integer;
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use v2x_crypto::{HashedId8, PrivateKey};
use v2x_wire::trust_list::{decode_etsi_ts102941_data, EtsiTs102941Data, EtsiTs102941DataContent, ToBeSignedCrl};
use v2x_wire::ItsAid;

/// Signs a TS 102 941 CRL listing `revoked` with the root CA certificate and key.
pub fn issue_etsi_crl(
    revoked: &[HashedId8],
    this_update: TaiTime,
    next_update: TaiTime,
    rca: &Certificate,
    key: &PrivateKey,
) -> Result<Vec<u8>, CrlError> {
    let payload = encode_body(revoked, this_update.to_time32(), next_update.to_time32())?;
    let header = w::HeaderInfo::builder()
        .psid(convert::psid(ItsAid::ETSI_CRL))
        .generation_time(bt::Time64(this_update.0))
        .build();
    Ok(sign_data(&payload, header, rca, key, SignerKind::Digest)?)
}

/// The `EtsiTs102941Data` payload of a TS 102 941 CRL (C-OER): `thisUpdate` and
/// `nextUpdate` in Time32, the revoked certificates' HashedId8.
pub fn encode_body(revoked: &[HashedId8], this_update: u32, next_update: u32) -> Result<Vec<u8>, CrlError> {
    let body = EtsiTs102941Data {
        version: 1,
        content: EtsiTs102941DataContent::CertificateRevocationList(ToBeSignedCrl::new(
            bt::Time32(this_update),
            bt::Time32(next_update),
            revoked.iter().map(|id| convert::hashed_id8_to_wire(*id)).collect(),
        )),
    };
    Ok(v2x_wire::ieee1609dot2::encode(&body)?)
}

/// Decodes the `EtsiTs102941Data` payload of a TS 102 941 CRL.
pub fn decode_body(payload: &[u8]) -> Result<CrlBody, CrlError> {
    let data = decode_etsi_ts102941_data(payload)?;
    if data.version != 1 {
        return Err(CrlError::NotACrl);
    }
    let EtsiTs102941DataContent::CertificateRevocationList(tbs) = data.content else {
        return Err(CrlError::NotACrl);
    };
    if tbs.version != Integer::from(1) {
        return Err(CrlError::UnsupportedType);
    }
    Ok(CrlBody {
        format: CrlFormat::EtsiTs102941,
        craca: None,
        series: 0,
        issued: tbs.this_update.0,
        serial: 0,
        next_update: tbs.next_update.0,
        entries: CrlEntries::HashedId8(tbs.entries.iter().map(convert::hashed_id8_from_wire).collect()),
    })
}
