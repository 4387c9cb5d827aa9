//! Randomness for protocol choices (key indices, pseudonyms, nonces): OpenSSL's DRBG
//! seeds a ChaCha20 generator per station, or a configured seed does (tests and
//! reproducible simulations only — a fixed seed makes choices predictable).

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// A generator for station `salt`: seeded from `seed` when given, else from the DRBG.
pub fn station_rng(seed: Option<u64>, salt: u64) -> ChaCha20Rng {
    match seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        None => {
            let mut k = [0u8; 32];
            k.copy_from_slice(&v2x_crypto::random_bytes(32));
            ChaCha20Rng::from_seed(k)
        }
    }
}
