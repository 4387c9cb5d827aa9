//! SLH-DSA (FIPS 205) through RustCrypto `slh-dsa`, for reference: SHA2-128s and SHAKE-128f,
//! hedged signing (a fresh n-byte randomizer) of the pure interface with an empty context.

use super::PqAlgorithm;
use crate::CryptoError;
use slh_dsa::{ParameterSet, Sha2_128s, Shake128f};

/// n, the security parameter in bytes (both sets here are category 1).
const N: usize = 16;

/// A signing key of either parameter set (kept encoded: skSeed ‖ skPrf ‖ pkSeed ‖ pkRoot).
pub(crate) enum SlhPrivate {
    Sha2_128s(Box<slh_dsa::SigningKey<Sha2_128s>>),
    Shake128f(Box<slh_dsa::SigningKey<Shake128f>>),
}

/// A verifying key of either parameter set.
pub(crate) enum SlhPublic {
    Sha2_128s(Box<slh_dsa::VerifyingKey<Sha2_128s>>),
    Shake128f(Box<slh_dsa::VerifyingKey<Shake128f>>),
}

impl SlhPrivate {
    /// FIPS 205 slh_keygen_internal from skSeed ‖ skPrf ‖ pkSeed (3n bytes).
    pub(crate) fn from_seed(alg: PqAlgorithm, seed: &[u8]) -> Result<SlhPrivate, CryptoError> {
        if seed.len() != 3 * N {
            return Err(CryptoError::InvalidLength {
                what: "SLH-DSA seed",
                expected: 3 * N,
                got: seed.len(),
            });
        }
        let (sk_seed, rest) = seed.split_at(N);
        let (sk_prf, pk_seed) = rest.split_at(N);
        Ok(match alg {
            PqAlgorithm::SlhDsaSha2_128s => SlhPrivate::Sha2_128s(Box::new(slh_dsa::SigningKey::slh_keygen_internal(
                sk_seed, sk_prf, pk_seed,
            ))),
            _ => SlhPrivate::Shake128f(Box::new(slh_dsa::SigningKey::slh_keygen_internal(
                sk_seed, sk_prf, pk_seed,
            ))),
        })
    }

    pub(crate) fn from_encoded(alg: PqAlgorithm, sk: &[u8]) -> Result<SlhPrivate, CryptoError> {
        let bad = |_| CryptoError::InvalidPrivateKey(format!("{}: {} bytes", alg.name(), sk.len()));
        Ok(match alg {
            PqAlgorithm::SlhDsaSha2_128s => SlhPrivate::Sha2_128s(Box::new(sk.try_into().map_err(bad)?)),
            _ => SlhPrivate::Shake128f(Box::new(sk.try_into().map_err(bad)?)),
        })
    }

    pub(crate) fn encoded(&self) -> Vec<u8> {
        match self {
            SlhPrivate::Sha2_128s(k) => k.to_vec(),
            SlhPrivate::Shake128f(k) => k.to_vec(),
        }
    }

    pub(crate) fn public(&self) -> Vec<u8> {
        match self {
            SlhPrivate::Sha2_128s(k) => k.as_ref().as_ref().to_vec(),
            SlhPrivate::Shake128f(k) => k.as_ref().as_ref().to_vec(),
        }
    }

    pub(crate) fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, CryptoError> {
        let rand = crate::random_bytes(N);
        let err = |_| CryptoError::Backend("SLH-DSA sign failed".into());
        Ok(match self {
            SlhPrivate::Sha2_128s(k) => k.try_sign_with_context(msg, &[], Some(&rand)).map_err(err)?.to_vec(),
            SlhPrivate::Shake128f(k) => k.try_sign_with_context(msg, &[], Some(&rand)).map_err(err)?.to_vec(),
        })
    }

    /// slh_sign_internal (the function the ACVP sigGen vectors of the internal interface test).
    pub(crate) fn sign_internal(&self, msg: &[u8], opt_rand: Option<&[u8]>) -> Vec<u8> {
        match self {
            SlhPrivate::Sha2_128s(k) => k.slh_sign_internal(&[msg], opt_rand).to_vec(),
            SlhPrivate::Shake128f(k) => k.slh_sign_internal(&[msg], opt_rand).to_vec(),
        }
    }
}

fn parse_sig<P: ParameterSet>(sig: &[u8]) -> Option<slh_dsa::Signature<P>> {
    slh_dsa::Signature::<P>::try_from(sig).ok()
}

impl SlhPublic {
    pub(crate) fn from_bytes(alg: PqAlgorithm, bytes: &[u8]) -> Result<SlhPublic, CryptoError> {
        let bad = |_| CryptoError::InvalidLength {
            what: "SLH-DSA public key",
            expected: alg.public_key_len(),
            got: bytes.len(),
        };
        Ok(match alg {
            PqAlgorithm::SlhDsaSha2_128s => SlhPublic::Sha2_128s(Box::new(bytes.try_into().map_err(bad)?)),
            _ => SlhPublic::Shake128f(Box::new(bytes.try_into().map_err(bad)?)),
        })
    }

    pub(crate) fn bytes(&self) -> Vec<u8> {
        match self {
            SlhPublic::Sha2_128s(k) => k.to_vec(),
            SlhPublic::Shake128f(k) => k.to_vec(),
        }
    }

    pub(crate) fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        match self {
            SlhPublic::Sha2_128s(k) => parse_sig(sig).is_some_and(|s| k.try_verify_with_context(msg, &[], &s).is_ok()),
            SlhPublic::Shake128f(k) => parse_sig(sig).is_some_and(|s| k.try_verify_with_context(msg, &[], &s).is_ok()),
        }
    }

    /// slh_verify_internal (ACVP sigVer, internal interface).
    pub(crate) fn verify_internal(&self, msg: &[u8], sig: &[u8]) -> bool {
        match self {
            SlhPublic::Sha2_128s(k) => parse_sig(sig).is_some_and(|s| k.slh_verify_internal(&[msg], &s).is_ok()),
            SlhPublic::Shake128f(k) => parse_sig(sig).is_some_and(|s| k.slh_verify_internal(&[msg], &s).is_ok()),
        }
    }
}
