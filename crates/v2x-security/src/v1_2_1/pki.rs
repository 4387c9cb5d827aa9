//! Issuing v1.2.1 certificates (§6, profiles of §7.4): a self-signed root CA, an
//! authorization authority, authorization tickets with ITS-AID/SSP lists, validity and
//! region; credentials (certificate + private keys) saved with owner-only keys.

use super::crypto::{
    certificate_digest, certificate_id3, placeholder_signature, sign, wire_encryption_key, wire_verification_key,
};
use v2x_crypto::{CryptoError, Curve, PrivateKey};
use v2x_wire::v1_2_1::{
    Certificate, GeographicRegion, HashedId3, HashedId8, ItsAidSsp, SignerInfo, SubjectAttribute, SubjectInfo,
    SubjectType, SymmetricAlgorithm, V1Error, ValidityRestriction,
};
use v2x_wire::ItsAid;

/// Why v1.2.1 credentials could not be saved or loaded.
#[derive(Debug, thiserror::Error)]
pub enum V1PkiError {
    #[error("{}", path.display())]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a v1.2.1 certificate", path.display())]
    Certificate {
        path: std::path::PathBuf,
        #[source]
        source: V1Error,
    },
    #[error("{}: the certificate has no verification key", path.display())]
    NoVerificationKey { path: std::path::PathBuf },
    #[error("{}: not a usable private key", path.display())]
    Key {
        path: std::path::PathBuf,
        #[source]
        source: CryptoError,
    },
    #[error("{}: the private key does not belong to the certificate", path.display())]
    KeyMismatch { path: std::path::PathBuf },
    #[error("{}: the v1.2.1 root and AA are incomplete (an interrupted creation?); refusing to replace a CA key", path.display())]
    Incomplete { path: std::path::PathBuf },
    #[error("{}: no v1.2.1 PKI credentials (v1.2.1/) and no v1.2.1 root CA certificate (*.cert)", path.display())]
    NoRoot { path: std::path::PathBuf },
    #[error("bad station name {0:?}")]
    StationName(String),
    #[error("{}: the v1.2.1 CRL is missing (this PKI has issued one): refusing to go on without it, re-creating it would undo revocations; restore it", path.display())]
    MissingCrl { path: std::path::PathBuf },
    #[error("{}: no v1.2.1 CRL (the v1.2.1 credentials predate v1.2.1 revocation): refusing to trust the v1.2.1 root without one; `v2x pki refresh-crl --dir PKI` issues it", path.display())]
    CrlNotIssued { path: std::path::PathBuf },
    #[error("{}: the v1.2.1 CRL was issued at {found} (TAI s), before {expected}, the last this PKI issued: refused (a rolled-back CRL undoes revocations)", path.display())]
    CrlRollback {
        path: std::path::PathBuf,
        found: u32,
        expected: u32,
    },
    #[error("the v2 PKI directory")]
    Pki(#[from] Box<crate::pki_store::PkiError>),
    #[error("{}: v1.2.1 CRL", path.display())]
    Crl {
        path: std::path::PathBuf,
        #[source]
        source: super::crl_error::V1CrlError,
    },
    #[error("key generation or signing")]
    Crypto(#[from] CryptoError),
}

fn io_error(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> V1PkiError + '_ {
    move |source| V1PkiError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// What a certificate should say about its subject.
#[derive(Debug, Clone)]
pub struct CertSpec {
    pub subject_type: SubjectType,
    pub subject_name: Vec<u8>,
    pub curve: Curve,
    /// Time32 seconds (TAI since 2004).
    pub start: u32,
    pub end: u32,
    pub region: Option<GeographicRegion>,
    /// SubjectAssurance byte (bits 7–5 level, 1–0 confidence).
    pub assurance: u8,
    /// For CAs: `its_aid_list`.
    pub its_aids: Vec<u64>,
    /// For tickets: `its_aid_ssp_list`.
    pub its_aid_ssps: Vec<ItsAidSsp>,
    /// Adds an `encryption_key` attribute (a fresh ECIES key) supporting this algorithm.
    pub encryption: Option<SymmetricAlgorithm>,
    /// Public keys in compressed form (33/49 bytes) instead of uncompressed (65/97).
    pub compressed_keys: bool,
}

impl CertSpec {
    fn base(subject_type: SubjectType, name: &str, curve: Curve, start: u32, end: u32) -> CertSpec {
        CertSpec {
            subject_type,
            subject_name: name.as_bytes().to_vec(),
            curve,
            start,
            end,
            region: None,
            assurance: 0,
            its_aids: vec![ItsAid::CAM.value(), ItsAid::DENM.value()],
            its_aid_ssps: Vec::new(),
            encryption: None,
            compressed_keys: true,
        }
    }

    pub fn root(name: &str, curve: Curve, start: u32, end: u32) -> CertSpec {
        CertSpec::base(SubjectType::ROOT_CA, name, curve, start, end)
    }

    pub fn authorization_authority(name: &str, curve: Curve, start: u32, end: u32) -> CertSpec {
        CertSpec {
            encryption: Some(SymmetricAlgorithm::AES_128_CCM),
            ..CertSpec::base(SubjectType::AUTHORIZATION_AUTHORITY, name, curve, start, end)
        }
    }

    /// An authorization ticket for CAMs and DENMs (SSPs: CAM `01 00 00`, DENM `01 ff ff ff`),
    /// empty subject name as §7.4.1 requires, with an encryption key.
    pub fn authorization_ticket(curve: Curve, start: u32, end: u32) -> CertSpec {
        CertSpec {
            its_aids: Vec::new(),
            its_aid_ssps: vec![
                ItsAidSsp {
                    its_aid: ItsAid::CAM.value(),
                    service_specific_permissions: vec![1, 0, 0],
                },
                ItsAidSsp {
                    its_aid: ItsAid::DENM.value(),
                    service_specific_permissions: vec![1, 0xff, 0xff, 0xff],
                },
            ],
            encryption: Some(SymmetricAlgorithm::AES_128_CCM),
            assurance: 0b0110_0000,
            ..CertSpec::base(SubjectType::AUTHORIZATION_TICKET, "", curve, start, end)
        }
    }
}

/// A certificate with the private keys of its subject.
#[derive(Debug, Clone)]
pub struct Credential {
    pub certificate: Certificate,
    pub signing_key: PrivateKey,
    pub encryption_key: Option<PrivateKey>,
}

impl Credential {
    pub fn digest(&self) -> HashedId8 {
        certificate_digest(&self.certificate)
    }

    pub fn id3(&self) -> HashedId3 {
        certificate_id3(&self.certificate)
    }

    /// Issues a self-signed root CA certificate.
    pub fn issue_root(spec: &CertSpec) -> Result<Credential, CryptoError> {
        issue(spec, None)
    }

    /// Issues a certificate signed by `self` (signer info: this certificate's digest).
    pub fn issue(&self, spec: &CertSpec) -> Result<Credential, CryptoError> {
        issue(spec, Some(self))
    }

    /// Writes `<name>.key` / `<name>.enc.key` (PEM, mode 0600) and then `<name>.cert` (the
    /// encoding) into `dir`, each replaced atomically (see [`crate::durable`]): the keys
    /// first, so a certificate is never left with another credential's key, and a reader
    /// that finds a mismatch ([`Credential::load`] refuses it) re-issues.
    pub fn save(&self, dir: &std::path::Path, name: &str) -> Result<(), V1PkiError> {
        use crate::durable::{self, Access};
        durable::create_dir_all(dir).map_err(io_error(dir))?;
        let write = |file: String, bytes: &[u8], access| {
            let path = dir.join(file);
            durable::replace(&path, bytes, access).map_err(io_error(&path))
        };
        write(format!("{name}.key"), &self.signing_key.to_pem()?, Access::OwnerOnly)?;
        if let Some(k) = &self.encryption_key {
            write(format!("{name}.enc.key"), &k.to_pem()?, Access::OwnerOnly)?;
        }
        write(format!("{name}.cert"), &self.certificate.to_bytes(), Access::Public)
    }

    /// Reads what [`Credential::save`] wrote.
    pub fn load(dir: &std::path::Path, name: &str) -> Result<Credential, V1PkiError> {
        let cert_path = dir.join(format!("{name}.cert"));
        let bytes = std::fs::read(&cert_path).map_err(io_error(&cert_path))?;
        let certificate = Certificate::from_bytes(&bytes).map_err(|source| V1PkiError::Certificate {
            path: cert_path.clone(),
            source,
        })?;
        let curve = certificate
            .verification_key()
            .and_then(|k| k.algorithm().curve())
            .map(super::crypto::to_curve)
            .ok_or(V1PkiError::NoVerificationKey { path: cert_path })?;
        let read_key = |path: std::path::PathBuf| -> Result<PrivateKey, V1PkiError> {
            let pem = std::fs::read(&path).map_err(io_error(&path))?;
            PrivateKey::from_pem(curve, &pem).map_err(|source| V1PkiError::Key { path, source })
        };
        let key_path = dir.join(format!("{name}.key"));
        let signing_key = read_key(key_path.clone())?;
        let belongs = certificate
            .verification_key()
            .and_then(|k| super::crypto::verification_key(k).ok())
            .is_some_and(|k| k == *signing_key.public_key());
        if !belongs {
            return Err(V1PkiError::KeyMismatch { path: key_path });
        }
        let enc_path = dir.join(format!("{name}.enc.key"));
        let encryption_key = if enc_path.exists() {
            Some(read_key(enc_path)?)
        } else {
            None
        };
        Ok(Credential {
            certificate,
            signing_key,
            encryption_key,
        })
    }
}

fn issue(spec: &CertSpec, issuer: Option<&Credential>) -> Result<Credential, CryptoError> {
    let signing_key = PrivateKey::generate(spec.curve)?;
    let encryption_key = match spec.encryption {
        Some(_) => Some(PrivateKey::generate(spec.curve)?),
        None => None,
    };
    // Attributes in ascending type order (§6.1).
    let mut attrs = vec![SubjectAttribute::VerificationKey(wire_verification_key(
        signing_key.public_key(),
        spec.compressed_keys,
    ))];
    if let (Some(symm), Some(k)) = (spec.encryption, &encryption_key) {
        attrs.push(SubjectAttribute::EncryptionKey(wire_encryption_key(
            k.public_key(),
            symm,
            spec.compressed_keys,
        )));
    }
    attrs.push(SubjectAttribute::AssuranceLevel(spec.assurance));
    if !spec.its_aids.is_empty() {
        attrs.push(SubjectAttribute::ItsAidList(spec.its_aids.clone()));
    }
    if !spec.its_aid_ssps.is_empty() {
        attrs.push(SubjectAttribute::ItsAidSspList(spec.its_aid_ssps.clone()));
    }
    let mut validity = vec![ValidityRestriction::TimeStartAndEnd {
        start: spec.start,
        end: spec.end,
    }];
    if let Some(r) = &spec.region {
        validity.push(ValidityRestriction::Region(r.clone()));
    }
    let (signer_info, issuer_key) = match issuer {
        None => (SignerInfo::SelfSigned, &signing_key),
        Some(i) => (SignerInfo::CertificateDigestWithSha256(i.digest()), &i.signing_key),
    };
    let mut certificate = Certificate {
        version: Certificate::VERSION,
        signer_info,
        subject_info: SubjectInfo {
            subject_type: spec.subject_type,
            subject_name: spec.subject_name.clone(),
        },
        subject_attributes: attrs,
        validity_restrictions: validity,
        signature: placeholder_signature(issuer_key.curve()),
    };
    certificate.signature = sign(issuer_key, &certificate.to_be_signed())?;
    Ok(Credential {
        certificate,
        signing_key,
        encryption_key,
    })
}

/// A small PKI: root CA and authorization authority, able to enrol tickets.
#[derive(Debug, Clone)]
pub struct V1Pki {
    pub root: Credential,
    pub aa: Credential,
}

impl V1Pki {
    /// Root and AA on `curve`, valid from `start` for `days` days (Time32 seconds).
    pub fn generate(curve: Curve, start: u32, days: u32) -> Result<V1Pki, CryptoError> {
        let end = start.saturating_add(days.saturating_mul(86_400));
        let root = Credential::issue_root(&CertSpec::root("v2xsec v1.2.1 root", curve, start, end))?;
        let aa = root.issue(&CertSpec::authorization_authority(
            "v2xsec v1.2.1 AA",
            curve,
            start,
            end,
        ))?;
        Ok(V1Pki { root, aa })
    }

    /// An authorization ticket from the AA, valid for `days` days from `start`.
    pub fn ticket(
        &self,
        curve: Curve,
        start: u32,
        days: u32,
        region: Option<GeographicRegion>,
    ) -> Result<Credential, CryptoError> {
        let mut spec = CertSpec::authorization_ticket(curve, start, start.saturating_add(days.saturating_mul(86_400)));
        spec.region = region;
        self.aa.issue(&spec)
    }
}
