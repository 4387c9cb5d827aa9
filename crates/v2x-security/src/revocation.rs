//! What a receiver knows about revocation: the entries of the newest CRL it holds from each
//! issuer (1609.2 and ETSI TS 102 941 formats), certificates revoked by hand, and the issuers
//! from which a CRL is expected.
//!
//! Revocation fails closed: once a CRL is expected from a root (because the trust
//! configuration says so, or because one was loaded), a chain under that root is rejected
//! with `revocation-status-unknown` while no CRL is held or the one held is past its
//! nextUpdate, and a validly signed CRL older than the one held is refused (a rollback would
//! silently un-revoke). Lab use may waive the freshness check with
//! [`RevocationPolicy::insecure_accept_stale_crl`].

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::Certificate;
use crate::time::TaiTime;
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use v2x_crypto::HashedId8;

/// Low ten bytes of a certificate's whole-certificate hash (1609.2 hash-based CRLs).
pub type HashedId10 = [u8; 10];

/// The two CRL formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CrlFormat {
    /// IEEE 1609.2 §7.3 `SecuredCrl` (PSID 256), hash-based entries (HashedId10).
    Ieee1609Dot2,
    /// ETSI TS 102 941 `ToBeSignedCrl` (PSID 622), entries are HashedId8 of CA certificates.
    EtsiTs102941,
}

/// The revoked certificates a CRL lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrlEntries {
    /// (HashedId10, expiry Time32) of each revoked certificate.
    HashedId10(Vec<(HashedId10, u32)>),
    /// HashedId8 of each revoked certificate.
    HashedId8(Vec<HashedId8>),
}

impl CrlEntries {
    pub fn len(&self) -> usize {
        match self {
            CrlEntries::HashedId10(e) => e.len(),
            CrlEntries::HashedId8(e) => e.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A CRL whose signature verified, reduced to what revocation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedCrl {
    pub format: CrlFormat,
    /// The CA that signed it (the 1609.2 CRACA, or the TS 102 941 root CA).
    pub issuer: HashedId8,
    /// 1609.2 `crlSeries` (0 for TS 102 941).
    pub series: u16,
    /// `issueDate` / `thisUpdate`, TAI seconds (Time32).
    pub issued: u32,
    /// 1609.2 `crlSerial` (0 for TS 102 941).
    pub serial: u32,
    /// `nextCrl` / `nextUpdate`, TAI seconds (Time32).
    pub next_update: u32,
    pub entries: CrlEntries,
}

impl VerifiedCrl {
    /// Which of two CRLs of one issuer, format and series is newer.
    fn version(&self) -> (u32, u32) {
        (self.issued, self.serial)
    }
}

/// A CRL that cannot replace the one held.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("CRL of {issuer} issued at {offered_issued} (serial {offered_serial}) is older than the one held, issued at {held_issued} (serial {held_serial}): refused, it would undo revocations")]
pub struct OlderCrl {
    pub issuer: HashedId8,
    pub held_issued: u32,
    pub held_serial: u32,
    pub offered_issued: u32,
    pub offered_serial: u32,
}

/// How revocation information of one root stands at a given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrlStatus {
    /// No CRL is expected from this root (and none is held).
    NotExpected,
    /// A CRL is held and current until `next_update` (TAI seconds).
    Current { next_update: u32 },
    /// A CRL is expected, none is held.
    Missing,
    /// The CRL held was due to be replaced at `next_update` (TAI seconds).
    Expired { next_update: u32 },
}

/// How SN-DECAP treats revocation information that is missing or outdated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RevocationPolicy {
    /// How long after nextUpdate a CRL still counts as current (default 0).
    pub grace: Duration,
    /// INSECURE lab option: accept chains whose root's CRL is missing or outdated (the
    /// entries of an outdated CRL still apply).
    pub insecure_accept_stale_crl: bool,
}

type CrlKey = (HashedId8, CrlFormat, u16);

/// Revocation state of a trust store.
#[derive(Debug, Clone, Default)]
pub struct RevocationSet {
    crls: HashMap<CrlKey, VerifiedCrl>,
    by_hand: HashSet<HashedId10>,
    /// Index of `by_hand` and every held 1609.2 CRL's entries.
    revoked_id10: HashSet<HashedId10>,
    /// Index of every held TS 102 941 CRL's entries.
    revoked_id8: HashSet<HashedId8>,
    expected_from: HashSet<HashedId8>,
}

impl RevocationSet {
    /// Installs a verified CRL: it replaces the one held from the same issuer, format and
    /// series unless it is older. Returns the number of its entries.
    pub fn install(&mut self, crl: VerifiedCrl) -> Result<usize, OlderCrl> {
        let key = (crl.issuer, crl.format, crl.series);
        if let Some(held) = self.crls.get(&key) {
            if crl.version() < held.version() {
                return Err(OlderCrl {
                    issuer: crl.issuer,
                    held_issued: held.issued,
                    held_serial: held.serial,
                    offered_issued: crl.issued,
                    offered_serial: crl.serial,
                });
            }
        }
        let n = crl.entries.len();
        self.expected_from.insert(crl.issuer);
        self.crls.insert(key, crl);
        self.reindex();
        Ok(n)
    }

