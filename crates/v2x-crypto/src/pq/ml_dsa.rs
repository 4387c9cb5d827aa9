//! ML-DSA (FIPS 204) through two backends: aws-lc (`aws_lc_rs::signature::PqdsaKeyPair`) and
//! RustCrypto `ml-dsa`. Both implement pure ML-DSA with an empty context, so a signature from
//! either verifies on the other; the private key is the 32-byte seed ξ of FIPS 204 (the form
//! ACVP key generation and the IETF examples use), expanded once per backend on first use.

use super::PqAlgorithm;
use crate::CryptoError;
use aws_lc_rs::signature::{
    KeyPair, ParsedPublicKey, PqdsaKeyPair, PqdsaSigningAlgorithm, PqdsaVerificationAlgorithm, ML_DSA_44,
    ML_DSA_44_SIGNING, ML_DSA_65, ML_DSA_65_SIGNING, ML_DSA_87, ML_DSA_87_SIGNING,
};
use ml_dsa::{ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, MlDsaParams, B32};
use std::sync::OnceLock;

/// Which implementation runs an ML-DSA operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MlDsaBackend {
    AwsLc,
    RustCrypto,
}

impl MlDsaBackend {
    pub const ALL: [MlDsaBackend; 2] = [MlDsaBackend::AwsLc, MlDsaBackend::RustCrypto];

    pub const fn name(self) -> &'static str {
        match self {
            MlDsaBackend::AwsLc => "aws-lc",
            MlDsaBackend::RustCrypto => "rustcrypto",
        }
    }

    /// The faster backend on the reference machine for every operation and parameter set
    /// (measured with `v2x bench --suite pq`, docs/benchmarks.md#post-quantum-signatures).
    pub const fn fastest() -> MlDsaBackend {
        MlDsaBackend::AwsLc
    }
}

fn aws_signing(alg: PqAlgorithm) -> &'static PqdsaSigningAlgorithm {
    match alg {
        PqAlgorithm::MlDsa44 => &ML_DSA_44_SIGNING,
        PqAlgorithm::MlDsa65 => &ML_DSA_65_SIGNING,
        _ => &ML_DSA_87_SIGNING,
    }
}

fn aws_verification(alg: PqAlgorithm) -> &'static PqdsaVerificationAlgorithm {
    match alg {
        PqAlgorithm::MlDsa44 => &ML_DSA_44,
        PqAlgorithm::MlDsa65 => &ML_DSA_65,
        _ => &ML_DSA_87,
    }
}

/// RustCrypto's expanded key for one of the three parameter sets.
enum RcSigner {
    P44(Box<ExpandedSigningKey<MlDsa44>>),
    P65(Box<ExpandedSigningKey<MlDsa65>>),
    P87(Box<ExpandedSigningKey<MlDsa87>>),
}

/// An ML-DSA private key: the seed, and each backend's expanded form once used.
pub(crate) struct MlDsaPrivate {
    alg: PqAlgorithm,
    seed: [u8; 32],
    public: Vec<u8>,
    aws: OnceLock<PqdsaKeyPair>,
    rc: OnceLock<RcSigner>,
}

impl Drop for MlDsaPrivate {
    fn drop(&mut self) {
        // The seed is the whole secret; the backends zeroize their own expanded keys.
        self.seed.iter_mut().for_each(|b| *b = 0);
        std::hint::black_box(&self.seed);
    }
}

fn aws_from_seed(alg: PqAlgorithm, seed: &[u8]) -> Result<PqdsaKeyPair, CryptoError> {
    PqdsaKeyPair::from_seed(aws_signing(alg), seed)
        .map_err(|e| CryptoError::InvalidPrivateKey(format!("{}: {e}", alg.name())))
}

fn rc_from_seed(alg: PqAlgorithm, seed: &[u8; 32]) -> RcSigner {
    let seed = B32::from(*seed);
    match alg {
        PqAlgorithm::MlDsa44 => RcSigner::P44(Box::new(ExpandedSigningKey::from_seed(&seed))),
        PqAlgorithm::MlDsa65 => RcSigner::P65(Box::new(ExpandedSigningKey::from_seed(&seed))),
        _ => RcSigner::P87(Box::new(ExpandedSigningKey::from_seed(&seed))),
    }
}

impl MlDsaPrivate {
    /// FIPS 204 ML-DSA.KeyGen_internal from the seed ξ (Algorithm 6).
    pub(crate) fn from_seed(alg: PqAlgorithm, seed: &[u8]) -> Result<MlDsaPrivate, CryptoError> {
        let seed: [u8; 32] = seed.try_into().map_err(|_| CryptoError::InvalidLength {
            what: "ML-DSA seed",
            expected: 32,
            got: seed.len(),
        })?;
        // aws-lc derives the public key (and is the default backend, so it is built anyway).
        let aws = aws_from_seed(alg, &seed)?;
        let public = aws.public_key().as_ref().to_vec();
        let key = MlDsaPrivate {
            alg,
            seed,
            public,
            aws: OnceLock::new(),
            rc: OnceLock::new(),
        };
        let _ = key.aws.set(aws);
        Ok(key)
    }

    pub(crate) fn seed(&self) -> &[u8; 32] {
        &self.seed
    }

    pub(crate) fn public(&self) -> &[u8] {
        &self.public
    }

