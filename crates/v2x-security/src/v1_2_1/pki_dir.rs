//! The v1.2.1 PKI on disk, in the layout `v2x pcap --format v1.2.1` uses beside the v2
//! PKI: `DIR/root.{cert,key}`, `DIR/aa.{cert,key,enc.key}` and one ticket per station in
//! `DIR/stations/NAME/at.{cert,key,enc.key}` (private keys mode 0600). The one owner of
//! the v1.2.1 credentials beside a v2 PKI directory ([`V1PkiDir::beside`]): the CLI's
//! encap / decap / pcap, the testbed's stations and the Python package share its layout
//! and its locking.

use super::entity::V1Entity;
use super::pki::{Credential, V1Pki, V1PkiError};
use super::validate::V1TrustStore;
use crate::pki_store::Pki;
use crate::time::TaiTime;
use std::path::{Path, PathBuf};
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_wire::v1_2_1::{SignerInfo, ValidityRestriction};

/// A v1.2.1 PKI directory.
#[derive(Debug, Clone)]
pub struct V1PkiDir {
    dir: PathBuf,
    pub pki: V1Pki,
}

/// The sub-directory of a v2 PKI holding its v1.2.1 credentials.
pub const BESIDE_V2: &str = "v1.2.1";

/// How long a creation beside a v2 PKI waits for another holder of the PKI's lock.
const LOCK_PATIENCE: Duration = Duration::from_secs(10);

impl V1PkiDir {
    /// The v1.2.1 credentials beside the v2 PKI `pki` (`DIR/v1.2.1/`): a root and AA on
    /// the PKI's curve, valid as long as its v2 root, created on first use under the
    /// PKI's lock (two processes never create them at once).
    pub fn beside(pki: &Pki) -> Result<V1PkiDir, V1PkiError> {
        let v = pki.root().certificate.validity();
        let start = u32::try_from(v.start).unwrap_or(u32::MAX);
        let days = u32::try_from(v.end.saturating_sub(v.start) / 86_400)
            .unwrap_or(u32::MAX)
            .max(1);
        let dir = pki.dir().join(BESIDE_V2);
        let _lock = pki
            .lock_within(LOCK_PATIENCE)
            .map_err(|e| V1PkiError::Lock(Box::new(e)))?;
        V1PkiDir::open_or_create(&dir, pki.config().curve, start, days)
    }

    /// Station `name`'s ticket in the v1.2.1 credentials beside `pki` (see
    /// [`V1PkiDir::ticket`]), issued under the PKI's lock; a new one is valid from five
    /// minutes ago for `days` days.
    pub fn ticket_beside(&self, pki: &Pki, name: &str, days: u32) -> Result<Credential, V1PkiError> {
        let now = u32::try_from(TaiTime::now().seconds()).unwrap_or(u32::MAX);
        let _lock = pki
            .lock_within(LOCK_PATIENCE)
            .map_err(|e| V1PkiError::Lock(Box::new(e)))?;
        self.ticket(name, now.saturating_sub(300), days, now)
    }

    /// The same, for a ticket whose validity (`days` days from `start`, Time32 s) the
    /// caller chooses, e.g. one that is already over (the testbed's A-CER-03).
    pub fn ticket_beside_at(&self, pki: &Pki, name: &str, start: u32, days: u32) -> Result<Credential, V1PkiError> {
        let _lock = pki
            .lock_within(LOCK_PATIENCE)
            .map_err(|e| V1PkiError::Lock(Box::new(e)))?;
        // `now = start` keeps (or issues) a ticket valid at its start.
        self.ticket(name, start, days, start)
    }

    /// Opens `dir`, creating the root and AA (on `curve`, valid `days` days from
    /// `start`, Time32 seconds) when they do not exist yet.
    pub fn open_or_create(dir: &Path, curve: Curve, start: u32, days: u32) -> Result<V1PkiDir, V1PkiError> {
        let pki = if dir.join("root.cert").exists() && dir.join("aa.cert").exists() {
            V1Pki {
                root: Credential::load(dir, "root")?,
                aa: Credential::load(dir, "aa")?,
            }
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
        Ok(V1PkiDir {
            dir: dir.to_path_buf(),
            pki,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
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

    /// A trust store with this PKI's root as anchor and its AA.
    pub fn trust_store(&self) -> V1TrustStore {
        let mut s = V1TrustStore::new();
        s.add_anchor(self.pki.root.certificate.clone());
        s.add_authority(self.pki.aa.certificate.clone());
        s
    }

    /// The security entity of a station holding `ticket`.
    pub fn entity(&self, ticket: Credential) -> V1Entity {
        V1Entity::new(Some(ticket), vec![self.pki.aa.certificate.clone()], self.trust_store())
    }

    /// A receive-only entity (no ticket: verifies, cannot decrypt).
    pub fn verifier(&self) -> V1Entity {
        V1Entity::new(None, Vec::new(), self.trust_store())
    }
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
        let a = V1PkiDir::open_or_create(&tmp, Curve::NistP256, start, 30).unwrap();
        let b = V1PkiDir::open_or_create(&tmp, Curve::NistP256, start, 30).unwrap();
        assert_eq!(a.pki.root.certificate, b.pki.root.certificate);
        let t1 = a.ticket("car-1", start, 7, start + 10).unwrap();
        let t2 = b.ticket("car-1", start, 7, start + 10).unwrap();
        assert_eq!(t1.certificate, t2.certificate);
        assert!(a.ticket("../x", start, 7, start).is_err());
        let now = TaiTime((u64::from(start) + 100) * 1_000_000);
        let bytes = a
            .entity(t1)
            .encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", now))
            .unwrap();
        assert_eq!(b.verifier().decap(&bytes, now).unwrap().payload, b"cam");
    }
}
