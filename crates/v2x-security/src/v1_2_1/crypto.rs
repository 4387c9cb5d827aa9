//! Glue between the v1.2.1 wire types and `v2x-crypto`: curves, points, keys,
//! signatures, certificate digests and the v1.2.1 ECIES key wrap.

use crate::reason::{RejectReason, Rejection};
use v2x_crypto::{
    ecdh_x, hash, hashed_id8, hmac_sha256, kdf2_sha256, CryptoError, Curve, EccPoint as CPoint, HashAlg, PrivateKey,
    PublicKey as CPublicKey, RPoint, Signature as CSignature,
};
use v2x_wire::v1_2_1::{self as w, HashedId8, V1Curve};

pub fn to_curve(c: V1Curve) -> Curve {
    match c {
        V1Curve::NistP256 => Curve::NistP256,
        V1Curve::NistP384 => Curve::NistP384,
        V1Curve::BrainpoolP256r1 => Curve::BrainpoolP256r1,
        V1Curve::BrainpoolP384r1 => Curve::BrainpoolP384r1,
    }
}

pub fn to_v1_curve(c: Curve) -> V1Curve {
    match c {
        Curve::NistP256 => V1Curve::NistP256,
        Curve::NistP384 => V1Curve::NistP384,
        Curve::BrainpoolP256r1 => V1Curve::BrainpoolP256r1,
        Curve::BrainpoolP384r1 => V1Curve::BrainpoolP384r1,
    }
}

pub fn to_wire_point(p: &CPoint) -> w::EccPoint {
    match p {
        CPoint::XOnly(x) => w::EccPoint::XCoordinateOnly(x.clone()),
        CPoint::CompressedY0(x) => w::EccPoint::CompressedLsbY0(x.clone()),
        CPoint::CompressedY1(x) => w::EccPoint::CompressedLsbY1(x.clone()),
        CPoint::Uncompressed { x, y } => w::EccPoint::Uncompressed {
            x: x.clone(),
            y: y.clone(),
        },
    }
}

fn to_crypto_point(p: &w::EccPoint) -> Option<CPoint> {
    Some(match p {
        w::EccPoint::XCoordinateOnly(x) => CPoint::XOnly(x.clone()),
        w::EccPoint::CompressedLsbY0(x) => CPoint::CompressedY0(x.clone()),
        w::EccPoint::CompressedLsbY1(x) => CPoint::CompressedY1(x.clone()),
        w::EccPoint::Uncompressed { x, y } => CPoint::Uncompressed {
            x: x.clone(),
            y: y.clone(),
        },
        w::EccPoint::Other { .. } => return None,
    })
}

fn bad_cert(detail: impl Into<String>) -> Rejection {
    Rejection::new(RejectReason::InvalidCertificate, detail)
}

/// The ECDSA verification key of a `verification_key` attribute.
pub fn verification_key(k: &w::PublicKey) -> Result<CPublicKey, Rejection> {
    match k {
        w::PublicKey::Ecdsa { algorithm, key } => {
            let curve = algorithm
                .curve()
                .ok_or_else(|| bad_cert("unknown verification key curve"))?;
            let point = to_crypto_point(key).ok_or_else(|| bad_cert("verification key has an unknown point type"))?;
            CPublicKey::from_point(to_curve(curve), &point).map_err(|e| bad_cert(format!("verification key: {e}")))
        }
        _ => Err(bad_cert(format!(
            "verification key algorithm {} is not ECDSA",
            k.algorithm().name()
        ))),
    }
}

/// The ECIES key and supported symmetric algorithm of an `encryption_key` attribute.
pub fn encryption_key(k: &w::PublicKey) -> Result<(CPublicKey, w::SymmetricAlgorithm), Rejection> {
    match k {
        w::PublicKey::Ecies {
            algorithm,
            supported_symm_alg,
            key,
        } => {
            let curve = algorithm
                .curve()
                .ok_or_else(|| bad_cert("unknown encryption key curve"))?;
            let point = to_crypto_point(key).ok_or_else(|| bad_cert("encryption key has an unknown point type"))?;
            let pk = CPublicKey::from_point(to_curve(curve), &point)
                .map_err(|e| bad_cert(format!("encryption key: {e}")))?;
            Ok((pk, *supported_symm_alg))
        }
        _ => Err(bad_cert(format!(
            "encryption key algorithm {} is not ECIES",
            k.algorithm().name()
        ))),
    }
}

