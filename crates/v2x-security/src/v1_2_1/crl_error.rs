//! Why a v1.2.1 CRL ([`super::crl`]) was refused: its own module so that the PKI's errors
//! can carry it without the PKI depending on the CRL's code.

use crate::crl::CrlError;
use crate::revocation::OlderCrl;
use v2x_wire::v1_2_1::V1Error;

/// Why a v1.2.1 CRL was not accepted (or could not be issued).
#[derive(Debug, thiserror::Error)]
pub enum V1CrlError {
    #[error("not a v1.2.1 message: {0}")]
    Decode(#[from] V1Error),
    #[error("a v1.2.1 CRL is a signed message with ITS-AID 622; this is not")]
    NotACrl,
    #[error("the CRL body")]
    Body(#[from] CrlError),
    #[error("the CRL is signed by {0}, which is not a trust anchor (a root CA) here")]
    UnknownSigner(String),
    #[error("the CRL signature does not verify")]
    Signature,
    #[error("the CRL signature is not in its one encoding (r x-only, low s): {0}")]
    SignatureForm(String),
    #[error("signing the CRL")]
    Crypto(#[from] v2x_crypto::CryptoError),
    #[error(transparent)]
    Older(#[from] OlderCrl),
}
