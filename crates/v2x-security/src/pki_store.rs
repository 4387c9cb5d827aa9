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
//!
//! The CRL is part of the PKI: `pki.toml` records the serial of the last CRL issued, and a
//! trust store built from the directory refuses a missing CRL or one older than that (see
//! [`crate::trust_dir`] for the insecure lab override).

use crate::certificate::{AppPermission, CertRef, Certificate};
use crate::crl::{issue_crl_entries, verify_crl};
use crate::entity::SecurityEntity;
use crate::issue::{issue_certificate, CertificateSpec, IssueError, IssuePermissions, IssuerKey, PsidGroup};
use crate::permissions::issuance::check_issued_by;
pub use crate::pki_error::PkiError;
use crate::profile::{DEFAULT_CAM_SSP, DEFAULT_DENM_SSP};
use crate::pseudonym::{Credentials, PseudonymPool};
use crate::region::Region;
use crate::revocation::{CrlEntries, HashedId10};
use crate::time::TaiTime;
use crate::trust_dir::{load_certificate_dir, LoadedTrust, TrustOptions};
use crate::trust_store::{TrustStore, TrustWarning};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_wire::ItsAid;

const YEAR: u64 = 31_556_952;
/// CA certificates start this long before "now" so that slightly skewed clocks accept them.
const BACKDATE: Duration = Duration::from_secs(24 * 3600);
/// Tickets start up to this long before "now" (a quarter of their validity if shorter).
const TICKET_BACKDATE: Duration = Duration::from_secs(300);
/// How long a CRL issued here stays current (its nextUpdate).
pub const CRL_VALIDITY: Duration = Duration::from_secs(7 * 24 * 3600);

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
    pub psids: Vec<ItsAid>,
    /// Default validity of authorization tickets, in seconds.
    pub ticket_validity_secs: u64,
    /// Validity of the CA certificates, in seconds.
    pub ca_validity_secs: u64,
    /// Serial of the last CRL issued (a CRL with a lower serial is a rollback).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_crl_serial: Option<u32>,
}

impl Default for PkiConfig {
    fn default() -> Self {
        PkiConfig {
            curve: Curve::NistP256,
            psids: vec![ItsAid::CAM, ItsAid::DENM],
            ticket_validity_secs: 7 * 24 * 3600,
            ca_validity_secs: 5 * YEAR,
            last_crl_serial: None,
        }
    }
}

/// What a root CA signs itself: CRLs (1609.2 and TS 102 941) and CTLs.
pub fn root_app_permissions() -> Vec<AppPermission> {
    [ItsAid::IEEE_CRL, ItsAid::ETSI_CRL, ItsAid::CTL]
        .into_iter()
        .map(|p| AppPermission::new(p, None))
        .collect()
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
    /// Default: now minus five minutes (minus a quarter of the validity when that is less),
    /// so that a receiver whose clock is slightly behind accepts the ticket at once.
    pub start: Option<TaiTime>,
    pub region: Option<Region>,
    /// Give the ticket an encryption key (to receive encrypted data).
    pub encryption_key: bool,
    /// INSECURE lab option: issue a ticket that is already over when issued (with an
    /// explicit `start`), e.g. for the expired-certificate attack cases.
    pub insecure_allow_expired: bool,
}

/// The default SSP for a PSID (ETSI test PKI values for CAM and DENM).
pub fn default_ssp(psid: impl Into<ItsAid>) -> Option<Vec<u8>> {
    match psid.into() {
        ItsAid::CAM => Some(DEFAULT_CAM_SSP.to_vec()),
        ItsAid::DENM => Some(DEFAULT_DENM_SSP.to_vec()),
        _ => None,
    }
}

impl TicketSpec {
    pub fn new(psids: &[ItsAid], validity: Duration) -> TicketSpec {
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
            insecure_allow_expired: false,
        }
    }

    /// Where the validity starts when `start` is not given: now minus
    /// min(5 min, validity / 4).
    pub fn default_start(&self, now: TaiTime) -> TaiTime {
        now.saturating_sub(TICKET_BACKDATE.min(self.validity / 4))
    }
}

/// Issues one authorization ticket from `aa` per `spec`, valid from `start`, with a signing
/// key on `curve` (and an encryption key when the spec asks for one).
pub fn issue_ticket(
    aa: &Authority,
    spec: &TicketSpec,
    start: TaiTime,
    curve: Curve,
) -> Result<Credentials, IssueError> {
    let key = PrivateKey::generate(curve)?;
    let enc = if spec.encryption_key {
        Some(PrivateKey::generate(encryption_curve(curve))?)
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
            cert: &aa.certificate,
            key: &aa.key,
        },
    )?;
    Ok(Credentials {
        certificate: Arc::new(cert),
        signing_key: key,
        encryption_key: enc,
    })
}

