//! A PKI on disk: root CA, enrolment authority (EA), authorization authority (AA),
//! stations with an enrolment credential (EC) and a pool of authorization tickets,
//! and the root's CRL.
//!
//! ```text
//! DIR/pki.toml                      curve, PSIDs, validity defaults
//! DIR/root/cert.oer  root/key.pem   self-signed root CA
//! DIR/ea/cert.oer    ea/key.pem     enrolment authority (issued by the root)
//! DIR/aa/cert.oer    aa/key.pem     authorization authority (issued by the root)
//! DIR/crl.oer                       1609.2 SecuredCrl signed by the root
//! DIR/stations/NAME/ec.oer ec.pem   enrolment credential (issued by the EA)
//! DIR/stations/NAME/tickets/at-0000.oer at-0000.pem at-0000.enc.pem
//! ```
//! Certificates are C-OER files; private keys are SEC 1 PEM written with mode 0600.

use crate::certificate::{AppPermission, CertRef, Certificate};
use crate::crl::{issue_crl, verify_crl};
use crate::entity::SecurityEntity;
use crate::issue::{issue_certificate, CertificateSpec, IssuePermissions, IssuerKey};
use crate::profile::{DEFAULT_CAM_SSP, DEFAULT_DENM_SSP, PSID_CAM, PSID_DENM};
use crate::pseudonym::{Credentials, PseudonymPool};
use crate::region::Region;
use crate::time::TaiTime;
use crate::trust_store::TrustStore;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};

const YEAR: u64 = 31_556_952;
/// ITS-AID of the secured certificate request service (TS 102 965), held by ECs.
pub const PSID_CERT_REQUEST: u64 = 623;
/// CA certificates start this long before "now" so that slightly skewed clocks accept them.
const BACKDATE: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, thiserror::Error)]
pub enum PkiError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: {detail}")]
    BadFile { path: PathBuf, detail: String },
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Issue(#[from] crate::issue::IssueError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PkiError + '_ {
    move |source| PkiError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The contents of `pki.toml`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PkiConfig {
    pub curve: Curve,
    /// PSIDs granted to tickets by default (with the default ETSI SSPs for 36 and 37).
    pub psids: Vec<u64>,
    /// Default validity of authorization tickets, in seconds.
    pub ticket_validity_secs: u64,
    /// Validity of the CA certificates, in seconds.
    pub ca_validity_secs: u64,
}

impl Default for PkiConfig {
    fn default() -> Self {
        PkiConfig {
            curve: Curve::NistP256,
            psids: vec![PSID_CAM, PSID_DENM],
            ticket_validity_secs: 7 * 24 * 3600,
            ca_validity_secs: 5 * YEAR,
        }
    }
}

/// A CA or end-entity certificate with its signing key.
#[derive(Debug, Clone)]
pub struct Authority {
    pub certificate: CertRef,
    pub key: PrivateKey,
}

/// What to put into new authorization tickets.
#[derive(Debug, Clone)]
pub struct TicketSpec {
    pub permissions: Vec<AppPermission>,
    pub validity: Duration,
    /// Default: now minus five minutes.
    pub start: Option<TaiTime>,
    pub region: Option<Region>,
    /// Give the ticket an encryption key (to receive encrypted data).
    pub encryption_key: bool,
}

/// The default SSP for a PSID (ETSI test PKI values for CAM and DENM).
pub fn default_ssp(psid: u64) -> Option<Vec<u8>> {
    match psid {
        PSID_CAM => Some(DEFAULT_CAM_SSP.to_vec()),
        PSID_DENM => Some(DEFAULT_DENM_SSP.to_vec()),
        _ => None,
    }
}

impl TicketSpec {
    pub fn new(psids: &[u64], validity: Duration) -> TicketSpec {
        TicketSpec {
            permissions: psids
                .iter()
                .map(|&psid| AppPermission {
                    psid,
                    ssp: default_ssp(psid),
                })
                .collect(),
            validity,
            start: None,
            region: None,
            encryption_key: true,
        }
    }
}

/// The ECIES curve that goes with a signing curve (1609.2 ECIES exists for 256-bit curves).
pub fn encryption_curve(curve: Curve) -> Curve {
    match curve {
        Curve::NistP256 | Curve::NistP384 => Curve::NistP256,
        Curve::BrainpoolP256r1 | Curve::BrainpoolP384r1 => Curve::BrainpoolP256r1,
    }
}

/// A PKI directory.
#[derive(Debug)]
pub struct Pki {
    dir: PathBuf,
    config: PkiConfig,
    root: Authority,
    ea: Authority,
    aa: Authority,
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), PkiError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io(parent))?;
    }
    fs::write(path, bytes).map_err(io(path))
}