pub fn wire_verification_key(k: &CPublicKey, compressed: bool) -> w::PublicKey {
    w::PublicKey::Ecdsa {
        algorithm: w::PublicKeyAlgorithm::ecdsa(to_v1_curve(k.curve())),
        key: to_wire_point(&k.to_point(compressed)),
    }
}

pub fn wire_encryption_key(k: &CPublicKey, symm: w::SymmetricAlgorithm, compressed: bool) -> w::PublicKey {
    w::PublicKey::Ecies {
        algorithm: w::PublicKeyAlgorithm::ecies(to_v1_curve(k.curve())),
        supported_symm_alg: symm,
        key: to_wire_point(&k.to_point(compressed)),
    }
}

/// A signature of the right length with zero bytes, for computing the signed bytes
/// before the real signature exists (the trailer length is part of them).
pub fn placeholder_signature(curve: Curve) -> w::Signature {
    let n = curve.field_len();
    w::Signature::Ecdsa {
        algorithm: w::PublicKeyAlgorithm::ecdsa(to_v1_curve(curve)),
        r: w::EccPoint::XCoordinateOnly(vec![0; n]),
        s: vec![0; n],
    }
}

/// ECDSA over the hash of `data` with the curve's hash (SHA-256 or SHA-384); R x-only.
pub fn sign(key: &PrivateKey, data: &[u8]) -> Result<w::Signature, CryptoError> {
    let digest = hash(key.curve().hash_alg(), data);
    let sig = crate::message_signature::to_low_s(key.sign_digest(digest.as_ref())?);
    let r = match &sig.r {
        RPoint::XOnly(x) => w::EccPoint::XCoordinateOnly(x.clone()),
        RPoint::Compressed { y_odd: false, x } => w::EccPoint::CompressedLsbY0(x.clone()),
        RPoint::Compressed { y_odd: true, x } => w::EccPoint::CompressedLsbY1(x.clone()),
    };
    Ok(w::Signature::Ecdsa {
        algorithm: w::PublicKeyAlgorithm::ecdsa(to_v1_curve(key.curve())),
        r,
        s: sig.s,
    })
}

/// Verifies a wire signature over `data`; `false` for any mismatch (algorithm, curve,
/// point form, lengths, or the maths).
pub fn verify(key: &CPublicKey, data: &[u8], sig: &w::Signature) -> bool {
    let w::Signature::Ecdsa { algorithm, r, s } = sig else {
        return false;
    };
    if algorithm.curve().map(to_curve) != Some(key.curve()) {
        return false;
    }
    let r = match r {
        w::EccPoint::XCoordinateOnly(x) => RPoint::XOnly(x.clone()),
        w::EccPoint::CompressedLsbY0(x) => RPoint::Compressed {
            y_odd: false,
            x: x.clone(),
        },
        w::EccPoint::CompressedLsbY1(x) => RPoint::Compressed {
            y_odd: true,
            x: x.clone(),
        },
        _ => return false,
    };
    let Ok(sig) = CSignature::new(key.curve(), r, s.clone()) else {
        return false;
    };
    let digest = hash(key.curve().hash_alg(), data);
    key.verify_digest(digest.as_ref(), &sig).unwrap_or(false)
}

/// HashedId8 of a certificate (§4.2.12): low 8 bytes of SHA-256 of its canonical
/// encoding (signature R as x-only).
pub fn certificate_digest(cert: &w::Certificate) -> HashedId8 {
    hashed_id8(HashAlg::Sha256, &cert.canonical_bytes()).0
}

/// HashedId3 of a certificate: the last three bytes of its HashedId8.
pub fn certificate_id3(cert: &w::Certificate) -> w::HashedId3 {
    let d = certificate_digest(cert);
    [d[5], d[6], d[7]]
}

