//! Crypto backends: one trait, four implementations, and the choice of the fastest per
//! curve and operation on this machine.
//!
//! | backend | sign | verify | ECDH | curves |
//! |---|---|---|---|---|
//! | `aws-lc` (aws-lc-rs) | yes | yes | yes | P-256, P-384 |
//! | `openssl` | yes | yes | yes | all four |
//! | `rustcrypto` (`p256`, `p384`, `bp256`, `bp384`) | yes | yes | yes | all four |
//! | `v2x` (our own arithmetic, `crate::ec`) | no | yes | no | all four |
//!
//! `v2x` is variable time and therefore verify-only: constant time matters for signing
//! and key agreement (secret scalars), not for verifying with a public key.
//!
//! [`fastest`] is the per-curve choice measured with `v2x bench --suite backends`
//! (docs/benchmarks.md). A process default ([`set_default_backend`]) or a scoped override
//! for the current thread ([`with_backend`]) selects one backend by name; where it lacks
//! the curve or operation, the fastest capable one is used instead.

mod aws_lc;
mod openssl;
mod rustcrypto;
mod v2x;

pub(crate) use aws_lc::{
    ephemeral_ecdh_x as aws_lc_ephemeral_ecdh_x, parse_agreement as aws_lc_parse_agreement,
    parse_private as aws_lc_parse_private, parse_public as aws_lc_parse_public, AwsAgreement, AwsPrivate, AwsPublic,
};
pub(crate) use rustcrypto::{
    parse_private as rustcrypto_parse_private, parse_public as rustcrypto_parse_public, RcPrivate, RcPublic,
};

use crate::{CryptoError, Curve, PrivateKey, PublicKey, Signature};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};

/// A backend by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BackendId {
    #[serde(rename = "aws-lc")]
    AwsLc,
    #[serde(rename = "openssl")]
    OpenSsl,
    #[serde(rename = "rustcrypto")]
    RustCrypto,
    /// Our own variable-time arithmetic (verification only).
    #[serde(rename = "v2x")]
    V2x,
}

/// The operations a backend may offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CryptoOp {
    Sign,
    Verify,
    Ecdh,
}

impl BackendId {
    pub const ALL: [BackendId; 4] = [
        BackendId::AwsLc,
        BackendId::OpenSsl,
        BackendId::RustCrypto,
        BackendId::V2x,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            BackendId::AwsLc => "aws-lc",
            BackendId::OpenSsl => "openssl",
            BackendId::RustCrypto => "rustcrypto",
            BackendId::V2x => "v2x",
        }
    }

    /// Parses a backend name; the error lists the valid ones.
    pub fn from_name(name: &str) -> Result<BackendId, CryptoError> {
        BackendId::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let valid: Vec<&str> = BackendId::ALL.iter().map(|b| b.name()).collect();
                CryptoError::UnknownBackend(format!("{name:?} (valid: {})", valid.join(", ")))
            })
    }

    pub fn supports(self, curve: Curve, op: CryptoOp) -> bool {
        backend(self).supports(curve, op)
    }
}

impl std::fmt::Display for BackendId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BackendId {
    type Err = CryptoError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BackendId::from_name(s)
    }
}

/// One implementation of the elliptic-curve operations. Keys carry each backend's parsed
/// form, built on first use and kept (key parsing is part of the backend).
pub trait Backend: Send + Sync {
    fn id(&self) -> BackendId;
    fn supports(&self, curve: Curve, op: CryptoOp) -> bool;
    /// ECDSA over a digest, r in x-only form.
    fn sign_digest(&self, key: &PrivateKey, digest: &[u8]) -> Result<Signature, CryptoError>;
    /// Ok(false) for any signature that does not verify (including out-of-range r or s).
    fn verify_digest(&self, key: &PublicKey, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError>;
    /// The x coordinate of d·Q, padded to the field length.
    fn ecdh_x(&self, private: &PrivateKey, peer: &PublicKey) -> Result<Vec<u8>, CryptoError>;
}

/// The implementation behind a name.
pub fn backend(id: BackendId) -> &'static dyn Backend {
    match id {
        BackendId::AwsLc => &aws_lc::AwsLc,
        BackendId::OpenSsl => &openssl::OpenSsl,
        BackendId::RustCrypto => &rustcrypto::RustCrypto,
        BackendId::V2x => &v2x::V2x,
    }
}

