//! OpenSSL (the `openssl` crate): every curve, every operation.

use super::{Backend, BackendId, CryptoOp};
use crate::{CryptoError, Curve, PrivateKey, PublicKey, RPoint, Signature};
use openssl::bn::BigNum;
use openssl::ecdsa::EcdsaSig;
use openssl::pkey::PKey;

pub(super) struct OpenSsl;

impl Backend for OpenSsl {
    fn id(&self) -> BackendId {
        BackendId::OpenSsl
    }

    fn supports(&self, _curve: Curve, _op: CryptoOp) -> bool {
        true
    }

    fn sign_digest(&self, key: &PrivateKey, digest: &[u8]) -> Result<Signature, CryptoError> {
        let sig = EcdsaSig::sign(digest, key.ec_key())?;
        let n = key.curve().field_len() as i32;
        Ok(Signature {
            curve: key.curve(),
            r: RPoint::XOnly(sig.r().to_vec_padded(n)?),
            s: sig.s().to_vec_padded(n)?,
        })
    }

    fn verify_digest(&self, key: &PublicKey, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        let r = BigNum::from_slice(&sig.x_only_r())?;
        let s = BigNum::from_slice(&sig.s)?;
        let sig = EcdsaSig::from_private_components(r, s)?;
        // OpenSSL rejects r, s outside [1, n-1] as a failed verification.
        Ok(sig.verify(digest, key.ec_key()?).unwrap_or(false))
    }

    fn ecdh_x(&self, private: &PrivateKey, peer: &PublicKey) -> Result<Vec<u8>, CryptoError> {
        let ours = PKey::from_ec_key(private.ec_key().clone())?;
        let theirs = PKey::from_ec_key(peer.ec_key()?.clone())?;
        let mut deriver = openssl::derive::Deriver::new(&ours)?;
        deriver.set_peer(&theirs)?;
        Ok(deriver.derive_to_vec()?)
    }
}
