//! The v1.2.1 PKI on disk, in the layout `v2x pcap --format v1.2.1` uses beside the v2
//! PKI: `DIR/root.{cert,key}`, `DIR/aa.{cert,key,enc.key}` and one ticket per station in
//! `DIR/stations/NAME/at.{cert,key,enc.key}` (private keys mode 0600). For the CLI's
//! encap / decap / pcap so they share one layout.

use super::entity::V1Entity;
use super::pki::{Credential, V1Pki, V1PkiError};
use super::validate::V1TrustStore;
use std::path::{Path, PathBuf};
use v2x_crypto::Curve;
use v2x_wire::v1_2_1::{SignerInfo, ValidityRestriction};

/// A v1.2.1 PKI directory.
#[derive(Debug, Clone)]
pub struct V1PkiDir {
    dir: PathBuf,
    pub pki: V1Pki,
}

impl V1PkiDir {
    /// Opens `dir`, creating the root and AA (on `curve`, valid `days` days from
    /// `start`, Time32 seconds) when they do not exist yet.
    pub fn open_or_create(dir: &Path, curve: Curve, start: u32, days: u32) -> Result<V1PkiDir, V1PkiError> {
        let pki = if dir.join("root.cert").exists() && dir.join("aa.cert").exists() {
            V1Pki {
                root: Credential::load(dir, "root")?,
                aa: Credential::load(dir, "aa")?,
            }
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
            let t = Credential::load(&sdir, "at")?;
            let from_aa = matches!(&t.certificate.signer_info, SignerInfo::CertificateDigestWithSha256(d) if *d == self.pki.aa.digest());
            let unexpired = t.certificate.validity_restrictions.iter().all(|v| match v {
                ValidityRestriction::TimeEnd(end) | ValidityRestriction::TimeStartAndEnd { end, .. } => *end > now,
                _ => true,
            });
            if from_aa && unexpired {
                return Ok(t);
            }
        }
        let curve = self
            .pki
            .aa
            .certificate
            .verification_key()
            .and_then(|k| k.algorithm().curve())
            .map(super::crypto::to_curve)
            .unwrap_or(Curve::NistP256);
        let t = self.pki.ticket(curve, start, days, None)?;
        t.save(&sdir, "at")?;
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
