//! Our own variable-time arithmetic (`crate::ec`): verification only, every curve.

use super::{Backend, BackendId, CryptoOp};
use crate::{CryptoError, Curve, PrivateKey, PublicKey, Signature};

pub(super) struct V2x;

impl Backend for V2x {
    fn id(&self) -> BackendId {
        BackendId::V2x
    }

    fn supports(&self, _curve: Curve, op: CryptoOp) -> bool {
        op == CryptoOp::Verify
    }

    fn sign_digest(&self, _key: &PrivateKey, _digest: &[u8]) -> Result<Signature, CryptoError> {
        Err(CryptoError::Unsupported(
            "the v2x backend is variable time and never signs".into(),
        ))
    }

    fn verify_digest(&self, key: &PublicKey, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        key.verify_digest_vartime(digest, sig)
    }

    fn ecdh_x(&self, _private: &PrivateKey, _peer: &PublicKey) -> Result<Vec<u8>, CryptoError> {
        Err(CryptoError::Unsupported(
            "the v2x backend is variable time and never touches a private key".into(),
        ))
    }
}