/// Writes a private key readable by the owner only.
fn write_private(path: &Path, pem: &[u8]) -> Result<(), PkiError> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io(parent))?;
    }
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(io(path))?;
    // An existing file keeps its mode on open: force 0600.
    f.set_permissions(fs::Permissions::from_mode(0o600)).map_err(io(path))?;
    f.write_all(pem).map_err(io(path))
}

fn read(path: &Path) -> Result<Vec<u8>, PkiError> {
    fs::read(path).map_err(io(path))
}

/// Reads a certificate file.
pub fn read_certificate(path: &Path) -> Result<CertRef, PkiError> {
    let bytes = read(path)?;
    Certificate::from_bytes(&bytes)
        .map(Arc::new)
        .map_err(|e| PkiError::BadFile {
            path: path.to_path_buf(),
            detail: e.to_string(),
        })
}

fn read_key(path: &Path, curve: Curve) -> Result<PrivateKey, PkiError> {
    let pem = read(path)?;
    PrivateKey::from_pem(curve, &pem).map_err(|e| PkiError::BadFile {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })
}

/// Writes `dir/cert.oer` and `dir/key.pem`.
fn save_authority(dir: &Path, a: &Authority) -> Result<(), PkiError> {
    write_file(&dir.join("cert.oer"), a.certificate.encoded())?;
    write_private(
        &dir.join("key.pem"),
        &a.key.to_pem().map_err(|e| PkiError::Invalid(e.to_string()))?,
    )
}

/// Reads `dir/cert.oer` and `dir/key.pem` and checks they belong together.
fn load_authority(dir: &Path, curve: Curve) -> Result<Authority, PkiError> {
    let certificate = read_certificate(&dir.join("cert.oer"))?;
    let key = read_key(&dir.join("key.pem"), curve)?;
    if key.public_key() != certificate.verification_key() {
        return Err(PkiError::BadFile {
            path: dir.join("key.pem"),
            detail: "private key does not match the certificate".into(),
        });
    }
    Ok(Authority { certificate, key })
}

fn valid_station_name(name: &str) -> Result<(), PkiError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !name.starts_with('.');
    if ok {
        Ok(())
    } else {
        Err(PkiError::Invalid(format!(
            "invalid station name {name:?} (use letters, digits, '-', '_', '.')"
        )))
    }
}

impl Pki {
    /// Creates a new PKI in `dir` (which must not already hold one): root CA, EA, AA,
    /// and `station` with an enrolment credential and one authorization ticket.
    pub fn init(dir: &Path, config: PkiConfig, station: &str) -> Result<Pki, PkiError> {
        valid_station_name(station)?;
        if dir.join("pki.toml").exists() {
            return Err(PkiError::Invalid(format!("{} already holds a PKI", dir.display())));
        }
        fs::create_dir_all(dir).map_err(io(dir))?;
        let now = TaiTime::now();
        let start = now.saturating_sub(BACKDATE);
        let ca_validity = Duration::from_secs(config.ca_validity_secs);
        let curve = config.curve;

        let root_key = PrivateKey::generate(curve).map_err(|e| PkiError::Invalid(e.to_string()))?;
        let mut spec = CertificateSpec::new(Some("v2xsec root CA"), start, ca_validity);
        spec.issue_permissions = Some(IssuePermissions::All);
        spec.assurance_level = Some(0xe0);
        // The root may sign CRLs (PSID 256).
        spec.app_permissions = vec![AppPermission {
            psid: crate::crl::CRL_PSID,
            ssp: None,
        }];
        let root_cert = issue_certificate(&spec, root_key.public_key(), IssuerKey::SelfSigned(&root_key))?;
        let root = Authority {
            certificate: Arc::new(root_cert),
            key: root_key,
        };

        let sub_ca = |name: &str, psids: Vec<u64>| -> Result<Authority, PkiError> {
            let key = PrivateKey::generate(curve).map_err(|e| PkiError::Invalid(e.to_string()))?;
            let mut spec = CertificateSpec::new(Some(name), start, ca_validity);
            spec.issue_permissions = Some(IssuePermissions::Psids(psids));
            spec.assurance_level = Some(0xe0);
            let enc = PrivateKey::generate(encryption_curve(curve)).map_err(|e| PkiError::Invalid(e.to_string()))?;
            spec.encryption_key = Some(enc.public_key().clone());
            let cert = issue_certificate(
                &spec,
                key.public_key(),
                IssuerKey::Ca {
                    cert: &root.certificate,
                    key: &root.key,
                },
            )?;
            Ok(Authority {
                certificate: Arc::new(cert),
                key,
            })
        };
        // The EA issues enrolment credentials (PSID 623), the AA tickets for the PKI's PSIDs.
        let ea = sub_ca("v2xsec enrolment authority", vec![PSID_CERT_REQUEST])?;
        let aa = sub_ca("v2xsec authorization authority", config.psids.clone())?;

        save_authority(&dir.join("root"), &root)?;
        save_authority(&dir.join("ea"), &ea)?;
        save_authority(&dir.join("aa"), &aa)?;
        let toml = toml::to_string(&config).map_err(|e| PkiError::Invalid(e.to_string()))?;
        write_file(&dir.join("pki.toml"), toml.as_bytes())?;
        let pki = Pki {
            dir: dir.to_path_buf(),
            config,
            root,
            ea,
            aa,
        };
        pki.write_crl(&[], 1)?;
        pki.enrol(station)?;
        let spec = TicketSpec::new(&pki.config.psids, Duration::from_secs(pki.config.ticket_validity_secs));
        pki.issue_tickets(station, 1, &spec)?;
        Ok(pki)
    }

