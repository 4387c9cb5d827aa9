//! Cryptographic backend of v2xsec.
//!
//! Elliptic-curve operations (ECDSA, ECDH) go through a [`backend`]: aws-lc, OpenSSL,
//! RustCrypto or our own verification arithmetic, the fastest per curve and operation
//! unless one is chosen by name. Repeat-signer verification tables ([`SignerTable`],
//! [`SignerCache`], opt-in: see the patent note in the crate README) and batch
//! verification of compressed-R signatures ([`batch_verify`]) run on our own
//! variable-time arithmetic, which never sees a private key. Hashing and MAC use
//! RustCrypto (`sha2`, `sha1`, `hmac`); AES-CCM uses RustCrypto `ccm` over `aes`. Post-quantum
//! signatures (ML-DSA, FN-DSA, SLH-DSA, composites) and the one signing interface over every
//! scheme, ECDSA included, are in [`pq`].
//!
//! Everything here works on bytes and typed keys; no encoding or policy lives here.

mod aead;
mod batch;
mod compare;
mod curve;
mod ecdsa;
mod ecies;
mod error;
mod hash;
pub mod pq;

pub use aead::{
    aes128_ccm_decrypt, aes128_ccm_encrypt, aes256_ccm_decrypt, aes256_ccm_encrypt, CCM_NONCE_LEN, CCM_TAG_LEN,
};
pub use batch::{batch_verify, BatchItem};
pub use compare::ct_eq;
pub use curve::{Curve, HashAlg};
pub use ecdsa::backend;
pub use ecdsa::backend::{BackendId, CryptoOp};
pub use ecdsa::precomp::{CacheConfig, CacheStats, SignerCache, SignerTable, VerifyStrategy, DEFAULT_WINDOW};
pub use ecdsa::{ecdh_x, random_bytes, EccPoint, PrivateKey, PublicKey, RPoint, Signature};
pub use ecies::{ecies_unwrap, ecies_wrap, ecies_wrap_with_ephemeral, kdf2_sha256, EciesWrapped};
pub use error::CryptoError;
pub use hash::{hash, hashed_id3, hashed_id8, hmac_sha1, hmac_sha256, sha256, sha384, Digest, HashedId3, HashedId8};
