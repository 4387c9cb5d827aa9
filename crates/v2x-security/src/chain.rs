//! Certificate chain validation: find each issuer, verify every link's signature up
//! to a trust anchor, and check that validity periods, regions and permissions of
//! each certificate lie within its issuer's (1609.2 §5.1.2, "consistency").
//!
//! The result is cached per leaf certificate by the trust store, so a digest-signed
//! message from a known signer skips all of this; per-message checks (validity at
//! the generation time, revocation, region of the generation location) are in
//! [`ValidatedChain`]'s methods and cost a few comparisons and hash-set look-ups.

use crate::certificate::{CertRef, Validity};
use crate::reason::{RejectReason, Rejection};
use crate::region::{GeoPoint, Region};
use crate::time::TaiTime;
use crate::trust_store::TrustStore;
use rasn_its::ieee1609dot2 as w;
use std::sync::Arc;

/// Longest chain accepted (leaf, intermediates, root).
pub const MAX_CHAIN_LEN: usize = 6;

/// A certificate whose chain up to a trust anchor verified and is consistent.
#[derive(Debug)]
pub struct ValidatedChain {
    /// Leaf first, trust anchor last; never empty (built only by [`validate_chain`]).
    chain: Vec<CertRef>,
    /// The region that applies to the leaf: its own, or the nearest issuer's.
    region: Option<Region>,
}

impl ValidatedChain {
    pub fn leaf(&self) -> &CertRef {
        // Invariant: validate_chain starts the vector with the leaf.
        &self.chain[0]
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
        for c in &self.chain {
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
        }
        Ok(())
    }

    pub fn check_revocation(&self, store: &TrustStore) -> Result<(), Rejection> {
        for c in &self.chain {
            if store.is_revoked(c) {
                return Err(Rejection::new(
                    RejectReason::RevokedCertificate,
                    format!("certificate {} is revoked", c.hashed_id8()),
                ));
            }
        }
        Ok(())
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

fn inconsistent(detail: String) -> Rejection {
    Rejection::new(RejectReason::InconsistentChain, detail)
}

/// Whether `issuer` allows issuing a certificate with `child`'s app permissions.
fn permissions_within(child: &CertRef, issuer: &CertRef) -> Result<(), Rejection> {
    let Some(groups) = &issuer.decoded().to_be_signed.cert_issue_permissions else {
        return Err(inconsistent(format!(
            "issuer {} has no certIssuePermissions",
            issuer.hashed_id8()
        )));
    };
    let allows = |psid: u64| {
        groups.0.iter().any(|g| match &g.subject_permissions {
            w::SubjectPermissions::All(()) => true,
            w::SubjectPermissions::Explicit(ranges) => ranges
                .0
                .iter()
                .any(|r| crate::convert::psid_value(&r.psid) == Some(psid)),
            #[allow(unreachable_patterns)]
            _ => false,
        })
    };
    for p in child.app_permissions() {
        if !allows(p.psid) {
            return Err(Rejection::new(
                RejectReason::InconsistentChain,
                format!("issuer {} may not grant PSID {}", issuer.hashed_id8(), p.psid),
            ));
        }
    }
    if let Some(child_groups) = &child.decoded().to_be_signed.cert_issue_permissions {
        for g in child_groups.0.iter() {
            match &g.subject_permissions {
                w::SubjectPermissions::Explicit(ranges) => {
                    for r in ranges.0.iter() {
                        let psid = crate::convert::psid_value(&r.psid).unwrap_or(u64::MAX);
                        if !allows(psid) {
                            return Err(inconsistent(format!(
                                "issuer {} may not delegate PSID {psid}",
                                issuer.hashed_id8()
                            )));
                        }
                    }
                }
                _ => {
                    let issuer_all = groups
                        .0
                        .iter()
                        .any(|g| matches!(g.subject_permissions, w::SubjectPermissions::All(())));
                    if !issuer_all {
                        return Err(inconsistent(format!(
                            "issuer {} may not delegate all PSIDs",
                            issuer.hashed_id8()
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

fn validity_within(child: &Validity, issuer: &Validity) -> bool {
    child.within(issuer)
}

/// Builds and validates the chain of `leaf`. `extra` are certificates that came with
/// the message (signer chain, P2PCD answers).
pub fn validate_chain(leaf: &CertRef, extra: &[CertRef], store: &TrustStore) -> Result<ValidatedChain, Rejection> {
    let mut chain: Vec<CertRef> = vec![leaf.clone()];
    loop {
        let current = chain
            .last()
            .cloned()
            .ok_or_else(|| inconsistent("empty chain".into()))?;
        if current.is_self_signed() {
            if !store.is_anchor(&current) {
                return Err(Rejection::new(
                    RejectReason::UntrustedRoot,
                    format!("self-signed {} is not a trust anchor", current.hashed_id8()),
                ));
            }
            if !current.verify_signature(None) {
                return Err(Rejection::new(
                    RejectReason::InvalidChainSignature,
                    format!("trust anchor {} self-signature", current.hashed_id8()),
                ));
            }
            break;
        }
        if chain.len() >= MAX_CHAIN_LEN {
            return Err(Rejection::new(
                RejectReason::UntrustedRoot,
                "chain too long".to_string(),
            ));
        }
        let crate::certificate::Issuer::Digest(alg, id) = current.issuer() else {
            return Err(inconsistent("unreachable issuer kind".into()));
        };
        let issuer = extra
            .iter()
            .find(|c| c.hashed_id8_with(alg) == id)
            .cloned()
            .or_else(|| store.authority(&id).cloned())
            .or_else(|| store.known(&id).map(|v| v.leaf().clone()));
        let Some(issuer) = issuer else {
            return Err(Rejection::new(
                RejectReason::UntrustedRoot,
                format!("issuer {id} of {} is not known", current.hashed_id8()),
            ));
        };
        if issuer.hashed_id8_with(alg) != id {
            return Err(inconsistent(format!("issuer digest mismatch for {id}")));
        }
        if !current.verify_signature(Some(&issuer)) {
            return Err(Rejection::new(
                RejectReason::InvalidChainSignature,
                format!(
                    "signature of {} by issuer {} does not verify",
                    current.hashed_id8(),
                    issuer.hashed_id8()
                ),
            ));
        }
        if !validity_within(&current.validity(), &issuer.validity()) {
            return Err(inconsistent(format!(
                "validity of {} is not within its issuer {}'s",
                current.hashed_id8(),
                issuer.hashed_id8()
            )));
        }
        if let (Some(cr), Some(ir)) = (current.region(), issuer.region()) {
            if let (Some(cr), Some(ir)) = (Region::from_wire(cr), Region::from_wire(ir)) {
                if cr.within(&ir) == Some(false) {
                    return Err(inconsistent(format!(
                        "region of {} is not within its issuer {}'s",
                        current.hashed_id8(),
                        issuer.hashed_id8()
                    )));
                }
            }
        }
        permissions_within(&current, &issuer)?;
        chain.push(issuer);
    }
    let region = chain.iter().find_map(|c| c.region().and_then(Region::from_wire));
    Ok(ValidatedChain { chain, region })
}

/// Validates and caches, or returns the cached validation.
pub fn validated(leaf: &CertRef, extra: &[CertRef], store: &mut TrustStore) -> Result<Arc<ValidatedChain>, Rejection> {
    if let Some(v) = store.known(&leaf.hashed_id8()) {
        if v.leaf().encoded() == leaf.encoded() {
            return Ok(v.clone());
        }
    }
    let v = Arc::new(validate_chain(leaf, extra, store)?);
    store.remember(v.clone());
    Ok(v)
}
