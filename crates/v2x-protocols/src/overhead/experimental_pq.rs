//! Overhead rows of the EXPERIMENTAL post-quantum designs (`v2x_security::pq`), from real
//! SN-ENCAPs: a CAM of [`PAYLOAD_LEN`] bytes signed with the ticket's digest and with the whole
//! ticket, split along the 0xE1 layout of `v2x_wire::experimental_pq` (the certificate into
//! its body, subject key and issuer signature).

use super::row::{field, OverheadField, OverheadRow};
use super::standard::{PAYLOAD_LEN, T0};
use crate::setup::SetupError;
use crate::EncapError;
use v2x_security::pq::{PqDesign, PqPki};
use v2x_security::TaiTime;
use v2x_wire::experimental_pq::{PqCertificate, PqSecuredMessage, PqSigner};
use v2x_wire::ItsAid;

/// The fields of one encoded message; they add up to its length minus the payload.
fn fields(design: PqDesign, msg: &[u8]) -> Result<Vec<OverheadField>, SetupError> {
    let m = PqSecuredMessage::decode(msg)?;
    let mut out = vec![
        field("experimental header", 2, "0xE1 magic, design octet"),
        field("tbsData length", 2, ""),
        field(
            "1609.2 ToBeSignedData framing",
            m.tbs.len() - PAYLOAD_LEN,
            "payload preamble and length, headerInfo: psid, generationTime",
        ),
        field("signer choice", 1, ""),
    ];
    match &m.signer {
        PqSigner::Digest(_) => out.push(field("signer digest", 8, "HashedId8 of the ticket")),
        PqSigner::Certificate(c) => {
            let (cert, _) = PqCertificate::decode(c)?;
            let key = 3 + cert.key.bytes.len();
            let sig = 3 + cert.signature.bytes.len();
            out.push(field("certificate length", 2, ""));
            out.push(field(
                "certificate body",
                c.len() - key - sig,
                "kind, issuer, validity, permissions with SSPs, depth",
            ));
            out.push(field(
                "certificate subject key",
                key,
                format!("{} key with scheme id and length", design.message_scheme()),
            ));
            out.push(field(
                "certificate signature",
                sig,
                format!(
                    "AA's {} signature with scheme id and length",
                    design.certificate_scheme()
                ),
            ));
        }
    }
    out.push(field("signature scheme and length", 3, ""));
    out.push(field(
        "signature",
        m.signature.bytes.len(),
        design.message_scheme().to_string(),
    ));
    Ok(out)
}

/// A digest- and a certificate-signed CAM of every design.
pub fn rows() -> Result<Vec<OverheadRow>, SetupError> {
    let now = TaiTime::from_time32(T0 as u32);
    let payload = [0x5a; PAYLOAD_LEN];
    let mut rows = Vec::new();
    for design in PqDesign::ALL {
        let pki = PqPki::new(design, now)?;
        let mut tx = pki.sender(pki.ticket()?);
        for (signer, with_certificate) in [("digest", false), ("certificate", true)] {
            let msg = tx
                .encap(&payload, ItsAid::CAM, None, now, with_certificate)
                .map_err(EncapError::from)?;
            rows.push(OverheadRow {
                protocol: design.name(),
                message: "cam".into(),
                variant: format!("sign/{signer}/{}", design.message_scheme()),
                fields: fields(design, &msg)?,
                total_bytes: msg.len() - PAYLOAD_LEN,
                paper: Vec::new(),
            });
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_adds_up_and_the_signature_and_key_sizes_are_the_standards() {
        let rows = rows().unwrap();
        assert_eq!(rows.len(), 2 * PqDesign::ALL.len());
        for r in &rows {
            assert!(r.is_consistent(), "{} {}: {:?}", r.protocol, r.variant, r.fields);
        }
        let bytes = |r: &OverheadRow, name: &str| r.fields.iter().find(|f| f.name == name).map(|f| f.bytes);
        let find = |p: &str, v: &str| {
            rows.iter()
                .find(|r| r.protocol == p && r.variant == v)
                .unwrap_or_else(|| panic!("{p} {v}"))
        };
        // ML-DSA-44 (FIPS 204 Table 2): 2,420-byte signature, 1,312-byte public key.
        let ml = find("experimental-pq-only-ml-dsa-44", "sign/certificate/ml-dsa-44");
        assert_eq!(bytes(ml, "signature"), Some(2420));
        assert_eq!(bytes(ml, "certificate subject key"), Some(3 + 1312));
        assert_eq!(bytes(ml, "certificate signature"), Some(3 + 2420));
        // Partially hybrid: an ECDSA P-256 message signature, a composite certificate signature.
        let ph = find("experimental-partially-hybrid-ndss2024", "sign/digest/ecdsa-p256");
        assert_eq!(bytes(ph, "signature"), Some(64));
        assert_eq!(bytes(ph, "signer digest"), Some(8));
        let phc = find("experimental-partially-hybrid-ndss2024", "sign/certificate/ecdsa-p256");
        assert_eq!(bytes(phc, "certificate signature"), Some(3 + 64 + 666));
        // The digest form differs from the certificate form by the certificate alone.
        assert_eq!(
            phc.total_bytes - ph.total_bytes,
            2 + bytes(phc, "certificate body").unwrap() + 3 + 33 + 3 + 64 + 666 - 8
        );
    }
}
