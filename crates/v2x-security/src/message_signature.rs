//! Verification of a message signature: the one place where SN-DECAP, CRLs and trust lists
//! check that signed data was signed by a certificate's key (1609.2 §5.3.1:
//! ECDSA over Hash( Hash(tbsData as received) || Hash(signer certificate) )).
//!
//! Also the optional signature-form policies. ECDSA signatures are malleable: (r, s) and
//! (r, n - s) both verify, and 1609.2 lets r travel as x-only or as the compressed point R
//! (y0 or y1). Replay detection therefore never keys on signature bytes; a receiver that
//! wants one encoding per signature can additionally require low s and x-only r.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::{join_hash, Certificate};
use crate::verification::SignatureVerifier;
use v2x_crypto::{CryptoError, Curve, Digest, HashAlg, RPoint, Signature};

/// Which signature encodings SN-DECAP accepts. The default accepts every form 1609.2 allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SignatureForm {
    /// Reject signatures whose s is above n/2 (the "high" twin of a valid signature).
    pub require_low_s: bool,
    /// Reject r sent as a compressed point R (accept x-only r only).
    pub require_x_only_r: bool,
}

/// Why a message signature was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("hashId {message:?} does not match the signer's curve hash {signer:?}")]
    HashMismatch { message: HashAlg, signer: HashAlg },
    #[error("signature on {signature} but the signer's key is on {key}")]
    CurveMismatch { signature: Curve, key: Curve },
    #[error("s is above n/2 and the policy requires low s")]
    HighS,
    #[error("r is a compressed point and the policy requires x-only r")]
    CompressedR,
    #[error("the signature does not verify")]
    DoesNotVerify,
    #[error("verification failed")]
    Crypto(#[source] CryptoError),
}

/// Verifies `signature` over the hash of the received tbsData (`tbs_hash`, computed with
/// `hash_alg`) with `signer`'s key, after the signature-form policy, with the plain strategy
/// (CRLs, trust lists and other one-off signed data).
pub fn verify_message_signature(
    signer: &Certificate,
    hash_alg: HashAlg,
    tbs_hash: &Digest,
    signature: &Signature,
    form: SignatureForm,
) -> Result<(), SignatureError> {
    verify_message_signature_with(
        &mut SignatureVerifier::default(),
        signer,
        hash_alg,
        tbs_hash,
        signature,
        form,
    )
}

/// [`verify_message_signature`] under a receiver's verification strategy (SN-DECAP: plain, or
/// the opt-in per-signer precomputed tables of [`SignatureVerifier`]).
pub fn verify_message_signature_with(
    verifier: &mut SignatureVerifier,
    signer: &Certificate,
    hash_alg: HashAlg,
    tbs_hash: &Digest,
    signature: &Signature,
    form: SignatureForm,
) -> Result<(), SignatureError> {
    let key_hash = signer.curve().hash_alg();
    if hash_alg != key_hash {
        return Err(SignatureError::HashMismatch {
            message: hash_alg,
            signer: key_hash,
        });
    }
    if signature.curve != signer.curve() {
        return Err(SignatureError::CurveMismatch {
            signature: signature.curve,
            key: signer.curve(),
        });
    }
    check_form(signature, form)?;
    let digest = join_hash(hash_alg, tbs_hash.as_ref(), signer.signer_hash().as_ref());
    match verifier.verify(signer, digest.as_ref(), signature) {
        Ok(true) => Ok(()),
        Ok(false) => Err(SignatureError::DoesNotVerify),
        Err(e) => Err(SignatureError::Crypto(e)),
    }
}

/// Applies the signature-form policy.
pub fn check_form(signature: &Signature, form: SignatureForm) -> Result<(), SignatureError> {
    if form.require_x_only_r && matches!(signature.r, RPoint::Compressed { .. }) {
        return Err(SignatureError::CompressedR);
    }
    if form.require_low_s && !is_low_s(signature) {
        return Err(SignatureError::HighS);
    }
    Ok(())
}

/// The order n of the curve's base point, big-endian.
pub fn curve_order(curve: Curve) -> &'static [u8] {
    match curve {
        Curve::NistP256 => &P256_N,
        Curve::NistP384 => &P384_N,
        Curve::BrainpoolP256r1 => &BP256_N,
        Curve::BrainpoolP384r1 => &BP384_N,
    }
}

