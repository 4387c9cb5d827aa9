//! One signing / verification interface over every [`SignatureScheme`]: ECDSA (through the
//! crate's curve backends), ML-DSA, FN-DSA, SLH-DSA and the experimental composites.
//!
//! Messages are signed as given: ECDSA hashes them with its curve's hash, the post-quantum
//! algorithms sign them whole (pure mode, empty context). Encodings: ECDSA public keys as
//! compressed points and signatures as r ‖ s (x-only r); post-quantum keys and signatures as
//! their standards define; composites as the ECDSA part followed by the post-quantum part.

use super::composite;
use super::fn_dsa::{FnDsaPrivate, FnDsaPublic};
use super::ml_dsa::{MlDsaBackend, MlDsaPrivate, MlDsaPublic};
use super::slh_dsa::{SlhPrivate, SlhPublic};
use super::{PqAlgorithm, SignatureScheme};
use crate::{CryptoError, Curve, PrivateKey, PublicKey, RPoint, Signature};
use std::sync::Arc;

enum PqPrivate {
    MlDsa(MlDsaPrivate),
    FnDsa(FnDsaPrivate),
    Slh(SlhPrivate),
}

enum PqPublic {
    MlDsa(MlDsaPublic),
    FnDsa(FnDsaPublic),
    Slh(SlhPublic),
}

enum Private {
    Ecdsa(PrivateKey),
    Pq(PqPrivate),
    Composite(PrivateKey, PqPrivate),
}

enum Public {
    Ecdsa(PublicKey),
    Pq(PqPublic),
    Composite(PublicKey, PqPublic),
}

/// A private key of any scheme. Cloning is cheap (shared).
#[derive(Clone)]
pub struct SigningKey {
    scheme: SignatureScheme,
    inner: Arc<Private>,
    public: VerifyingKey,
}

/// A public key of any scheme, parsed once. Cloning is cheap (shared).
#[derive(Clone)]
pub struct VerifyingKey {
    scheme: SignatureScheme,
    inner: Arc<Public>,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SigningKey({})", self.scheme)
    }
}

impl std::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VerifyingKey({}, {} bytes)", self.scheme, self.to_bytes().len())
    }
}

impl PartialEq for VerifyingKey {
    fn eq(&self, other: &Self) -> bool {
        self.scheme == other.scheme && self.to_bytes() == other.to_bytes()
    }
}
impl Eq for VerifyingKey {}

fn unsupported_composite(alg: PqAlgorithm) -> CryptoError {
    CryptoError::Unsupported(format!(
        "composite ECDSA P-256 + {}: offered composites are {}",
        alg.name(),
        SignatureScheme::COMPOSITE_PQ
            .map(|a| SignatureScheme::Composite(a).name())
            .join(", ")
    ))
}

fn check_scheme(scheme: SignatureScheme) -> Result<(), CryptoError> {
    match scheme {
        SignatureScheme::Composite(a) if !SignatureScheme::COMPOSITE_PQ.contains(&a) => Err(unsupported_composite(a)),
        _ => Ok(()),
    }
}

fn pq_generate(alg: PqAlgorithm) -> Result<PqPrivate, CryptoError> {
    Ok(match alg {
        PqAlgorithm::MlDsa44 | PqAlgorithm::MlDsa65 | PqAlgorithm::MlDsa87 => {
            PqPrivate::MlDsa(MlDsaPrivate::from_seed(alg, &crate::random_bytes(32))?)
        }
        PqAlgorithm::FnDsa512 | PqAlgorithm::FnDsa1024 => PqPrivate::FnDsa(FnDsaPrivate::generate(alg)?),
        PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f => {
            PqPrivate::Slh(SlhPrivate::from_seed(alg, &crate::random_bytes(48))?)
        }
    })
}

