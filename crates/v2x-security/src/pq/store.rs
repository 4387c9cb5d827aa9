//! An experimental post-quantum PKI on disk, beside a standard PKI directory (as its
//! v1.2.1 credentials are): `DIR/experimental-pq/DESIGN/` holds the design's root and AA
//! and, per station, its tickets:
//!
//! ```text
//! DIR/experimental-pq/DESIGN/root.cert   root.key      certificates: the 0xE1 encoding (0644)
//! DIR/experimental-pq/DESIGN/aa.cert     aa.key        keys: SigningKey::to_bytes, raw (0600)
//! DIR/experimental-pq/DESIGN/stations/NAME/ticket-0000.cert  ticket-0000.key
//! ```
//!
//! Files are written with `durable::create_new` (never overwritten); a station's tickets are
//! numbered and the newest one valid now signs: when none is, the next number is issued.
//! Opening checks what a receiver would (the root is the design's, the AA validates under it,
//! each key is its certificate's) and refuses a damaged directory with the reason.

use super::design::PqDesign;
use super::pki::{PqCert, PqCertError, PqCredential, PqPki, PqPkiError};
use crate::durable::{self, Access};
use crate::reason::Rejection;
use crate::time::TaiTime;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use v2x_crypto::pq::SigningKey;
use v2x_crypto::CryptoError;

/// The subdirectory of a PKI directory that holds the experimental designs.
pub const SUBDIR: &str = "experimental-pq";

/// Why the directory could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PqStoreError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not an experimental certificate")]
    Certificate {
        path: PathBuf,
        #[source]
        source: PqCertError,
    },
    #[error("{path}: not a private key of {scheme}")]
    Key {
        path: PathBuf,
        scheme: String,
        #[source]
        source: CryptoError,
    },
    #[error("{dir}: {rejection}")]
    Invalid { dir: PathBuf, rejection: Rejection },
    #[error("issuing")]
    Issue(#[from] PqPkiError),
    #[error("{0}: no experimental {1} PKI here (`v2x pki init --experimental-pq {1}` or `v2x encap --experimental-pq {1}` creates it)")]
    Missing(PathBuf, String),
    #[error("station name {0:?}: use letters, digits, '-', '_' and '.' only")]
    StationName(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PqStoreError + '_ {
    move |source| PqStoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A design's PKI in its directory.
pub struct PqPkiDir {
    dir: PathBuf,
    pki: PqPki,
}

/// The directory of `design` under the PKI directory `pki_dir`.
pub fn design_dir(pki_dir: &Path, design: PqDesign) -> PathBuf {
    pki_dir.join(SUBDIR).join(design.name())
}

fn write_credential(dir: &Path, stem: &str, c: &PqCredential) -> Result<(), PqStoreError> {
    let cert = dir.join(format!("{stem}.cert"));
    let key = dir.join(format!("{stem}.key"));
    // The key first: a certificate on disk always has its key beside it.
    durable::create_new(&key, &c.key.to_bytes(), Access::OwnerOnly).map_err(io(&key))?;
    durable::create_new(&cert, c.cert.bytes(), Access::Public).map_err(io(&cert))
}

fn read_cert(path: &Path) -> Result<PqCert, PqStoreError> {
    let bytes = std::fs::read(path).map_err(io(path))?;
    PqCert::from_bytes(&bytes).map_err(|source| PqStoreError::Certificate {
        path: path.to_path_buf(),
        source,
    })
}

fn read_credential(dir: &Path, stem: &str) -> Result<PqCredential, PqStoreError> {
    let cert = read_cert(&dir.join(format!("{stem}.cert")))?;
    let path = dir.join(format!("{stem}.key"));
    let bytes = std::fs::read(&path).map_err(io(&path))?;
    let scheme = cert.key().scheme();
    let key = SigningKey::from_bytes(scheme, &bytes).map_err(|source| PqStoreError::Key {
        path: path.clone(),
        scheme: scheme.name(),
        source,
    })?;
    if key.verifying_key() != cert.key() {
        return Err(PqStoreError::Key {
            path,
            scheme: scheme.name(),
            source: CryptoError::InvalidPrivateKey("not the key of its certificate".into()),
        });
    }
    Ok(PqCredential {
        cert: Arc::new(cert),
        key,
    })
}

fn check_station_name(name: &str) -> Result<(), PqStoreError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(PqStoreError::StationName(name.into()))
    }
}

fn newest_valid(tickets: &[PqCredential], now: TaiTime) -> Option<&PqCredential> {
    tickets
        .iter()
        .rev()
        .find(|t| t.cert.start() <= now && now <= t.cert.end())
}

impl PqPkiDir {
    /// Opens the design's PKI under `pki_dir` (read only; `now` dates the tickets it would issue).
    pub fn open(pki_dir: &Path, design: PqDesign, now: TaiTime) -> Result<PqPkiDir, PqStoreError> {
        let dir = design_dir(pki_dir, design);
        if !dir.join("root.cert").is_file() {
            return Err(PqStoreError::Missing(pki_dir.to_path_buf(), design.name()));
        }
        let root = read_credential(&dir, "root")?;
        let aa = read_credential(&dir, "aa")?;
        let pki = PqPki::from_parts(design, root, aa, now).map_err(|rejection| PqStoreError::Invalid {
            dir: dir.clone(),
            rejection,
        })?;
        Ok(PqPkiDir { dir, pki })
    }

