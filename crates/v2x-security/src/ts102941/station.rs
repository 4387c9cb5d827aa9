//! The ITS-S side of TS 102 941 §6.2.3.2 (enrolment) and §6.2.3.3 (authorization): build the
//! request, keep what is needed to read the response (the AES key and the request hash), and
//! accept the response only if it is the EA's (AA's) answer to this very request.
//!
//! Enrolment request: `InnerEcRequest` signed with the new key (proof of possession), put in an
//! `EtsiTs102941Data`, signed by the canonical key (initial enrolment; `itsId` = canonical id) or
//! by the current EC (re-enrolment; `itsId` = its HashedId8), encrypted to the EA.
//!
//! Authorization request: the AT keys, an HMAC key and `keyTag` = HMAC-SHA256(hmacKey,
//! C-OER(verificationKey) ‖ C-OER(encryptionKey)) truncated to 16 octets (binds the shared request
//! to the keys without showing them to the EA), the shared request and the EC's signature over its
//! SHA-256, that signature encrypted for the EA when privacy is on; optionally signed with the AT
//! key (AuthorizationRequestMessageWithPop); encrypted to the AA.

use super::envelope::{self, EnvelopeError, SignedMessage, Signer};
use super::{request_hash, wire};
use crate::authority::{encryption_curve, Authority};
use crate::certificate::{CertRef, Certificate};
use crate::convert::{self, ConvertError};
use crate::encryption::SymmetricKey;
use crate::pseudonym::Credentials;
use crate::time::TaiTime;
use rasn_its::ieee1609dot2::base_types as bt;
use std::sync::Arc;
use v2x_crypto::{hmac_sha256, random_bytes, Curve, PrivateKey};
use v2x_wire::ieee1609dot2::{self as w1609, WireError};
use wire::{
    AuthorizationResponseCode, CertificateSubjectAttributes, EcSignature, EnrolmentResponseCode, EtsiTs102941Data,
    EtsiTs102941DataContent, InnerAtRequest, InnerEcRequest, PublicKeys, SharedAtRequest,
};

