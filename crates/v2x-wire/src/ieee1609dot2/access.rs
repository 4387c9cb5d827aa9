//! Accessors that keep callers short: the signed data, its signer, header and payload; a
//! certificate's key and issuer.

use super::{
    Certificate, EncryptedData, HashAlgorithm, HashedId8, HeaderInfo, Ieee1609Dot2Content, Ieee1609Dot2Data,
    IssuerIdentifier, PublicVerificationKey, SignedData, SignerIdentifier, VerificationKeyIndicator,
};

/// The `SignedData` when `data` is signed.
pub fn signed_data(data: &Ieee1609Dot2Data) -> Option<&SignedData> {
    match &data.content {
        Ieee1609Dot2Content::SignedData(s) => Some(s),
        _ => None,
    }
}

/// The `EncryptedData` when `data` is encrypted.
pub fn encrypted_data(data: &Ieee1609Dot2Data) -> Option<&EncryptedData> {
    match &data.content {
        Ieee1609Dot2Content::EncryptedData(e) => Some(e),
        _ => None,
    }
}

/// The octets of `unsecuredData` when `data` is unsecured.
pub fn unsecured_data(data: &Ieee1609Dot2Data) -> Option<&[u8]> {
    match &data.content {
        Ieee1609Dot2Content::UnsecuredData(o) => Some(&o.0),
        _ => None,
    }
}

/// `tbsData.payload.data` of signed data (the inner `Ieee1609Dot2Data`), when present.
pub fn signed_payload_data(signed: &SignedData) -> Option<&Ieee1609Dot2Data> {
    signed.tbs_data.payload.data.as_ref()
}

/// The application payload of signed data: `tbsData.payload.data` when that is `unsecuredData`.
pub fn signed_unsecured_payload(signed: &SignedData) -> Option<&[u8]> {
    signed_payload_data(signed).and_then(unsecured_data)
}

/// `tbsData.headerInfo`.
pub fn header_info(signed: &SignedData) -> &HeaderInfo {
    &signed.tbs_data.header_info
}

/// The signer's HashedId8 when the signer is `digest`.
pub fn signer_digest(signed: &SignedData) -> Option<&HashedId8> {
    match &signed.signer {
        SignerIdentifier::Digest(d) => Some(d),
        _ => None,
    }
}

/// The certificates when the signer is `certificate` (ETSI TS 103 097 allows exactly one).
pub fn signer_certificates(signed: &SignedData) -> &[Certificate] {
    match &signed.signer {
        SignerIdentifier::Certificate(c) => &c.0,
        _ => &[],
    }
}

/// Whether the signer is `self` (only for e.g. certificate requests).
pub fn signer_is_self(signed: &SignedData) -> bool {
    matches!(signed.signer, SignerIdentifier::SelfSigned(()))
}

/// The explicit verification key of a certificate (`None` for implicit certificates).
pub fn certificate_verification_key(cert: &Certificate) -> Option<&PublicVerificationKey> {
    match &cert.to_be_signed.verify_key_indicator {
        VerificationKeyIndicator::VerificationKey(k) => Some(k),
        _ => None,
    }
}

/// Who issued a certificate, as the issuer field states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Issuer {
    /// Self-signed, with the hash algorithm used for its signature.
    SelfSigned(HashAlgorithm),
    /// Issued by the certificate with this HashedId8, computed with this hash algorithm.
    Digest(HashAlgorithm, HashedId8),
    /// An issuer form this crate does not handle (SM3).
    Other,
}

/// The issuer of a certificate.
pub fn certificate_issuer(cert: &Certificate) -> Issuer {
    match &cert.issuer {
        IssuerIdentifier::VSelf(h) => Issuer::SelfSigned(*h),
        IssuerIdentifier::Sha256AndDigest(d) => Issuer::Digest(HashAlgorithm::Sha256, d.clone()),
        IssuerIdentifier::Sha384AndDigest(d) => Issuer::Digest(HashAlgorithm::Sha384, d.clone()),
        _ => Issuer::Other,
    }
}
