//! FN-DSA (Falcon) through Thomas Pornin's `fn-dsa` 0.4: "raw" messages (no pre-hash) and an
//! empty domain context. FIPS 206 is not published; fn-dsa 0.4 follows its author's reading of
//! the coming draft and may change encodings before 1.0 (crates/v2x-crypto/README.md).

use super::PqAlgorithm;
use crate::CryptoError;
use fn_dsa::{
    sign_key_size, signature_size, vrfy_key_size, CryptoRng, DomainContext, HashIdentifier, KeyPairGenerator,
    KeyPairGenerator1024, KeyPairGenerator512, RngCore, RngError, SigningKey, SigningKey1024, SigningKey512,
    VerifyingKey, VerifyingKey1024, VerifyingKey512, DOMAIN_NONE, HASH_ID_RAW,
};
use std::sync::Mutex;

pub(crate) const fn logn(alg: PqAlgorithm) -> u32 {
    match alg {
        PqAlgorithm::FnDsa1024 => fn_dsa::FN_DSA_LOGN_1024,
        _ => fn_dsa::FN_DSA_LOGN_512,
    }
}

/// OpenSSL's DRBG as fn-dsa's random source (keys and the signing nonce).
struct OsslRng;

impl CryptoRng for OsslRng {}
impl RngCore for OsslRng {
    fn next_u32(&mut self) -> u32 {
        u32::from_le_bytes(crate::random_bytes(4).try_into().expect("4 bytes"))
    }
    fn next_u64(&mut self) -> u64 {
        u64::from_le_bytes(crate::random_bytes(8).try_into().expect("8 bytes"))
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.copy_from_slice(&crate::random_bytes(dest.len()));
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// Replays fixed bytes (the known-answer seeds) and fails closed past their end.
pub(crate) struct FixedRng<'a> {
    bytes: &'a [u8],
}

impl<'a> FixedRng<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        FixedRng { bytes }
    }
}

impl CryptoRng for FixedRng<'_> {}
impl RngCore for FixedRng<'_> {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let (now, rest) = self.bytes.split_at(dest.len());
        dest.copy_from_slice(now);
        self.bytes = rest;
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// Key generation with a given random source; returns (signing key, verifying key).
pub(crate) fn keygen_with<R: CryptoRng + RngCore>(alg: PqAlgorithm, rng: &mut R) -> (Vec<u8>, Vec<u8>) {
    let logn = logn(alg);
    let mut sk = vec![0u8; sign_key_size(logn)];
    let mut vk = vec![0u8; vrfy_key_size(logn)];
    // The generators and keys hold their work areas inline (up to ~110 KB for degree 1024):
    // each lives in a box so that small thread stacks (tests, simulator workers) suffice.
    match alg {
        PqAlgorithm::FnDsa1024 => Box::<KeyPairGenerator1024>::default().keygen(logn, rng, &mut sk, &mut vk),
        _ => Box::<KeyPairGenerator512>::default().keygen(logn, rng, &mut sk, &mut vk),
    }
    (sk, vk)
}

/// A decoded signing key of either degree, on the heap.
enum Signer {
    L9(Box<SigningKey512>),
    L10(Box<SigningKey1024>),
}

#[inline(never)]
fn boxed<T>(v: Option<T>) -> Option<Box<T>> {
    v.map(Box::new)
}

/// A decoded verifying key of either degree, on the heap.
enum Verifier {
    L9(Box<VerifyingKey512>),
    L10(Box<VerifyingKey1024>),
}

/// An FN-DSA signing key: its encoding and the decoded key (reused across signatures, which
/// fn-dsa makes cheaper than the first).
pub(crate) struct FnDsaPrivate {
    encoded: Vec<u8>,
    public: Vec<u8>,
    key: Mutex<Signer>,
}

impl FnDsaPrivate {
    pub(crate) fn generate(alg: PqAlgorithm) -> Result<FnDsaPrivate, CryptoError> {
        let (sk, _) = keygen_with(alg, &mut OsslRng);
        FnDsaPrivate::from_encoded(alg, &sk)
    }

