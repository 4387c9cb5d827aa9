//! 1609.2 EncryptedData (§5.3.5, §6.3.30-6.3.38): AES-128-CCM content encryption with
//! the data-encryption key given to each recipient either ECIES-wrapped to a
//! certificate's encryption key (`certRecipInfo`, P1 = SHA-256 of the recipient
//! certificate) or AES-CCM-wrapped under a symmetric key established earlier
//! (`symmRecipInfo`, recipient id = HashedId8 of the key's SymmetricEncryptionKey
//! encoding). A data-encryption key that arrived with `certRecipInfo` becomes an
//! established key on both sides, so replies can use `symmRecipInfo`.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::CertRef;
use crate::convert::{self, ConvertError};
use crate::reason::{RejectReason, Rejection};
use rasn::types::{FixedOctetString, OctetString};
use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use std::collections::HashMap;
use v2x_crypto::{
    aes128_ccm_decrypt, aes128_ccm_encrypt, ecies_unwrap, ecies_wrap, random_bytes, sha256, CryptoError, Curve,
    EciesWrapped, HashedId8, PrivateKey,
};
use v2x_wire::ieee1609dot2::{assemble, WireError};

/// An AES-128 key.
pub type SymmetricKey = [u8; 16];

/// To whom a message is encrypted.
#[derive(Debug, Clone)]
pub enum Recipient {
    /// ECIES to the certificate's encryption key.
    Certificate(CertRef),
    /// A symmetric key established earlier, by its HashedId8.
    Symmetric(HashedId8),
}

/// HashedId8 of a symmetric key: SHA-256 over COER(SymmetricEncryptionKey::aes128Ccm).
pub fn symmetric_key_id(key: &SymmetricKey) -> HashedId8 {
    v2x_crypto::hashed_id8(v2x_crypto::HashAlg::Sha256, &assemble::aes128_ccm_key(key))
}