/// Issues a CA certificate (EA, AA) under `root`: with these issue permissions, an
/// encryption key, assurance level 7, valid from `start` for `validity`.
pub fn issue_sub_ca(
    root: &Authority,
    name: &str,
    permissions: IssuePermissions,
    start: TaiTime,
    validity: Duration,
    curve: Curve,
) -> Result<Authority, IssueError> {
    let key = PrivateKey::generate(curve)?;
    let mut spec = CertificateSpec::new(Some(name), start, validity);
    spec.issue_permissions = Some(permissions);
    spec.assurance_level = Some(0xe0);
    spec.encryption_key = Some(PrivateKey::generate(encryption_curve(curve))?.public_key().clone());
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
        .map_err(|source| PkiError::Certificate {
            path: path.to_path_buf(),
            source,
        })
}

fn read_key(path: &Path, curve: Curve) -> Result<PrivateKey, PkiError> {
    let pem = read(path)?;
    PrivateKey::from_pem(curve, &pem).map_err(|source| PkiError::Key {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `dir/cert.oer` and `dir/key.pem`.
fn save_authority(dir: &Path, a: &Authority) -> Result<(), PkiError> {
    write_file(&dir.join("cert.oer"), a.certificate.encoded())?;
    write_private(&dir.join("key.pem"), &a.key.to_pem()?)
}

/// Reads `dir/cert.oer` and `dir/key.pem` and checks they belong together.
fn load_authority(dir: &Path, curve: Curve) -> Result<Authority, PkiError> {
    let certificate = read_certificate(&dir.join("cert.oer"))?;
    let key = read_key(&dir.join("key.pem"), curve)?;
    if key.public_key() != certificate.verification_key() {
        return Err(PkiError::KeyMismatch {
            path: dir.join("key.pem"),
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
        Err(PkiError::StationName(name.to_owned()))
    }
}

impl Pki {
    /// Creates a new PKI in `dir` (which must not already hold one): root CA, EA, AA,
    /// and `station` with an enrolment credential and one authorization ticket.
    pub fn init(dir: &Path, mut config: PkiConfig, station: &str) -> Result<Pki, PkiError> {
        valid_station_name(station)?;
        if dir.join("pki.toml").exists() {
            return Err(PkiError::Exists(dir.to_path_buf()));
        }
        fs::create_dir_all(dir).map_err(io(dir))?;
        let now = TaiTime::now();
        let start = now.saturating_sub(BACKDATE);
        let ca_validity = Duration::from_secs(config.ca_validity_secs);
        let curve = config.curve;

        let root_key = PrivateKey::generate(curve)?;
        let mut spec = CertificateSpec::new(Some("v2xsec root CA"), start, ca_validity);
        spec.issue_permissions = Some(IssuePermissions::All);
        spec.assurance_level = Some(0xe0);
        // The root may sign CRLs (PSID 256).
        spec.app_permissions = root_app_permissions();
        let root_cert = issue_certificate(&spec, root_key.public_key(), IssuerKey::SelfSigned(&root_key))?;
        let root = Authority {
            certificate: Arc::new(root_cert),
            key: root_key,
        };

        let sub_ca = |name: &str, permissions: IssuePermissions| {
            issue_sub_ca(&root, name, permissions, start, ca_validity, curve)
        };
        // The EA issues enrolment credentials (PSID 623). The AA issues tickets for any
        // PSID (`pki issue --psid` chooses), to end entities only: a ticket can never issue.
        let ea = sub_ca(
            "v2xsec enrolment authority",
            IssuePermissions::Psids(vec![ItsAid::CERT_REQUEST]),
        )?;
        let aa = sub_ca(
            "v2xsec authorization authority",
            IssuePermissions::Groups(vec![PsidGroup {
                subjects: None,
                ..PsidGroup::end_entities(&[])
            }]),
        )?;
        save_authority(&dir.join("root"), &root)?;
        save_authority(&dir.join("ea"), &ea)?;
        save_authority(&dir.join("aa"), &aa)?;
        config.last_crl_serial = Some(1);
        let pki = Pki {
            dir: dir.to_path_buf(),
            config,
            root,
            ea,
            aa,
        };
        pki.save_config()?;
        pki.sign_and_write_crl(&[], 1)?;
        pki.enrol(station)?;
        let spec = TicketSpec::new(&pki.config.psids, Duration::from_secs(pki.config.ticket_validity_secs));
        pki.issue_tickets(station, 1, &spec)?;
        Ok(pki)
    }

    /// Opens an existing PKI directory.
    pub fn open(dir: &Path) -> Result<Pki, PkiError> {
        let cfg_path = dir.join("pki.toml");
        let text = fs::read_to_string(&cfg_path).map_err(io(&cfg_path))?;
        let config: PkiConfig = toml::from_str(&text).map_err(|source| PkiError::Config {
            path: cfg_path.clone(),
            source,
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

    fn save_config(&self) -> Result<(), PkiError> {
        write_file(&self.dir.join("pki.toml"), toml::to_string(&self.config)?.as_bytes())
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
        let key = PrivateKey::generate(self.config.curve)?;
        let start = TaiTime::now().saturating_sub(TICKET_BACKDATE);
        let ea_end = self.ea.certificate.validity().end;
        let validity = Duration::from_secs((2 * YEAR).min(ea_end.saturating_sub(start.seconds())));
        let mut spec = CertificateSpec::new(Some(station), start, validity);
        // An enrolment credential signs authorization requests to the AA: ITS-AID 623
        // (secured certificate request service), SSP "enrolment, authorization" as in
        // the ETSI test PKIs.
        spec.app_permissions = vec![AppPermission::new(ItsAid::CERT_REQUEST, Some(vec![0x01, 0xc0]))];
        let cert = issue_certificate(
            &spec,
            key.public_key(),
            IssuerKey::Ca {
                cert: &self.ea.certificate,
                key: &self.ea.key,
            },
        )?;
        write_file(&sdir.join("ec.oer"), cert.encoded())?;
        write_private(&sdir.join("ec.pem"), &key.to_pem()?)?;
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
        let now = TaiTime::now();
        let start = spec.start.unwrap_or_else(|| spec.default_start(now));
        let end = start.seconds().saturating_add(spec.validity.as_secs());
        let aa_end = self.aa.certificate.validity().end;
        if end > aa_end {
            return Err(PkiError::OutlivesAa { aa_end });
        }
        if end <= now.seconds() && !spec.insecure_allow_expired {
            return Err(PkiError::TicketAlreadyExpired {
                start: start.seconds(),
                end,
                now: now.seconds(),
            });
        }
        let mut out = Vec::with_capacity(count);
        for i in first..first + count {
            let creds = issue_ticket(&self.aa, spec, start, self.config.curve)?;
            // Never hand out a ticket receivers would reject as inconsistent (e.g. a PSID the
            // AA of an older PKI directory may not grant).
            check_issued_by(&creds.certificate, &self.aa.certificate).map_err(PkiError::NotPermittedByAa)?;
            let (cert, key, enc) = (&creds.certificate, &creds.signing_key, &creds.encryption_key);
            let base = tdir.join(format!("at-{i:04}"));
            write_file(&base.with_extension("oer"), cert.encoded())?;
            write_private(&base.with_extension("pem"), &key.to_pem()?)?;
            if let Some(k) = enc {
                write_private(&tdir.join(format!("at-{i:04}.enc.pem")), &k.to_pem()?)?;
            }
            out.push(creds);
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
        PseudonymPool::new(self.tickets(station)?).ok_or_else(|| PkiError::NoTickets(station.to_owned()))
    }

    /// A trust store with the root as anchor, EA and AA as chain links and the CRL applied
    /// (strict: a missing or rolled-back CRL is an error).
    pub fn trust_store(&self) -> Result<TrustStore, PkiError> {
        Ok(self.trust_store_with(&TrustOptions::default())?.store)
    }

    /// [`Pki::trust_store`] with explicit options (the insecure missing-CRL override).
    pub fn trust_store_with(&self, options: &TrustOptions) -> Result<LoadedTrust, PkiError> {
        let mut store = TrustStore::new();
        store
            .add_trust_anchor(self.root.certificate.clone())
            .map_err(|source| PkiError::Anchor {
                path: self.dir.join("root/cert.oer"),
                source,
            })?;
        store.add_ca_certificate(self.ea.certificate.clone());
        store.add_ca_certificate(self.aa.certificate.clone());
        let mut warnings = Vec::new();
        let crl_path = self.dir.join("crl.oer");
        if crl_path.exists() {
            store.expect_crl_from(&self.root.certificate);
            let bytes = read(&crl_path)?;
            let crl = verify_crl(&bytes, &store).map_err(|source| PkiError::Crl {
                path: crl_path.clone(),
                source,
            })?;
            if let Some(expected) = self.config.last_crl_serial.filter(|e| crl.serial < *e) {
                return Err(PkiError::CrlRollback {
                    path: crl_path,
                    found: crl.serial,
                    expected,
                });
            }
            store.revocation_mut().install(crl).map_err(|e| PkiError::Crl {
                path: crl_path.clone(),
                source: e.into(),
            })?;
        } else if options.insecure_allow_missing_crl {
            warnings.push(TrustWarning::MissingCrl { path: crl_path });
        } else {
            return Err(PkiError::MissingCrl { path: crl_path });
        }
        Ok(LoadedTrust { store, warnings })
    }

    /// A security entity signing with `station`'s tickets and trusting this PKI.
    pub fn entity(&self, station: &str) -> Result<SecurityEntity, PkiError> {
        Ok(SecurityEntity::with_pseudonyms(
            self.trust_store()?,
            self.pseudonyms(station)?,
            vec![self.aa.certificate.clone(), self.root.certificate.clone()],
        ))
    }

    /// Signs the CRL listing `entries` with `serial` (current for [`CRL_VALIDITY`]) and
    /// writes it.
    fn sign_and_write_crl(&self, entries: &[(HashedId10, u32)], serial: u32) -> Result<(), PkiError> {
        let now = TaiTime::now();
        let bytes = issue_crl_entries(
            entries,
            serial,
            now,
            now.saturating_add(CRL_VALIDITY),
            &self.root.certificate,
            &self.root.key,
        )
        .map_err(|source| PkiError::Crl {
            path: self.dir.join("crl.oer"),
            source,
        })?;
        write_file(&self.dir.join("crl.oer"), &bytes)
    }

    /// The entries and serial of the CRL on disk (refusing a missing or rolled-back one).
    fn current_crl(&self) -> Result<(Vec<(HashedId10, u32)>, u32), PkiError> {
        let crl_path = self.dir.join("crl.oer");
        if !crl_path.exists() {
            return Err(PkiError::MissingCrl { path: crl_path });
        }
        let store = self.trust_store()?;
        let crl = store
            .revocation()
            .crls()
            .find(|c| c.issuer == self.root.certificate.hashed_id8())
            .cloned()
            .ok_or(PkiError::MissingCrl { path: crl_path })?;
        let entries = match crl.entries {
            CrlEntries::HashedId10(e) => e,
            CrlEntries::HashedId8(_) => Vec::new(),
        };
        Ok((entries, crl.serial))
    }

    /// Re-signs the CRL with the next serial and the same entries plus `add` (a fresh
    /// nextUpdate), and records the serial.
    fn reissue_crl(&mut self, add: Option<&Certificate>) -> Result<u32, PkiError> {
        let (mut entries, serial) = self.current_crl()?;
        if let Some(cert) = add {
            if !entries.iter().any(|(id, _)| *id == cert.hashed_id10()) {
                entries.push((
                    cert.hashed_id10(),
                    u32::try_from(cert.validity().end).unwrap_or(u32::MAX),
                ));
            }
        }
        let serial = serial.max(self.config.last_crl_serial.unwrap_or(0)) + 1;
        // The CRL first: if the configuration is not updated, it still names a serial the
        // new CRL does not fall below.
        self.sign_and_write_crl(&entries, serial)?;
        self.config.last_crl_serial = Some(serial);
        self.save_config()?;
        Ok(serial)
    }

    /// Revokes a certificate: re-issues the CRL with it added. Returns the new CRL serial.
    pub fn revoke(&mut self, cert: &Certificate) -> Result<u32, PkiError> {
        self.reissue_crl(Some(cert))
    }

    /// Re-issues the CRL unchanged but for a new serial and nextUpdate (a CRL must be
    /// re-issued before its nextUpdate, or receivers stop trusting the PKI's chains).
    pub fn refresh_crl(&mut self) -> Result<u32, PkiError> {
        self.reissue_crl(None)
    }
}

/// Loads a trust store from `dir` with the strict defaults, as of now: a PKI directory
/// (with `pki.toml`), or a directory of certificates, trust lists and CRLs
/// ([`crate::trust_dir`]).
pub fn load_trust_dir(dir: &Path) -> Result<TrustStore, PkiError> {
    Ok(load_trust_dir_with(dir, &TrustOptions::default())?.store)
}

/// [`load_trust_dir`] with explicit options (time, insecure lab overrides).
pub fn load_trust_dir_with(dir: &Path, options: &TrustOptions) -> Result<LoadedTrust, PkiError> {
    if dir.join("pki.toml").exists() {
        Pki::open(dir)?.trust_store_with(options)
    } else {
        load_certificate_dir(dir, options)
    }
}