    /// Opens the design's PKI, creating its root and AA first when there is none. The caller
    /// holds the PKI directory's lock.
    pub fn open_or_create(pki_dir: &Path, design: PqDesign, now: TaiTime) -> Result<PqPkiDir, PqStoreError> {
        let dir = design_dir(pki_dir, design);
        if !dir.join("root.cert").is_file() {
            let pki = PqPki::new(design, now)?;
            durable::create_dir_all(&dir).map_err(io(&dir))?;
            write_credential(&dir, "root", pki.root())?;
            write_credential(&dir, "aa", pki.aa())?;
        }
        Self::open(pki_dir, design, now)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn pki(&self) -> &PqPki {
        &self.pki
    }

    /// The tickets of `station` on disk, in number order.
    pub fn tickets(&self, station: &str) -> Result<Vec<PqCredential>, PqStoreError> {
        check_station_name(station)?;
        let sdir = self.dir.join("stations").join(station);
        let mut stems: Vec<String> = match std::fs::read_dir(&sdir) {
            Ok(rd) => rd
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter_map(|n| n.strip_suffix(".cert").map(str::to_owned))
                .filter(|n| n.starts_with("ticket-"))
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io(&sdir)(e)),
        };
        stems.sort();
        stems.iter().map(|s| read_credential(&sdir, s)).collect()
    }

    /// The newest ticket of `station` valid at `now`, if it has one (read only: what a
    /// station process that was issued its tickets beforehand signs with).
    pub fn valid_ticket(&self, station: &str, now: TaiTime) -> Result<Option<PqCredential>, PqStoreError> {
        Ok(newest_valid(&self.tickets(station)?, now).cloned())
    }

    /// The newest ticket of `station` valid at `now`, issued (and stored) when it has none.
    /// The caller holds the PKI directory's lock.
    pub fn ticket(&self, station: &str, now: TaiTime) -> Result<PqCredential, PqStoreError> {
        let tickets = self.tickets(station)?;
        if let Some(t) = newest_valid(&tickets, now) {
            return Ok(t.clone());
        }
        let sdir = self.dir.join("stations").join(station);
        durable::create_dir_all(&sdir).map_err(io(&sdir))?;
        let t = self.pki.ticket()?;
        write_credential(&sdir, &format!("ticket-{:04}", tickets.len()), &t)?;
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reason::RejectReason;

    #[test]
    fn created_once_reopened_as_is_and_tickets_are_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let design = PqDesign::PartiallyHybrid;
        let now = TaiTime::now();
        assert!(matches!(
            PqPkiDir::open(tmp.path(), design, now),
            Err(PqStoreError::Missing(..))
        ));
        let a = PqPkiDir::open_or_create(tmp.path(), design, now).unwrap();
        let t = a.ticket("station-1", now).unwrap();
        let b = PqPkiDir::open_or_create(tmp.path(), design, now).unwrap();
        assert_eq!(a.pki().root().cert.id(), b.pki().root().cert.id());
        assert_eq!(b.ticket("station-1", now).unwrap().cert.id(), t.cert.id());
        // A message signed with the stored ticket verifies at a receiver of the reopened PKI.
        let mut tx = b.pki().sender(t);
        let m = tx.encap_cam(b"x", now).unwrap();
        assert!(b.pki().receiver().decap_at(&m, now).is_ok());
        // Keys are private.
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(a.dir().join("aa.key")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert!(matches!(a.ticket("../x", now), Err(PqStoreError::StationName(_))));
    }

    #[test]
    fn a_swapped_authority_or_key_is_refused_with_its_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let now = TaiTime::now();
        let design = PqDesign::PqOnly(v2x_crypto::pq::PqAlgorithm::FnDsa512);
        let a = PqPkiDir::open_or_create(tmp.path(), design, now).unwrap();
        // Another PKI's AA in place of ours: it does not validate under our root.
        let other = PqPki::new(design, now).unwrap();
        std::fs::write(a.dir().join("aa.cert"), other.aa().cert.bytes()).unwrap();
        std::fs::write(a.dir().join("aa.key"), other.aa().key.to_bytes()).unwrap();
        match PqPkiDir::open(tmp.path(), design, now) {
            Err(PqStoreError::Invalid { rejection, .. }) => {
                assert_eq!(rejection.reason, RejectReason::UntrustedRoot)
            }
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("a foreign AA was accepted"),
        }
        // A key that is not the certificate's.
        std::fs::write(a.dir().join("aa.cert"), a.pki().aa().cert.bytes()).unwrap();
        assert!(matches!(
            PqPkiDir::open(tmp.path(), design, now),
            Err(PqStoreError::Key { .. })
        ));
    }
}
