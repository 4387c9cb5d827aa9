//! The authorities of a TS 102 941 PKI service: a root CA (RCA), a trust-list manager (TLM),
//! an enrolment authority and an authorization authority — the EA and AA with the private
//! keys of their certificates' encryption keys (requests are encrypted to them) — kept in a
//! directory (`root/`, `tlm/`, `ea/`, `aa/`: `cert.oer`, `key.pem`, and `enc-key.pem` for
//! EA and AA; keys mode 0600). The directory is built beside its final place and renamed
//! into it, so several service instances starting at once end up with one set of keys.
//!
//! What the RCA and TLM sign for distribution (TS 102 941 §6.3): the RCA's CRL (of CA
//! certificates), the RCA's CTL (EA and AA entries with their access points) and the TLM's
//! ECTL (the RCA, the TLM, the distribution centre).

use super::aa::{AaPolicy, AuthorizationAuthority};
use super::ea::{EaPolicy, EnrolmentAuthority};
use super::wire::{EtsiTs102941Data, EtsiTs102941DataContent};
use crate::authority::{encryption_curve, issue_root, Authority};
use crate::certificate::{AppPermission, Certificate};
use crate::convert;
use crate::crl::etsi::issue_etsi_crl;
use crate::durable::{self, Access};
use crate::issue::{issue_certificate, CertificateSpec, IssueError, IssuePermissions, IssuerKey, PsidGroup};
use crate::signed::{sign_data, SignerKind};
use crate::time::TaiTime;
use rasn::types::Ia5String;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, HashedId8, PrivateKey};
use v2x_wire::trust_list::{AaEntry, CtlCommand, CtlEntry, CtlFormat, DcEntry, EaEntry, RootCaEntry, TlmEntry};
use v2x_wire::ItsAid;

const YEAR: u64 = 31_556_952;

/// A CA that receives encrypted requests: its certificate, signing key and decryption key.
#[derive(Debug, Clone)]
pub struct EncryptingAuthority {
    pub authority: Authority,
    pub encryption_key: PrivateKey,
}

