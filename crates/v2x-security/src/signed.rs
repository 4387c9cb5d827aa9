//! Signing and verifying generic 1609.2 SignedData with unsecured inner data: CRLs and trust
//! lists (messages go through the security entity, which has its own hot path).

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::{join_hash, CertRef, Certificate};
use crate::convert::{self, ConvertError};
use crate::message_signature::{verify_message_signature, SignatureError, SignatureForm};
use crate::trust_store::TrustStore;
use rasn_its::ieee1609dot2 as w;
use std::sync::Arc;
use v2x_crypto::{hash, CryptoError, HashedId8, PrivateKey};
use v2x_wire::ieee1609dot2::{self as wire, WireError};

/// How the signer is identified in a generic signed message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignerKind {
    Digest,
    Certificate,
}

/// Why generic signed data could not be produced or verified.
#[derive(Debug, thiserror::Error)]
pub enum SignedDataError {
    #[error("encoding")]
    Encode(#[from] WireError),
    #[error("signing")]
    Crypto(#[from] CryptoError),
    #[error("{0}")]
    Convert(#[from] ConvertError),
    #[error("signed by {found}, not by the expected {expected}")]
    WrongSigner { found: HashedId8, expected: HashedId8 },
    #[error("the signer certificate carried is not the expected one")]
    WrongSignerCertificate,
    #[error("unsupported signer identifier")]
    UnsupportedSigner,
    #[error("the signer {0} is not a trust anchor")]
    NotAnAnchor(HashedId8),
    #[error("the signed bytes are not where the spans say")]
    Spans,
    #[error("signature")]
    Signature(#[from] SignatureError),
}

/// Signs `payload` as unsecured inner data with `header`.
pub fn sign_data(
    payload: &[u8],
    header: w::HeaderInfo,
    cert: &Certificate,
    key: &PrivateKey,
    kind: SignerKind,
) -> Result<Vec<u8>, SignedDataError> {
    let tbs = wire::to_be_signed_data(wire::unsecured(payload.to_vec()), header)?;
    let tbs_bytes = wire::encode(&tbs)?;
    let alg = key.curve().hash_alg();
    let digest = join_hash(alg, hash(alg, &tbs_bytes).as_ref(), cert.signer_hash().as_ref());
    let sig = crate::message_signature::to_low_s(key.sign_digest(digest.as_ref())?);
    let signer = match kind {
        SignerKind::Digest => w::SignerIdentifier::Digest(convert::hashed_id8_to_wire(cert.hashed_id8())),
        SignerKind::Certificate => {
            w::SignerIdentifier::Certificate(w::SequenceOfCertificate(vec![cert.decoded().clone()]))
        }
    };
    let sig = convert::signature_to_wire(&sig)?;
    Ok(wire::encode_signed_data_from_parts(
        convert::hash_alg_to_wire(alg),
        &tbs_bytes,
        &signer,
        &sig,
    )?)
}

/// Verifies the signature of received signed data (`bytes` with its spans) with
/// `signer`; checks the signer identifier names that certificate.
pub fn verify_signed_data(
    bytes: &[u8],
    signed: &w::SignedData,
    spans: &wire::SignedDataSpans,
    signer: &Certificate,
) -> Result<(), SignedDataError> {
    match &signed.signer {
        w::SignerIdentifier::Digest(d) => {
            let id = convert::hashed_id8_from_wire(d);
            if id != signer.hashed_id8() && id != signer.hashed_id8_with(signer.curve().hash_alg()) {
                return Err(SignedDataError::WrongSigner {
                    found: id,
                    expected: signer.hashed_id8(),
                });
            }
        }
        w::SignerIdentifier::Certificate(_) => {
            let first = spans.signer_certificates.first().and_then(|r| bytes.get(r.clone()));
            if first != Some(signer.encoded()) {
                return Err(SignedDataError::WrongSignerCertificate);
            }
        }
        _ => return Err(SignedDataError::UnsupportedSigner),
    }
    let alg = convert::hash_alg_from_wire(&signed.hash_id)?;
    let tbs = bytes.get(spans.tbs_data.clone()).ok_or(SignedDataError::Spans)?;
    let sig = convert::signature(&signed.signature)?;
    verify_message_signature(signer, alg, &hash(alg, tbs), &sig, SignatureForm::default())?;
    Ok(())
}

/// The trust anchor of `store` that signed `signed`: named by digest, or carried as the
/// (first) signer certificate.
pub(crate) fn anchor_signer(
    bytes: &[u8],
    signed: &w::SignedData,
    spans: &wire::SignedDataSpans,
    store: &TrustStore,
) -> Result<CertRef, SignedDataError> {
    match &signed.signer {
        w::SignerIdentifier::Digest(d) => {
            let id = convert::hashed_id8_from_wire(d);
            store
                .authority(&id)
                .filter(|c| store.is_anchor(c))
                .cloned()
                .ok_or(SignedDataError::NotAnAnchor(id))
        }
        w::SignerIdentifier::Certificate(_) => {
            let first = spans
                .signer_certificates
                .first()
                .and_then(|r| bytes.get(r.clone()))
                .ok_or(SignedDataError::Spans)?;
            let cert = Certificate::from_bytes(first).map_err(|_| SignedDataError::WrongSignerCertificate)?;
            if store.is_anchor(&cert) {
                Ok(Arc::new(cert))
            } else {
                Err(SignedDataError::NotAnAnchor(cert.hashed_id8()))
            }
        }
        _ => Err(SignedDataError::UnsupportedSigner),
    }
}
