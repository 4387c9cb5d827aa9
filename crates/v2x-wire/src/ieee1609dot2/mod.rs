//! IEEE 1609.2 / ETSI TS 103 097 v2 secured data and certificates in C-OER.
//!
//! The ASN.1 types come from `rasn-its` and are re-exported here, so callers write
//! `v2x_wire::ieee1609dot2::SignedData` etc. This module adds what `rasn` alone does not give:
//!
//! * [`decode_exact`] / [`encode`]: C-OER with trailing bytes rejected and a typed [`WireError`].
//! * [`parse_data`] / [`parse_certificate`]: decoding plus the byte ranges (in the *received*
//!   buffer) that 1609.2 signatures and hashes cover. Signatures are verified over the received
//!   encoding, never over a re-encoding.
//! * small pure-data helpers: [`ids`] (HashedId8/3, PSID), [`time`] (Time32/Time64 via
//!   [`crate::tai`]), [`location`] (1/10 micro-degree coordinates), [`access`]
//!   (accessors for signer, header info and payload), [`build`] (constructors), [`assemble`]
//!   (the hand-assembled CAM/DENM encodings of the SN-ENCAP hot path).
//!
//! # Canonical encodings
//! `rasn::coer` already rejects many non-canonical forms (long-form lengths that fit the short
//! form, leading zeros in lengths and quantities). Whatever it accepts is accepted here; the spans
//! always point at the received bytes, so hashes and signatures are computed over exactly what
//! was received, as 1609.2 §6.3 requires. Use [`decode_canonical`] where a caller needs the
//! stronger guarantee that the bytes are the unique C-OER encoding of the value.

pub mod access;
pub mod assemble;
pub mod build;
mod encode_fix;
mod error;
pub(crate) mod guard;
pub mod ids;
pub mod location;
pub mod oer;
mod spans;
pub mod time;

pub use rasn_its::ieee1609dot2::base_types::*;
pub use rasn_its::ieee1609dot2::*;
/// ETSI TS 103 097 profile types (`EtsiTs103097Data`, `EtsiTs103097Certificate`, extensions).
pub use rasn_its::ts103097;
/// Header-info and certificate extension building blocks (used by `HeaderInfo` and
/// `ToBeSignedCertificate` extension additions).
pub use rasn_its::ts103097::extension_module::{ExtId, ExtType, Extension};

pub use access::*;
pub use build::*;
pub use encode_fix::{encode_data, encode_header_info, encode_signed_data_payload, encode_to_be_signed_data};
pub use ids::*;
pub use location::*;
pub use spans::{
    encode_signed_data_from_parts, parse_certificate, parse_data, peek_protocol_version, signed_data_spans_at,
    CertificateSpans, SignedDataSpans,
};
pub use time::*;

pub use crate::shared::Shared;
pub use error::{DecodeFailure, EncodeFailure, WireError};

/// Decodes one C-OER value that must fill `bytes` exactly (leftover bytes are an error).
///
/// Input is first checked by a structural pre-scan (see `guard/`) that rejects SEQUENCE OF
/// quantities larger than the input (`rasn` 0.30 as published pre-allocates from such a
/// quantity and aborts the process; the vendored copy is patched) and encodings `rasn` would
/// misread. The pre-scan covers `Ieee1609Dot2Data`, `EtsiTs103097Data`,
/// `Certificate`, `EtsiTs103097Certificate`, `SequenceOfCertificate`, `ToBeSignedCertificate`,
/// `ToBeSignedData`, `SignedDataPayload`, `SignedData`, `HeaderInfo`, `SignerIdentifier`,
/// `EncryptedData`, `Signature` and the 1609.2 CRL `crl_base_types::CrlContents`; the TS 102 941
/// parsers of `crate::trust_list` pre-scan their own types. Other types reach `rasn` without
/// the pre-scan (the vendored `rasn` bounds SEQUENCE OF allocations itself).
pub fn decode_exact<T: rasn::Decode + 'static>(bytes: &[u8]) -> Result<T, WireError> {
    let (value, rest) = decode_prefix::<T>(bytes)?;
    if !rest.is_empty() {
        return Err(WireError::TrailingBytes { extra: rest.len() });
    }
    Ok(value)
}

/// Decodes one C-OER value from the start of `bytes`; returns it and the bytes after it.
/// Guarded like [`decode_exact`].
pub fn decode_prefix<T: rasn::Decode + 'static>(bytes: &[u8]) -> Result<(T, &[u8]), WireError> {
    if let Some(ty) = guard::description_of::<T>() {
        guard::check(ty, bytes)?;
    }
    decode_prefix_prechecked(bytes)
}

/// `rasn::coer::decode_with_remainder` for bytes that already passed the guard (or types that
/// contain no SEQUENCE OF).
pub(crate) fn decode_prefix_prechecked<T: rasn::Decode>(bytes: &[u8]) -> Result<(T, &[u8]), WireError> {
    Ok(rasn::coer::decode_with_remainder::<T>(bytes)?)
}

/// Like [`decode_exact`], and also rejects bytes that are not the value's canonical encoding
/// (re-encodes and compares).
pub fn decode_canonical<T: rasn::Decode + rasn::Encode + 'static>(bytes: &[u8]) -> Result<T, WireError> {
    let value = decode_exact::<T>(bytes)?;
    let again = encode(&value)?;
    if again != bytes {
        return Err(WireError::NonCanonical {
            received: bytes.len(),
            reencoded: again.len(),
        });
    }
    Ok(value)
}

/// Encodes a value in C-OER.
///
/// `Ieee1609Dot2Data`, `EtsiTs103097Data`, `SignedData`, `ToBeSignedData`, `SignedDataPayload`
/// and `HeaderInfo` go through this crate's own assembly (see `encode_fix.rs`: `rasn` 0.30
/// corrupts e.g. `HeaderInfo.requestedCertificate`); everything else through `rasn::coer`.
pub fn encode<T: rasn::Encode + 'static>(value: &T) -> Result<Vec<u8>, WireError> {
    if let Some(fixed) = encode_fix::encode_fixed(value) {
        return fixed;
    }
    Ok(rasn::coer::encode(value)?)
}
