//! Certificate version 2 (§6) and SignerInfo (§4.2.10–4.2.11).

use super::codec::{put_opaque_var, put_var, put_vec, read_opaque_var, read_var, read_vector};
use super::types::{Duration, EccPoint, GeographicRegion, PublicKey, PublicKeyAlgorithm, Signature};
use super::V1Error;
use crate::cursor::{Reader, Writer};

/// Certificates nest inside signer infos (chains); untrusted input could nest them
/// without bound, so decoding stops at this depth.
pub const MAX_NESTING: usize = 8;

pub type HashedId8 = [u8; 8];
pub type HashedId3 = [u8; 3];

/// SignerInfo (§4.2.10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignerInfo {
    /// `self` (0): self-signed, no data.
    SelfSigned,
    /// `certificate_digest_with_sha256` (1).
    CertificateDigestWithSha256(HashedId8),
    /// `certificate` (2).
    Certificate(Box<Certificate>),
    /// `certificate_chain` (3): `Certificate certificates<var>`.
    CertificateChain(Vec<Certificate>),
    /// `certificate_digest_with_other_algorithm` (4).
    CertificateDigestWithOtherAlgorithm {
        algorithm: PublicKeyAlgorithm,
        digest: HashedId8,
    },
    Other {
        signer_type: u8,
        data: Vec<u8>,
    },
}

impl SignerInfo {
    pub fn type_value(&self) -> u8 {
        match self {
            SignerInfo::SelfSigned => 0,
            SignerInfo::CertificateDigestWithSha256(_) => 1,
            SignerInfo::Certificate(_) => 2,
            SignerInfo::CertificateChain(_) => 3,
            SignerInfo::CertificateDigestWithOtherAlgorithm { .. } => 4,
            SignerInfo::Other { signer_type, .. } => *signer_type,
        }
    }

    pub fn type_name(&self) -> String {
        match self.type_value() {
            0 => "self".into(),
            1 => "certificate_digest_with_sha256".into(),
            2 => "certificate".into(),
            3 => "certificate_chain".into(),
            4 => "certificate_digest_with_other_algorithm".into(),
            v => format!("unknown({v})"),
        }
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<SignerInfo, V1Error> {
        Self::decode_at(r, 0)
    }

    pub(crate) fn decode_at(r: &mut Reader<'_>, depth: usize) -> Result<SignerInfo, V1Error> {
        let t = r.u8("SignerInfo.type")?;
        Ok(match t {
            0 => SignerInfo::SelfSigned,
            1 => SignerInfo::CertificateDigestWithSha256(r.array("SignerInfo.digest")?),
            2 => SignerInfo::Certificate(Box::new(Certificate::decode_at(r, depth + 1)?)),
            3 => {
                let mut sub = read_vector(r, "SignerInfo.certificates<var>")?;
                SignerInfo::CertificateChain(sub.many(|r| Certificate::decode_at(r, depth + 1))?)
            }
            4 => SignerInfo::CertificateDigestWithOtherAlgorithm {
                algorithm: PublicKeyAlgorithm(r.u8("SignerInfo.algorithm")?),
                digest: r.array("SignerInfo.digest")?,
            },
            signer_type => SignerInfo::Other {
                signer_type,
                data: read_opaque_var(r, "SignerInfo.info")?,
            },
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.type_value());
        match self {
            SignerInfo::SelfSigned => {}
            SignerInfo::CertificateDigestWithSha256(d) => {
                w.bytes(d);
            }
            SignerInfo::Certificate(c) => c.encode(w),
            SignerInfo::CertificateChain(certs) => put_vec(w, certs, |c, o| c.encode(o)),
            SignerInfo::CertificateDigestWithOtherAlgorithm { algorithm, digest } => {
                w.u8(algorithm.0);
                w.bytes(digest);
            }
            SignerInfo::Other { data, .. } => put_opaque_var(w, data),
        }
    }
}

/// SubjectType (§6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubjectType(pub u8);

impl SubjectType {
    pub const ENROLLMENT_CREDENTIAL: Self = Self(0);
    pub const AUTHORIZATION_TICKET: Self = Self(1);
    pub const AUTHORIZATION_AUTHORITY: Self = Self(2);
    pub const ENROLLMENT_AUTHORITY: Self = Self(3);
    pub const ROOT_CA: Self = Self(4);
    pub const CRL_SIGNER: Self = Self(5);

    pub fn name(self) -> String {
        match self.0 {
            0 => "enrollment_credential".into(),
            1 => "authorization_ticket".into(),
            2 => "authorization_authority".into(),
            3 => "enrollment_authority".into(),
            4 => "root_ca".into(),
            5 => "crl_signer".into(),
            v => format!("unknown({v})"),
        }
    }
}

/// SubjectInfo (§6.2): type and `opaque subject_name<var>` (at most 32 bytes by profile).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectInfo {
    pub subject_type: SubjectType,
    pub subject_name: Vec<u8>,
}

/// ItsAidSsp (§6.9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItsAidSsp {
    pub its_aid: u64,
    pub service_specific_permissions: Vec<u8>,
}

