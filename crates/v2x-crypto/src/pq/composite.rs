//! The experimental composite of ECDSA P-256 and a post-quantum algorithm: both components sign
//! the same domain-separated message, M' = "v2xsec-composite-v1" ‖ 0 ‖ scheme name ‖ 0 ‖ M, so
//! that neither part is a valid stand-alone signature over M (a stripped composite does not
//! verify as plain ECDSA or plain ML-DSA / FN-DSA). Modelled on the IETF LAMPS composite drafts'
//! prefix-and-label construction, but not their encoding: not interoperable, not a standard.

use super::SignatureScheme;

/// The domain-separation prefix.
pub const COMPOSITE_PREFIX: &[u8] = b"v2xsec-composite-v1";

/// M' for `scheme` (a composite) over `msg`.
pub fn message(scheme: SignatureScheme, msg: &[u8]) -> Vec<u8> {
    let name = scheme.name();
    let mut m = Vec::with_capacity(COMPOSITE_PREFIX.len() + name.len() + 2 + msg.len());
    m.extend_from_slice(COMPOSITE_PREFIX);
    m.push(0);
    m.extend_from_slice(name.as_bytes());
    m.push(0);
    m.extend_from_slice(msg);
    m
}
