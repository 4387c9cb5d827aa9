//! Certificate chain validation: find each issuer, verify every link's signature up to a
//! trust anchor, and check that validity periods, regions and permissions of each
//! certificate lie within its issuer's (1609.2 §5.1.2, "consistency"; permissions in
//! [`crate::permissions::issuance`]).
//!
//! The result is cached per leaf certificate by the trust store, so a digest-signed
//! message from a known signer skips all of this; per-message checks (validity at the
//! generation time, revocation, region of the generation location) are the methods of
//! [`ValidatedChain`] and cost a few comparisons and hash-set look-ups.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::{CertRef, Issuer};
use crate::permissions::issuance::check_issued_by_with;
use crate::reason::{RejectReason, Rejection};
use crate::region::Region;
use crate::trust_store::TrustStore;
use crate::validated::ValidatedChain;
use std::sync::Arc;

/// Longest chain accepted (leaf, intermediates, root).
pub const MAX_CHAIN_LEN: usize = 6;

fn inconsistent(detail: String) -> Rejection {
    Rejection::new(RejectReason::InconsistentChain, detail)
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
            return Err(Rejection::new(RejectReason::UntrustedRoot, "chain too long"));
        }
        let Issuer::Digest(alg, id) = current.issuer() else {
            return Err(inconsistent("unreachable issuer kind".into()));
        };
        let issuer = extra
            .iter()
            .find(|c| c.hashed_id8_with(alg) == id)
            .cloned()
            .or_else(|| store.authority(&id).cloned())
            .or_else(|| store.known(&id).map(|v| v.leaf().clone()));
        let Some(issuer) = issuer else {
            // The issuer of an end-entity certificate is a CA (an AA) that is neither in the
            // trust store nor sent along: a missing link, not an untrusted root. The issuer
            // of a CA certificate we hold is a root we do not trust.
            return Err(if current.is_ca() {
                Rejection::new(
                    RejectReason::UntrustedRoot,
                    format!("issuer {id} of CA {} is not a trust anchor", current.hashed_id8()),
                )
            } else {
                Rejection::new(
                    RejectReason::IssuerCertificateNotFound,
                    format!("issuer {id} of {} (its AA) is not known", current.hashed_id8()),
                )
            });
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
        if !current.validity().within(&issuer.validity()) {
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
        check_issued_by_with(&current, &issuer, store.chain_length())?;
        chain.push(issuer);
    }
    ValidatedChain::new(chain).ok_or_else(|| inconsistent("empty chain".into()))
}

/// Validates and caches, or returns the cached validation.
pub fn validated(leaf: &CertRef, extra: &[CertRef], store: &mut TrustStore) -> Result<Arc<ValidatedChain>, Rejection> {
    if let Some(v) = store.known(&leaf.hashed_id8()) {
        if v.leaf().encoded() == leaf.encoded() {
            tracing::trace!(certificate = %leaf.hashed_id8(), "validated-chain cache hit");
            return Ok(v.clone());
        }
    }
    tracing::trace!(certificate = %leaf.hashed_id8(), "validated-chain cache miss: validating");
    let v = Arc::new(validate_chain(leaf, extra, store)?);
    store.remember(v.clone());
    Ok(v)
}