/// SubjectAttribute (§6.4) with its types (§6.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubjectAttribute {
    VerificationKey(PublicKey),
    EncryptionKey(PublicKey),
    /// SubjectAssurance (§6.6): bits 7–5 assurance level, 1–0 confidence.
    AssuranceLevel(u8),
    /// Reconstruction value of an implicit certificate (P-256 field size).
    ReconstructionValue(EccPoint),
    ItsAidList(Vec<u64>),
    ItsAidSspList(Vec<ItsAidSsp>),
    Other {
        attribute_type: u8,
        data: Vec<u8>,
    },
}

impl SubjectAttribute {
    pub fn type_value(&self) -> u8 {
        match self {
            SubjectAttribute::VerificationKey(_) => 0,
            SubjectAttribute::EncryptionKey(_) => 1,
            SubjectAttribute::AssuranceLevel(_) => 2,
            SubjectAttribute::ReconstructionValue(_) => 3,
            SubjectAttribute::ItsAidList(_) => 32,
            SubjectAttribute::ItsAidSspList(_) => 33,
            SubjectAttribute::Other { attribute_type, .. } => *attribute_type,
        }
    }

    pub fn type_name(&self) -> String {
        match self.type_value() {
            0 => "verification_key".into(),
            1 => "encryption_key".into(),
            2 => "assurance_level".into(),
            3 => "reconstruction_value".into(),
            32 => "its_aid_list".into(),
            33 => "its_aid_ssp_list".into(),
            v => format!("unknown({v})"),
        }
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<SubjectAttribute, V1Error> {
        let t = r.u8("SubjectAttribute.type")?;
        Ok(match t {
            0 => SubjectAttribute::VerificationKey(PublicKey::decode(r)?),
            1 => SubjectAttribute::EncryptionKey(PublicKey::decode(r)?),
            2 => SubjectAttribute::AssuranceLevel(r.u8("SubjectAssurance")?),
            3 => SubjectAttribute::ReconstructionValue(EccPoint::decode(r, 32)?),
            32 => {
                let mut sub = read_vector(r, "its_aid_list<var>")?;
                SubjectAttribute::ItsAidList(sub.many(|r| read_var(r, "its_aid"))?)
            }
            33 => {
                let mut sub = read_vector(r, "its_aid_ssp_list<var>")?;
                SubjectAttribute::ItsAidSspList(sub.many(|r| {
                    Ok::<_, V1Error>(ItsAidSsp {
                        its_aid: read_var(r, "ItsAidSsp.its_aid")?,
                        service_specific_permissions: read_opaque_var(r, "ItsAidSsp.service_specific_permissions")?,
                    })
                })?)
            }
            attribute_type => SubjectAttribute::Other {
                attribute_type,
                data: read_opaque_var(r, "SubjectAttribute.other")?,
            },
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.type_value());
        match self {
            SubjectAttribute::VerificationKey(k) | SubjectAttribute::EncryptionKey(k) => k.encode(w),
            SubjectAttribute::AssuranceLevel(a) => {
                w.u8(*a);
            }
            SubjectAttribute::ReconstructionValue(p) => p.encode(w),
            SubjectAttribute::ItsAidList(aids) => put_vec(w, aids, |a, o| put_var(o, *a)),
            SubjectAttribute::ItsAidSspList(list) => put_vec(w, list, |a, o| {
                put_var(o, a.its_aid);
                put_opaque_var(o, &a.service_specific_permissions);
            }),
            SubjectAttribute::Other { data, .. } => put_opaque_var(w, data),
        }
    }
}

/// ValidityRestriction (§6.7) with its types (§6.8). Times are Time32 (seconds since
/// 2004-01-01 00:00:00 UTC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValidityRestriction {
    TimeEnd(u32),
    TimeStartAndEnd { start: u32, end: u32 },
    TimeStartAndDuration { start: u32, duration: Duration },
    Region(GeographicRegion),
    Other { restriction_type: u8, data: Vec<u8> },
}

impl ValidityRestriction {
    pub fn type_value(&self) -> u8 {
        match self {
            ValidityRestriction::TimeEnd(_) => 0,
            ValidityRestriction::TimeStartAndEnd { .. } => 1,
            ValidityRestriction::TimeStartAndDuration { .. } => 2,
            ValidityRestriction::Region(_) => 3,
            ValidityRestriction::Other { restriction_type, .. } => *restriction_type,
        }
    }

