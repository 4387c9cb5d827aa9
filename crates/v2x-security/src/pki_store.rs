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
//! Nothing stored is lost (see [`crate::durable`]): every file is written to a temporary
//! file, flushed and then renamed (the CRL, `pki.toml`) or linked (keys and certificates,
//! which are never overwritten) into place; a ticket's keys are written before its
//! certificate, so an interrupted issue leaves at most a key without a certificate, never a
//! ticket without its key; ticket numbers come from a counter in `pki.toml` and the files
//! present, never reused; every change holds `DIR/.lock`, so a concurrent command is
//! refused; and `init` builds the directory beside its target and renames it into place,
//! refusing a directory that already holds anything. [`crate::pki_check`] finds and names
//! damage done from outside (`v2x pki check`).
//!
//! The CRL is part of the PKI: `pki.toml` records the serial of the last CRL issued, and a
//! trust store built from the directory refuses a missing CRL or one older than that (see
//! [`crate::trust_dir`] for the insecure lab override).

use crate::authority::{
    encryption_curve, issue_root, issue_sub_ca, issue_ticket, Authority, TicketSpec, TICKET_BACKDATE,
};
use crate::certificate::{AppPermission, CertRef, Certificate};
use crate::crl::{issue_crl_entries, verify_crl};
use crate::durable::{self, Access, DirLock};
use crate::entity::SecurityEntity;
use crate::issue::{issue_certificate, CertificateSpec, IssuePermissions, IssuerKey, PsidGroup};
use crate::permissions::issuance::check_issued_by;
pub use crate::pki_error::PkiError;
use crate::pseudonym::{Credentials, PseudonymPool};
use crate::revocation::{CrlEntries, HashedId10};
use crate::time::TaiTime;
use crate::trust_dir::{load_certificate_dir, LoadedTrust, TrustOptions};
use crate::trust_store::{TrustStore, TrustWarning};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_wire::ItsAid;

const YEAR: u64 = 31_556_952;
/// CA certificates start this long before "now" so that slightly skewed clocks accept them.
const BACKDATE: Duration = Duration::from_secs(24 * 3600);
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
    /// thisUpdate (Time32) of the last CRL of the v1.2.1 root (`v1.2.1/root.crl`): a CRL
    /// there that is missing or older is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_v1_crl_issued: Option<u32>,
    /// Per station, the number the next ticket gets (numbers are never reused).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub next_ticket: BTreeMap<String, u32>,
}

impl Default for PkiConfig {
    fn default() -> Self {
        PkiConfig {
            curve: Curve::NistP256,
            psids: vec![ItsAid::CAM, ItsAid::DENM],
            ticket_validity_secs: 7 * 24 * 3600,
            ca_validity_secs: 5 * YEAR,
            last_crl_serial: None,
            last_v1_crl_issued: None,
            next_ticket: BTreeMap::new(),
        }
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

/// Creates a public file (a certificate) that must not exist yet.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), PkiError> {
    create_new(path, bytes, Access::Public)
}

/// Creates a private key file (mode 0600) that must not exist yet: keys are never
/// overwritten.
fn write_private(path: &Path, pem: &[u8]) -> Result<(), PkiError> {
    create_new(path, pem, Access::OwnerOnly)
}

fn create_new(path: &Path, bytes: &[u8], access: Access) -> Result<(), PkiError> {
    if let Some(parent) = path.parent() {
        durable::create_dir_all(parent).map_err(io(parent))?;
    }
    durable::create_new(path, bytes, access).map_err(|source| match source.kind() {
        std::io::ErrorKind::AlreadyExists => PkiError::WouldOverwrite {
            path: path.to_path_buf(),
        },
        _ => PkiError::Io {
            path: path.to_path_buf(),
            source,
        },
    })
}

/// Replaces a public file (the CRL, `pki.toml`) atomically.
fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), PkiError> {
    durable::replace(path, bytes, Access::Public).map_err(io(path))
}