    /// Opens an existing PKI directory.
    pub fn open(dir: &Path) -> Result<Pki, PkiError> {
        let cfg_path = dir.join("pki.toml");
        let text = fs::read_to_string(&cfg_path).map_err(io(&cfg_path))?;
        let config: PkiConfig = toml::from_str(&text).map_err(|e| PkiError::BadFile {
            path: cfg_path.clone(),
            detail: e.to_string(),
        })?;
        let root = load_authority(&dir.join("root"), config.curve)?;
        let ea = load_authority(&dir.join("ea"), config.curve)?;
        let aa = load_authority(&dir.join("aa"), config.curve)?;
        Ok(Pki {
            dir: dir.to_path_buf(),
            config,
            root,
            ea,
            aa,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn config(&self) -> &PkiConfig {
        &self.config
    }

    pub fn root(&self) -> &Authority {
        &self.root
    }

    pub fn ea(&self) -> &Authority {
        &self.ea
    }

    pub fn aa(&self) -> &Authority {
        &self.aa
    }

    fn station_dir(&self, station: &str) -> PathBuf {
        self.dir.join("stations").join(station)
    }

    /// Station names.
    pub fn stations(&self) -> Vec<String> {
        let mut out: Vec<String> = fs::read_dir(self.dir.join("stations"))
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }

    /// Creates a station's enrolment credential (issued by the EA) if missing.
    pub fn enrol(&self, station: &str) -> Result<Authority, PkiError> {
        valid_station_name(station)?;
        let sdir = self.station_dir(station);
        if sdir.join("ec.oer").exists() {
            let certificate = read_certificate(&sdir.join("ec.oer"))?;
            let key = read_key(&sdir.join("ec.pem"), self.config.curve)?;
            return Ok(Authority { certificate, key });
        }
        let key = PrivateKey::generate(self.config.curve).map_err(|e| PkiError::Invalid(e.to_string()))?;
        let start = TaiTime::now().saturating_sub(Duration::from_secs(300));
        let ea_end = self.ea.certificate.validity().end;
        let validity = Duration::from_secs((2 * YEAR).min(ea_end.saturating_sub(start.seconds())));
        let mut spec = CertificateSpec::new(Some(station), start, validity);
        // An enrolment credential signs authorization requests to the AA: ITS-AID 623
        // (secured certificate request service), SSP "enrolment, authorization" as in
        // the ETSI test PKIs.
        spec.app_permissions = vec![AppPermission {
            psid: PSID_CERT_REQUEST,
            ssp: Some(vec![0x01, 0xc0]),
        }];
        let cert = issue_certificate(
            &spec,
            key.public_key(),
            IssuerKey::Ca {
                cert: &self.ea.certificate,
                key: &self.ea.key,
            },
        )?;
        write_file(&sdir.join("ec.oer"), cert.encoded())?;
        write_private(
            &sdir.join("ec.pem"),
            &key.to_pem().map_err(|e| PkiError::Invalid(e.to_string()))?,
        )?;
        Ok(Authority {
            certificate: Arc::new(cert),
            key,
        })
    }

    /// Issues `count` authorization tickets (pseudonyms) for `station` from the AA and
    /// stores them; the station is enrolled first if needed.
    pub fn issue_tickets(&self, station: &str, count: usize, spec: &TicketSpec) -> Result<Vec<Credentials>, PkiError> {
        self.enrol(station)?;
        let tdir = self.station_dir(station).join("tickets");
        fs::create_dir_all(&tdir).map_err(io(&tdir))?;
        let first = fs::read_dir(&tdir)
            .map_err(io(&tdir))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".oer"))
            .count();
        let start = spec
            .start
            .unwrap_or_else(|| TaiTime::now().saturating_sub(Duration::from_secs(300)));
        let aa_end = self.aa.certificate.validity().end;
        if start.seconds().saturating_add(spec.validity.as_secs()) > aa_end {
            return Err(PkiError::Invalid(format!(
                "ticket validity ends after the AA certificate (AA valid until TAI {aa_end} s)"
            )));
        }
        let mut out = Vec::with_capacity(count);
        for i in first..first + count {
            let key = PrivateKey::generate(self.config.curve).map_err(|e| PkiError::Invalid(e.to_string()))?;
            let enc = if spec.encryption_key {
                Some(
                    PrivateKey::generate(encryption_curve(self.config.curve))
                        .map_err(|e| PkiError::Invalid(e.to_string()))?,
                )
            } else {
                None
            };
            let mut cs = CertificateSpec::new(None, start, spec.validity);
            cs.app_permissions = spec.permissions.clone();
            cs.region = spec.region.clone();
            cs.encryption_key = enc.as_ref().map(|k| k.public_key().clone());
            cs.assurance_level = Some(0x00);
            let cert = issue_certificate(
                &cs,
                key.public_key(),
                IssuerKey::Ca {
                    cert: &self.aa.certificate,
                    key: &self.aa.key,
                },
            )?;
            let base = tdir.join(format!("at-{i:04}"));
            write_file(&base.with_extension("oer"), cert.encoded())?;
            write_private(
                &base.with_extension("pem"),
                &key.to_pem().map_err(|e| PkiError::Invalid(e.to_string()))?,
            )?;
            if let Some(k) = &enc {
                write_private(
                    &tdir.join(format!("at-{i:04}.enc.pem")),
                    &k.to_pem().map_err(|e| PkiError::Invalid(e.to_string()))?,
                )?;
            }
            out.push(Credentials {
                certificate: Arc::new(cert),
                signing_key: key,
                encryption_key: enc,
            });
        }
        Ok(out)
    }

    /// All tickets of a station, in issue order.
    pub fn tickets(&self, station: &str) -> Result<Vec<Credentials>, PkiError> {
        valid_station_name(station)?;
        let tdir = self.station_dir(station).join("tickets");
        let mut names: Vec<String> = fs::read_dir(&tdir)
            .map_err(io(&tdir))?
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with("at-") && n.ends_with(".oer"))
            .collect();
        names.sort();
        let mut out = Vec::new();
        for n in names {
            let stem = n.trim_end_matches(".oer");
            let certificate = read_certificate(&tdir.join(&n))?;
            let signing_key = read_key(&tdir.join(format!("{stem}.pem")), self.config.curve)?;
            let enc_path = tdir.join(format!("{stem}.enc.pem"));
            let encryption_key = if enc_path.exists() {
                let curve = certificate
                    .encryption_key()
                    .map(|k| k.curve())
                    .unwrap_or(encryption_curve(self.config.curve));
                Some(read_key(&enc_path, curve)?)
            } else {
                None
            };
            out.push(Credentials {
                certificate,
                signing_key,
                encryption_key,
            });
        }
        Ok(out)
    }