    pub fn type_name(&self) -> String {
        match self.type_value() {
            0 => "time_end".into(),
            1 => "time_start_and_end".into(),
            2 => "time_start_and_duration".into(),
            3 => "region".into(),
            v => format!("unknown({v})"),
        }
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<ValidityRestriction, V1Error> {
        let t = r.u8("ValidityRestriction.type")?;
        Ok(match t {
            0 => ValidityRestriction::TimeEnd(r.u32("end_validity")?),
            1 => ValidityRestriction::TimeStartAndEnd {
                start: r.u32("start_validity")?,
                end: r.u32("end_validity")?,
            },
            2 => ValidityRestriction::TimeStartAndDuration {
                start: r.u32("start_validity")?,
                duration: Duration(r.u16("duration")?),
            },
            3 => ValidityRestriction::Region(GeographicRegion::decode(r)?),
            restriction_type => ValidityRestriction::Other {
                restriction_type,
                data: read_opaque_var(r, "ValidityRestriction.data")?,
            },
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.type_value());
        match self {
            ValidityRestriction::TimeEnd(e) => {
                w.bytes(&e.to_be_bytes());
            }
            ValidityRestriction::TimeStartAndEnd { start, end } => {
                w.bytes(&start.to_be_bytes());
                w.bytes(&end.to_be_bytes());
            }
            ValidityRestriction::TimeStartAndDuration { start, duration } => {
                w.bytes(&start.to_be_bytes());
                w.bytes(&duration.0.to_be_bytes());
            }
            ValidityRestriction::Region(r) => r.encode(w),
            ValidityRestriction::Other { data, .. } => put_opaque_var(w, data),
        }
    }
}

/// Certificate (§6.1). `version` is 2 for v1.2.1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    pub version: u8,
    pub signer_info: SignerInfo,
    pub subject_info: SubjectInfo,
    pub subject_attributes: Vec<SubjectAttribute>,
    pub validity_restrictions: Vec<ValidityRestriction>,
    pub signature: Signature,
}

impl Certificate {
    pub const VERSION: u8 = 2;

    /// Decodes exactly one certificate; trailing bytes are an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, V1Error> {
        let mut r = Reader::new(bytes);
        let c = Certificate::decode(&mut r)?;
        r.finish("Certificate")?;
        Ok(c)
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<Certificate, V1Error> {
        Self::decode_at(r, 0)
    }

