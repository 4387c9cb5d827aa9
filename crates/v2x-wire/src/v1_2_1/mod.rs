//! ETSI TS 103 097 v1.2.1 (2015-06), the legacy presentation-language format, hand-written:
//! typed `decode`/`encode` for SecuredMessage (protocol version 2) and Certificate
//! (version 2), no panics on untrusted input, errors with byte offsets.
//!
//! * [`codec`]: the IntX / `<var>` length encoding (§4.1, §4.2.1) on the crate's byte cursor.
//! * [`types`]: algorithms, EccPoint, PublicKey, Signature, times, regions (§4.2) — and
//!   the documented non-standard extension for P-384, brainpool and AES-256-CCM.
//! * [`certificate`]: Certificate, SignerInfo, subject attributes, validity (§6).
//! * [`message`]: SecuredMessage, header/trailer fields, payload, recipient info (§5).
//!
//! Decoding is canonical: lengths must use the minimal encoding, vectors must be filled
//! exactly and nothing may trail, so `encode(decode(b)) == b` for every accepted `b`.
//! Signatures can therefore be checked over re-encodings without diverging from what
//! was received (the property tests check this identity on random and mutated input).

pub mod certificate;
pub mod codec;
pub mod message;
pub mod types;

pub use certificate::{
    Certificate, HashedId3, HashedId8, ItsAidSsp, SignerInfo, SubjectAttribute, SubjectInfo, SubjectType,
    ValidityRestriction,
};
pub use message::{
    header_type, EciesEncryptedKey, EncryptedKey, HeaderField, Payload, PayloadType, RecipientInfo, SecuredMessage,
    TrailerField, PROTOCOL_VERSION,
};
pub use types::{
    Duration, EccPoint, EncryptionParameters, GeographicRegion, PublicKey, PublicKeyAlgorithm, RectangularRegion,
    Signature, SymmetricAlgorithm, ThreeDLocation, Time64WithStandardDeviation, TwoDLocation, V1Curve,
};

use crate::cursor::CursorError;

/// A decoding error, with the absolute byte offset where it was found. The cursor's errors
/// ([`CursorError`]) convert into the variant of the same meaning, field for field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum V1Error {
    #[error("{what} at offset {offset}: need {need} bytes, {have} left")]
    Truncated {
        what: &'static str,
        offset: usize,
        need: usize,
        have: usize,
    },
    #[error("{what} at offset {offset}: {count} unexpected trailing bytes")]
    TrailingBytes {
        what: &'static str,
        offset: usize,
        count: usize,
    },
    #[error("{what} at offset {offset}: version {version} is not v1.2.1's 2")]
    UnsupportedVersion {
        what: &'static str,
        offset: usize,
        version: u8,
    },
    #[error("{what} at offset {offset}: {detail}")]
    Invalid {
        what: &'static str,
        offset: usize,
        detail: String,
    },
}

impl From<CursorError> for V1Error {
    fn from(e: CursorError) -> Self {
        match e {
            CursorError::Truncated {
                field,
                offset,
                needed,
                available,
            } => V1Error::Truncated {
                what: field,
                offset,
                need: needed,
                have: available,
            },
            CursorError::Trailing { field, offset, count } => V1Error::TrailingBytes {
                what: field,
                offset,
                count,
            },
            CursorError::UnknownValue { field, offset, value } => V1Error::Invalid {
                what: field,
                offset,
                detail: format!("unknown value {value}"),
            },
            CursorError::Invalid { field, offset, message } => V1Error::Invalid {
                what: field,
                offset,
                detail: message,
            },
        }
    }
}

impl V1Error {
    pub fn offset(&self) -> usize {
        match self {
            V1Error::Truncated { offset, .. }
            | V1Error::TrailingBytes { offset, .. }
            | V1Error::UnsupportedVersion { offset, .. }
            | V1Error::Invalid { offset, .. } => *offset,
        }
    }
}

/// Format detector: v1.2.1 SecuredMessages start with protocol version 2 (v2/1609.2
/// Ieee1609Dot2Data starts with 3). Cheap; does not validate the rest.
pub fn looks_like_v1_2_1(bytes: &[u8]) -> bool {
    bytes.first() == Some(&PROTOCOL_VERSION)
}
