//! The four message-protection modes of data packets under a session or group key
//! `SK`: `hmac` (m ‖ HMAC_SK), `encrypt` (E_SK(m)), `encrypt-signed-mac`
//! (E_SK(m ‖ Sig_A[HMAC_SK(m)])) and `encrypt-then-sign-mac` (E_SK(m), Sig_A[HMAC_SK(E_SK(m))]).
//! `E` is AES-128-CCM with a nonce derived from the session, the direction and the
//! sequence number (never sent).

use super::config::Protection;
use super::crypto::{SessionCert, SigningKey};
use super::wire::{DataHeader, DATA_HEADER_LEN, HMAC_LEN};
use crate::authenticator::{malformed, EncapError, Timestamp};
use crate::{RejectReason, Rejection};
use v2x_crypto::{ct_eq, hmac_sha1};
use v2x_wire::cursor::Reader;

/// Which way a data packet travels (part of the CCM nonce, so the two directions of a
/// session never share one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    FromInitiator = 0,
    FromResponder = 1,
    FromLeader = 2,
}

fn nonce(id: &[u8; 8], direction: Direction, seq: u32) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[..7].copy_from_slice(&id[..7]);
    n[7] = direction as u8;
    n[8..].copy_from_slice(&seq.to_be_bytes());
    n
}

/// Checks that a key that `started` at that time is still within `lifetime_us` at
/// `now` (`expired` names it in the rejection) and that `sequence` is newer than the
/// `last` one accepted under it (data replays are caught by sequence numbers).
pub fn check_key_use(
    started: Timestamp,
    lifetime_us: u64,
    last: Option<u32>,
    sequence: u32,
    now: Timestamp,
    expired: &'static str,
) -> Result<(), Rejection> {
    if started.plus_micros(lifetime_us) < now {
        return Err(Rejection::new(RejectReason::StaleMessage, expired));
    }
    if last.is_some_and(|last| sequence <= last) {
        return Err(Rejection::new(
            RejectReason::DuplicateMessage,
            format!("sequence {sequence} already seen"),
        ));
    }
    Ok(())
}

/// What a data packet is protected with.
pub struct DataKey<'a> {
    pub id: &'a [u8; 8],
    pub direction: Direction,
    pub sequence: u32,
    pub sk: &'a [u8; 16],
}

/// A data packet carrying `m` under `key` in `mode` (`signer` signs in the signed modes).
pub fn protect(mode: Protection, signer: &SigningKey, key: &DataKey<'_>, m: &[u8]) -> Result<Vec<u8>, EncapError> {
    let mut w = DataHeader::write(key.id, key.sequence);
    let nonce = nonce(key.id, key.direction, key.sequence);
    match mode {
        Protection::Hmac => {
            w.bytes(m);
            let tag = hmac_sha1(key.sk, w.as_slice());
            w.bytes(&tag);
        }
        Protection::Encrypt => {
            w.bytes(&v2x_crypto::aes128_ccm_encrypt(key.sk, &nonce, m)?);
        }
        Protection::EncryptSignedMac => {
            // The signature has the fixed length of the signer's algorithm.
            let sig = signer.sign(&hmac_sha1(key.sk, m))?;
            let pt = [m, &sig].concat();
            w.bytes(&v2x_crypto::aes128_ccm_encrypt(key.sk, &nonce, &pt)?);
        }
        Protection::EncryptThenSignMac => {
            let ct = v2x_crypto::aes128_ccm_encrypt(key.sk, &nonce, m)?;
            let sig = signer.sign(&hmac_sha1(key.sk, &ct))?;
            w.var16(&ct, "ciphertext")?.var16(&sig, "signature")?;
        }
    }
    Ok(w.into_vec())
}

/// The payload of data `packet` (whose header was read already) under `key`; the
/// signed modes check the signature with `sender`'s certificate.
pub fn unprotect(
    mode: Protection,
    packet: &[u8],
    key: &DataKey<'_>,
    sender: Option<&SessionCert>,
) -> Result<Vec<u8>, Rejection> {
    let body = packet.get(DATA_HEADER_LEN..).unwrap_or_default();
    let nonce = nonce(key.id, key.direction, key.sequence);
    let decrypt = |ct: &[u8]| {
        v2x_crypto::aes128_ccm_decrypt(key.sk, &nonce, ct)
            .map_err(|_| Rejection::new(RejectReason::DecryptionFailed, "AES-CCM authentication failed"))
    };
    let no_certificate = || Rejection::new(RejectReason::SignerCertificateNotFound, "no certificate for the sender");
    let check_sig = |mac: &[u8], sig: &[u8]| match sender {
        Some(c) if c.verify.verify(mac, sig) => Ok(()),
        Some(_) => Err(Rejection::new(
            RejectReason::FalseSignature,
            "signature on the HMAC does not verify",
        )),
        None => Err(no_certificate()),
    };
    match mode {
        Protection::Hmac => {
            let split = packet
                .len()
                .checked_sub(HMAC_LEN)
                .filter(|&n| n >= DATA_HEADER_LEN)
                .ok_or_else(|| Rejection::new(RejectReason::InvalidEncoding, "data shorter than its HMAC"))?;
            let (covered, tag) = packet.split_at(split);
            if !ct_eq(&hmac_sha1(key.sk, covered), tag) {
                return Err(Rejection::new(RejectReason::FalseMac, "HMAC does not verify"));
            }
            Ok(covered[DATA_HEADER_LEN..].to_vec())
        }
        Protection::Encrypt => decrypt(body),
        Protection::EncryptSignedMac => {
            let pt = decrypt(body)?;
            let sig_len = sender.map(|c| c.verify.signature_len()).ok_or_else(no_certificate)?;
            let m_len = pt
                .len()
                .checked_sub(sig_len)
                .ok_or_else(|| Rejection::new(RejectReason::InvalidEncoding, "plaintext shorter than the signature"))?;
            let (m, sig) = pt.split_at(m_len);
            check_sig(&hmac_sha1(key.sk, m), sig)?;
            Ok(m.to_vec())
        }
        Protection::EncryptThenSignMac => {
            let mut r = Reader::new(packet);
            r.take(DATA_HEADER_LEN, "data header").map_err(malformed)?;
            let ct = r.var16("ciphertext").map_err(malformed)?;
            let sig = r.var16("signature").map_err(malformed)?;
            r.finish("data").map_err(malformed)?;
            check_sig(&hmac_sha1(key.sk, ct), sig)?;
            decrypt(ct)
        }
    }
}