    pub(crate) fn decode_at(r: &mut Reader<'_>, depth: usize) -> Result<Certificate, V1Error> {
        if depth > MAX_NESTING {
            return Err(V1Error::Invalid {
                what: "Certificate",
                offset: r.offset(),
                detail: format!("certificates nested deeper than {MAX_NESTING}"),
            });
        }
        let version_at = r.offset();
        let version = r.u8("Certificate.version")?;
        if version != Self::VERSION {
            return Err(V1Error::UnsupportedVersion {
                what: "Certificate.version",
                offset: version_at,
                version,
            });
        }
        let signer_info = SignerInfo::decode_at(r, depth)?;
        let subject_type = SubjectType(r.u8("SubjectInfo.subject_type")?);
        let subject_name = read_opaque_var(r, "SubjectInfo.subject_name")?;
        let mut attrs = read_vector(r, "subject_attributes<var>")?;
        let subject_attributes = attrs.many(SubjectAttribute::decode)?;
        let mut vrs = read_vector(r, "validity_restrictions<var>")?;
        let validity_restrictions = vrs.many(ValidityRestriction::decode)?;
        let signature = Signature::decode(r)?;
        Ok(Certificate {
            version,
            signer_info,
            subject_info: SubjectInfo {
                subject_type,
                subject_name,
            },
            subject_attributes,
            validity_restrictions,
            signature,
        })
    }

    /// The bytes the issuer signs: every field before `signature`, lengths included.
    pub fn to_be_signed(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(160);
        self.encode_to_be_signed(&mut w);
        w.into_vec()
    }

    fn encode_to_be_signed(&self, w: &mut Writer) {
        w.u8(self.version);
        self.signer_info.encode(w);
        w.u8(self.subject_info.subject_type.0);
        put_opaque_var(w, &self.subject_info.subject_name);
        put_vec(w, &self.subject_attributes, |a, o| a.encode(o));
        put_vec(w, &self.validity_restrictions, |v, o| v.encode(o));
    }

    pub fn encode(&self, w: &mut Writer) {
        self.encode_to_be_signed(w);
        self.signature.encode(w);
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(200);
        self.encode(&mut w);
        w.into_vec()
    }

    /// The encoding hashed for this certificate's HashedId8 (§4.2.12): the signature's R
    /// converted to `x_coordinate_only`. Hash it with SHA-256 and keep the last 8 bytes.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(200);
        self.encode_to_be_signed(&mut w);
        self.signature.canonical().encode(&mut w);
        w.into_vec()
    }

    pub fn verification_key(&self) -> Option<&PublicKey> {
        self.subject_attributes.iter().find_map(|a| match a {
            SubjectAttribute::VerificationKey(k) => Some(k),
            _ => None,
        })
    }

    pub fn encryption_key(&self) -> Option<&PublicKey> {
        self.subject_attributes.iter().find_map(|a| match a {
            SubjectAttribute::EncryptionKey(k) => Some(k),
            _ => None,
        })
    }

    /// (start, end) in Time32 from the first time restriction, if any.
    pub fn validity_period(&self) -> Option<(Option<u32>, u32)> {
        self.validity_restrictions.iter().find_map(|v| match v {
            ValidityRestriction::TimeEnd(e) => Some((None, *e)),
            ValidityRestriction::TimeStartAndEnd { start, end } => Some((Some(*start), *end)),
            ValidityRestriction::TimeStartAndDuration { start, duration } => {
                let secs = duration.seconds()?;
                Some((
                    Some(*start),
                    u32::try_from(u64::from(*start) + secs).unwrap_or(u32::MAX),
                ))
            }
            _ => None,
        })
    }

    pub fn region(&self) -> Option<&GeographicRegion> {
        self.validity_restrictions.iter().find_map(|v| match v {
            ValidityRestriction::Region(r) => Some(r),
            _ => None,
        })
    }
}