/// Why SN-ENCAP could not encrypt.
#[derive(Debug, thiserror::Error)]
pub enum EncryptError {
    #[error("the recipient certificate {0} has no encryption key")]
    NoEncryptionKey(HashedId8),
    #[error("1609.2 ECIES is not defined on {0}")]
    EciesCurve(Curve),
    #[error("no established symmetric key {0}")]
    UnknownSymmetricKey(HashedId8),
    #[error("{0}")]
    Convert(#[from] ConvertError),
    #[error("encryption")]
    Crypto(#[from] CryptoError),
    #[error("encoding")]
    Encode(#[from] WireError),
}

/// A decrypted message: the plaintext and the data key it was encrypted with (record it
/// with [`symmetric_key_id`] once the inner message is accepted).
#[derive(Debug, Clone)]
pub struct Decrypted {
    pub plaintext: Vec<u8>,
    pub key_id: HashedId8,
    pub key: SymmetricKey,
}

/// A private decryption key with the certificate it belongs to.
#[derive(Debug, Clone)]
pub struct DecryptionKey {
    pub certificate: CertRef,
    pub key: PrivateKey,
}

fn nonce() -> FixedOctetString<12> {
    let mut n = [0u8; 12];
    n.copy_from_slice(&random_bytes(12));
    FixedOctetString::from(n)
}

fn ccm(key: &SymmetricKey, plaintext: &[u8]) -> Result<w::One28BitCcmCiphertext, CryptoError> {
    let nonce = nonce();
    let ct = aes128_ccm_encrypt(key, &nonce[..], plaintext)?;
    Ok(w::One28BitCcmCiphertext {
        nonce,
        ccm_ciphertext: bt::Opaque(OctetString::from(ct)),
    })
}

/// Encrypts `plaintext` (an encoded Ieee1609Dot2Data) for `recipient`. Returns the
/// encoded `Ieee1609Dot2Data` with `encryptedData` and the data key's id (the data key
/// is stored in `keys` as an established symmetric key).
pub fn encrypt(
    plaintext: &[u8],
    recipient: &Recipient,
    keys: &mut HashMap<HashedId8, SymmetricKey>,
) -> Result<(Vec<u8>, HashedId8), EncryptError> {
    let mut dek = [0u8; 16];
    dek.copy_from_slice(&random_bytes(16));
    let info = match recipient {
        Recipient::Certificate(cert) => {
            let pk = cert
                .encryption_key()
                .ok_or(EncryptError::NoEncryptionKey(cert.hashed_id8()))?;
            let p1 = sha256(cert.encoded());
            let wrapped = ecies_wrap(pk, &dek, &p1)?;
            let v = convert::ecies_point_to_wire(&wrapped.ephemeral)?;
            let ek = bt::EciesP256EncryptedKey {
                v,
                c: FixedOctetString::from(wrapped.c),
                t: FixedOctetString::from(wrapped.t),
            };
            let enc_key = match pk.curve() {
                v2x_crypto::Curve::NistP256 => w::EncryptedDataEncryptionKey::EciesNistP256(ek),
                v2x_crypto::Curve::BrainpoolP256r1 => w::EncryptedDataEncryptionKey::EciesBrainpoolP256r1(ek),
                c => return Err(EncryptError::EciesCurve(c)),
            };
            w::RecipientInfo::CertRecipInfo(w::PKRecipientInfo {
                recipient_id: convert::hashed_id8_to_wire(cert.hashed_id8()),
                enc_key,
            })
        }
        Recipient::Symmetric(id) => {
            let kek = keys.get(id).ok_or(EncryptError::UnknownSymmetricKey(*id))?;
            let wrapped = ccm(kek, &dek)?;
            w::RecipientInfo::SymmRecipInfo(w::SymmRecipientInfo {
                recipient_id: convert::hashed_id8_to_wire(*id),
                enc_key: w::SymmetricCiphertext::Aes128ccm(wrapped),
            })
        }
    };
    let data = w::Ieee1609Dot2Data {
        protocol_version: 3,
        content: w::Ieee1609Dot2Content::EncryptedData(w::EncryptedData {
            recipients: w::SequenceOfRecipientInfo(vec![info]),
            ciphertext: w::SymmetricCiphertext::Aes128ccm(ccm(&dek, plaintext)?),
        }),
    };
    let bytes = v2x_wire::ieee1609dot2::encode(&data)?;
    let id = symmetric_key_id(&dek);
    keys.insert(id, dek);
    Ok((bytes, id))
}

fn decryption_failed(detail: impl Into<String>) -> Rejection {
    Rejection::new(RejectReason::DecryptionFailed, detail)
}

/// Decrypts `EncryptedData` with one of our keys (a certificate's private key, or an
/// established symmetric key from `keys`). Nothing is recorded: the caller establishes the
/// data key only once the inner message is accepted.
pub fn decrypt(
    enc: &w::EncryptedData,
    own: &[DecryptionKey],
    keys: &HashMap<HashedId8, SymmetricKey>,
) -> Result<Decrypted, Rejection> {
    let mut dek: Option<SymmetricKey> = None;
    for info in enc.recipients.0.iter() {
        match info {
            w::RecipientInfo::CertRecipInfo(pk) => {
                let id = convert::hashed_id8_from_wire(&pk.recipient_id);
                let Some(mine) = own.iter().find(|k| k.certificate.hashed_id8() == id) else {
                    continue;
                };
                let (curve, ek) = match &pk.enc_key {
                    w::EncryptedDataEncryptionKey::EciesNistP256(ek) => (v2x_crypto::Curve::NistP256, ek),
                    w::EncryptedDataEncryptionKey::EciesBrainpoolP256r1(ek) => (v2x_crypto::Curve::BrainpoolP256r1, ek),
                    _ => return Err(decryption_failed("unsupported key encryption algorithm")),
                };
                if curve != mine.key.curve() {
                    return Err(decryption_failed("ECIES curve does not match our encryption key"));
                }
                let ephemeral = convert::ecies_point(curve, &ek.v)
                    .map_err(|e| Rejection::caused_by(RejectReason::DecryptionFailed, "ECIES ephemeral key", &e))?;
                let mut c = [0u8; 16];
                c.copy_from_slice(&ek.c[..]);
                let mut t = [0u8; 16];
                t.copy_from_slice(&ek.t[..]);
                let wrapped = EciesWrapped { ephemeral, c, t };
                let p1 = sha256(mine.certificate.encoded());
                let key = ecies_unwrap(&mine.key, &wrapped, &p1)
                    .map_err(|e| decryption_failed(format!("ECIES key unwrap: {e}")))?;
                dek = Some(key);
                break;
            }
            w::RecipientInfo::SymmRecipInfo(s) => {
                let id = convert::hashed_id8_from_wire(&s.recipient_id);
                let Some(kek) = keys.get(&id) else { continue };
                let w::SymmetricCiphertext::Aes128ccm(ct) = &s.enc_key else {
                    return Err(decryption_failed("unsupported symmetric algorithm"));
                };
                let key = aes128_ccm_decrypt(kek, &ct.nonce[..], &ct.ccm_ciphertext.0)
                    .map_err(|e| decryption_failed(format!("symmetric key unwrap: {e}")))?;
                let key: SymmetricKey = key
                    .as_slice()
                    .try_into()
                    .map_err(|_| decryption_failed("wrapped key length"))?;
                dek = Some(key);
                break;
            }
            _ => continue,
        }
    }
    let Some(dek) = dek else {
        return Err(Rejection::new(
            RejectReason::NotForThisRecipient,
            "no recipient info matches a key we hold",
        ));
    };
    let w::SymmetricCiphertext::Aes128ccm(ct) = &enc.ciphertext else {
        return Err(decryption_failed("unsupported content cipher"));
    };
    let plaintext = aes128_ccm_decrypt(&dek, &ct.nonce[..], &ct.ccm_ciphertext.0)
        .map_err(|e| decryption_failed(format!("AES-CCM: {e}")))?;
    Ok(Decrypted {
        plaintext,
        key_id: symmetric_key_id(&dek),
        key: dek,
    })
}