fn derive(z: &[u8], key_len: usize) -> (Vec<u8>, Vec<u8>) {
    // KDF2-SHA256 with empty P1: the first key_len bytes mask the key, the next 32
    // bytes are the HMAC key (as IEEE 1609.2 / TS 103 097 v1.2.1 §5.9 ECIES).
    let k = kdf2_sha256(z, &[], key_len + 32);
    let (ke, km) = k.split_at(key_len);
    (ke.to_vec(), km.to_vec())
}

/// ECIES wrap of a symmetric key of any length (16 for AES-128, 32 for the AES-256
/// extension) for `recipient`: fresh ephemeral key V, c = key XOR KDF, t = HMAC-SHA256
/// truncated to 16 bytes. Identical to `v2x_crypto::ecies_wrap` for 16-byte keys.
pub fn ecies_wrap(recipient: &CPublicKey, key: &[u8], compressed: bool) -> Result<w::EciesEncryptedKey, CryptoError> {
    let eph = PrivateKey::generate(recipient.curve())?;
    ecies_wrap_with(recipient, &eph, key, compressed)
}

pub fn ecies_wrap_with(
    recipient: &CPublicKey,
    eph: &PrivateKey,
    key: &[u8],
    compressed: bool,
) -> Result<w::EciesEncryptedKey, CryptoError> {
    let z = ecdh_x(eph, recipient)?;
    let (ke, km) = derive(&z, key.len());
    let c: Vec<u8> = key.iter().zip(&ke).map(|(a, b)| a ^ b).collect();
    let mut t = [0u8; 16];
    t.copy_from_slice(&hmac_sha256(&km, &c)[..16]);
    Ok(w::EciesEncryptedKey {
        v: to_wire_point(&eph.public_key().to_point(compressed)),
        c,
        t,
    })
}

/// Unwraps; the tag is checked (constant time) before the key is released.
pub fn ecies_unwrap(private: &PrivateKey, k: &w::EciesEncryptedKey) -> Result<Vec<u8>, CryptoError> {
    let point = to_crypto_point(&k.v).ok_or_else(|| CryptoError::InvalidPublicKey("unknown point type".into()))?;
    let eph = CPublicKey::from_point(private.curve(), &point)?;
    let z = ecdh_x(private, &eph)?;
    let (ke, km) = derive(&z, k.c.len());
    let expected = hmac_sha256(&km, &k.c);
    if !v2x_crypto::ct_eq(&expected[..16], &k.t) {
        return Err(CryptoError::TagMismatch);
    }
    Ok(k.c.iter().zip(&ke).map(|(a, b)| a ^ b).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecies_matches_the_1609_2_wrap_for_aes128_and_round_trips_aes256() {
        for curve in Curve::ALL {
            let rx = PrivateKey::generate(curve).unwrap();
            let eph = PrivateKey::generate(curve).unwrap();
            let key = [0x5a; 16];
            let ours = ecies_wrap_with(rx.public_key(), &eph, &key, true).unwrap();
            let theirs = v2x_crypto::ecies_wrap_with_ephemeral(rx.public_key(), &eph, &key, &[]).unwrap();
            assert_eq!(ours.c, theirs.c);
            assert_eq!(ours.t, theirs.t);
            assert_eq!(ecies_unwrap(&rx, &ours).unwrap(), key);
            let k32 = [0xa5; 32];
            let mut wrapped = ecies_wrap(rx.public_key(), &k32, false).unwrap();
            assert_eq!(ecies_unwrap(&rx, &wrapped).unwrap(), k32);
            wrapped.c[0] ^= 1;
            assert_eq!(ecies_unwrap(&rx, &wrapped), Err(CryptoError::TagMismatch));
        }
    }

    #[test]
    fn sign_verify_every_curve() {
        for curve in Curve::ALL {
            let k = PrivateKey::generate(curve).unwrap();
            let s = sign(&k, b"data").unwrap();
            assert!(verify(k.public_key(), b"data", &s));
            assert!(!verify(k.public_key(), b"datb", &s));
            assert_eq!(s.to_bytes().len(), placeholder_signature(curve).to_bytes().len());
        }
    }
}
