//! Issuing IEEE 1609.2 explicit certificates (root CA self-signed, EA, AA, enrolment
//! credentials, authorization tickets).
//!
//! Signature rule (1609.2 §5.3.1): ECDSA with the issuer's key over
//! Hash( Hash(tbs encoding) || Hash(issuer certificate encoding) ), with the empty
//! string in place of the issuer for a self-signed certificate; Hash is the hash of
//! the issuer's curve (SHA-256 for p256/bp256, SHA-384 for p384/bp384).

use crate::certificate::{join_hash, AppPermission, Certificate, CertificateError};
use crate::convert;
use crate::region::Region;
use crate::time::TaiTime;
use rasn::types::{FixedOctetString, OctetString};
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use v2x_crypto::{hash, PrivateKey, PublicKey};

/// What a CA may issue: all PSIDs, or an explicit list (any SSP).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssuePermissions {
    All,
    Psids(Vec<u64>),
}

/// Everything that goes into a certificate besides keys and issuer.
#[derive(Debug, Clone)]
pub struct CertificateSpec {
    /// `Some`: CertificateId name (CAs); `None`: CertificateId none (tickets).
    pub name: Option<String>,
    pub validity_start: TaiTime,
    pub validity: std::time::Duration,
    pub region: Option<Region>,
    pub assurance_level: Option<u8>,
    pub app_permissions: Vec<AppPermission>,
    pub issue_permissions: Option<IssuePermissions>,
    /// Public encryption key (p256 or bp256), e.g. for tickets that receive encrypted data.
    pub encryption_key: Option<PublicKey>,
}

impl CertificateSpec {
    pub fn new(name: Option<&str>, validity_start: TaiTime, validity: std::time::Duration) -> CertificateSpec {
        CertificateSpec {
            name: name.map(str::to_owned),
            validity_start,
            validity,
            region: None,
            assurance_level: None,
            app_permissions: Vec::new(),
            issue_permissions: None,
            encryption_key: None,
        }
    }
}

/// Who signs a new certificate.
#[derive(Clone, Copy)]
pub enum IssuerKey<'a> {
    /// Self-signed with the subject's own key.
    SelfSigned(&'a PrivateKey),
    /// Signed by a CA certificate and its private key.
    Ca { cert: &'a Certificate, key: &'a PrivateKey },
}

