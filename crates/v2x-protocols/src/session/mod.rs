//! The session-key schemes paper 003 evaluates: Raya & Hubaux (2007) and Wang et al.
//! (2008), each with a pairwise handshake and a group key distribution, and the four
//! message-protection modes.
//!
//! Pairwise, Raya–Hubaux (RH): `A→B: M1, Sig_A[M1|T], Cert_A`; `B→A: M2, Sig_B[M2|T],
//! Cert_B`; `A→B: {B|SK|T}_PuKB, Sig_A[B|SK|T]`. Wang et al.: `A→B: M1(g, p, Y_A),
//! Sig_A[M1|T], Cert_A`; `B→A: M2(Y_B), Sig_B[M2|T], Cert_B, HMAC_SK(M2)`; `A→B: M3,
//! HMAC_SK(M3)` with `SK` from finite-field Diffie–Hellman. Group: the leader L sends each
//! member `H_i, {SK}_PuKi, Sig_L[...]` (RH, one message per member, also for a member that
//! joins later) or one message with every member's `H_i, {SK}_PuKi` (Wang).
//!
//! Message protection (any mode with either scheme; paper 003 pairs RH with `hmac` and
//! Wang with the three others):
//!
//! | mode | body after the data header |
//! |---|---|
//! | `hmac` | m ‖ HMAC-SHA1_SK(header ‖ m) (20) |
//! | `encrypt` | E_SK(m) |
//! | `encrypt-signed-mac` | E_SK(m ‖ Sig_A[HMAC_SK(m)]) (signature of the algorithm's fixed length) |
//! | `encrypt-then-sign-mac` | var16 E_SK(m) ‖ var16 Sig_A[HMAC_SK(E_SK(m))] |
//!
//! Choices where the paper is silent: `E` is AES-128-CCM (authenticated; 16-byte tag, the
//! nonce derived from session, direction and sequence number, not sent); HMAC is
//! HMAC-SHA1 as in paper 003; `SK` from DH is SHA-256(shared secret) truncated to 16
//! bytes; the DH group is RFC 5114 2048/256 and a receiver rejects any other group
//! (`incompatible-protocol`) rather than trusting peer-chosen parameters; handshake and
//! group messages must be within `handshake_window_ms`; data carries a sequence number
//! (replays rejected) and sessions end after `session_lifetime_ms`; certificates
//! (`crypto::SessionCert`) certify a signing and an encryption key; H_i is 8 bytes.
//! Certified public keys are "exchanged periodically" in the paper; here a shared
//! directory stands for that exchange, and a leader keys every member listed in it.
//!
//! Message layouts: [`wire`]. Where to look: [`config`] (parameters), [`crypto`] (the
//! algorithms, certificates and CA), [`credentials`] (own keys, trust, the directory,
//! handshake authentication), [`handshake`] (pairwise sessions), [`group`] (group
//! keys), [`protection`] (the four data protection modes), [`station`] (the
//! [`Authenticator`](crate::Authenticator)), [`describe`](mod@describe) (costs and measured sizes),
//! [`deployment`] (shared material, station set-up).

pub mod config;
pub mod credentials;
pub mod crypto;
pub mod deployment;
pub mod describe;
pub mod group;
pub mod handshake;
pub mod protection;
pub mod station;
pub mod wire;

#[cfg(test)]
mod tests;

pub use config::{Protection, Scheme, SessionConfig, Topology};
pub use credentials::Directory;
pub use deployment::{measure_steps, measure_steps_with, SessionDeployment};
pub use describe::{describe, StepSize};
pub use station::SessionStation;