/// Deterministic key generation from a seed: ML-DSA ξ (32 bytes), SLH-DSA skSeed ‖ skPrf ‖
/// pkSeed (48 bytes), FN-DSA the 32 bytes fn-dsa's key generation draws.
fn pq_from_seed(alg: PqAlgorithm, seed: &[u8]) -> Result<PqPrivate, CryptoError> {
    Ok(match alg {
        PqAlgorithm::MlDsa44 | PqAlgorithm::MlDsa65 | PqAlgorithm::MlDsa87 => {
            PqPrivate::MlDsa(MlDsaPrivate::from_seed(alg, seed)?)
        }
        PqAlgorithm::FnDsa512 | PqAlgorithm::FnDsa1024 => {
            if seed.len() != 32 {
                return Err(CryptoError::InvalidLength {
                    what: "FN-DSA key-generation seed",
                    expected: 32,
                    got: seed.len(),
                });
            }
            let (sk, _) = super::fn_dsa::keygen_with(alg, &mut super::fn_dsa::FixedRng::new(seed));
            PqPrivate::FnDsa(FnDsaPrivate::from_encoded(alg, &sk)?)
        }
        PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f => {
            PqPrivate::Slh(SlhPrivate::from_seed(alg, seed)?)
        }
    })
}

fn pq_from_encoded(alg: PqAlgorithm, bytes: &[u8]) -> Result<PqPrivate, CryptoError> {
    Ok(match alg {
        PqAlgorithm::MlDsa44 | PqAlgorithm::MlDsa65 | PqAlgorithm::MlDsa87 => {
            PqPrivate::MlDsa(MlDsaPrivate::from_seed(alg, bytes)?)
        }
        PqAlgorithm::FnDsa512 | PqAlgorithm::FnDsa1024 => PqPrivate::FnDsa(FnDsaPrivate::from_encoded(alg, bytes)?),
        PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f => {
            PqPrivate::Slh(SlhPrivate::from_encoded(alg, bytes)?)
        }
    })
}

impl PqPrivate {
    fn encoded(&self) -> Vec<u8> {
        match self {
            PqPrivate::MlDsa(k) => k.seed().to_vec(),
            PqPrivate::FnDsa(k) => k.encoded().to_vec(),
            PqPrivate::Slh(k) => k.encoded(),
        }
    }

    fn public(&self, alg: PqAlgorithm) -> Result<PqPublic, CryptoError> {
        Ok(match self {
            PqPrivate::MlDsa(k) => PqPublic::MlDsa(MlDsaPublic::from_bytes(alg, k.public())?),
            PqPrivate::FnDsa(k) => PqPublic::FnDsa(FnDsaPublic::from_bytes(alg, k.public())?),
            PqPrivate::Slh(k) => PqPublic::Slh(SlhPublic::from_bytes(alg, &k.public())?),
        })
    }

    fn sign(&self, backend: MlDsaBackend, msg: &[u8]) -> Result<Vec<u8>, CryptoError> {
        match self {
            PqPrivate::MlDsa(k) => k.sign(backend, msg),
            PqPrivate::FnDsa(k) => k.sign(msg),
            PqPrivate::Slh(k) => k.sign(msg),
        }
    }
}

fn pq_public_from_bytes(alg: PqAlgorithm, bytes: &[u8]) -> Result<PqPublic, CryptoError> {
    Ok(match alg {
        PqAlgorithm::MlDsa44 | PqAlgorithm::MlDsa65 | PqAlgorithm::MlDsa87 => {
            PqPublic::MlDsa(MlDsaPublic::from_bytes(alg, bytes)?)
        }
        PqAlgorithm::FnDsa512 | PqAlgorithm::FnDsa1024 => PqPublic::FnDsa(FnDsaPublic::from_bytes(alg, bytes)?),
        PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f => {
            PqPublic::Slh(SlhPublic::from_bytes(alg, bytes)?)
        }
    })
}

impl PqPublic {
    fn bytes(&self) -> Vec<u8> {
        match self {
            PqPublic::MlDsa(k) => k.bytes().to_vec(),
            PqPublic::FnDsa(k) => k.bytes().to_vec(),
            PqPublic::Slh(k) => k.bytes(),
        }
    }

    fn verify(&self, backend: MlDsaBackend, msg: &[u8], sig: &[u8]) -> Result<bool, CryptoError> {
        Ok(match self {
            PqPublic::MlDsa(k) => k.verify(backend, msg, sig)?,
            PqPublic::FnDsa(k) => k.verify(msg, sig),
            PqPublic::Slh(k) => k.verify(msg, sig),
        })
    }
}