    pub(crate) fn from_encoded(alg: PqAlgorithm, sk: &[u8]) -> Result<FnDsaPrivate, CryptoError> {
        let logn = logn(alg);
        if sk.len() != sign_key_size(logn) {
            return Err(CryptoError::InvalidLength {
                what: "FN-DSA signing key",
                expected: sign_key_size(logn),
                got: sk.len(),
            });
        }
        let bad = || CryptoError::InvalidPrivateKey(format!("{}: signing key does not decode", alg.name()));
        let mut public = vec![0u8; vrfy_key_size(logn)];
        let key = match alg {
            PqAlgorithm::FnDsa1024 => {
                let k = boxed(SigningKey1024::decode(sk))
                    .filter(|k| k.get_logn() == logn)
                    .ok_or_else(bad)?;
                k.to_verifying_key(&mut public);
                Signer::L10(k)
            }
            _ => {
                let k = boxed(SigningKey512::decode(sk))
                    .filter(|k| k.get_logn() == logn)
                    .ok_or_else(bad)?;
                k.to_verifying_key(&mut public);
                Signer::L9(k)
            }
        };
        Ok(FnDsaPrivate {
            encoded: sk.to_vec(),
            public,
            key: Mutex::new(key),
        })
    }

    pub(crate) fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    pub(crate) fn public(&self) -> &[u8] {
        &self.public
    }

    pub(crate) fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, CryptoError> {
        self.sign_with(&mut OsslRng, &DOMAIN_NONE, &HASH_ID_RAW, msg)
    }

    pub(crate) fn sign_with<R: CryptoRng + RngCore>(
        &self,
        rng: &mut R,
        ctx: &DomainContext,
        id: &HashIdentifier,
        msg: &[u8],
    ) -> Result<Vec<u8>, CryptoError> {
        let mut key = self.key.lock().unwrap_or_else(|e| e.into_inner());
        let done = match &mut *key {
            Signer::L9(k) => {
                let mut sig = vec![0u8; signature_size(k.get_logn())];
                k.sign(rng, ctx, id, msg, &mut sig).map(|()| sig)
            }
            Signer::L10(k) => {
                let mut sig = vec![0u8; signature_size(k.get_logn())];
                k.sign(rng, ctx, id, msg, &mut sig).map(|()| sig)
            }
        };
        done.ok_or_else(|| CryptoError::Backend("fn-dsa sign failed".into()))
    }
}

/// An FN-DSA verifying key, decoded once.
pub(crate) struct FnDsaPublic {
    bytes: Vec<u8>,
    key: Verifier,
}

impl FnDsaPublic {
    pub(crate) fn from_bytes(alg: PqAlgorithm, bytes: &[u8]) -> Result<FnDsaPublic, CryptoError> {
        let logn = logn(alg);
        if bytes.len() != vrfy_key_size(logn) {
            return Err(CryptoError::InvalidLength {
                what: "FN-DSA verifying key",
                expected: vrfy_key_size(logn),
                got: bytes.len(),
            });
        }
        let bad = || CryptoError::InvalidPublicKey(format!("{}: verifying key does not decode", alg.name()));
        let key = match alg {
            PqAlgorithm::FnDsa1024 => Verifier::L10(boxed(VerifyingKey1024::decode(bytes)).ok_or_else(bad)?),
            _ => Verifier::L9(boxed(VerifyingKey512::decode(bytes)).ok_or_else(bad)?),
        };
        Ok(FnDsaPublic {
            bytes: bytes.to_vec(),
            key,
        })
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub(crate) fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        self.verify_with(&DOMAIN_NONE, &HASH_ID_RAW, msg, sig)
    }

    pub(crate) fn verify_with(&self, ctx: &DomainContext, id: &HashIdentifier, msg: &[u8], sig: &[u8]) -> bool {
        match &self.key {
            Verifier::L9(k) => k.verify(sig, ctx, id, msg),
            Verifier::L10(k) => k.verify(sig, ctx, id, msg),
        }
    }
}
