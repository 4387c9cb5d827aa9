//! TESLA broadcast authentication (Perrig et al.; as used for VANETs by Hu & Laberteaux,
//! simulated in paper 004 §IV-A and measured in paper 001 §8).
//!
//! **Key chain.** The sender draws `K_N` at random and computes `K_{i-1} = F(K_i)` down to
//! the commitment `K_0`, where `F(x)` is the layout's hash (SHA-1 or SHA-256) truncated to
//! the key length. Time is cut into intervals of `interval_us` from `T0`; interval `i`
//! (1-based) covers `[T0 + (i-1)·T, T0 + i·T)`. Packets of interval `i` carry
//! `MAC_{K'_i}` with `K'_i = HMAC(K_i, "TESLA MAC key")` truncated (the separate MAC-key
//! PRF of standard TESLA), and `K_i` is disclosed `d` intervals later — in a separate key
//! packet at the start of interval `i + d`, or attached to the sender's next data packet
//! ("TESLA attached": a packet of interval `i` carries `K_{i-d}`).
//!
//! **Bootstrap.** The commitment (`T0`, `T`, `d`, `N`, `K_0`) travels in a signed packet.
//! By default (`bootstrap = "ieee1609-dot2"`) it is the payload of an IEEE 1609.2 signed
//! message made by the standard stack (`v2x-security` SN-ENCAP, generic profile, PSID
//! [`PSID_TESLA_COMMITMENT`], a private-use value, signer = full certificate) and checked by
//! SN-DECAP with the whole chain, validity, permissions and revocation; with
//! `bootstrap = "compact"` it carries our compact ECDSA certificate ([`crate::cert`]) and
//! a raw signature instead. The sender field must equal the signing certificate's digest
//! (its first 6 bytes for paper 004). It is sent before the first data packet and again
//! every `commitment_period_us` so late receivers can join; a new chain (after `N`
//! intervals) gets a new commitment. Paper-001 per-packet signatures use the same
//! certificate's key.
//!
//! **Receiving.** Loose time synchronisation: receivers know their clock is within
//! `max_clock_offset_us` of the sender's. The *safe-packet test*: a packet of interval
//! `i` received at local time `t` is accepted for buffering only if the sender cannot yet
//! have disclosed `K_i`, i.e. `interval(t + max_clock_offset) < i + d`, and no key of
//! interval `>= i` is already known; otherwise it is rejected (`key-already-disclosed`),
//! which also stops replays (TESLA needs no replay window: while a packet waits, a copy
//! of it is found in the buffer, `duplicate-message`). Safe packets wait in a bounded
//! buffer (per sender and in total; `pending-buffer-full` when full, `pending-expired`
//! after `max_hold_us`). A
//! disclosed key `K_j` is authenticated by hashing it back to the latest authenticated key
//! (`F^{j-a}(K_j) = K_a`), and then verifies every buffered packet of interval `<= j`,
//! deriving `K_i = F^{j-i}(K_j)`: a lost key packet is made up by any later key.
//!
//! **Layouts**: see [`wire`].
//!
//! Where to look: [`config`] (parameters and field sizes), [`chain`] (the key chain: F,
//! the MAC, interval arithmetic), [`wire`] (packet layouts and their codecs),
//! [`bootstrap`] (who signs and checks commitments), [`sender`] and [`receiver`] (the
//! two halves of a station), [`station`] (the [`Authenticator`](crate::Authenticator)),
//! [`describe`](mod@describe) (sizes and costs), [`deployment`] (shared material, station set-up).

pub mod bootstrap;
pub mod chain;
pub mod config;
pub mod deployment;
pub mod describe;
pub mod receiver;
pub mod sender;
pub mod station;
pub mod wire;

#[cfg(test)]
mod tests;

pub use bootstrap::TeslaSigner;
pub use chain::ChainParams;
pub use config::{Bootstrap, Format, KeyDisclosure, TeslaConfig, TeslaLayout, PSID_TESLA_COMMITMENT};
pub use deployment::{measured_commitment_len, TeslaDeployment};
pub use describe::describe;
pub use station::TeslaStation;
pub use wire::{
    parse, parse_commitment_body_exact, Commitment, DataPacket, KeyPacket, TeslaPacket, PAPER004_BSM_LEN,
    PAPER004_LINK_FRAMING,
};
