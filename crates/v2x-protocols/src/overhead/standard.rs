//! What the two standard-format row builders ([`super::etsi_v1_2_1`], [`super::etsi_v2`])
//! share: the payload of every row, the time the messages are made at, the error type.

use v2x_crypto::CryptoError;
use v2x_security::issue::IssueError;
use v2x_security::trust_store::AnchorError;
use v2x_security::v1_2_1::V1EncapError;
use v2x_security::Rejection;

/// Payload size of every row (paper 000 §4.2: "The payload of ITS packet is taken as 100 bytes").
pub const PAYLOAD_LEN: usize = 100;

/// TAI seconds since 2004 the rows' messages are made at (early 2023).
pub const T0: u64 = 600_000_000;

/// Why the rows could not be computed (key generation or encoding failed).
#[derive(Debug, thiserror::Error)]
pub enum EtsiOverheadError {
    #[error("v1.2.1 SN-ENCAP: {0}")]
    V1(#[from] V1EncapError),
    #[error("crypto: {0}")]
    Crypto(#[from] CryptoError),
    #[error("v2 codec: {0}")]
    Codec(#[from] v2x_wire::ieee1609dot2::WireError),
    #[error("v2 certificate: {0}")]
    Issue(#[from] IssueError),
    #[error("v2 trust store: {0}")]
    Trust(#[from] AnchorError),
    #[error("v2 SN-ENCAP: {0}")]
    Encap(#[from] v2x_security::EncapError),
    #[error("v2: decrypting our own message failed: {0}")]
    Decrypt(Rejection),
    #[error("v2 {message}: the entity did not switch to a digest signer")]
    NoDigestSigner { message: String },
}
