//! Issuing IEEE 1609.2 explicit certificates (root CA self-signed, EA, AA, enrolment
//! credentials, authorization tickets).
//!
//! Signature rule (1609.2 §5.3.1): ECDSA with the issuer's key over
//! Hash( Hash(tbs encoding) || Hash(issuer certificate encoding) ), with the empty
//! string in place of the issuer for a self-signed certificate; Hash is the hash of
//! the issuer's curve (SHA-256 for p256/bp256, SHA-384 for p384/bp384).

use crate::certificate::{join_hash, AppPermission, Certificate, CertificateError};
use crate::convert::{self, ConvertError};
use crate::region::Region;
use crate::time::TaiTime;
use rasn::error::InnerSubtypeConstraintError;
use rasn::types::{FixedBitString, FixedOctetString, Integer, OctetString};
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use v2x_crypto::{hash, PrivateKey, PublicKey};
use v2x_wire::ieee1609dot2::WireError;
use v2x_wire::ItsAid;

/// The SSPs a CA may grant for one PSID (1609.2 `SspRange`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SspRangeSpec {
    /// Any SSP (the range is omitted, as 1609.2 prefers for "all").
    Any,
    /// One of these opaque SSPs.
    Opaque(Vec<Vec<u8>>),
    /// Bitmap SSPs whose bits under `mask` equal those of `value` (the others are free).
    Bitmap { value: Vec<u8>, mask: Vec<u8> },
}

/// One `PsidGroupPermissions`: which permissions a CA may pass on, how far down the chain,
/// and to which kind of end entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PsidGroup {
    /// `None`: every PSID (`SubjectPermissions.all`); otherwise each PSID with its SSP range.
    pub subjects: Option<Vec<(ItsAid, SspRangeSpec)>>,
    /// `minChainLength`: 1 means the CA may issue end-entity certificates directly.
    pub min_chain_length: u32,
    /// `chainLengthRange`: how many more levels below the minimum; -1 means unlimited.
    pub chain_length_range: i32,
    /// `eeType.app`: the chain may end in a certificate with `appPermissions`.
    pub app: bool,
    /// `eeType.enrol`: the chain may end in a certificate with `certRequestPermissions`.
    pub enrol: bool,
}

impl PsidGroup {
    /// End-entity certificates only (chain length 1), app end entities, these PSIDs with any SSP.
    pub fn end_entities(psids: &[ItsAid]) -> PsidGroup {
        PsidGroup {
            subjects: Some(psids.iter().map(|&p| (p, SspRangeSpec::Any)).collect()),
            min_chain_length: 1,
            chain_length_range: 0,
            app: true,
            enrol: false,
        }
    }
}

/// What a CA may issue (`certIssuePermissions`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssuePermissions {
    /// Every PSID and SSP, at any chain length, to app and enrolment end entities (a root CA).
    All,
    /// End-entity certificates only (chain length 1, eeType app) for these PSIDs, any SSP (an
    /// authorization or enrolment authority).
    Psids(Vec<ItsAid>),
    /// Explicit groups.
    Groups(Vec<PsidGroup>),
}