    fn reindex(&mut self) {
        self.revoked_id10 = self.by_hand.clone();
        self.revoked_id8.clear();
        for crl in self.crls.values() {
            match &crl.entries {
                CrlEntries::HashedId10(e) => self.revoked_id10.extend(e.iter().map(|(id, _)| *id)),
                CrlEntries::HashedId8(e) => self.revoked_id8.extend(e.iter().copied()),
            }
        }
    }

    /// Revokes a certificate by its HashedId10 (kept across CRL updates).
    pub fn revoke_by_hand(&mut self, id: HashedId10) {
        self.by_hand.insert(id);
        self.revoked_id10.insert(id);
    }

    /// Records that a CRL from `issuer` (a root) is expected: until one is held, chains under
    /// that root are rejected with `revocation-status-unknown`.
    pub fn expect_crl_from(&mut self, issuer: HashedId8) {
        self.expected_from.insert(issuer);
    }

    /// Whether any CRL entry or manual revocation names `cert`.
    pub fn is_revoked(&self, cert: &Certificate) -> bool {
        (!self.revoked_id10.is_empty() && self.revoked_id10.contains(&cert.hashed_id10()))
            || (!self.revoked_id8.is_empty() && self.revoked_id8.contains(&cert.hashed_id8()))
    }

    /// Whether a TS 102 941 CRL held lists `id` (e.g. a v1.2.1 certificate's HashedId8).
    pub fn is_revoked_id8(&self, id: &HashedId8) -> bool {
        self.revoked_id8.contains(id)
    }

    /// True when nothing is revoked and no CRL is expected (the common fast path).
    pub fn is_empty(&self) -> bool {
        self.revoked_id10.is_empty() && self.revoked_id8.is_empty() && self.expected_from.is_empty()
    }

    /// The revocation information about `root` at `now`.
    pub fn status(&self, root: HashedId8, now: TaiTime, grace: Duration) -> CrlStatus {
        let newest = self
            .crls
            .values()
            .filter(|c| c.issuer == root)
            .map(|c| c.next_update)
            .max();
        match newest {
            Some(next_update) => {
                let due = TaiTime::from_time32(next_update).saturating_add(grace);
                if now > due {
                    CrlStatus::Expired { next_update }
                } else {
                    CrlStatus::Current { next_update }
                }
            }
            None if self.expected_from.contains(&root) => CrlStatus::Missing,
            None => CrlStatus::NotExpected,
        }
    }

    /// The CRLs held.
    pub fn crls(&self) -> impl Iterator<Item = &VerifiedCrl> {
        self.crls.values()
    }

    /// Number of revoked certificate identifiers.
    pub fn revoked_count(&self) -> usize {
        self.revoked_id10.len() + self.revoked_id8.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crl(issued: u32, serial: u32, next: u32, ids: &[u8]) -> VerifiedCrl {
        VerifiedCrl {
            format: CrlFormat::Ieee1609Dot2,
            issuer: HashedId8([1; 8]),
            series: 1,
            issued,
            serial,
            next_update: next,
            entries: CrlEntries::HashedId10(ids.iter().map(|&b| ([b; 10], 0)).collect()),
        }
    }

    #[test]
    fn newer_replaces_older_is_refused_and_freshness_is_tracked() {
        let mut r = RevocationSet::default();
        let root = HashedId8([1; 8]);
        assert_eq!(
            r.status(root, TaiTime::from_time32(5), Duration::ZERO),
            CrlStatus::NotExpected
        );
        r.expect_crl_from(root);
        assert_eq!(
            r.status(root, TaiTime::from_time32(5), Duration::ZERO),
            CrlStatus::Missing
        );
        assert_eq!(r.install(crl(10, 2, 100, &[7])), Ok(1));
        assert!(r.install(crl(10, 1, 100, &[])).is_err(), "lower serial, same date");
        assert!(r.install(crl(9, 5, 100, &[])).is_err(), "earlier issue date");
        assert!(r.revoked_id10.contains(&[7; 10]));
        assert_eq!(r.install(crl(20, 3, 200, &[8])), Ok(1));
        assert!(
            !r.revoked_id10.contains(&[7; 10]),
            "the newer full CRL replaces the older"
        );
        assert_eq!(
            r.status(root, TaiTime::from_time32(150), Duration::ZERO),
            CrlStatus::Current { next_update: 200 }
        );
        assert_eq!(
            r.status(root, TaiTime::from_time32(201), Duration::ZERO),
            CrlStatus::Expired { next_update: 200 }
        );
        assert_eq!(
            r.status(root, TaiTime::from_time32(201), Duration::from_secs(60)),
            CrlStatus::Current { next_update: 200 }
        );
        r.revoke_by_hand([9; 10]);
        r.install(crl(30, 4, 300, &[])).unwrap();
        assert!(
            r.revoked_id10.contains(&[9; 10]),
            "manual revocations survive CRL updates"
        );
    }
}
