//! A certificate whose chain up to a trust anchor verified and is consistent, and the cheap
//! per-message checks done with it: validity at the generation time, revocation, and the
//! region of the generation location. Built by [`crate::chain`], cached by the trust store.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::{CertRef, Certificate};
use crate::reason::{RejectReason, Rejection};
use crate::region::{GeoPoint, Region};
use crate::revocation::{CrlStatus, RevocationPolicy, RevocationSet};
use crate::time::TaiTime;

/// A certificate whose chain up to a trust anchor verified and is consistent.
#[derive(Debug)]
pub struct ValidatedChain {
    /// Leaf first, trust anchor last; never empty.
    chain: Vec<CertRef>,
    /// The first and last of `chain`, held apart so that reading them cannot fail.
    leaf: CertRef,
    anchor: CertRef,
    /// The region that applies to the leaf: its own, or the nearest issuer's.
    region: Option<Region>,
}

impl ValidatedChain {
    /// A chain `validate_chain` checked (leaf first, anchor last; `None` if empty).
    pub(crate) fn new(chain: Vec<CertRef>) -> Option<ValidatedChain> {
        let (leaf, anchor) = (chain.first()?.clone(), chain.last()?.clone());
        let region = chain.iter().find_map(|c| c.region().and_then(Region::from_wire));
        Some(ValidatedChain {
            chain,
            leaf,
            anchor,
            region,
        })
    }

    pub fn leaf(&self) -> &CertRef {
        &self.leaf
    }

    /// The trust anchor the chain ends at.
    pub fn anchor(&self) -> &CertRef {
        &self.anchor
    }

    /// Leaf first, trust anchor last.
    pub fn chain(&self) -> &[CertRef] {
        &self.chain
    }

    /// The region that applies to the leaf (its own or the nearest issuer's).
    pub fn region(&self) -> Option<&Region> {
        self.region.as_ref()
    }

    /// Checks every certificate of the chain is valid at `t`.
    pub fn check_validity_at(&self, t: TaiTime) -> Result<(), Rejection> {
        self.chain.iter().try_for_each(|c| check_certificate_validity(c, t))
    }

    /// Checks no certificate of the chain is revoked and that the revocation information of
    /// the chain's root is current at `now` when a CRL is expected from it.
    pub fn check_revocation(
        &self,
        revocation: &RevocationSet,
        now: TaiTime,
        policy: RevocationPolicy,
    ) -> Result<(), Rejection> {
        if revocation.is_empty() {
            return Ok(());
        }
        for c in &self.chain {
            if revocation.is_revoked(c) {
                return Err(Rejection::new(
                    RejectReason::RevokedCertificate,
                    format!("certificate {} is revoked", c.hashed_id8()),
                ));
            }
        }
        if policy.insecure_accept_stale_crl {
            return Ok(());
        }
        let root = self.anchor().hashed_id8();
        match revocation.status(root, now, policy.grace) {
            CrlStatus::NotExpected | CrlStatus::Current { .. } => Ok(()),
            CrlStatus::Missing => Err(Rejection::new(
                RejectReason::RevocationStatusUnknown,
                format!("a CRL from root {root} is expected and none is held"),
            )),
            CrlStatus::Expired { next_update } => Err(Rejection::new(
                RejectReason::RevocationStatusUnknown,
                format!(
                    "the CRL of root {root} was due to be replaced at {} (TAI s), now {}",
                    next_update,
                    now.seconds()
                ),
            )),
        }
    }

    /// Region check of a generation location. `Ok(false)` when the region cannot be
    /// checked (country regions: no boundary data).
    pub fn check_location(&self, p: GeoPoint) -> Result<bool, Rejection> {
        match &self.region {
            None => Ok(true),
            Some(r) => match r.contains(p) {
                Some(true) => Ok(true),
                Some(false) => Err(Rejection::new(
                    RejectReason::OutsideRegion,
                    format!(
                        "generation location {:.6},{:.6} outside the certificate region",
                        p.lat as f64 / 1e7,
                        p.lon as f64 / 1e7
                    ),
                )),
                None => Ok(false),
            },
        }
    }
}

/// Checks that `c` is valid at `t` (SN-DECAP step 10, for one certificate).
pub(crate) fn check_certificate_validity(c: &Certificate, t: TaiTime) -> Result<(), Rejection> {
    let v = c.validity();
    if t.seconds() < v.start {
        return Err(Rejection::new(
            RejectReason::CertificateNotYetValid,
            format!(
                "certificate {} valid from {} (TAI s), message at {}",
                c.hashed_id8(),
                v.start,
                t.seconds()
            ),
        ));
    }
    if t.seconds() >= v.end {
        return Err(Rejection::new(
            RejectReason::CertificateExpired,
            format!(
                "certificate {} expired at {} (TAI s), message at {}",
                c.hashed_id8(),
                v.end,
                t.seconds()
            ),
        ));
    }
    Ok(())
}