impl IssuePermissions {
    /// The groups these permissions stand for.
    pub fn groups(&self) -> Vec<PsidGroup> {
        match self {
            IssuePermissions::All => vec![PsidGroup {
                subjects: None,
                min_chain_length: 1,
                chain_length_range: -1,
                app: true,
                enrol: true,
            }],
            IssuePermissions::Psids(ps) => vec![PsidGroup::end_entities(ps)],
            IssuePermissions::Groups(g) => g.clone(),
        }
    }
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
    /// Write the SSPs as `bitmapSsp` (the ETSI CAM/DENM form) instead of `opaque`.
    pub bitmap_ssp: bool,
    pub issue_permissions: Option<IssuePermissions>,
    /// `certRequestPermissions` (what an enrolment certificate may request).
    pub request_permissions: Option<Vec<PsidGroup>>,
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
            bitmap_ssp: false,
            issue_permissions: None,
            request_permissions: None,
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

/// Why a certificate could not be issued.
#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    #[error("region coordinates out of range")]
    RegionOutOfRange,
    #[error("a self-signed certificate must be signed with its own key")]
    SelfSignedKeyMismatch,
    #[error("the issuer key does not match the issuer certificate")]
    IssuerKeyMismatch,
    #[error("chain length values out of range for 1609.2")]
    ChainLength,
    #[error("{field}")]
    Field {
        field: &'static str,
        #[source]
        source: ConvertError,
    },
    #[error("certificate structure")]
    Structure(#[from] InnerSubtypeConstraintError),
    #[error("encoding")]
    Encode(#[from] WireError),
    #[error("signing")]
    Crypto(#[from] v2x_crypto::CryptoError),
    #[error("the issued certificate is unusable")]
    Certificate(#[from] CertificateError),
}

fn field(field: &'static str) -> impl FnOnce(ConvertError) -> IssueError {
    move |source| IssueError::Field { field, source }
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

fn ssp_to_wire(ssp: &Option<Vec<u8>>, bitmap: bool) -> Option<bt::ServiceSpecificPermissions> {
    ssp.as_ref().map(|b| {
        if bitmap {
            bt::ServiceSpecificPermissions::BitmapSsp(bt::BitmapSsp(OctetString::from(b.clone())))
        } else {
            bt::ServiceSpecificPermissions::Opaque(OctetString::from(b.clone()))
        }
    })
}

fn ssp_range_to_wire(r: &SspRangeSpec) -> Option<bt::SspRange> {
    match r {
        SspRangeSpec::Any => None,
        SspRangeSpec::Opaque(list) => Some(bt::SspRange::Opaque(
            list.iter().map(|o| OctetString::from(o.clone())).collect(),
        )),
        SspRangeSpec::Bitmap { value, mask } => Some(bt::SspRange::BitmapSspRange(bt::BitmapSspRange {
            ssp_value: OctetString::from(value.clone()),
            ssp_bitmask: OctetString::from(mask.clone()),
        })),
    }
}

fn groups_to_wire(groups: &[PsidGroup]) -> Result<w::SequenceOfPsidGroupPermissions, IssueError> {
    let mut out = Vec::with_capacity(groups.len());
    for g in groups {
        let subject_permissions = match &g.subjects {
            None => w::SubjectPermissions::All(()),
            Some(list) => w::SubjectPermissions::Explicit(bt::SequenceOfPsidSspRange(
                list.iter()
                    .map(|(psid, range)| bt::PsidSspRange {
                        psid: convert::psid(*psid),
                        ssp_range: ssp_range_to_wire(range),
                    })
                    .collect(),
            )),
        };
        if g.chain_length_range < -1 {
            return Err(IssueError::ChainLength);
        }
        let ee = u8::from(g.app) << 7 | u8::from(g.enrol) << 6;
        out.push(
            w::PsidGroupPermissions::builder()
                .subject_permissions(subject_permissions)
                .min_chain_length(Integer::from(g.min_chain_length))
                .chain_length_range(Integer::from(g.chain_length_range))
                .ee_type(w::EndEntityType(FixedBitString::new([ee, 0, 0, 0, 0, 0, 0, 0])))
                .build(),
        );
    }
    Ok(w::SequenceOfPsidGroupPermissions(out))
}

fn build_tbs(spec: &CertificateSpec, subject: &PublicKey) -> Result<w::ToBeSignedCertificate, IssueError> {
    let id = match &spec.name {
        Some(n) => w::CertificateId::Name(bt::Hostname(n.clone())),
        None => w::CertificateId::None(()),
    };
    let region = match &spec.region {
        Some(r) => Some(r.to_wire().ok_or(IssueError::RegionOutOfRange)?),
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
                    ssp: ssp_to_wire(&p.ssp, spec.bitmap_ssp),
                })
                .collect(),
        ))
    };
    let cert_issue_permissions = match &spec.issue_permissions {
        Some(ip) => Some(groups_to_wire(&ip.groups())?),
        None => None,
    };
    let cert_request_permissions = match &spec.request_permissions {
        Some(g) => Some(groups_to_wire(g)?),
        None => None,
    };
    let encryption_key = match &spec.encryption_key {
        Some(k) => Some(bt::PublicEncryptionKey {
            supported_symm_alg: bt::SymmAlgorithm::Aes128Ccm,
            public_key: convert::encryption_key_to_wire(k).map_err(field("encryption key"))?,
        }),
        None => None,
    };
    let vk = convert::verification_key_to_wire(subject).map_err(field("verification key"))?;
    Ok(w::ToBeSignedCertificate::builder()
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
        .maybe_cert_request_permissions(cert_request_permissions)
        .maybe_encryption_key(encryption_key)
        .verify_key_indicator(w::VerificationKeyIndicator::VerificationKey(vk))
        .build()?)
}

/// Issues a certificate for `subject` per `spec`, signed by `issuer`.
pub fn issue_certificate(
    spec: &CertificateSpec,
    subject: &PublicKey,
    issuer: IssuerKey<'_>,
) -> Result<Certificate, IssueError> {
    let tbs = build_tbs(spec, subject)?;
    let tbs_bytes = v2x_wire::ieee1609dot2::encode(&tbs)?;
    let (signing_key, issuer_id, issuer_encoding): (&PrivateKey, w::IssuerIdentifier, &[u8]) = match issuer {
        IssuerKey::SelfSigned(k) => {
            if k.public_key() != subject {
                return Err(IssueError::SelfSignedKeyMismatch);
            }
            (
                k,
                w::IssuerIdentifier::VSelf(convert::hash_alg_to_wire(k.curve().hash_alg())),
                b"",
            )
        }
        IssuerKey::Ca { cert, key } => {
            if key.public_key() != cert.verification_key() {
                return Err(IssueError::IssuerKeyMismatch);
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
    let sig = crate::message_signature::to_low_s(signing_key.sign_digest(digest.as_ref())?);
    let base = w::CertificateBase::builder()
        .r#type(w::CertificateType::Explicit)
        .issuer(issuer_id)
        .to_be_signed(tbs)
        .signature(convert::signature_to_wire(&sig).map_err(field("signature"))?)
        .build();
    let cert: w::Certificate = w::ExplicitCertificate::new(base)?.into();
    let encoded = v2x_wire::ieee1609dot2::encode(&cert)?;
    // `toBeSigned` is followed only by the signature (CertificateBase is not extensible):
    // its range in what we hand out is known without decoding our own output again; if the
    // bytes there are not the ones signed, decode to find it.
    let signature_len = match &cert.signature {
        Some(s) => v2x_wire::ieee1609dot2::encode(s)?.len(),
        None => 0,
    };
    let tbs = encoded
        .len()
        .checked_sub(signature_len + tbs_bytes.len())
        .map(|start| start..start + tbs_bytes.len())
        .filter(|r| encoded.get(r.clone()) == Some(&tbs_bytes[..]));
    let (decoded, tbs) = match tbs {
        Some(tbs) => (cert, tbs),
        None => {
            let (decoded, spans) = v2x_wire::ieee1609dot2::parse_certificate(&encoded)?;
            (decoded, spans.to_be_signed)
        }
    };
    let keys = (subject.clone(), spec.encryption_key.clone());
    Ok(Certificate::prepare_with_keys(encoded, decoded, tbs, Some(keys))?)
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

    /// A self-signed root on `curve` that may issue anything, valid for a day from TAI 1000 s.
    fn self_signed_root(curve: Curve) -> (PrivateKey, Certificate) {
        let rk = PrivateKey::generate(curve).unwrap();
        let mut spec = CertificateSpec::new(Some("root"), TaiTime::from_time32(1000), Duration::from_secs(3600 * 24));
        spec.issue_permissions = Some(IssuePermissions::All);
        let root = issue_certificate(&spec, rk.public_key(), IssuerKey::SelfSigned(&rk)).unwrap();
        (rk, root)
    }

    #[test]
    fn issued_chain_verifies_on_every_curve() {
        for curve in Curve::ALL {
            let (rk, root) = self_signed_root(curve);
            assert!(root.verify_signature(None), "{curve}");
            let ak = PrivateKey::generate(Curve::NistP256).unwrap();
            let mut at = CertificateSpec::new(None, TaiTime::from_time32(1000), Duration::from_secs(3600));
            at.app_permissions
                .push(AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc])));
            let at = issue_certificate(&at, ak.public_key(), IssuerKey::Ca { cert: &root, key: &rk }).unwrap();
            assert!(at.verify_signature(Some(&root)));
            assert_eq!(at.permission_for(36), Some(Some(&[1u8, 0xff, 0xfc][..])));
            assert_eq!(at.issuer().hash_alg(), curve.hash_alg());
            let again = Certificate::from_bytes(at.encoded()).unwrap();
            assert_eq!(again.hashed_id8(), at.hashed_id8());
        }
    }

    #[test]
    fn an_issued_certificate_is_what_decoding_its_encoding_gives() {
        // The issuer keeps the keys it encoded and finds toBeSigned without decoding its own
        // output: everything must equal a fresh decode of the bytes handed out.
        for curve in Curve::ALL {
            let (rk, root) = self_signed_root(curve);
            for with_encryption_key in [false, true] {
                let vk = PrivateKey::generate(curve).unwrap();
                let mut at = CertificateSpec::new(None, TaiTime::from_time32(1000), Duration::from_secs(3600));
                at.app_permissions.push(AppPermission::new(ItsAid::CAM, None));
                if with_encryption_key {
                    let ek = PrivateKey::generate(Curve::NistP256).unwrap();
                    at.encryption_key = Some(ek.public_key().clone());
                }
                let issued = issue_certificate(&at, vk.public_key(), IssuerKey::Ca { cert: &root, key: &rk }).unwrap();
                let decoded = Certificate::from_bytes(issued.encoded()).unwrap();
                assert_eq!(issued.tbs_bytes(), decoded.tbs_bytes(), "{curve}");
                assert!(!issued.tbs_bytes().is_empty());
                assert_eq!(issued.verification_key(), decoded.verification_key(), "{curve}");
                assert_eq!(issued.verification_key(), vk.public_key(), "{curve}");
                assert_eq!(issued.encryption_key(), decoded.encryption_key(), "{curve}");
                assert_eq!(issued.encryption_key().is_some(), with_encryption_key);
                assert_eq!(issued.hashed_id8(), decoded.hashed_id8(), "{curve}");
                assert_eq!(issued.signer_hash(), decoded.signer_hash(), "{curve}");
                assert_eq!(issued.decoded(), decoded.decoded(), "{curve}");
                assert!(issued.verify_signature(Some(&root)), "{curve}");
            }
        }
    }
}