fn ecdsa_sign(key: &PrivateKey, msg: &[u8]) -> Result<Vec<u8>, CryptoError> {
    let sig = key.sign_message(msg)?;
    let mut out = sig.x_only_r();
    out.extend_from_slice(&sig.s);
    Ok(out)
}

fn ecdsa_verify(key: &PublicKey, msg: &[u8], sig: &[u8]) -> Result<bool, CryptoError> {
    let n = key.curve().field_len();
    if sig.len() != 2 * n {
        return Ok(false);
    }
    let (r, s) = sig.split_at(n);
    let sig = Signature::new(key.curve(), RPoint::XOnly(r.to_vec()), s.to_vec())?;
    key.verify_message(msg, &sig)
}

impl SigningKey {
    /// A fresh key pair (OpenSSL's DRBG for every random input).
    pub fn generate(scheme: SignatureScheme) -> Result<SigningKey, CryptoError> {
        check_scheme(scheme)?;
        let inner = match scheme {
            SignatureScheme::Ecdsa(c) => Private::Ecdsa(PrivateKey::generate(c)?),
            SignatureScheme::Pq(a) => Private::Pq(pq_generate(a)?),
            SignatureScheme::Composite(a) => {
                Private::Composite(PrivateKey::generate(Curve::NistP256)?, pq_generate(a)?)
            }
        };
        Self::from_inner(scheme, inner)
    }

    /// A post-quantum key derived from a seed (see `pq_from_seed` for each algorithm's seed);
    /// the form of the known-answer tests.
    pub fn from_seed(alg: PqAlgorithm, seed: &[u8]) -> Result<SigningKey, CryptoError> {
        Self::from_inner(SignatureScheme::Pq(alg), Private::Pq(pq_from_seed(alg, seed)?))
    }

    /// Parses [`SigningKey::to_bytes`].
    pub fn from_bytes(scheme: SignatureScheme, bytes: &[u8]) -> Result<SigningKey, CryptoError> {
        check_scheme(scheme)?;
        let inner = match scheme {
            SignatureScheme::Ecdsa(c) => Private::Ecdsa(PrivateKey::from_scalar(c, bytes)?),
            SignatureScheme::Pq(a) => Private::Pq(pq_from_encoded(a, bytes)?),
            SignatureScheme::Composite(a) => {
                if bytes.len() < 32 {
                    return Err(CryptoError::InvalidPrivateKey(
                        "composite key shorter than its ECDSA scalar".into(),
                    ));
                }
                let (d, pq) = bytes.split_at(32);
                Private::Composite(PrivateKey::from_scalar(Curve::NistP256, d)?, pq_from_encoded(a, pq)?)
            }
        };
        Self::from_inner(scheme, inner)
    }

    fn from_inner(scheme: SignatureScheme, inner: Private) -> Result<SigningKey, CryptoError> {
        let public = match (&inner, scheme) {
            (Private::Ecdsa(k), _) => Public::Ecdsa(k.public_key().clone()),
            (Private::Pq(k), SignatureScheme::Pq(a)) => Public::Pq(k.public(a)?),
            (Private::Composite(e, k), SignatureScheme::Composite(a)) => {
                Public::Composite(e.public_key().clone(), k.public(a)?)
            }
            _ => unreachable!("key built for its own scheme"),
        };
        Ok(SigningKey {
            scheme,
            inner: Arc::new(inner),
            public: VerifyingKey {
                scheme,
                inner: Arc::new(public),
            },
        })
    }