    /// The station's pseudonym pool.
    pub fn pseudonyms(&self, station: &str) -> Result<PseudonymPool, PkiError> {
        PseudonymPool::new(self.tickets(station)?)
            .ok_or_else(|| PkiError::Invalid(format!("station {station} has no tickets")))
    }

    /// A trust store with the root as anchor, EA and AA as chain links and the CRL applied.
    pub fn trust_store(&self) -> Result<TrustStore, PkiError> {
        let mut store = TrustStore::new();
        store
            .add_trust_anchor(self.root.certificate.clone())
            .map_err(|e| PkiError::Invalid(e.to_string()))?;
        store.add_ca_certificate(self.ea.certificate.clone());
        store.add_ca_certificate(self.aa.certificate.clone());
        let crl_path = self.dir.join("crl.oer");
        if crl_path.exists() {
            let bytes = read(&crl_path)?;
            store.apply_crl(&bytes).map_err(|e| PkiError::BadFile {
                path: crl_path.clone(),
                detail: e.to_string(),
            })?;
        }
        Ok(store)
    }

    /// A security entity signing with `station`'s tickets and trusting this PKI.
    pub fn entity(&self, station: &str) -> Result<SecurityEntity, PkiError> {
        Ok(SecurityEntity::with_pseudonyms(
            self.trust_store()?,
            self.pseudonyms(station)?,
            vec![self.aa.certificate.clone(), self.root.certificate.clone()],
        ))
    }