/// Why the authorities could not be created, loaded or sign.
#[derive(Debug, thiserror::Error)]
pub enum AuthoritiesError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Damaged { path: PathBuf, reason: String },
    #[error("issuing: {0}")]
    Issue(#[from] IssueError),
    #[error("signing: {0}")]
    Sign(String),
    #[error("key generation: {0}")]
    Crypto(#[from] v2x_crypto::CryptoError),
    #[error("access point URL {0:?} is not IA5 text")]
    Url(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> AuthoritiesError + '_ {
    move |source| AuthoritiesError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Where each authority is reached (URLs written into the trust lists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessPoints {
    /// The EA's enrolment endpoint (`itsAccessPoint`).
    pub ea: String,
    /// The EA's authorization validation endpoint (`aaAccessPoint`).
    pub ea_validation: String,
    /// The AA's authorization endpoint.
    pub aa: String,
    /// The distribution centre (CRL, CTL).
    pub dc: String,
    /// The TLM's access point (ECTL).
    pub tlm: String,
}

/// The four authorities of the service.
#[derive(Debug, Clone)]
pub struct Authorities {
    pub root: Authority,
    pub tlm: Authority,
    pub ea: EncryptingAuthority,
    pub aa: EncryptingAuthority,
}

fn sub_ca(
    root: &Authority,
    name: &str,
    permissions: IssuePermissions,
    start: TaiTime,
    validity: Duration,
    curve: Curve,
) -> Result<EncryptingAuthority, IssueError> {
    let key = PrivateKey::generate(curve)?;
    let encryption_key = PrivateKey::generate(encryption_curve(curve))?;
    let mut spec = CertificateSpec::new(Some(name), start, validity);
    spec.issue_permissions = Some(permissions);
    spec.assurance_level = Some(0xe0);
    spec.encryption_key = Some(encryption_key.public_key().clone());
    spec.app_permissions = vec![AppPermission::new(ItsAid::CERT_REQUEST, None)];
    let cert = issue_certificate(
        &spec,
        key.public_key(),
        IssuerKey::Ca {
            cert: &root.certificate,
            key: &root.key,
        },
    )?;
    Ok(EncryptingAuthority {
        authority: Authority {
            certificate: Arc::new(cert),
            key,
        },
        encryption_key,
    })
}

impl Authorities {
    /// New authorities on `curve`: root and TLM self-signed for five years, EA (issuing ECs,
    /// PSID 623) and AA (issuing end-entity tickets for any PSID) under the root.
    pub fn create(curve: Curve, now: TaiTime) -> Result<Authorities, AuthoritiesError> {
        let start = now.saturating_sub(Duration::from_secs(3600));
        let root = issue_root("v2xsec service root CA", start, Duration::from_secs(5 * YEAR), curve)?;
        Authorities::create_under(root, now)
    }

    /// New TLM, EA and AA under an existing root CA (e.g. a testbed's), on the root's curve,
    /// valid until the root's end or five years, whichever comes first.
    pub fn create_under(root: Authority, now: TaiTime) -> Result<Authorities, AuthoritiesError> {
        let curve = root.key.curve();
        // Within the root's validity, or receivers refuse the chain as inconsistent.
        let root_start = TaiTime::from_time32(root.certificate.validity().start as u32);
        let start = now.saturating_sub(Duration::from_secs(3600)).max(root_start);
        let root_end = root.certificate.validity().end;
        let validity = super::attributes::representable_floor(Duration::from_secs(
            (5 * YEAR).min(root_end.saturating_sub(start.seconds())),
        ));
        let tlm_key = PrivateKey::generate(curve)?;
        let mut spec = CertificateSpec::new(Some("v2xsec trust list manager"), start, validity);
        spec.app_permissions = vec![AppPermission::new(ItsAid::CTL, None)];
        spec.assurance_level = Some(0xe0);
        let tlm_cert = issue_certificate(&spec, tlm_key.public_key(), IssuerKey::SelfSigned(&tlm_key))?;
        let ea = sub_ca(
            &root,
            "v2xsec service EA",
            IssuePermissions::Psids(vec![ItsAid::CERT_REQUEST]),
            start,
            validity,
            curve,
        )?;
        let aa = sub_ca(
            &root,
            "v2xsec service AA",
            IssuePermissions::Groups(vec![PsidGroup {
                subjects: None,
                ..PsidGroup::end_entities(&[])
            }]),
            start,
            validity,
            curve,
        )?;
        Ok(Authorities {
            root,
            tlm: Authority {
                certificate: Arc::new(tlm_cert),
                key: tlm_key,
            },
            ea,
            aa,
        })
    }

    /// Writes the authorities into `dir`, which must not exist.
    fn save(&self, dir: &Path) -> Result<(), AuthoritiesError> {
        let write = |sub: &str, a: &Authority, enc: Option<&PrivateKey>| -> Result<(), AuthoritiesError> {
            let d = dir.join(sub);
            durable::create_dir_all(&d).map_err(io(&d))?;
            let pem = |k: &PrivateKey| k.to_pem().map_err(|e| AuthoritiesError::Sign(e.to_string()));
            let key = d.join("key.pem");
            durable::create_new(&key, &pem(&a.key)?, Access::OwnerOnly).map_err(io(&key))?;
            if let Some(enc) = enc {
                let p = d.join("enc-key.pem");
                durable::create_new(&p, &pem(enc)?, Access::OwnerOnly).map_err(io(&p))?;
            }
            let cert = d.join("cert.oer");
            durable::create_new(&cert, a.certificate.encoded(), Access::Public).map_err(io(&cert))
        };
        write("root", &self.root, None)?;
        write("tlm", &self.tlm, None)?;
        write("ea", &self.ea.authority, Some(&self.ea.encryption_key))?;
        write("aa", &self.aa.authority, Some(&self.aa.encryption_key))
    }

    /// Reads the authorities from `dir` and checks that every key belongs to its certificate
    /// and that EA and AA chain to the root.
    pub fn load(dir: &Path) -> Result<Authorities, AuthoritiesError> {
        let damaged = |path: &Path, reason: String| AuthoritiesError::Damaged {
            path: path.to_path_buf(),
            reason,
        };
        let read = |sub: &str| -> Result<(Authority, Option<PrivateKey>), AuthoritiesError> {
            let d = dir.join(sub);
            let cert_path = d.join("cert.oer");
            let cert = Certificate::from_bytes(&fs::read(&cert_path).map_err(io(&cert_path))?)
                .map_err(|e| damaged(&cert_path, e.to_string()))?;
            let key_path = d.join("key.pem");
            let key = PrivateKey::from_pem(cert.curve(), &fs::read(&key_path).map_err(io(&key_path))?)
                .map_err(|e| damaged(&key_path, e.to_string()))?;
            if key.public_key() != cert.verification_key() {
                return Err(damaged(&key_path, "not the certificate's key".into()));
            }
            let enc_path = d.join("enc-key.pem");
            let enc = match fs::read(&enc_path) {
                Ok(pem) => {
                    let k = PrivateKey::from_pem(encryption_curve(cert.curve()), &pem)
                        .map_err(|e| damaged(&enc_path, e.to_string()))?;
                    if Some(k.public_key()) != cert.encryption_key() {
                        return Err(damaged(&enc_path, "not the certificate's encryption key".into()));
                    }
                    Some(k)
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(io(&enc_path)(e)),
            };
            Ok((
                Authority {
                    certificate: Arc::new(cert),
                    key,
                },
                enc,
            ))
        };
        let encrypting = |sub: &str, root: &Authority| -> Result<EncryptingAuthority, AuthoritiesError> {
            let (authority, enc) = read(sub)?;
            if !authority.certificate.verify_signature(Some(&root.certificate)) {
                return Err(damaged(&dir.join(sub), "not issued by the root".into()));
            }
            let encryption_key = enc.ok_or_else(|| damaged(&dir.join(sub).join("enc-key.pem"), "missing".into()))?;
            Ok(EncryptingAuthority {
                authority,
                encryption_key,
            })
        };
        let (root, _) = read("root")?;
        let (tlm, _) = read("tlm")?;
        let ea = encrypting("ea", &root)?;
        let aa = encrypting("aa", &root)?;
        Ok(Authorities { root, tlm, ea, aa })
    }

    /// Loads the authorities in `dir`, or creates them there (on `curve`) when `dir` does
    /// not exist. Returns whether they were created.
    pub fn open_or_create(dir: &Path, curve: Curve) -> Result<(Authorities, bool), AuthoritiesError> {
        Authorities::open_or_create_with(dir, || Authorities::create(curve, TaiTime::now()))
    }

    /// [`Authorities::open_or_create`] creating them with `create`.
    pub fn open_or_create_with(
        dir: &Path,
        create: impl FnOnce() -> Result<Authorities, AuthoritiesError>,
    ) -> Result<(Authorities, bool), AuthoritiesError> {
        if dir.exists() {
            return Ok((Authorities::load(dir)?, false));
        }
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        durable::create_dir_all(parent).map_err(io(parent))?;
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("authorities");
        let staging = parent.join(format!(".{name}.init-{}", std::process::id()));
        let _ = fs::remove_dir_all(&staging);
        let created = create()?;
        let built = created.save(&staging);
        if let Err(e) = built {
            let _ = fs::remove_dir_all(&staging);
            return Err(e);
        }
        // rename(2) fails when another instance got there first: use theirs.
        match fs::rename(&staging, dir) {
            Ok(()) => {
                durable::sync_dir(parent).map_err(io(parent))?;
                Ok((created, true))
            }
            Err(_) if dir.exists() => {
                let _ = fs::remove_dir_all(&staging);
                Ok((Authorities::load(dir)?, false))
            }
            Err(e) => {
                let _ = fs::remove_dir_all(&staging);
                Err(io(dir)(e))
            }
        }
    }

    /// The EA, serving this AA.
    pub fn enrolment_authority(&self, policy: EaPolicy) -> EnrolmentAuthority {
        EnrolmentAuthority::new(
            self.ea.authority.clone(),
            self.ea.encryption_key.clone(),
            vec![self.aa.authority.certificate.clone()],
            policy,
        )
    }

    /// The AA, working with this EA.
    pub fn authorization_authority(&self, policy: AaPolicy) -> AuthorizationAuthority {
        AuthorizationAuthority::new(
            self.aa.authority.clone(),
            self.aa.encryption_key.clone(),
            vec![self.ea.authority.certificate.clone()],
            policy,
        )
    }

    /// The RCA's TS 102 941 CRL listing `revoked` CA certificates.
    pub fn crl(
        &self,
        revoked: &[HashedId8],
        this_update: TaiTime,
        next_update: TaiTime,
    ) -> Result<Vec<u8>, AuthoritiesError> {
        issue_etsi_crl(
            revoked,
            this_update,
            next_update,
            &self.root.certificate,
            &self.root.key,
        )
        .map_err(|e| AuthoritiesError::Sign(e.to_string()))
    }

    fn sign_list(&self, content: EtsiTs102941DataContent, signer: &Authority) -> Result<Vec<u8>, AuthoritiesError> {
        let payload = v2x_wire::ts102941::encode(&EtsiTs102941Data::v1(content))
            .map_err(|e| AuthoritiesError::Sign(e.to_string()))?;
        let header = rasn_its::ieee1609dot2::HeaderInfo::builder()
            .psid(convert::psid(ItsAid::CTL))
            .build();
        sign_data(&payload, header, &signer.certificate, &signer.key, SignerKind::Digest)
            .map_err(|e| AuthoritiesError::Sign(e.to_string()))
    }

    /// The RCA's full CTL (`ToBeSignedRcaCtl`): the EA with its access points and the AA.
    pub fn rca_ctl(&self, at: &AccessPoints, sequence: u8, next_update: TaiTime) -> Result<Vec<u8>, AuthoritiesError> {
        let commands = vec![
            CtlCommand::Add(Box::new(CtlEntry::Ea(EaEntry {
                ea_certificate: self.ea.authority.certificate.decoded().clone(),
                aa_access_point: url(&at.ea_validation)?,
                its_access_point: Some(url(&at.ea)?),
            }))),
            CtlCommand::Add(Box::new(CtlEntry::Aa(AaEntry {
                aa_certificate: self.aa.authority.certificate.decoded().clone(),
                access_point: url(&at.aa)?,
            }))),
        ];
        let body = CtlFormat::new(
            rasn_its::ieee1609dot2::base_types::Time32(next_update.to_time32()),
            true,
            sequence,
            commands,
        );
        self.sign_list(EtsiTs102941DataContent::CertificateTrustListRca(body), &self.root)
    }

    /// The TLM's full ECTL (`ToBeSignedTlmCtl`): the RCA, the TLM itself and the DC.
    pub fn ectl(&self, at: &AccessPoints, sequence: u8, next_update: TaiTime) -> Result<Vec<u8>, AuthoritiesError> {
        let commands = vec![
            CtlCommand::Add(Box::new(CtlEntry::Rca(RootCaEntry {
                selfsigned_root_ca: self.root.certificate.decoded().clone(),
                successor_to: None,
            }))),
            CtlCommand::Add(Box::new(CtlEntry::Tlm(TlmEntry {
                self_signed_tlm_certificate: self.tlm.certificate.decoded().clone(),
                successor_to: None,
                access_point: url(&at.tlm)?,
            }))),
            CtlCommand::Add(Box::new(CtlEntry::Dc(DcEntry {
                url: url(&at.dc)?,
                cert: vec![convert::hashed_id8_to_wire(self.root.certificate.hashed_id8())],
            }))),
        ];
        let body = CtlFormat::new(
            rasn_its::ieee1609dot2::base_types::Time32(next_update.to_time32()),
            true,
            sequence,
            commands,
        );
        self.sign_list(EtsiTs102941DataContent::CertificateTrustListTlm(body), &self.tlm)
    }
}

fn url(s: &str) -> Result<Ia5String, AuthoritiesError> {
    Ia5String::try_from(s.to_string()).map_err(|_| AuthoritiesError::Url(s.to_string()))
}
