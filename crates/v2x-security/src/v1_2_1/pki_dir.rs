//! The v1.2.1 PKI on disk, in the layout `v2x pcap --format v1.2.1` uses beside the v2
//! PKI: `DIR/root.{cert,key}`, `DIR/aa.{cert,key,enc.key}`, the root's CRL `DIR/root.crl`
//! ([`super::crl`]) and one ticket per station in `DIR/stations/NAME/at.{cert,key,enc.key}`
//! (private keys mode 0600). The one owner of the v1.2.1
//! credentials beside a v2 PKI directory ([`V1PkiDir::beside`]): the CLI's encap / decap /
//! pcap / pki, the testbed's stations and the Python package share its layout and its
//! locking; the directory is also a trust directory of `*.cert` and `*.crl` files as it is.
//!
//! The CRL is issued with the root. A directory made before v1.2.1 had revocation has none:
//! it gets an empty one the first time it is opened, unless the caller knows this PKI has
//! issued one (then its absence is an error, never papered over: re-creating it would undo
//! revocations), and one older than the last issued is refused.

use super::crl::{issue_v1_crl, revoked_ids, verify_v1_crl};
use super::entity::V1Entity;
use super::pki::{Credential, V1Pki, V1PkiError};
use super::validate::V1TrustStore;
use crate::durable::DirLock;
use crate::pki_store::Pki;
use crate::time::TaiTime;
use std::path::{Path, PathBuf};
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_wire::v1_2_1::{HashedId8, SignerInfo, ValidityRestriction};

/// The v1.2.1 credentials' directory inside a v2 PKI directory.
pub const SUBDIR: &str = "v1.2.1";

/// The file of the root's CRL in a v1.2.1 PKI directory.
pub const CRL_FILE: &str = "root.crl";

/// How long a CRL is current (its nextUpdate after thisUpdate): a week, as in v2.
pub const CRL_VALIDITY_SECS: u32 = 7 * 24 * 3600;

/// A v1.2.1 PKI directory.
#[derive(Debug, Clone)]
pub struct V1PkiDir {
    dir: PathBuf,
    pub pki: V1Pki,
}

/// How long a creation beside a v2 PKI waits for another holder of the PKI's lock.
const LOCK_PATIENCE: Duration = Duration::from_secs(10);

impl V1PkiDir {
    /// Station `name`'s ticket in the v1.2.1 credentials beside `pki` (see
    /// [`V1PkiDir::ticket`]), issued under the PKI's lock; a new one is valid from five
    /// minutes ago for `days` days.
    pub fn ticket_beside(&self, pki: &Pki, name: &str, days: u32) -> Result<Credential, V1PkiError> {
        let now = u32::try_from(TaiTime::now().seconds()).unwrap_or(u32::MAX);
        let _lock = pki.lock_within(LOCK_PATIENCE).map_err(Box::new)?;
        self.ticket(name, now.saturating_sub(300), days, now)
    }

    /// The same, for a ticket whose validity (`days` days from `start`, Time32 s) the
    /// caller chooses, e.g. one that is already over (the testbed's A-CER-03).
    pub fn ticket_beside_at(&self, pki: &Pki, name: &str, start: u32, days: u32) -> Result<Credential, V1PkiError> {
        let _lock = pki.lock_within(LOCK_PATIENCE).map_err(Box::new)?;
        // `now = start` keeps (or issues) a ticket valid at its start.
        self.ticket(name, start, days, start)
    }

