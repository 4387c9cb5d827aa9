//! Post-quantum signatures and "signature schemes as data": ML-DSA-44/65/87 (FIPS 204; aws-lc
//! or RustCrypto `ml-dsa`), FN-DSA-512/1024 (Falcon, `fn-dsa`, draft FIPS 206), SLH-DSA
//! SHA2-128s / SHAKE-128f (FIPS 205, RustCrypto `slh-dsa`, for reference) and the experimental
//! composites ECDSA P-256 + ML-DSA-44 / FN-DSA-512, behind one [`SigningKey`] /
//! [`VerifyingKey`] interface that ECDSA also implements. Every scheme is a
//! [`SignatureScheme`] value with its sizes.

pub mod composite;
mod fn_dsa;
mod keys;
mod ml_dsa;
mod scheme;
mod slh_dsa;

pub use keys::{ComponentVerdicts, SigningKey, VerifyingKey};
pub use ml_dsa::MlDsaBackend;
pub use scheme::{PqAlgorithm, SignatureScheme};

/// The internal functions that published known-answer vectors are stated for (FIPS 205
/// slh_sign_internal / slh_verify_internal, fn-dsa's seeded key generation and signing, the
/// RustCrypto ML-DSA key derivation). For tests against those vectors only: protocol code
/// signs through [`SigningKey`].
pub mod kat {
    use super::{fn_dsa, ml_dsa, slh_dsa, PqAlgorithm};
    use crate::CryptoError;

    /// SLH-DSA slh_sign_internal with a signing key's encoding and an optional randomizer.
    pub fn slh_dsa_sign_internal(
        alg: PqAlgorithm,
        sk: &[u8],
        msg: &[u8],
        opt_rand: Option<&[u8]>,
    ) -> Result<Vec<u8>, CryptoError> {
        Ok(slh_dsa::SlhPrivate::from_encoded(alg, sk)?.sign_internal(msg, opt_rand))
    }

    /// SLH-DSA slh_verify_internal.
    pub fn slh_dsa_verify_internal(alg: PqAlgorithm, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<bool, CryptoError> {
        Ok(slh_dsa::SlhPublic::from_bytes(alg, pk)?.verify_internal(msg, sig))
    }

    /// The public key RustCrypto `ml-dsa` derives from the seed ξ (the default signing path
    /// derives it with aws-lc).
    pub fn ml_dsa_rustcrypto_public(alg: PqAlgorithm, seed: &[u8; 32]) -> Vec<u8> {
        ml_dsa::rustcrypto_public_from_seed(alg, seed)
    }

    /// (signing key, verifying key, signature) encodings.
    pub type KeysAndSignature = (Vec<u8>, Vec<u8>, Vec<u8>);

    /// fn-dsa key generation from the 32 bytes its RNG gives, then one signature from the 40
    /// bytes the signing RNG gives, under domain context `domain`; the message is `msg` raw,
    /// or its SHA3-256 digest signed with the SHA3-256 hash identifier when `sha3_prehash`.
    /// Returns (signing key, verifying key, signature), each checked to verify.
    pub fn fn_dsa_keygen_sign(
        alg: PqAlgorithm,
        kgen_seed: &[u8; 32],
        sign_seed: &[u8; 40],
        domain: &[u8],
        sha3_prehash: bool,
        msg: &[u8],
    ) -> Result<KeysAndSignature, CryptoError> {
        use ::fn_dsa::{DomainContext, HASH_ID_RAW, HASH_ID_SHA3_256, SHA3_256};
        let (sk, vk) = fn_dsa::keygen_with(alg, &mut fn_dsa::FixedRng::new(kgen_seed));
        let signer = fn_dsa::FnDsaPrivate::from_encoded(alg, &sk)?;
        let ctx = DomainContext(domain);
        let (id, hv) = if sha3_prehash {
            let mut h = SHA3_256::new();
            h.update(msg);
            (&HASH_ID_SHA3_256, h.digest().to_vec())
        } else {
            (&HASH_ID_RAW, msg.to_vec())
        };
        let sig = signer.sign_with(&mut fn_dsa::FixedRng::new(sign_seed), &ctx, id, &hv)?;
        if !fn_dsa::FnDsaPublic::from_bytes(alg, &vk)?.verify_with(&ctx, id, &hv, &sig) {
            return Err(CryptoError::Backend("fn-dsa: a fresh signature does not verify".into()));
        }
        Ok((sk, vk, sig))
    }
}
