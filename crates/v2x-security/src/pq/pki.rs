//! Experimental post-quantum certificates and an in-memory PKI (root, authorization authority,
//! tickets) for each [`PqDesign`]: the certificates of `v2x_wire::experimental_pq` signed with
//! the design's schemes.

use super::design::{scheme_from_wire_id, scheme_wire_id, PqDesign};
use crate::time::TaiTime;
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::pq::{SignatureScheme, SigningKey, VerifyingKey};
use v2x_crypto::{CryptoError, HashAlg, HashedId8};
use v2x_wire::cursor::CursorError;
use v2x_wire::experimental_pq::{CertKind, PqCertificate, PsidSsp, Tagged};
use v2x_wire::ItsAid;

/// Why a PKI operation failed.
#[derive(Debug, thiserror::Error)]
pub enum PqPkiError {
    #[error("cryptography")]
    Crypto(#[from] CryptoError),
    #[error("encoding")]
    Encoding(#[from] CursorError),
}

/// Why certificate bytes are not a usable certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PqCertError {
    #[error("does not decode")]
    Decode(#[source] CursorError),
    #[error("unknown signature scheme identifier {0:#04x}")]
    UnknownScheme(u8),
    #[error("subject key does not parse")]
    Key(#[source] CryptoError),
}

/// A decoded certificate with its exact bytes, identifier and parsed subject key.
#[derive(Debug, Clone)]
pub struct PqCert {
    bytes: Vec<u8>,
    tbs_len: usize,
    parsed: PqCertificate,
    id: HashedId8,
    key: VerifyingKey,
    signature_scheme: SignatureScheme,
}

impl PqCert {
    pub fn from_bytes(bytes: &[u8]) -> Result<PqCert, PqCertError> {
        let (parsed, tbs_len) = PqCertificate::decode(bytes).map_err(PqCertError::Decode)?;
        let key_scheme = scheme_from_wire_id(parsed.key.scheme).ok_or(PqCertError::UnknownScheme(parsed.key.scheme))?;
        let signature_scheme =
            scheme_from_wire_id(parsed.signature.scheme).ok_or(PqCertError::UnknownScheme(parsed.signature.scheme))?;
        let key = VerifyingKey::from_bytes(key_scheme, &parsed.key.bytes).map_err(PqCertError::Key)?;
        Ok(PqCert {
            bytes: bytes.to_vec(),
            tbs_len,
            id: v2x_crypto::hashed_id8(HashAlg::Sha256, bytes),
            parsed,
            key,
            signature_scheme,
        })
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    /// The bytes the issuer's signature covers.
    pub fn to_be_signed(&self) -> &[u8] {
        &self.bytes[..self.tbs_len]
    }
    pub fn certificate(&self) -> &PqCertificate {
        &self.parsed
    }
    /// SHA-256 HashedId8 of the encoding (as 1609.2 identifies certificates).
    pub fn id(&self) -> HashedId8 {
        self.id
    }
    pub fn key(&self) -> &VerifyingKey {
        &self.key
    }
    /// The scheme of the issuer's signature.
    pub fn signature_scheme(&self) -> SignatureScheme {
        self.signature_scheme
    }
    pub fn start(&self) -> TaiTime {
        TaiTime::from_time32(self.parsed.start)
    }
    pub fn end(&self) -> TaiTime {
        self.start()
            .saturating_add(Duration::from_secs(u64::from(self.parsed.duration)))
    }
    /// The SSP for `psid` when the certificate permits it (`Some(None)`: permitted, no SSP).
    pub fn permission_for(&self, psid: ItsAid) -> Option<Option<&[u8]>> {
        self.parsed
            .permissions
            .iter()
            .find(|p| u64::from(p.psid) == psid.value())
            .map(|p| (!p.ssp.is_empty()).then_some(&p.ssp[..]))
    }
}

/// A certificate with its private key.
#[derive(Debug, Clone)]
pub struct PqCredential {
    pub cert: Arc<PqCert>,
    pub key: SigningKey,
}

/// What to put in a certificate (the fields an issuer chooses).
#[derive(Debug, Clone)]
pub struct PqCertSpec {
    pub kind: CertKind,
    pub name: String,
    pub start: TaiTime,
    pub validity: Duration,
    pub permissions: Vec<(ItsAid, Option<Vec<u8>>)>,
    pub max_depth: u8,
}

/// Issues a certificate for `subject` signed by `issuer` (`None`: self-signed with `self_key`).
pub fn issue(
    spec: &PqCertSpec,
    subject: &VerifyingKey,
    issuer: Option<&PqCredential>,
    self_key: &SigningKey,
) -> Result<PqCert, PqPkiError> {
    let signer = issuer.map_or(self_key, |i| &i.key);
    let permissions = spec
        .permissions
        .iter()
        .map(|(psid, ssp)| PsidSsp {
            psid: u32::try_from(psid.value()).unwrap_or(u32::MAX),
            ssp: ssp.clone().unwrap_or_default(),
        })
        .collect();
    let mut cert = PqCertificate {
        kind: spec.kind,
        issuer: issuer.map_or([0; 8], |i| i.cert.id().0),
        name: spec.name.clone(),
        start: spec.start.to_time32(),
        duration: u32::try_from(spec.validity.as_secs()).unwrap_or(u32::MAX),
        permissions,
        max_depth: spec.max_depth,
        key: Tagged {
            scheme: scheme_wire_id(subject.scheme()),
            bytes: subject.to_bytes(),
        },
        signature: Tagged {
            scheme: scheme_wire_id(signer.scheme()),
            bytes: Vec::new(),
        },
    };
    cert.signature.bytes = signer.sign(&cert.to_be_signed()?)?;
    let bytes = cert.encode()?;
    Ok(PqCert::from_bytes(&bytes).expect("a certificate just issued decodes"))
}

/// An in-memory PKI of one design: root, one authorization authority, tickets.
pub struct PqPki {
    pub(super) design: PqDesign,
    pub(super) root: PqCredential,
    pub(super) aa: PqCredential,
    pub(super) now: TaiTime,
}

/// The default ticket permissions: CAM and DENM with the ETSI test SSPs.
pub fn default_ticket_permissions() -> Vec<(ItsAid, Option<Vec<u8>>)> {
    [ItsAid::CAM, ItsAid::DENM]
        .into_iter()
        .map(|p| (p, crate::authority::default_ssp(p)))
        .collect()
}

impl PqPki {
    /// A root (10 years) and an AA (1 year) of `design`, valid from an hour before `now`.
    pub fn new(design: PqDesign, now: TaiTime) -> Result<PqPki, PqPkiError> {
        let start = now.saturating_sub(Duration::from_secs(3600));
        let ca_scheme = design.certificate_scheme();
        let root_key = SigningKey::generate(ca_scheme)?;
        let root_cert = issue(
            &PqCertSpec {
                kind: CertKind::Root,
                name: format!("{} root", design.name()),
                start,
                validity: Duration::from_secs(10 * 365 * 86_400),
                permissions: default_ticket_permissions(),
                max_depth: 1,
            },
            root_key.verifying_key(),
            None,
            &root_key,
        )?;
        let root = PqCredential {
            cert: Arc::new(root_cert),
            key: root_key,
        };
        let aa_key = SigningKey::generate(ca_scheme)?;
        let aa_cert = issue(
            &PqCertSpec {
                kind: CertKind::Authority,
                name: format!("{} AA", design.name()),
                start,
                validity: Duration::from_secs(365 * 86_400),
                permissions: default_ticket_permissions(),
                max_depth: 0,
            },
            aa_key.verifying_key(),
            Some(&root),
            &root.key,
        )?;
        Ok(PqPki {
            design,
            root,
            aa: PqCredential {
                cert: Arc::new(aa_cert),
                key: aa_key,
            },
            now,
        })
    }

    pub fn design(&self) -> PqDesign {
        self.design
    }
    pub fn root(&self) -> &PqCredential {
        &self.root
    }
    pub fn aa(&self) -> &PqCredential {
        &self.aa
    }

    /// A ticket of the design (its key scheme is the design's message scheme), CAM and DENM,
    /// valid for a week from an hour before the PKI's instant.
    pub fn ticket(&self) -> Result<PqCredential, PqPkiError> {
        self.ticket_with_key(SigningKey::generate(self.design.message_scheme())?)
    }

    /// A ticket for a key of any scheme, signed by the AA (for the downgrade tests: a
    /// classical-only signer under a hybrid design).
    pub fn ticket_with_key(&self, key: SigningKey) -> Result<PqCredential, PqPkiError> {
        let cert = issue(
            &PqCertSpec {
                kind: CertKind::EndEntity,
                name: String::new(),
                start: self.now.saturating_sub(Duration::from_secs(3600)),
                validity: Duration::from_secs(7 * 86_400),
                permissions: default_ticket_permissions(),
                max_depth: 0,
            },
            key.verifying_key(),
            Some(&self.aa),
            &self.aa.key,
        )?;
        Ok(PqCredential {
            cert: Arc::new(cert),
            key,
        })
    }
}