    /// Opens `dir`, creating the root and AA (on `curve`, valid `days` days from
    /// `start`, Time32 seconds) and an empty CRL when they do not exist yet. `last_crl` is the
    /// thisUpdate of the last CRL this PKI issued, when the caller keeps it: a CRL missing or
    /// older than that is refused. The caller holds the PKI's lock.
    pub fn open_or_create(
        dir: &Path,
        curve: Curve,
        start: u32,
        days: u32,
        last_crl: Option<u32>,
    ) -> Result<V1PkiDir, V1PkiError> {
        let pki = if dir.join("root.cert").exists() && dir.join("aa.cert").exists() {
            let pki = V1PkiDir {
                dir: dir.to_path_buf(),
                pki: V1Pki {
                    root: Credential::load(dir, "root")?,
                    aa: Credential::load(dir, "aa")?,
                },
            };
            match (pki.read_crl()?, last_crl) {
                (Some((_, issued)), Some(last)) if issued < last => {
                    return Err(V1PkiError::CrlRollback {
                        path: pki.crl_path(),
                        found: issued,
                        expected: last,
                    })
                }
                (Some(_), _) => {}
                (None, Some(_)) => return Err(V1PkiError::MissingCrl { path: pki.crl_path() }),
                // Made before v1.2.1 had revocation: nothing was ever revoked.
                (None, None) => {
                    pki.write_crl(&[], now_time32())?;
                }
            }
            return Ok(pki);
        } else if let Some(f) = ["root.key", "root.cert", "aa.key", "aa.enc.key", "aa.cert"]
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.exists())
        {
            // Half-created by an interrupted run: never replace a CA key.
            return Err(V1PkiError::Incomplete { path: f });
        } else {
            let p = V1Pki::generate(curve, start, days)?;
            p.root.save(dir, "root")?;
            p.aa.save(dir, "aa")?;
            p
        };
        let created = V1PkiDir {
            dir: dir.to_path_buf(),
            pki,
        };
        created.write_crl(&[], now_time32())?;
        Ok(created)
    }

    /// The v1.2.1 credentials of a v2 PKI directory (`PKI/v1.2.1/`), created on first use
    /// with the PKI's curve and its v2 root's validity, under the PKI's lock (waiting up to
    /// ten seconds for another holder); the CRL's thisUpdate is recorded in `pki.toml`, so
    /// that a CRL deleted or rolled back later is refused.
    pub fn beside(pki: &Pki) -> Result<V1PkiDir, V1PkiError> {
        let lock = pki.lock_within(LOCK_PATIENCE).map_err(Box::new)?;
        V1PkiDir::beside_locked(pki, &lock)
    }

    /// [`V1PkiDir::beside`] for a caller holding the PKI's lock.
    pub fn beside_locked(pki: &Pki, lock: &DirLock) -> Result<V1PkiDir, V1PkiError> {
        let v = pki.root().certificate.validity();
        let start = u32::try_from(v.start).unwrap_or(u32::MAX);
        let days = u32::try_from(v.end.saturating_sub(v.start) / 86_400)
            .unwrap_or(u32::MAX)
            .max(1);
        let last = pki.last_v1_crl(lock).map_err(Box::new)?;
        let v1 = V1PkiDir::open_or_create(&pki.dir().join(SUBDIR), pki.config().curve, start, days, last)?;
        if let Some((_, issued)) = v1.read_crl()? {
            pki.record_v1_crl(issued, lock).map_err(Box::new)?;
        }
        Ok(v1)
    }

    /// Revokes a v1.2.1 certificate (`Some`) or only refreshes the CRL (`None`): the root
    /// re-issues it and `pki.toml` records it. Returns its thisUpdate.
    pub fn reissue_crl_beside(&self, pki: &Pki, lock: &DirLock, add: Option<HashedId8>) -> Result<u32, V1PkiError> {
        let issued = self.reissue_crl(add)?;
        pki.record_v1_crl(issued, lock).map_err(Box::new)?;
        Ok(issued)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn crl_path(&self) -> PathBuf {
        self.dir.join(CRL_FILE)
    }

    /// The entries and thisUpdate of the CRL on disk (verified with the root), `None` when
    /// there is none.
    pub fn read_crl(&self) -> Result<Option<(Vec<HashedId8>, u32)>, V1PkiError> {
        let path = self.crl_path();
        let bytes = match crate::bounded_read::read_file_bounded(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(V1PkiError::Io { path, source }),
        };
        let mut store = V1TrustStore::new();
        store.add_anchor(self.pki.root.certificate.clone());
        let crl = verify_v1_crl(&bytes, &store).map_err(|source| V1PkiError::Crl { path, source })?;
        Ok(Some((revoked_ids(&crl), crl.issued)))
    }

    /// Signs and writes (atomically) the CRL listing `revoked`, issued at `this_update`.
    fn write_crl(&self, revoked: &[HashedId8], this_update: u32) -> Result<u32, V1PkiError> {
        let path = self.crl_path();
        let bytes = issue_v1_crl(
            &self.pki.root,
            revoked,
            this_update,
            this_update.saturating_add(CRL_VALIDITY_SECS),
        )
        .map_err(|source| V1PkiError::Crl {
            path: path.clone(),
            source,
        })?;
        crate::durable::replace(&path, &bytes, crate::durable::Access::Public)
            .map_err(|source| V1PkiError::Io { path, source })?;
        Ok(this_update)
    }

    /// Re-issues the CRL with `add` listed too and a fresh nextUpdate; its thisUpdate is after
    /// the previous one's, so receivers take it for the newer. Returns the thisUpdate. The
    /// caller holds the PKI's lock.
    pub fn reissue_crl(&self, add: Option<HashedId8>) -> Result<u32, V1PkiError> {
        let (mut revoked, issued) = self
            .read_crl()?
            .ok_or_else(|| V1PkiError::MissingCrl { path: self.crl_path() })?;
        if let Some(d) = add.filter(|d| !revoked.contains(d)) {
            revoked.push(d);
        }
        self.write_crl(&revoked, now_time32().max(issued.saturating_add(1)))
    }

    fn station_dir(&self, name: &str) -> PathBuf {
        self.dir.join("stations").join(name)
    }

    /// The station's ticket; a new one (valid `days` days from `start`) is issued and
    /// saved when there is none, or when the stored one is not from this AA or has
    /// expired at `now` (Time32 seconds).
    pub fn ticket(&self, name: &str, start: u32, days: u32, now: u32) -> Result<Credential, V1PkiError> {
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return Err(V1PkiError::StationName(name.to_owned()));
        }
        let sdir = self.station_dir(name);
        if sdir.join("at.cert").exists() {
            let t = match Credential::load(&sdir, "at") {
                Ok(t) => t,
                // An interrupted re-issue left a new key beside the old certificate: the
                // ticket is unusable, issue a new one.
                Err(V1PkiError::KeyMismatch { .. }) => return self.new_ticket(&sdir, start, days),
                Err(e) => return Err(e),
            };
            let from_aa = matches!(&t.certificate.signer_info, SignerInfo::CertificateDigestWithSha256(d) if *d == self.pki.aa.digest());
            let unexpired = t.certificate.validity_restrictions.iter().all(|v| match v {
                ValidityRestriction::TimeEnd(end) | ValidityRestriction::TimeStartAndEnd { end, .. } => *end > now,
                _ => true,
            });
            if from_aa && unexpired {
                return Ok(t);
            }
        }
        self.new_ticket(&sdir, start, days)
    }

    fn new_ticket(&self, sdir: &Path, start: u32, days: u32) -> Result<Credential, V1PkiError> {
        let curve = self
            .pki
            .aa
            .certificate
            .verification_key()
            .and_then(|k| k.algorithm().curve())
            .map(super::crypto::to_curve)
            .unwrap_or(Curve::NistP256);
        let t = self.pki.ticket(curve, start, days, None)?;
        t.save(sdir, "at")?;
        Ok(t)
    }

    /// A trust store with this PKI's root as anchor, its AA, and the root's CRL (expected:
    /// a missing one is an error).
    pub fn trust_store(&self) -> Result<V1TrustStore, V1PkiError> {
        let mut s = V1TrustStore::new();
        let root = s.add_anchor(self.pki.root.certificate.clone());
        s.add_authority(self.pki.aa.certificate.clone());
        s.expect_crl_from(root);
        let path = self.crl_path();
        let bytes = crate::bounded_read::read_file_bounded(&path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => V1PkiError::MissingCrl { path: path.clone() },
            _ => V1PkiError::Io {
                path: path.clone(),
                source,
            },
        })?;
        s.apply_crl(&bytes).map_err(|source| V1PkiError::Crl { path, source })?;
        Ok(s)
    }

    /// The security entity of a station holding `ticket`.
    pub fn entity(&self, ticket: Credential) -> Result<V1Entity, V1PkiError> {
        Ok(V1Entity::new(
            Some(ticket),
            vec![self.pki.aa.certificate.clone()],
            self.trust_store()?,
        ))
    }

    /// A receive-only entity (no ticket: verifies, cannot decrypt).
    pub fn verifier(&self) -> Result<V1Entity, V1PkiError> {
        Ok(V1Entity::new(None, Vec::new(), self.trust_store()?))
    }
}

fn now_time32() -> u32 {
    TaiTime::now().to_time32()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::TaiTime;
    use crate::v1_2_1::{V1EncapRequest, V1Profile};

    #[test]
    fn created_once_reused_and_tickets_verify() {
        let tmp = tempfile::tempdir().unwrap();
        let tmp = tmp.path().join("v1.2.1");
        let start = 600_000_000;
        let a = V1PkiDir::open_or_create(&tmp, Curve::NistP256, start, 30, None).unwrap();
        let b = V1PkiDir::open_or_create(&tmp, Curve::NistP256, start, 30, None).unwrap();
        assert_eq!(a.pki.root.certificate, b.pki.root.certificate);
        let t1 = a.ticket("car-1", start, 7, start + 10).unwrap();
        let t2 = b.ticket("car-1", start, 7, start + 10).unwrap();
        assert_eq!(t1.certificate, t2.certificate);
        assert!(a.ticket("../x", start, 7, start).is_err());
        let now = TaiTime((u64::from(start) + 100) * 1_000_000);
        let bytes = a
            .entity(t1)
            .unwrap()
            .encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", now))
            .unwrap();
        assert_eq!(b.verifier().unwrap().decap(&bytes, now).unwrap().payload, b"cam");
    }
}