/// Reads and parses `DIR/pki.toml`.
pub(crate) fn read_config(dir: &Path) -> Result<PkiConfig, PkiError> {
    let path = dir.join("pki.toml");
    let text = fs::read_to_string(&path).map_err(io(&path))?;
    toml::from_str(&text).map_err(|source| PkiError::Config { path, source })
}

/// The number in a ticket file name (`at-0007.oer`, `at-0007.pem`, `at-0007.enc.pem`).
pub fn ticket_index(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix("at-")?;
    let digits = rest.split('.').next()?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || !rest[digits.len()..].starts_with('.') {
        return None;
    }
    digits.parse().ok()
}

/// The file of a station directory naming its active pseudonym (the HashedId8 of a ticket,
/// hex), written by `v2x encap --change-pseudonym`; without it the first ticket signs.
pub const ACTIVE_PSEUDONYM: &str = "active-pseudonym";

/// The name stem of ticket `i`.
pub fn ticket_stem(i: u32) -> String {
    format!("at-{i:04}")
}

/// The entries of `tdir` that name ticket files, with their numbers.
fn ticket_files(tdir: &Path) -> Result<Vec<(u32, String)>, PkiError> {
    let rd = match fs::read_dir(tdir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(tdir)(e)),
    };
    Ok(rd
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| ticket_index(&n).map(|i| (i, n)))
        .collect())
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

