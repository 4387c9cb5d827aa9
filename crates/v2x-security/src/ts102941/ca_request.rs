//! CA certificate requests (TS 102 941 §6.2.1): a new sub-CA (EA, AA) sends the root its
//! public keys and requested attributes in a `CaCertificateRequestMessage`, signed with the
//! new key (proof of possession); the root checks the signature and issues the certificate
//! with the permissions its operator decides.

use super::envelope::{self, EnvelopeError, SignedMessage, Signer, SignerId};
use super::wire::{
    self, CaCertificateRequest, CertificateSubjectAttributes, EtsiTs102941Data, EtsiTs102941DataContent, PublicKeys,
};
use super::Freshness;
use crate::authority::Authority;
use crate::certificate::CertRef;
use crate::convert;
use crate::issue::{issue_certificate, CertificateSpec, IssueError, IssuePermissions, IssuerKey};
use crate::time::TaiTime;
use rasn_its::ieee1609dot2::base_types as bt;
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{PrivateKey, PublicKey};
use v2x_wire::ieee1609dot2::CertificateId;
use v2x_wire::ItsAid;

/// Builds a `CaCertificateRequestMessage` for `key` (and `encryption_key`), self-signed.
pub fn ca_certificate_request(
    key: &PrivateKey,
    encryption_key: Option<&PrivateKey>,
    requested: &CertificateSubjectAttributes,
    now: TaiTime,
) -> Result<Vec<u8>, EnvelopeError> {
    let keys = PublicKeys {
        verification_key: convert::verification_key_to_wire(key.public_key())?,
        encryption_key: encryption_key
            .map(|k| {
                Ok::<_, EnvelopeError>(bt::PublicEncryptionKey {
                    supported_symm_alg: bt::SymmAlgorithm::Aes128Ccm,
                    public_key: convert::encryption_key_to_wire(k.public_key())?,
                })
            })
            .transpose()?,
    };
    let content = wire::encode(&EtsiTs102941Data::v1(EtsiTs102941DataContent::CaCertificateRequest(
        CaCertificateRequest::new(keys, requested.clone()),
    )))?;
    envelope::sign(&content, Signer::Own(key), now)
}

/// A checked CA certificate request.
#[derive(Debug, Clone)]
pub struct CaRequest {
    pub verification_key: PublicKey,
    pub encryption_key: Option<PublicKey>,
    pub requested: CertificateSubjectAttributes,
}

/// Why the root refuses a CA certificate request.
#[derive(Debug, thiserror::Error)]
pub enum CaRequestError {
    #[error("{0}")]
    Envelope(#[from] EnvelopeError),
    #[error("encoding: {0}")]
    Encoding(#[from] v2x_wire::ieee1609dot2::WireError),
    #[error("not a CA certificate request signed by self for PSID 623")]
    NotARequest,
    #[error("request time: {0}")]
    NotFresh(#[from] super::NotFresh),
    #[error("issuing: {0}")]
    Issue(#[from] IssueError),
}

/// Decodes a `CaCertificateRequestMessage` and checks its proof of possession and freshness.
pub fn open_ca_certificate_request(
    bytes: &[u8],
    freshness: &Freshness,
    now: TaiTime,
) -> Result<CaRequest, CaRequestError> {
    let signed = SignedMessage::parse(bytes)?;
    if !matches!(signed.signer, SignerId::Own) || signed.psid != Some(ItsAid::CERT_REQUEST) {
        return Err(CaRequestError::NotARequest);
    }
    let data = wire::decode(signed.data()?)?;
    let EtsiTs102941DataContent::CaCertificateRequest(req) = data.content else {
        return Err(CaRequestError::NotARequest);
    };
    let verification_key = convert::verification_key(&req.public_keys.verification_key).map_err(EnvelopeError::from)?;
    signed.verify_own(&verification_key)?;
    freshness.check(signed.generation_time, now)?;
    let encryption_key = req
        .public_keys
        .encryption_key
        .as_ref()
        .map(|k| convert::encryption_key(&k.public_key))
        .transpose()
        .map_err(EnvelopeError::from)?;
    Ok(CaRequest {
        verification_key,
        encryption_key,
        requested: req.requested_subject_attributes,
    })
}

/// The root issues the requested CA certificate: the requested name and validity (cut to
/// `max_validity`), with `permissions` (the operator's decision, not the requester's).
pub fn issue_ca_certificate(
    root: &Authority,
    request: &CaRequest,
    permissions: IssuePermissions,
    max_validity: Duration,
    now: TaiTime,
) -> Result<CertRef, CaRequestError> {
    let name = match &request.requested.id {
        Some(CertificateId::Name(n)) => Some(n.0.clone()),
        _ => None,
    };
    let (start, validity) = super::attributes::requested_validity(&request.requested).unwrap_or((now, max_validity));
    let mut spec = CertificateSpec::new(name.as_deref(), start, validity.min(max_validity));
    spec.issue_permissions = Some(permissions);
    spec.encryption_key = request.encryption_key.clone();
    spec.assurance_level = request.requested.assurance_level.as_ref().map(|a| a.0[0]);
    let cert = issue_certificate(
        &spec,
        &request.verification_key,
        IssuerKey::Ca {
            cert: &root.certificate,
            key: &root.key,
        },
    )?;
    Ok(Arc::new(cert))
}