/// True when s <= n/2 (s and n are big-endian of the same length).
pub fn is_low_s(signature: &Signature) -> bool {
    let n = curve_order(signature.curve);
    if signature.s.len() != n.len() {
        return false;
    }
    // s <= floor(n / 2)  <=>  2s <= n - 1  <=>  2s < n (n is odd).
    let mut doubled = vec![0u8; n.len() + 1];
    let mut carry = 0u8;
    for (d, s) in doubled.iter_mut().rev().zip(signature.s.iter().rev()) {
        let v = u16::from(*s) * 2 + u16::from(carry);
        *d = v as u8;
        carry = (v >> 8) as u8;
    }
    if let Some(top) = doubled.first_mut() {
        *top = carry;
    }
    let n_ext: Vec<u8> = std::iter::once(0).chain(n.iter().copied()).collect();
    doubled < n_ext
}

/// The low-s encoding of a signature (s replaced by n - s when above n/2): what every signer
/// here emits, so that its messages pass a receiver's `--require-low-s`.
pub fn to_low_s(signature: Signature) -> Signature {
    if is_low_s(&signature) {
        signature
    } else {
        negate_s(&signature)
    }
}

/// The other valid encoding of the same signature: s replaced by n - s (for tests and for
/// normalising to low s).
pub fn negate_s(signature: &Signature) -> Signature {
    let n = curve_order(signature.curve);
    let mut out = vec![0u8; n.len()];
    let mut borrow = 0i16;
    for (i, (o, nb)) in out.iter_mut().zip(n.iter()).enumerate().rev() {
        let s = i16::from(signature.s.get(i).copied().unwrap_or(0));
        let mut d = i16::from(*nb) - s - borrow;
        borrow = i16::from(d < 0);
        if d < 0 {
            d += 256;
        }
        *o = d as u8;
    }
    // (r, s) and (r, n - s) are both valid for R's x-coordinate; a full (compressed) R
    // becomes -R, the other y parity.
    let r = match &signature.r {
        RPoint::Compressed { y_odd, x } => RPoint::Compressed {
            y_odd: !*y_odd,
            x: x.clone(),
        },
        other => other.clone(),
    };
    Signature {
        curve: signature.curve,
        r,
        s: out,
    }
}

const P256_N: [u8; 32] = hex32("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551");
const BP256_N: [u8; 32] = hex32("A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7");
const P384_N: [u8; 48] =
    hex48("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973");
const BP384_N: [u8; 48] =
    hex48("8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B31F166E6CAC0425A7CF3AB6AF6B7FC3103B883202E9046565");

// The curve orders are parsed at compile time: a bad literal fails the build, not a run.
#[allow(clippy::panic)]
const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'A'..=b'F' => c - b'A' + 10,
        _ => panic!("not an upper-case hex digit"),
    }
}

#[allow(clippy::indexing_slicing)]
const fn hex32(s: &str) -> [u8; 32] {
    let b = s.as_bytes();
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = nibble(b[2 * i]) << 4 | nibble(b[2 * i + 1]);
        i += 1;
    }
    out
}

#[allow(clippy::indexing_slicing)]
const fn hex48(s: &str) -> [u8; 48] {
    let b = s.as_bytes();
    let mut out = [0u8; 48];
    let mut i = 0;
    while i < 48 {
        out[i] = nibble(b[2 * i]) << 4 | nibble(b[2 * i + 1]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_crypto::PrivateKey;

    #[test]
    fn negated_s_verifies_on_every_curve_and_exactly_one_twin_is_low() {
        // Only the true group order makes (r, n - s) verify: this pins the constants.
        for curve in Curve::ALL {
            let k = PrivateKey::generate(curve).unwrap();
            let digest = vec![0x42u8; curve.hash_alg().output_len()];
            for _ in 0..8 {
                let sig = k.sign_digest(&digest).unwrap();
                let twin = negate_s(&sig);
                assert_ne!(twin.s, sig.s);
                assert!(k.public_key().verify_digest(&digest, &twin).unwrap(), "{curve}");
                assert_ne!(is_low_s(&sig), is_low_s(&twin), "{curve}");
                assert_eq!(negate_s(&twin), sig);
            }
        }
    }

    #[test]
    fn form_policy() {
        let k = PrivateKey::generate(Curve::NistP256).unwrap();
        let sig = k.sign_digest_compressed_r(&[1u8; 32]).unwrap();
        let strict_r = SignatureForm {
            require_x_only_r: true,
            ..SignatureForm::default()
        };
        assert_eq!(check_form(&sig, strict_r), Err(SignatureError::CompressedR));
        assert_eq!(check_form(&sig, SignatureForm::default()), Ok(()));
        let low = if is_low_s(&sig) { sig.clone() } else { negate_s(&sig) };
        let low_only = SignatureForm {
            require_low_s: true,
            ..SignatureForm::default()
        };
        assert_eq!(check_form(&low, low_only), Ok(()));
        assert_eq!(check_form(&negate_s(&low), low_only), Err(SignatureError::HighS));
    }
}
