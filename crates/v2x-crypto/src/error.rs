use thiserror::Error;

/// Errors from the crypto backend. Each names what went wrong so callers can map it
/// onto a protocol-level rejection reason.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CryptoError {
    #[error("invalid public key encoding: {0}")]
    InvalidPublicKey(String),
    #[error("invalid private key: {0}")]
    InvalidPrivateKey(String),
    #[error("invalid signature encoding: {0}")]
    InvalidSignature(String),
    #[error("key belongs to curve {found:?}, expected {expected:?}")]
    CurveMismatch {
        expected: crate::Curve,
        found: crate::Curve,
    },
    #[error("authentication tag mismatch")]
    TagMismatch,
    #[error("invalid length for {what}: expected {expected}, got {got}")]
    InvalidLength {
        what: &'static str,
        expected: usize,
        got: usize,
    },
    #[error("crypto backend error: {0}")]
    Backend(String),
    #[error("unknown crypto backend {0}")]
    UnknownBackend(String),
    #[error("not supported: {0}")]
    Unsupported(String),
}

impl From<openssl::error::ErrorStack> for CryptoError {
    fn from(e: openssl::error::ErrorStack) -> Self {
        CryptoError::Backend(e.to_string())
    }
}
