//! The message-signature check of SN-DECAP under the receiver's verification strategy:
//! plain (the fastest backend for the curve) or, opt-in, per-signer precomputed tables
//! keyed by the signer certificate's HashedId8 (see `v2x_crypto::SignerCache` and the
//! patent note in docs/verification-strategies.md).

use crate::certificate::Certificate;
use v2x_crypto::{CacheStats, CryptoError, HashedId8, Signature, SignerCache, VerifyStrategy};

/// The verifier one security entity uses for message signatures.
pub struct SignatureVerifier {
    strategy: VerifyStrategy,
    cache: Option<SignerCache<HashedId8>>,
}

impl Default for SignatureVerifier {
    fn default() -> Self {
        SignatureVerifier::new(VerifyStrategy::Plain)
    }
}

impl SignatureVerifier {
    pub fn new(strategy: VerifyStrategy) -> SignatureVerifier {
        let cache = match strategy {
            VerifyStrategy::Plain => None,
            VerifyStrategy::Precomputed(config) => Some(SignerCache::new(config)),
        };
        SignatureVerifier { strategy, cache }
    }

    pub fn strategy(&self) -> &VerifyStrategy {
        &self.strategy
    }

    /// The repeat-signer cache's counters (None under the plain strategy).
    pub fn cache_stats(&self) -> Option<CacheStats> {
        self.cache.as_ref().map(SignerCache::stats)
    }

    /// Whether `sig` over `digest` verifies with `signer`'s verification key.
    pub fn verify(&mut self, signer: &Certificate, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        let key = signer.verification_key();
        match &mut self.cache {
            Some(cache) => cache.verify_digest(&signer.hashed_id8(), key, digest, sig),
            None => key.verify_digest(digest, sig),
        }
    }
}
