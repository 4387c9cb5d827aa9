//! The hash-chain HMAC protocol with pseudo-identities (paper 001 §3-4, Algorithm 1).
//!
//! **Registration.** A driver registers with the CA over a secure channel and receives
//! the system seed and a pool of 20-byte random pseudo-identities (PIDs), which the CA
//! records against the driver (conditional traceability, revocation). The vehicle's
//! tamper-proof device (here [`KeyStore`]) hashes the seed into a chain of `n` keys:
//! `k_0 = SHA-256(seed)`, `k_{i+1} = SHA-256(k_i)`. Keys never leave the store.
//!
//! **Signing** (Algorithm 1): pick a random index `i`, compute
//! `HMAC-SHA256(k_i, PID ‖ m ‖ Ts)` truncated to its leftmost 12 bytes, send
//! `{PID, Sig, index, Ts, m}`. **Verifying**: check `Ts` freshness, look `k_i` up by
//! index, recompute and compare (constant time).
//!
//! **Trust assumption.** Every registered vehicle holds the *same* key table (paper 001
//! §3.1: "vehicles store the same hash chain table"). The MAC therefore proves only that
//! the sender is *some* registered vehicle: any registered insider can compute a MAC that
//! verifies under any PID, including another vehicle's (test
//! `insider_can_impersonate_another_pseudonym`). PIDs give privacy and let the CA trace
//! and revoke an honest sender, but they are not authenticated against a malicious one.
//! The scheme relies entirely on the tamper-proof device keeping the table secret.
//!
//! **V2I.** A roadside unit adds ECDSA authentication: its compact certificate
//! ([`crate::cert`], 117 bytes for P-256) and an ECDSA signature (64 bytes) over the
//! whole packet replace the PID, so V2I = 117 + 64 + 12 + 4 + 4 = 201 bytes (paper 001
//! §4.1). RSUs also carry the CA's revocation notices (list of revoked PIDs).
//!
//! Choices where the paper is silent: the chain direction and indexing above; the
//! timestamp unit (ms); PIDs change every `pseudonym_lifetime_ms`; a replay window (by
//! MAC tag, [`crate::freshness::TagWindow`]) as long as the freshness window, so a replay
//! inside the window is rejected rather than only replays outside it; revocation
//! distributed by RSUs as a signed notice (paper: "the CA revokes the accused driver's
//! pseudo-identity").
//!
//! Where to look: [`config`] (parameters), [`wire`] (packet layouts and their codecs),
//! [`keys`] (the tamper-proof key store), [`authority`] (the CA: registration, tracing,
//! revocation), [`sender`] and [`receiver`] (the two halves of a station), [`station`]
//! (the [`Authenticator`](crate::Authenticator)), [`describe`](mod@describe) (sizes and costs),
//! [`deployment`] (shared material, station set-up).

pub mod authority;
pub mod config;
pub mod deployment;
pub mod describe;
pub mod keys;
pub mod receiver;
pub mod sender;
pub mod station;
pub mod wire;

#[cfg(test)]
mod tests;

pub use authority::{HashChainCa, Registration};
pub use config::{HashChainConfig, Link};
pub use deployment::HashChainDeployment;
pub use describe::describe;
pub use keys::KeyStore;
pub use receiver::certificate_digest;
pub use sender::encode_v2v;
pub use station::HashChainStation;
pub use wire::{
    decode_revocation_list, encode_revocation_list, parse, HashChainPacket, V2iPacket, V2vPacket, MAC_LEN, PID_LEN,
    V2V_OVERHEAD,
};