    fn write_crl(&self, revoked: &[&Certificate], serial: u32) -> Result<(), PkiError> {
        let now = TaiTime::now();
        let next = now.saturating_add(Duration::from_secs(7 * 24 * 3600));
        let bytes =
            issue_crl(revoked, serial, now, next, &self.root.certificate, &self.root.key).map_err(PkiError::Invalid)?;
        write_file(&self.dir.join("crl.oer"), &bytes)
    }

    /// Revokes a certificate: re-issues the CRL with it added.
    pub fn revoke(&self, cert: &Certificate) -> Result<(), PkiError> {
        let mut store = TrustStore::new();
        store
            .add_trust_anchor(self.root.certificate.clone())
            .map_err(|e| PkiError::Invalid(e.to_string()))?;
        let crl_path = self.dir.join("crl.oer");
        let (mut entries, serial) = match read(&crl_path) {
            Ok(b) => {
                let crl = verify_crl(&b, &store).map_err(|e| PkiError::BadFile {
                    path: crl_path.clone(),
                    detail: e.to_string(),
                })?;
                (crl.entries, crl.serial)
            }
            Err(_) => (Vec::new(), 0),
        };
        if !entries.iter().any(|(id, _)| *id == cert.hashed_id10()) {
            entries.push((
                cert.hashed_id10(),
                u32::try_from(cert.validity().end).unwrap_or(u32::MAX),
            ));
        }
        let now = TaiTime::now();
        let next = now.saturating_add(Duration::from_secs(7 * 24 * 3600));
        let bytes =
            crate::crl::issue_crl_entries(&entries, serial + 1, now, next, &self.root.certificate, &self.root.key)
                .map_err(PkiError::Invalid)?;
        write_file(&crl_path, &bytes)
    }
}

/// Loads a trust store from a directory: a PKI directory (with `pki.toml`), or a
/// directory of root certificates (`*.oer`, self-signed -> trust anchor, others ->
/// chain links), ECTL files (verified with a self-signed certificate of the same
/// directory, e.g. the EU TLM certificate) and CRLs.
pub fn load_trust_dir(dir: &Path) -> Result<TrustStore, PkiError> {
    if dir.join("pki.toml").exists() {
        return Pki::open(dir)?.trust_store();
    }
    let rd = fs::read_dir(dir).map_err(io(dir))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut store = TrustStore::new();
    let mut self_signed = Vec::new();
    let mut other = Vec::new();
    for f in &files {
        let bytes = read(f)?;
        match Certificate::from_bytes(&bytes) {
            Ok(c) if c.is_self_signed() => {
                let c = Arc::new(c);
                store.add_trust_anchor(c.clone()).map_err(|e| PkiError::BadFile {
                    path: f.clone(),
                    detail: e.to_string(),
                })?;
                self_signed.push(c);
            }
            Ok(c) => store.add_ca_certificate(Arc::new(c)),
            Err(_) => other.push((f.clone(), bytes)),
        }
    }
    for (f, bytes) in other {
        let as_ectl = self_signed.iter().find_map(|tlm| store.load_ectl(&bytes, tlm).ok());
        if as_ectl.is_some() {
            continue;
        }
        if store.apply_crl(&bytes).is_ok() {
            continue;
        }
        return Err(PkiError::BadFile {
            path: f,
            detail: "neither a certificate, a trust list verifiable with a certificate here, nor a CRL".into(),
        });
    }
    Ok(store)
}