    /// Hedged ML-DSA.Sign (FIPS 204 Algorithm 2) of `msg` with an empty context.
    pub(crate) fn sign(&self, backend: MlDsaBackend, msg: &[u8]) -> Result<Vec<u8>, CryptoError> {
        match backend {
            MlDsaBackend::AwsLc => {
                let key = match self.aws.get() {
                    Some(k) => k,
                    None => {
                        let k = aws_from_seed(self.alg, &self.seed)?;
                        self.aws.get_or_init(|| k)
                    }
                };
                let mut sig = vec![0u8; self.alg.signature_len()];
                let n = key
                    .sign(msg, &mut sig)
                    .map_err(|e| CryptoError::Backend(format!("aws-lc ML-DSA sign: {e}")))?;
                sig.truncate(n);
                Ok(sig)
            }
            MlDsaBackend::RustCrypto => {
                let rnd: [u8; 32] = crate::random_bytes(32).try_into().expect("32 bytes");
                let rnd = B32::from(rnd);
                // M' = 0 || |ctx| || ctx || M with the empty context (FIPS 204 Algorithm 2).
                let mp: [&[u8]; 2] = [&[0, 0], msg];
                let signer = self.rc.get_or_init(|| rc_from_seed(self.alg, &self.seed));
                Ok(match signer {
                    RcSigner::P44(k) => k.sign_internal(&mp, &rnd).encode().to_vec(),
                    RcSigner::P65(k) => k.sign_internal(&mp, &rnd).encode().to_vec(),
                    RcSigner::P87(k) => k.sign_internal(&mp, &rnd).encode().to_vec(),
                })
            }
        }
    }
}

/// An ML-DSA public key, parsed for each backend on first use.
pub(crate) struct MlDsaPublic {
    alg: PqAlgorithm,
    bytes: Vec<u8>,
    aws: OnceLock<Result<ParsedPublicKey, CryptoError>>,
    rc: OnceLock<RcVerifier>,
}

enum RcVerifier {
    P44(Box<ml_dsa::VerifyingKey<MlDsa44>>),
    P65(Box<ml_dsa::VerifyingKey<MlDsa65>>),
    P87(Box<ml_dsa::VerifyingKey<MlDsa87>>),
}

fn rc_verify<P: MlDsaParams>(key: &ml_dsa::VerifyingKey<P>, msg: &[u8], sig: &[u8]) -> bool {
    match ml_dsa::Signature::<P>::try_from(sig) {
        Ok(s) => key.verify_with_context(msg, &[], &s),
        Err(_) => false,
    }
}

impl MlDsaPublic {
    pub(crate) fn from_bytes(alg: PqAlgorithm, bytes: &[u8]) -> Result<MlDsaPublic, CryptoError> {
        if bytes.len() != alg.public_key_len() {
            return Err(CryptoError::InvalidLength {
                what: "ML-DSA public key",
                expected: alg.public_key_len(),
                got: bytes.len(),
            });
        }
        Ok(MlDsaPublic {
            alg,
            bytes: bytes.to_vec(),
            aws: OnceLock::new(),
            rc: OnceLock::new(),
        })
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// ML-DSA.Verify (FIPS 204 Algorithm 3) with an empty context.
    pub(crate) fn verify(&self, backend: MlDsaBackend, msg: &[u8], sig: &[u8]) -> Result<bool, CryptoError> {
        if sig.len() != self.alg.signature_len() {
            return Ok(false);
        }
        match backend {
            MlDsaBackend::AwsLc => {
                let key = self
                    .aws
                    .get_or_init(|| {
                        ParsedPublicKey::new(aws_verification(self.alg), &self.bytes)
                            .map_err(|e| CryptoError::InvalidPublicKey(format!("{}: {e}", self.alg.name())))
                    })
                    .as_ref()
                    .map_err(Clone::clone)?;
                Ok(key.verify_sig(msg, sig).is_ok())
            }
            MlDsaBackend::RustCrypto => {
                let key = self.rc.get_or_init(|| {
                    let b = &self.bytes[..];
                    match self.alg {
                        PqAlgorithm::MlDsa44 => RcVerifier::P44(Box::new(ml_dsa::VerifyingKey::decode(
                            b.try_into().expect("length checked"),
                        ))),
                        PqAlgorithm::MlDsa65 => RcVerifier::P65(Box::new(ml_dsa::VerifyingKey::decode(
                            b.try_into().expect("length checked"),
                        ))),
                        _ => RcVerifier::P87(Box::new(ml_dsa::VerifyingKey::decode(
                            b.try_into().expect("length checked"),
                        ))),
                    }
                });
                Ok(match key {
                    RcVerifier::P44(k) => rc_verify(k, msg, sig),
                    RcVerifier::P65(k) => rc_verify(k, msg, sig),
                    RcVerifier::P87(k) => rc_verify(k, msg, sig),
                })
            }
        }
    }
}

/// The public key RustCrypto derives from `seed` (for cross-checking the backends).
pub(crate) fn rustcrypto_public_from_seed(alg: PqAlgorithm, seed: &[u8; 32]) -> Vec<u8> {
    match rc_from_seed(alg, seed) {
        RcSigner::P44(k) => k.verifying_key().encode().to_vec(),
        RcSigner::P65(k) => k.verifying_key().encode().to_vec(),
        RcSigner::P87(k) => k.verifying_key().encode().to_vec(),
    }
}