/// The fastest backend for each curve and operation on the reference machine (2-core AMD
/// EPYC, OpenSSL 3.0.19; paired per-call medians in docs/benchmarks.md, "Backends"):
/// - P-256, P-384: aws-lc for everything (P-256 sign ~1.25x, verify ~1.15x OpenSSL;
///   P-384 sign ~10x, verify ~3.3x; our own plain verify is 0.7x on P-256, 1.8x on P-384).
/// - brainpoolP256r1: RustCrypto signs (1.2-1.5x OpenSSL), our own arithmetic verifies
///   (2.4-3.1x OpenSSL, 2x RustCrypto).
/// - brainpoolP384r1: OpenSSL signs (RustCrypto 0.84-1.03x), our own arithmetic verifies
///   (1.8-1.9x OpenSSL).
pub fn fastest(curve: Curve, op: CryptoOp) -> BackendId {
    match (curve, op) {
        (Curve::NistP256 | Curve::NistP384, _) => BackendId::AwsLc,
        (Curve::BrainpoolP256r1, CryptoOp::Sign | CryptoOp::Ecdh) => BackendId::RustCrypto,
        (Curve::BrainpoolP384r1, CryptoOp::Sign | CryptoOp::Ecdh) => BackendId::OpenSsl,
        (Curve::BrainpoolP256r1 | Curve::BrainpoolP384r1, CryptoOp::Verify) => BackendId::V2x,
    }
}

const AUTO: u8 = u8::MAX;
static DEFAULT: AtomicU8 = AtomicU8::new(AUTO);

thread_local! {
    static OVERRIDE: Cell<Option<BackendId>> = const { Cell::new(None) };
}

fn encode(id: Option<BackendId>) -> u8 {
    id.map_or(AUTO, |b| {
        BackendId::ALL.iter().position(|x| *x == b).expect("listed") as u8
    })
}

/// Sets the process-wide backend (None: the fastest per curve and operation).
pub fn set_default_backend(id: Option<BackendId>) {
    DEFAULT.store(encode(id), Ordering::Relaxed);
}

/// The process-wide backend setting (None: automatic).
pub fn default_backend() -> Option<BackendId> {
    let v = DEFAULT.load(Ordering::Relaxed);
    (v != AUTO).then(|| BackendId::ALL[v as usize])
}

/// Runs `f` with `id` as the backend of this thread (for side-by-side measurement and
/// per-backend tests), restoring the previous setting afterwards.
pub fn with_backend<R>(id: BackendId, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<BackendId>);
    impl Drop for Restore {
        fn drop(&mut self) {
            OVERRIDE.with(|o| o.set(self.0));
        }
    }
    let _restore = Restore(OVERRIDE.with(|o| o.replace(Some(id))));
    f()
}

/// The backend an operation on `curve` uses now: the thread override, else the process
/// default, when it supports the operation; otherwise the fastest.
pub fn selected(curve: Curve, op: CryptoOp) -> BackendId {
    let wanted = OVERRIDE.with(|o| o.get()).or_else(default_backend);
    match wanted {
        Some(id) if id.supports(curve, op) => id,
        _ => fastest(curve, op),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_lists_valid() {
        for b in BackendId::ALL {
            assert_eq!(BackendId::from_name(b.name()).unwrap(), b);
        }
        let e = BackendId::from_name("bouncycastle").unwrap_err().to_string();
        assert!(
            e.contains("aws-lc") && e.contains("rustcrypto") && e.contains("v2x"),
            "{e}"
        );
    }

    #[test]
    fn fastest_supports_what_it_is_chosen_for() {
        for curve in Curve::ALL {
            for op in [CryptoOp::Sign, CryptoOp::Verify, CryptoOp::Ecdh] {
                assert!(fastest(curve, op).supports(curve, op), "{curve} {op:?}");
            }
        }
    }

    #[test]
    fn override_is_scoped_and_falls_back_where_unsupported() {
        with_backend(BackendId::V2x, || {
            assert_eq!(selected(Curve::NistP256, CryptoOp::Verify), BackendId::V2x);
            assert_eq!(
                selected(Curve::NistP256, CryptoOp::Sign),
                fastest(Curve::NistP256, CryptoOp::Sign)
            );
        });
        with_backend(BackendId::RustCrypto, || {
            assert_eq!(selected(Curve::BrainpoolP384r1, CryptoOp::Sign), BackendId::RustCrypto);
        });
    }
}
