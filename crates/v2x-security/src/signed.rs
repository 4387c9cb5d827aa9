//! Signing and verifying generic 1609.2 SignedData (used for CRLs and trust lists;
//! the security entity has its own hot path for CAM/DENM).

use crate::certificate::{join_hash, Certificate};
use crate::convert;
use rasn::types::OctetString;
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use v2x_crypto::{hash, PrivateKey};
use v2x_wire::ieee1609dot2 as wire;

/// How the signer is identified in a generic signed message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignerKind {
    Digest,
    Certificate,
}

/// Signs `payload` as unsecured inner data with `header`.
pub fn sign_data(
    payload: &[u8],
    header: w::HeaderInfo,
    cert: &Certificate,
    key: &PrivateKey,
    kind: SignerKind,
) -> Result<Vec<u8>, String> {
    let data = w::Ieee1609Dot2Data {
        protocol_version: 3,
        content: w::Ieee1609Dot2Content::UnsecuredData(bt::Opaque(OctetString::from(payload))),
    };
    let payload = w::SignedDataPayload::builder()
        .data(data)
        .build()
        .map_err(|e| e.to_string())?;
    let tbs = w::ToBeSignedData {
        payload,
        header_info: header,
    };
    let tbs_bytes = v2x_wire::ieee1609dot2::encode(&tbs).map_err(|e| e.to_string())?;
    let alg = key.curve().hash_alg();
    let digest = join_hash(alg, hash(alg, &tbs_bytes).as_ref(), cert.signer_hash().as_ref());
    let sig = key.sign_digest(digest.as_ref()).map_err(|e| e.to_string())?;
    let signer = match kind {
        SignerKind::Digest => w::SignerIdentifier::Digest(convert::hashed_id8_to_wire(cert.hashed_id8())),
        SignerKind::Certificate => {
            w::SignerIdentifier::Certificate(w::SequenceOfCertificate(vec![cert.decoded().clone()]))
        }
    };
    let sig = convert::signature_to_wire(&sig).map_err(|e| e.0)?;
    wire::encode_signed_data_from_parts(convert::hash_alg_to_wire(alg), &tbs_bytes, &signer, &sig)
        .map_err(|e| e.to_string())
}

/// Verifies the signature of received signed data (`bytes` with its spans) with
/// `signer`; checks the signer identifier names that certificate.
pub fn verify_signed_data(
    bytes: &[u8],
    signed: &w::SignedData,
    spans: &wire::SignedDataSpans,
    signer: &Certificate,
) -> Result<(), String> {
    match &signed.signer {
        w::SignerIdentifier::Digest(d) => {
            let id = convert::hashed_id8_from_wire(d);
            if id != signer.hashed_id8() && id != signer.hashed_id8_with(signer.curve().hash_alg()) {
                return Err(format!("signed by {id}, not by {}", signer.hashed_id8()));
            }
        }
        w::SignerIdentifier::Certificate(_) => {
            let first = spans.signer_certificates.first().and_then(|r| bytes.get(r.clone()));
            if first != Some(signer.encoded()) {
                return Err("signer certificate is not the expected one".into());
            }
        }
        _ => return Err("unsupported signer kind".into()),
    }
    let alg = convert::hash_alg_from_wire(&signed.hash_id).map_err(|e| e.0)?;
    if alg != signer.curve().hash_alg() {
        return Err("hashId does not match the signer's curve".into());
    }
    let tbs = bytes.get(spans.tbs_data.clone()).ok_or("tbsData span")?;
    let sig = convert::signature(&signed.signature).map_err(|e| e.0)?;
    let digest = join_hash(alg, hash(alg, tbs).as_ref(), signer.signer_hash().as_ref());
    if signer
        .verification_key()
        .verify_digest(digest.as_ref(), &sig)
        .unwrap_or(false)
    {
        Ok(())
    } else {
        Err("signature does not verify".into())
    }
}
