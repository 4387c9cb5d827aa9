//! AES-CCM with a 12-byte nonce and a 16-byte tag, as 1609.2 and TS 103 097 use it.

use crate::CryptoError;
use aes::{Aes128, Aes256};
use ccm::aead::{Aead, KeyInit};
use ccm::consts::{U12, U16};
use ccm::Ccm;

pub const CCM_NONCE_LEN: usize = 12;
pub const CCM_TAG_LEN: usize = 16;

type Aes128Ccm = Ccm<Aes128, U16, U12>;
type Aes256Ccm = Ccm<Aes256, U16, U12>;

fn check_nonce(nonce: &[u8]) -> Result<(), CryptoError> {
    if nonce.len() != CCM_NONCE_LEN {
        return Err(CryptoError::InvalidLength {
            what: "CCM nonce",
            expected: CCM_NONCE_LEN,
            got: nonce.len(),
        });
    }
    Ok(())
}

/// Returns ciphertext || tag.
pub fn aes128_ccm_encrypt(key: &[u8; 16], nonce: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, CryptoError> {
    check_nonce(nonce)?;
    Aes128Ccm::new(key.into())
        .encrypt(nonce.into(), plaintext)
        .map_err(|_| CryptoError::Backend("AES-CCM encryption failed".into()))
}

/// Takes ciphertext || tag; fails with `TagMismatch` when authentication fails.
pub fn aes128_ccm_decrypt(key: &[u8; 16], nonce: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, CryptoError> {
    check_nonce(nonce)?;
    if ciphertext.len() < CCM_TAG_LEN {
        return Err(CryptoError::InvalidLength {
            what: "CCM ciphertext",
            expected: CCM_TAG_LEN,
            got: ciphertext.len(),
        });
    }
    Aes128Ccm::new(key.into())
        .decrypt(nonce.into(), ciphertext)
        .map_err(|_| CryptoError::TagMismatch)
}

pub fn aes256_ccm_encrypt(key: &[u8; 32], nonce: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, CryptoError> {
    check_nonce(nonce)?;
    Aes256Ccm::new(key.into())
        .encrypt(nonce.into(), plaintext)
        .map_err(|_| CryptoError::Backend("AES-CCM encryption failed".into()))
}

pub fn aes256_ccm_decrypt(key: &[u8; 32], nonce: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, CryptoError> {
    check_nonce(nonce)?;
    if ciphertext.len() < CCM_TAG_LEN {
        return Err(CryptoError::InvalidLength {
            what: "CCM ciphertext",
            expected: CCM_TAG_LEN,
            got: ciphertext.len(),
        });
    }
    Aes256Ccm::new(key.into())
        .decrypt(nonce.into(), ciphertext)
        .map_err(|_| CryptoError::TagMismatch)
}