/// Why a request could not be built or a response not be read.
#[derive(Debug, thiserror::Error)]
pub enum StationError {
    #[error("{0}")]
    Envelope(#[from] EnvelopeError),
    #[error("encoding: {0}")]
    Encoding(#[from] WireError),
    #[error("{0}")]
    Convert(#[from] ConvertError),
    #[error("crypto: {0}")]
    Crypto(#[from] v2x_crypto::CryptoError),
    #[error("the response is not {0}")]
    UnexpectedContent(&'static str),
    #[error("the response answers another request (requestHash differs)")]
    OtherRequest,
    #[error("the response is not signed with PSID 623")]
    Psid,
    #[error("the certificate in the response is unusable: {0}")]
    Certificate(String),
    #[error("the encoder did not reproduce the signed bytes it nests")]
    Nesting,
}

/// C-OER of the content around `nested` (signed bytes it embeds), checked to hold them verbatim.
fn encode_nesting(data: &EtsiTs102941Data, nested: &[u8]) -> Result<Vec<u8>, StationError> {
    let bytes = wire::encode(data)?;
    let spans = wire::nested_spans(&bytes)?;
    match spans.secured.and_then(|r| bytes.get(r)) {
        Some(b) if b == nested => Ok(bytes),
        _ => Err(StationError::Nesting),
    }
}

fn public_keys(signing: &PrivateKey, encryption: Option<&PrivateKey>) -> Result<PublicKeys, ConvertError> {
    Ok(PublicKeys {
        verification_key: convert::verification_key_to_wire(signing.public_key())?,
        encryption_key: encryption
            .map(|k| {
                Ok::<_, ConvertError>(bt::PublicEncryptionKey {
                    supported_symm_alg: bt::SymmAlgorithm::Aes128Ccm,
                    public_key: convert::encryption_key_to_wire(k.public_key())?,
                })
            })
            .transpose()?,
    })
}

/// `keyTag`: the leftmost 16 octets of HMAC-SHA256(`hmac_key`, C-OER(verificationKey) ‖
/// C-OER(encryptionKey, when present)).
pub fn key_tag(hmac_key: &[u8; 32], keys: &PublicKeys) -> Result<[u8; 16], WireError> {
    let mut data = wire::encode(&keys.verification_key)?;
    if let Some(e) = &keys.encryption_key {
        data.extend_from_slice(&wire::encode(e)?);
    }
    let mac = hmac_sha256(hmac_key, &data);
    let mut tag = [0u8; 16];
    tag.copy_from_slice(&mac[..16]);
    Ok(tag)
}

/// Who an enrolment request comes from.
#[derive(Clone, Copy)]
pub enum EnrolmentIdentity<'a> {
    /// Initial enrolment: the canonical identifier and key the EA registered.
    Canonical { its_id: &'a [u8], key: &'a PrivateKey },
    /// Re-enrolment with the current (valid) enrolment credential.
    Reenrolment { ec: &'a Authority },
}

/// An enrolment request on its way, and what reading its response needs.
#[derive(Clone)]
pub struct EnrolmentRequest {
    /// The `EnrolmentRequestMessage` to POST to the EA.
    pub message: Vec<u8>,
    pub request_hash: [u8; 16],
    key: SymmetricKey,
    /// The key the new EC certifies.
    pub verification_key: PrivateKey,
    pub encryption_key: Option<PrivateKey>,
}

/// Builds an enrolment request to `ea` for `requested` attributes, with a new key on `curve`
/// (and an encryption key when `with_encryption_key`).
pub fn enrolment_request(
    identity: EnrolmentIdentity<'_>,
    ea: &CertRef,
    requested: &CertificateSubjectAttributes,
    curve: Curve,
    with_encryption_key: bool,
    now: TaiTime,
) -> Result<EnrolmentRequest, StationError> {
    let verification_key = PrivateKey::generate(curve)?;
    let encryption_key = if with_encryption_key {
        Some(PrivateKey::generate(encryption_curve(curve))?)
    } else {
        None
    };
    let its_id = match identity {
        EnrolmentIdentity::Canonical { its_id, .. } => its_id.to_vec(),
        EnrolmentIdentity::Reenrolment { ec } => ec.certificate.hashed_id8().0.to_vec(),
    };
    let inner = InnerEcRequest::new(
        its_id,
        public_keys(&verification_key, encryption_key.as_ref())?,
        requested.clone(),
    );
    let pop = envelope::sign(&wire::encode(&inner)?, Signer::Own(&verification_key), now)?;
    let (pop_data, _) = w1609::parse_data(&pop)?;
    let content = encode_nesting(
        &EtsiTs102941Data::v1(EtsiTs102941DataContent::EnrolmentRequest(pop_data)),
        &pop,
    )?;
    let outer = match identity {
        EnrolmentIdentity::Canonical { key, .. } => envelope::sign(&content, Signer::Own(key), now)?,
        EnrolmentIdentity::Reenrolment { ec } => {
            envelope::sign(&content, Signer::Certificate(&ec.certificate, &ec.key), now)?
        }
    };
    let sealed = envelope::encrypt_to(&outer, ea)?;
    Ok(EnrolmentRequest {
        request_hash: request_hash(&sealed.bytes),
        message: sealed.bytes,
        key: sealed.key,
        verification_key,
        encryption_key,
    })
}

/// What the EA answered.
#[derive(Debug)]
pub enum EnrolmentOutcome {
    /// Enrolled: the new enrolment credential with its key.
    Enrolled {
        ec: Authority,
        encryption_key: Option<PrivateKey>,
    },
    /// Refused, with the EA's response code.
    Refused(EnrolmentResponseCode),
}

/// Reads the EA's `EnrolmentResponseMessage` to `request`.
pub fn read_enrolment_response(
    response: &[u8],
    request: EnrolmentRequest,
    ea: &Certificate,
) -> Result<EnrolmentOutcome, StationError> {
    let plaintext = envelope::decrypt_psk(response, &request.key)?;
    let signed = signed_by(&plaintext, ea)?;
    let data = wire::decode(signed.data()?)?;
    let EtsiTs102941DataContent::EnrolmentResponse(r) = data.content else {
        return Err(StationError::UnexpectedContent("an enrolment response"));
    };
    if r.request_hash[..] != request.request_hash[..] {
        return Err(StationError::OtherRequest);
    }
    if r.response_code != EnrolmentResponseCode::Ok {
        return Ok(EnrolmentOutcome::Refused(r.response_code));
    }
    let cert = r
        .certificate
        .ok_or(StationError::UnexpectedContent("an ok response with a certificate"))?;
    let ec = certificate_for(&cert, ea, &request.verification_key)?;
    Ok(EnrolmentOutcome::Enrolled {
        ec: Authority {
            certificate: ec,
            key: request.verification_key,
        },
        encryption_key: request.encryption_key,
    })
}

/// Signed data signed by `signer` with PSID 623.
fn signed_by(plaintext: &[u8], signer: &Certificate) -> Result<SignedMessage, StationError> {
    let signed = SignedMessage::parse(plaintext)?;
    signed.verify_by(signer)?;
    if signed.psid != Some(v2x_wire::ItsAid::CERT_REQUEST) {
        return Err(StationError::Psid);
    }
    Ok(signed)
}

/// A certificate from a response: issued by `issuer`, for `key`.
fn certificate_for(cert: &w1609::Certificate, issuer: &Certificate, key: &PrivateKey) -> Result<CertRef, StationError> {
    let cert = Certificate::from_bytes(&wire::encode(cert)?).map_err(|e| StationError::Certificate(e.to_string()))?;
    if !cert.verify_signature(Some(issuer)) {
        return Err(StationError::Certificate("not signed by the authority".into()));
    }
    if cert.verification_key() != key.public_key() {
        return Err(StationError::Certificate("certifies another key".into()));
    }
    Ok(Arc::new(cert))
}

/// How an authorization request is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuthorizationOptions {
    /// Encrypt the EC signature for the EA (`encryptedEcSignature`), so the AA cannot learn
    /// which EC asked.
    pub privacy: bool,
    /// Sign the request with the new AT key (`AuthorizationRequestMessageWithPop`).
    pub proof_of_possession: bool,
    /// Ask for an AT with an encryption key.
    pub encryption_key: bool,
}

impl Default for AuthorizationOptions {
    /// Privacy on, proof of possession on, with an encryption key (as this crate's tickets).
    fn default() -> Self {
        AuthorizationOptions {
            privacy: true,
            proof_of_possession: true,
            encryption_key: true,
        }
    }
}

/// An authorization request on its way, and what reading its response needs.
#[derive(Clone)]
pub struct AuthorizationRequest {
    /// The `AuthorizationRequestMessage(WithPop)` to POST to the AA.
    pub message: Vec<u8>,
    pub request_hash: [u8; 16],
    key: SymmetricKey,
    pub verification_key: PrivateKey,
    pub encryption_key: Option<PrivateKey>,
}

/// Builds an authorization request: `ec` (issued by `ea`) asks `aa` for one AT with
/// `requested` attributes.
pub fn authorization_request(
    ec: &Authority,
    ea: &CertRef,
    aa: &CertRef,
    requested: &CertificateSubjectAttributes,
    options: AuthorizationOptions,
    now: TaiTime,
) -> Result<AuthorizationRequest, StationError> {
    let curve = ec.key.curve();
    let verification_key = PrivateKey::generate(curve)?;
    let encryption_key = if options.encryption_key {
        Some(PrivateKey::generate(encryption_curve(curve))?)
    } else {
        None
    };
    let keys = public_keys(&verification_key, encryption_key.as_ref())?;
    let mut hmac_key = [0u8; 32];
    hmac_key.copy_from_slice(&random_bytes(32));
    let shared = SharedAtRequest::new(
        convert::hashed_id8_to_wire(ea.hashed_id8()),
        key_tag(&hmac_key, &keys)?,
        requested.clone(),
    );
    let ec_signed = envelope::sign_external(
        &wire::encode(&shared)?,
        Signer::Certificate(&ec.certificate, &ec.key),
        now,
    )?;
    let (ec_signature, nested) = if options.privacy {
        let sealed = envelope::encrypt_to(&ec_signed, ea)?;
        let (d, _) = w1609::parse_data(&sealed.bytes)?;
        (EcSignature::EncryptedEcSignature(d), sealed.bytes)
    } else {
        let (d, _) = w1609::parse_data(&ec_signed)?;
        (EcSignature::EcSignature(d), ec_signed)
    };
    let content = encode_nesting(
        &EtsiTs102941Data::v1(EtsiTs102941DataContent::AuthorizationRequest(InnerAtRequest::new(
            keys,
            hmac_key,
            shared,
            ec_signature,
        ))),
        &nested,
    )?;
    let plaintext = if options.proof_of_possession {
        envelope::sign(&content, Signer::Own(&verification_key), now)?
    } else {
        content
    };
    let sealed = envelope::encrypt_to(&plaintext, aa)?;
    Ok(AuthorizationRequest {
        request_hash: request_hash(&sealed.bytes),
        message: sealed.bytes,
        key: sealed.key,
        verification_key,
        encryption_key,
    })
}

/// What the AA answered.
#[derive(Debug)]
pub enum AuthorizationOutcome {
    /// The authorization ticket with its keys.
    Authorized(Credentials),
    /// Refused, with the AA's response code.
    Refused(AuthorizationResponseCode),
}

/// Reads the AA's `AuthorizationResponseMessage` to `request`.
pub fn read_authorization_response(
    response: &[u8],
    request: AuthorizationRequest,
    aa: &Certificate,
) -> Result<AuthorizationOutcome, StationError> {
    let plaintext = envelope::decrypt_psk(response, &request.key)?;
    let signed = signed_by(&plaintext, aa)?;
    let data = wire::decode(signed.data()?)?;
    let EtsiTs102941DataContent::AuthorizationResponse(r) = data.content else {
        return Err(StationError::UnexpectedContent("an authorization response"));
    };
    if r.request_hash[..] != request.request_hash[..] {
        return Err(StationError::OtherRequest);
    }
    if r.response_code != AuthorizationResponseCode::Ok {
        return Ok(AuthorizationOutcome::Refused(r.response_code));
    }
    let cert = r
        .certificate
        .ok_or(StationError::UnexpectedContent("an ok response with a certificate"))?;
    let certificate = certificate_for(&cert, aa, &request.verification_key)?;
    Ok(AuthorizationOutcome::Authorized(Credentials {
        certificate,
        signing_key: request.verification_key,
        encryption_key: request.encryption_key,
    }))
}