/// Writes `dir/key.pem` and then `dir/cert.oer` (neither may exist).
fn save_authority(dir: &Path, a: &Authority) -> Result<(), PkiError> {
    write_private(&dir.join("key.pem"), &a.key.to_pem()?)?;
    write_new(&dir.join("cert.oer"), a.certificate.encoded())
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

/// Refuses a directory that exists and holds anything (`init` never writes into one).
fn refuse_non_empty(dir: &Path) -> Result<(), PkiError> {
    let found: Vec<String> = match fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io(dir)(e)),
    };
    if found.is_empty() {
        return Ok(());
    }
    if found.iter().any(|n| n == "pki.toml") {
        return Err(PkiError::Exists(dir.to_path_buf()));
    }
    let mut found = found;
    found.sort();
    Err(PkiError::NotEmpty {
        path: dir.to_path_buf(),
        found,
    })
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
    /// Creates a new PKI in `dir`: root CA, EA, AA, and `station` with an enrolment
    /// credential and one authorization ticket. `dir` must not exist or be empty: the PKI
    /// is built in a directory beside it and renamed into place, so an interrupted init
    /// leaves no half-made PKI, and nothing already in `dir` (e.g. CA keys whose
    /// `pki.toml` was lost) is ever overwritten.
    pub fn init(dir: &Path, config: PkiConfig, station: &str) -> Result<Pki, PkiError> {
        valid_station_name(station)?;
        refuse_non_empty(dir)?;
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| PkiError::Exists(dir.to_path_buf()))?;
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        durable::create_dir_all(parent).map_err(io(parent))?;
        let staging = parent.join(format!(".{name}.init-{}", std::process::id()));
        let built = Pki::build(&staging, config, station);
        let mut pki = match built {
            Ok(p) => p,
            Err(e) => {
                let _ = fs::remove_dir_all(&staging);
                return Err(e);
            }
        };
        // rename(2) replaces an empty directory and refuses a non-empty one, so a directory
        // that gained files meanwhile is not touched.
        if let Err(e) = fs::rename(&staging, dir) {
            let _ = fs::remove_dir_all(&staging);
            return Err(match e.kind() {
                std::io::ErrorKind::DirectoryNotEmpty | std::io::ErrorKind::AlreadyExists => {
                    PkiError::Exists(dir.to_path_buf())
                }
                _ => io(dir)(e),
            });
        }
        durable::sync_dir(parent).map_err(io(parent))?;
        pki.dir = dir.to_path_buf();
        Ok(pki)
    }

    /// Creates the PKI's files in `dir` (a fresh directory).
    fn build(dir: &Path, mut config: PkiConfig, station: &str) -> Result<Pki, PkiError> {
        fs::create_dir(dir).map_err(io(dir))?;
        let now = TaiTime::now();
        let start = now.saturating_sub(BACKDATE);
        let ca_validity = Duration::from_secs(config.ca_validity_secs);
        let curve = config.curve;
        let root = issue_root("v2xsec root CA", start, ca_validity, curve)?;
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
        config.next_ticket.clear();
        let pki = Pki {
            dir: dir.to_path_buf(),
            config,
            root,
            ea,
            aa,
        };
        pki.sign_and_write_crl(&[], 1)?;
        write_new(&dir.join("pki.toml"), toml::to_string(&pki.config)?.as_bytes())?;
        let spec = TicketSpec::new(&pki.config.psids, Duration::from_secs(pki.config.ticket_validity_secs));
        pki.issue_tickets(station, 1, &spec)?;
        Ok(pki)
    }

    /// Opens an existing PKI directory.
    pub fn open(dir: &Path) -> Result<Pki, PkiError> {
        let config = read_config(dir)?;
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

    /// Takes the directory's lock (`DIR/.lock`): every change to the directory holds it, and
    /// a second process is refused while it is held ([`PkiError::Locked`]).
    pub fn lock(&self) -> Result<DirLock, PkiError> {
        Ok(DirLock::acquire(&self.dir)?)
    }

    /// [`Pki::lock`], waiting up to `patience` for another holder (for short changes made
    /// on the side, such as the v1.2.1 credentials created on first use).
    pub fn lock_within(&self, patience: Duration) -> Result<DirLock, PkiError> {
        Ok(DirLock::acquire_within(&self.dir, patience)?)
    }

    /// The thisUpdate of the last v1.2.1 CRL issued, as `pki.toml` says now (`held`: the
    /// caller holds the directory's lock).
    pub fn last_v1_crl(&self, held: &DirLock) -> Result<Option<u32>, PkiError> {
        let _ = held;
        Ok(read_config(&self.dir)?.last_v1_crl_issued)
    }

    /// Records the thisUpdate of the v1.2.1 CRL just issued or found (`held`: the caller holds
    /// the directory's lock).
    pub fn record_v1_crl(&self, issued: u32, held: &DirLock) -> Result<(), PkiError> {
        let _ = held;
        let mut config = read_config(&self.dir)?;
        if config.last_v1_crl_issued.is_some_and(|last| last >= issued) {
            return Ok(());
        }
        config.last_v1_crl_issued = Some(issued);
        replace_file(&self.dir.join("pki.toml"), toml::to_string(&config)?.as_bytes())
    }

    fn station_dir(&self, station: &str) -> PathBuf {
        self.dir.join("stations").join(station)
    }

    /// Station names.
    pub fn stations(&self) -> Vec<String> {
        let mut out: Vec<String> = fs::read_dir(self.dir.join("stations"))
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| valid_station_name(n).is_ok())
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }

    /// Creates a station's enrolment credential (issued by the EA) if missing.
    pub fn enrol(&self, station: &str) -> Result<Authority, PkiError> {
        let _lock = self.lock()?;
        self.enrol_locked(station)
    }

    fn enrol_locked(&self, station: &str) -> Result<Authority, PkiError> {
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
        // The key first: an interruption leaves a key without a credential (refused here
        // next time, named by `pki check`), never a credential without its key.
        write_private(&sdir.join("ec.pem"), &key.to_pem()?)?;
        write_new(&sdir.join("ec.oer"), cert.encoded())?;
        Ok(Authority {
            certificate: Arc::new(cert),
            key,
        })
    }

    /// Issues `count` authorization tickets (pseudonyms) for `station` from the AA and
    /// stores them; the station is enrolled first if needed.
    ///
    /// Each ticket gets the next unused number (the counter in `pki.toml` or past the
    /// highest number on disk, whichever is greater); its keys are written before its
    /// certificate, none overwriting anything.
    pub fn issue_tickets(&self, station: &str, count: usize, spec: &TicketSpec) -> Result<Vec<Credentials>, PkiError> {
        let _lock = self.lock()?;
        // Tickets of an AA that no longer chains to the root (the root re-created, the AA
        // replaced by hand) would all be rejected: refuse before writing any.
        let (aa, root) = (&self.aa.certificate, &self.root.certificate);
        if !aa.verify_signature(Some(root)) {
            return Err(PkiError::AaNotChained {
                detail: format!(
                    "its signature does not verify with the root's key ({})",
                    root.hashed_id8()
                ),
            });
        }
        crate::permissions::issuance::check_issued_by(aa, root)
            .map_err(|r| PkiError::AaNotChained { detail: r.to_string() })?;
        self.enrol_locked(station)?;
        let tdir = self.station_dir(station).join("tickets");
        durable::create_dir_all(&tdir).map_err(io(&tdir))?;
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
        // Under the lock the configuration on disk is the current one.
        let mut config = read_config(&self.dir)?;
        let on_disk = ticket_files(&tdir)?.iter().map(|(i, _)| i + 1).max().unwrap_or(0);
        let mut next = config.next_ticket.get(station).copied().unwrap_or(0).max(on_disk);
        let mut out = Vec::with_capacity(count);
        let result = (|| {
            for _ in 0..count {
                let creds = issue_ticket(&self.aa, spec, start, self.config.curve)?;
                // Never hand out a ticket receivers would reject as inconsistent (e.g. a PSID
                // the AA of an older PKI directory may not grant).
                check_issued_by(&creds.certificate, &self.aa.certificate).map_err(PkiError::NotPermittedByAa)?;
                let stem = tdir.join(ticket_stem(next));
                next = next.checked_add(1).ok_or(PkiError::TicketNumbersExhausted)?;
                write_private(&stem.with_extension("pem"), &creds.signing_key.to_pem()?)?;
                if let Some(k) = &creds.encryption_key {
                    write_private(&stem.with_extension("enc.pem"), &k.to_pem()?)?;
                }
                write_new(&stem.with_extension("oer"), creds.certificate.encoded())?;
                out.push(creds);
            }
            Ok(())
        })();
        // The counter moves past every number used, even when an error stopped the loop.
        config.next_ticket.insert(station.to_owned(), next);
        let saved = toml::to_string(&config)
            .map_err(PkiError::from)
            .and_then(|t| replace_file(&self.dir.join("pki.toml"), t.as_bytes()));
        result.and(saved)?;
        Ok(out)
    }

    /// All tickets of a station, in issue order (a key left without its certificate by an
    /// interrupted issue is not a ticket).
    pub fn tickets(&self, station: &str) -> Result<Vec<Credentials>, PkiError> {
        valid_station_name(station)?;
        let tdir = self.station_dir(station).join("tickets");
        if !tdir.is_dir() {
            return Err(io(&tdir)(std::io::ErrorKind::NotFound.into()));
        }
        let mut certs: Vec<(u32, String)> = ticket_files(&tdir)?
            .into_iter()
            .filter(|(i, n)| *n == format!("{}.oer", ticket_stem(*i)))
            .collect();
        certs.sort();
        let mut out = Vec::new();
        for (i, n) in certs {
            let stem = ticket_stem(i);
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
        replace_file(&self.dir.join("crl.oer"), &bytes)
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
        let _lock = self.lock()?;
        // Under the lock the configuration on disk is the current one.
        self.config = read_config(&self.dir)?;
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
        // The CRL first (each file is replaced atomically): if the configuration is not
        // updated, it still names a serial the new CRL does not fall below.
        self.sign_and_write_crl(&entries, serial)?;
        self.config.last_crl_serial = Some(serial);
        replace_file(&self.dir.join("pki.toml"), toml::to_string(&self.config)?.as_bytes())?;
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