    pub fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.public
    }

    /// The private key's encoding (ECDSA scalar; ML-DSA seed; FN-DSA and SLH-DSA signing key;
    /// composite: the P-256 scalar then the post-quantum key). Secret: store with care.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &*self.inner {
            Private::Ecdsa(k) => k.scalar(),
            Private::Pq(k) => k.encoded(),
            Private::Composite(e, k) => {
                let mut out = e.scalar();
                out.extend(k.encoded());
                out
            }
        }
    }

    /// Signs `msg` with the fastest backend of each algorithm.
    pub fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, CryptoError> {
        self.sign_with(MlDsaBackend::fastest(), msg)
    }

    /// Signs with the ML-DSA backend named (other algorithms have one backend each).
    pub fn sign_with(&self, backend: MlDsaBackend, msg: &[u8]) -> Result<Vec<u8>, CryptoError> {
        match &*self.inner {
            Private::Ecdsa(k) => ecdsa_sign(k, msg),
            Private::Pq(k) => k.sign(backend, msg),
            Private::Composite(e, k) => {
                let m = composite::message(self.scheme, msg);
                let mut out = ecdsa_sign(e, &m)?;
                out.extend(k.sign(backend, &m)?);
                Ok(out)
            }
        }
    }
}

/// What each part of a composite signature said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComponentVerdicts {
    pub classical: bool,
    pub post_quantum: bool,
}

impl VerifyingKey {
    /// Parses a public key of `scheme` (lengths and, for ECDSA and FN-DSA, validity checked).
    pub fn from_bytes(scheme: SignatureScheme, bytes: &[u8]) -> Result<VerifyingKey, CryptoError> {
        check_scheme(scheme)?;
        let inner = match scheme {
            SignatureScheme::Ecdsa(c) => Public::Ecdsa(PublicKey::from_sec1(c, bytes)?),
            SignatureScheme::Pq(a) => Public::Pq(pq_public_from_bytes(a, bytes)?),
            SignatureScheme::Composite(a) => {
                if bytes.len() != scheme.public_key_len() {
                    return Err(CryptoError::InvalidLength {
                        what: "composite public key",
                        expected: scheme.public_key_len(),
                        got: bytes.len(),
                    });
                }
                let (e, pq) = bytes.split_at(33);
                Public::Composite(PublicKey::from_sec1(Curve::NistP256, e)?, pq_public_from_bytes(a, pq)?)
            }
        };
        Ok(VerifyingKey {
            scheme,
            inner: Arc::new(inner),
        })
    }

    pub fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    /// The encoding [`VerifyingKey::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &*self.inner {
            Public::Ecdsa(k) => k.to_sec1(true),
            Public::Pq(k) => k.bytes(),
            Public::Composite(e, k) => {
                let mut out = e.to_sec1(true);
                out.extend(k.bytes());
                out
            }
        }
    }

    /// Verifies `sig` over `msg` (a composite only when both parts verify).
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<bool, CryptoError> {
        self.verify_with(MlDsaBackend::fastest(), msg, sig)
    }

    /// [`VerifyingKey::verify`] with the ML-DSA backend named.
    pub fn verify_with(&self, backend: MlDsaBackend, msg: &[u8], sig: &[u8]) -> Result<bool, CryptoError> {
        match &*self.inner {
            Public::Ecdsa(k) => ecdsa_verify(k, msg, sig),
            Public::Pq(k) => k.verify(backend, msg, sig),
            Public::Composite(..) => {
                let v = self.verify_components_with(backend, msg, sig)?;
                Ok(v.classical && v.post_quantum)
            }
        }
    }

    /// Both parts of a composite signature checked separately (each on the composite's
    /// domain-separated message), for rejection reasons that name the part that failed.
    pub fn verify_components(&self, msg: &[u8], sig: &[u8]) -> Result<ComponentVerdicts, CryptoError> {
        self.verify_components_with(MlDsaBackend::fastest(), msg, sig)
    }

    fn verify_components_with(
        &self,
        backend: MlDsaBackend,
        msg: &[u8],
        sig: &[u8],
    ) -> Result<ComponentVerdicts, CryptoError> {
        let Public::Composite(e, k) = &*self.inner else {
            return Err(CryptoError::Unsupported(format!("{} is not a composite", self.scheme)));
        };
        if sig.len() != self.scheme.signature_len() {
            return Ok(ComponentVerdicts {
                classical: false,
                post_quantum: false,
            });
        }
        let m = composite::message(self.scheme, msg);
        let (es, ps) = sig.split_at(64);
        Ok(ComponentVerdicts {
            classical: ecdsa_verify(e, &m, es)?,
            post_quantum: k.verify(backend, &m, ps)?,
        })
    }
}
