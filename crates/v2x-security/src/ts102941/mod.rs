//! ETSI TS 102 941 (v2.x) enrolment, authorization and authorization validation: what the
//! ITS-S, the enrolment authority (EA) and the authorization authority (AA) put into the
//! messages of `v2x_wire::ts102941` and what each of them checks, with the standard's
//! response code for every refusal. No I/O and no storage: the caller (the PKI service,
//! the CLI, the testbed) moves the bytes, looks records up and stores what it is told to.
//!
//! | module | what |
//! |---|---|
//! | [`envelope`] | signing (self or by certificate, data or external hash), SignedAndEncrypted-Unicast envelopes: ECIES to a certificate, the response under the request's AES key (`pskRecipInfo`) |
//! | [`attributes`] | certificate subject attributes ↔ app permissions, and the subset rules |
//! | [`authorities`] | the root CA, EA, AA and TLM of a service (with the EA's and AA's decryption keys), kept in a directory; the CRL, RCA CTL and ECTL they sign |
//! | [`station`] | the ITS-S: enrolment and authorization requests and reading their responses |
//! | [`ea`] | the EA: enrolment requests, authorization validation requests |
//! | [`aa`] | the AA: authorization requests, the validation exchange with the EA, AT issuance |
//! | [`ca_request`] | CA certificate requests (a sub-CA asks the root) |
//!
//! Freshness: a request whose generation time lies further back than
//! [`Freshness::max_age`] or further ahead than [`Freshness::max_ahead`] is refused; replay
//! (the same request twice) is refused by the caller, which stores [`replay_key`]s under a
//! unique constraint for at least `max_age`.

pub mod aa;
pub mod attributes;
pub mod authorities;
pub mod ca_request;
pub mod ea;
pub mod envelope;
pub mod station;

use crate::time::TaiTime;
use std::time::Duration;

pub use v2x_wire::ts102941 as wire;

/// How old (and how far ahead of our clock) a request may be. The default, five minutes back
/// and thirty seconds ahead, leaves room for a station's clock error and a slow network;
/// TS 102 941 leaves the limit to the authority ("signingTime is outside acceptable limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    pub max_age: Duration,
    pub max_ahead: Duration,
}

impl Default for Freshness {
    fn default() -> Self {
        Freshness {
            max_age: Duration::from_secs(300),
            max_ahead: Duration::from_secs(30),
        }
    }
}

/// Why a generation time is not fresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotFresh {
    #[error("no generation time")]
    Missing,
    #[error("generated {0:?} ago, more than the limit")]
    Stale(Duration),
    #[error("generated {0:?} in the future, more than the limit")]
    Future(Duration),
}

impl Freshness {
    /// Checks a request's generation time against `now`.
    pub fn check(&self, generated: Option<TaiTime>, now: TaiTime) -> Result<(), NotFresh> {
        let g = generated.ok_or(NotFresh::Missing)?;
        if g.0 <= now.0 {
            let age = Duration::from_micros(now.0 - g.0);
            if age > self.max_age {
                return Err(NotFresh::Stale(age));
            }
        } else {
            let ahead = Duration::from_micros(g.0 - now.0);
            if ahead > self.max_ahead {
                return Err(NotFresh::Future(ahead));
            }
        }
        Ok(())
    }
}

/// What an authority needs to answer a request it could decrypt: the AES key the answer is
/// encrypted under (`pskRecipInfo`) and the hash the answer names.
#[derive(Clone)]
pub struct Reply {
    pub key: crate::encryption::SymmetricKey,
    pub request_hash: [u8; 16],
}

impl std::fmt::Debug for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Reply({})", hex::encode(self.request_hash))
    }
}

/// A refusal: the standard's response code `C` and why, in words (for logs and the HTTP
/// layer; the code is what goes on the wire).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal<C> {
    pub code: C,
    pub reason: String,
}

impl<C> Refusal<C> {
    pub fn new(code: C, reason: impl Into<String>) -> Self {
        Refusal {
            code,
            reason: reason.into(),
        }
    }
}

/// Why an authority did not open a request.
#[derive(Debug, Clone)]
pub enum NotOpened<C> {
    /// Decrypted, and refused: answer with this code, encrypted under `Reply`.
    Refused(Reply, Refusal<C>),
    /// Not decryptable (not for us, unknown algorithm, failed): no ITS response can be made;
    /// the transport answers with the code in clear.
    Unanswerable(Refusal<C>),
}

/// `requestHash`: the leftmost 16 octets of SHA-256 over the request message as received
/// (the whole `EtsiTs103097Data`).
pub fn request_hash(request: &[u8]) -> [u8; 16] {
    let h = v2x_crypto::sha256(request);
    let mut out = [0u8; 16];
    out.copy_from_slice(&h[..16]);
    out
}

/// The identity a request is remembered by to refuse its replay: SHA-256 over the decrypted
/// content (a replayed request decrypts to the same bytes, whatever envelope it comes in).
pub fn replay_key(decrypted: &[u8]) -> [u8; 32] {
    v2x_crypto::sha256(decrypted)
}
