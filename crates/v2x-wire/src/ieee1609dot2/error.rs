//! Why C-OER bytes do not decode (or a value does not encode), with the cause kept as a typed
//! value: this crate's own structural walks report a [`CursorError`] (field and absolute
//! offset), `rasn` its own error. Each level's message includes its cause's (callers log
//! `to_string()`), so the cause is a field to match on rather than a second `source()` that
//! would print the same text twice in an error chain.

use crate::cursor::CursorError;
use crate::shared::Shared;

/// Why bytes could not be decoded (or a value encoded). No variant ever carries secrets.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum WireError {
    /// The bytes are not a valid C-OER encoding of the expected type.
    #[error("decode error: {0}")]
    Decode(DecodeFailure),
    /// A complete value was decoded but `extra` bytes followed it.
    #[error("{extra} trailing byte(s) after the encoded value")]
    TrailingBytes { extra: usize },
    /// The value cannot be encoded (e.g. it violates a size or value constraint).
    #[error("encode error: {0}")]
    Encode(EncodeFailure),
    /// The bytes decode, but are not the canonical C-OER encoding of the value.
    #[error("non-canonical encoding: re-encoding gives {reencoded} bytes that differ from the {received} received")]
    NonCanonical { received: usize, reencoded: usize },
    /// Well-formed but not supported here (e.g. protocol version other than 3).
    #[error("unsupported: {0}")]
    Unsupported(String),
}

/// The cause of a [`WireError::Decode`].
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum DecodeFailure {
    /// This crate's own walk of the encoding (the structural pre-scan that protects `rasn`, or
    /// the split of signed data into the byte ranges signatures cover) found malformed bytes.
    #[error("malformed C-OER: {0}")]
    Malformed(CursorError),
    /// `rasn` rejected the bytes.
    #[error(transparent)]
    Rasn(#[from] Shared<rasn::error::DecodeError>),
}

/// The cause of a [`WireError::Encode`].
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum EncodeFailure {
    /// `rasn` could not encode the value.
    #[error(transparent)]
    Rasn(#[from] Shared<rasn::error::EncodeError>),
    /// The value breaks a constraint between its components (checked by `rasn-its` builders).
    #[error(transparent)]
    Constraint(#[from] Shared<rasn::error::InnerSubtypeConstraintError>),
    /// A certificate base that is neither a valid explicit nor a valid implicit certificate.
    #[error("certificate is neither a valid explicit nor implicit certificate")]
    NotACertificate,
}

impl From<DecodeFailure> for WireError {
    fn from(e: DecodeFailure) -> Self {
        WireError::Decode(e)
    }
}

impl From<EncodeFailure> for WireError {
    fn from(e: EncodeFailure) -> Self {
        WireError::Encode(e)
    }
}

impl From<CursorError> for WireError {
    fn from(e: CursorError) -> Self {
        WireError::Decode(DecodeFailure::Malformed(e))
    }
}

impl From<rasn::error::DecodeError> for WireError {
    fn from(e: rasn::error::DecodeError) -> Self {
        WireError::Decode(DecodeFailure::Rasn(Shared::new(e)))
    }
}

impl From<rasn::error::EncodeError> for WireError {
    fn from(e: rasn::error::EncodeError) -> Self {
        WireError::Encode(EncodeFailure::Rasn(Shared::new(e)))
    }
}

impl From<rasn::error::InnerSubtypeConstraintError> for WireError {
    fn from(e: rasn::error::InnerSubtypeConstraintError) -> Self {
        WireError::Encode(EncodeFailure::Constraint(Shared::new(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn causes_are_kept_typed_and_said_once() {
        let cursor = crate::cursor::Reader::new(&[]).truncated("length", 1);
        let e = WireError::from(cursor.clone());
        assert_eq!(e, WireError::Decode(DecodeFailure::Malformed(cursor.clone())));
        assert_eq!(e.to_string(), format!("decode error: malformed C-OER: {cursor}"));
        assert!(
            e.source().is_none(),
            "the cause is in the message, not repeated as a source"
        );

        let rasn_err = rasn::coer::decode::<u16>(&[1]).unwrap_err();
        let text = rasn_err.to_string();
        let e = WireError::from(rasn_err);
        assert!(matches!(&e, WireError::Decode(DecodeFailure::Rasn(r)) if r.inner().to_string() == text));
        assert_eq!(e.clone(), e);
    }
}