#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    #[error("invalid certificate spec: {0}")]
    Spec(String),
    #[error("encoding failed: {0}")]
    Encode(String),
    #[error("crypto: {0}")]
    Crypto(#[from] v2x_crypto::CryptoError),
    #[error(transparent)]
    Certificate(#[from] CertificateError),
}

/// The 1609.2 Duration that represents `d` (largest exact unit; rounded up otherwise).
pub fn wire_duration(d: std::time::Duration) -> bt::Duration {
    let s = d.as_secs();
    type MakeDuration = fn(u16) -> bt::Duration;
    let units: [(u64, MakeDuration); 5] = [
        (31_556_952, bt::Duration::Years),
        (216_000, bt::Duration::SixtyHours),
        (3600, bt::Duration::Hours),
        (60, bt::Duration::Minutes),
        (1, bt::Duration::Seconds),
    ];
    for (unit, make) in units {
        if s.checked_rem(unit) == Some(0) && s / unit <= u64::from(u16::MAX) && s >= unit {
            return make((s / unit) as u16);
        }
    }
    for (unit, make) in units.iter().rev() {
        let v = s.div_ceil(*unit);
        if v <= u64::from(u16::MAX) {
            return make(v as u16);
        }
    }
    bt::Duration::Years(u16::MAX)
}

fn ssp_to_wire(ssp: &Option<Vec<u8>>) -> Option<bt::ServiceSpecificPermissions> {
    ssp.as_ref()
        .map(|b| bt::ServiceSpecificPermissions::Opaque(OctetString::from(b.clone())))
}

fn build_tbs(spec: &CertificateSpec, subject: &PublicKey) -> Result<w::ToBeSignedCertificate, IssueError> {
    let spec_err = |s: &str| IssueError::Spec(s.to_owned());
    let id = match &spec.name {
        Some(n) => w::CertificateId::Name(bt::Hostname(n.clone())),
        None => w::CertificateId::None(()),
    };
    let region = match &spec.region {
        Some(r) => Some(r.to_wire().ok_or_else(|| spec_err("region coordinates out of range"))?),
        None => None,
    };
    let app_permissions = if spec.app_permissions.is_empty() {
        None
    } else {
        Some(bt::SequenceOfPsidSsp(
            spec.app_permissions
                .iter()
                .map(|p| bt::PsidSsp {
                    psid: convert::psid(p.psid),
                    ssp: ssp_to_wire(&p.ssp),
                })
                .collect(),
        ))
    };
    let cert_issue_permissions = spec.issue_permissions.as_ref().map(|ip| {
        let subject_permissions = match ip {
            IssuePermissions::All => w::SubjectPermissions::All(()),
            IssuePermissions::Psids(ps) => w::SubjectPermissions::Explicit(bt::SequenceOfPsidSspRange(
                ps.iter()
                    .map(|p| bt::PsidSspRange {
                        psid: convert::psid(*p),
                        ssp_range: Some(bt::SspRange::All(())),
                    })
                    .collect(),
            )),
        };
        w::SequenceOfPsidGroupPermissions(vec![w::PsidGroupPermissions::builder()
            .subject_permissions(subject_permissions)
            .build()])
    });
    let encryption_key = match &spec.encryption_key {
        Some(k) => Some(bt::PublicEncryptionKey {
            supported_symm_alg: bt::SymmAlgorithm::Aes128Ccm,
            public_key: convert::encryption_key_to_wire(k).map_err(|e| IssueError::Spec(e.0))?,
        }),
        None => None,
    };
    let vk = convert::verification_key_to_wire(subject).map_err(|e| IssueError::Spec(e.0))?;
    w::ToBeSignedCertificate::builder()
        .id(id)
        .craca_id(bt::HashedId3(FixedOctetString::from([0u8; 3])))
        .crl_series(bt::CrlSeries(0))
        .validity_period(bt::ValidityPeriod {
            start: bt::Time32(spec.validity_start.to_time32()),
            duration: wire_duration(spec.validity),
        })
        .maybe_region(region)
        .maybe_assurance_level(
            spec.assurance_level
                .map(|a| bt::SubjectAssurance(FixedOctetString::from([a]))),
        )
        .maybe_app_permissions(app_permissions)
        .maybe_cert_issue_permissions(cert_issue_permissions)
        .maybe_encryption_key(encryption_key)
        .verify_key_indicator(w::VerificationKeyIndicator::VerificationKey(vk))
        .build()
        .map_err(|e| IssueError::Spec(e.to_string()))
}

/// Issues a certificate for `subject` per `spec`, signed by `issuer`.
pub fn issue_certificate(
    spec: &CertificateSpec,
    subject: &PublicKey,
    issuer: IssuerKey<'_>,
) -> Result<Certificate, IssueError> {
    let tbs = build_tbs(spec, subject)?;
    let tbs_bytes = rasn::coer::encode(&tbs).map_err(|e| IssueError::Encode(e.to_string()))?;
    let (signing_key, issuer_id, issuer_encoding): (&PrivateKey, w::IssuerIdentifier, &[u8]) = match issuer {
        IssuerKey::SelfSigned(k) => {
            if k.public_key() != subject {
                return Err(IssueError::Spec(
                    "a self-signed certificate must be signed with its own key".into(),
                ));
            }
            (
                k,
                w::IssuerIdentifier::VSelf(convert::hash_alg_to_wire(k.curve().hash_alg())),
                b"",
            )
        }
        IssuerKey::Ca { cert, key } => {
            if key.public_key() != cert.verification_key() {
                return Err(IssueError::Spec(
                    "issuer key does not match the issuer certificate".into(),
                ));
            }
            let alg = key.curve().hash_alg();
            let id = convert::hashed_id8_to_wire(cert.hashed_id8_with(alg));
            let issuer_id = match alg {
                v2x_crypto::HashAlg::Sha256 => w::IssuerIdentifier::Sha256AndDigest(id),
                v2x_crypto::HashAlg::Sha384 => w::IssuerIdentifier::Sha384AndDigest(id),
            };
            (key, issuer_id, cert.encoded())
        }
    };
    let alg = signing_key.curve().hash_alg();
    let digest = join_hash(alg, hash(alg, &tbs_bytes).as_ref(), hash(alg, issuer_encoding).as_ref());
    let sig = signing_key.sign_digest(digest.as_ref())?;
    let base = w::CertificateBase::builder()
        .r#type(w::CertificateType::Explicit)
        .issuer(issuer_id)
        .to_be_signed(tbs)
        .signature(convert::signature_to_wire(&sig).map_err(|e| IssueError::Encode(e.0))?)
        .build();
    let cert = w::ExplicitCertificate::new(base).map_err(|e| IssueError::Spec(e.to_string()))?;
    let cert: w::Certificate = cert.into();
    let encoded = rasn::coer::encode(&cert).map_err(|e| IssueError::Encode(e.to_string()))?;
    // Parse our own encoding so the wrapper's spans refer to the bytes we hand out.
    let (decoded, spans) =
        v2x_wire::ieee1609dot2::parse_certificate(&encoded).map_err(|e| IssueError::Encode(e.to_string()))?;
    Ok(Certificate::prepare(encoded, decoded, spans.to_be_signed)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use v2x_crypto::Curve;

    #[test]
    fn durations_pick_exact_units() {
        assert_eq!(
            wire_duration(Duration::from_secs(7 * 24 * 3600)),
            bt::Duration::Hours(168)
        );
        assert_eq!(wire_duration(Duration::from_secs(90)), bt::Duration::Seconds(90));
        assert_eq!(
            wire_duration(Duration::from_secs(2 * 31_556_952)),
            bt::Duration::Years(2)
        );
    }

    #[test]
    fn issued_chain_verifies_on_every_curve() {
        for curve in Curve::ALL {
            let rk = PrivateKey::generate(curve).unwrap();
            let mut spec =
                CertificateSpec::new(Some("root"), TaiTime::from_time32(1000), Duration::from_secs(3600 * 24));
            spec.issue_permissions = Some(IssuePermissions::All);
            let root = issue_certificate(&spec, rk.public_key(), IssuerKey::SelfSigned(&rk)).unwrap();
            assert!(root.verify_signature(None), "{curve}");
            let ak = PrivateKey::generate(Curve::NistP256).unwrap();
            let mut at = CertificateSpec::new(None, TaiTime::from_time32(1000), Duration::from_secs(3600));
            at.app_permissions.push(AppPermission {
                psid: 36,
                ssp: Some(vec![1, 0xff, 0xfc]),
            });
            let at = issue_certificate(&at, ak.public_key(), IssuerKey::Ca { cert: &root, key: &rk }).unwrap();
            assert!(at.verify_signature(Some(&root)));
            assert_eq!(at.permission_for(36), Some(Some(&[1u8, 0xff, 0xfc][..])));
            assert_eq!(at.issuer().hash_alg(), curve.hash_alg());
            let again = Certificate::from_bytes(at.encoded()).unwrap();
            assert_eq!(again.hashed_id8(), at.hashed_id8());
        }
    }
}
