//! Conversions between the 1609.2 wire types (rasn-its) and v2x-crypto types.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use rasn::types::{FixedOctetString, Integer};
use rasn_its::ieee1609dot2::base_types as bt;
use v2x_crypto::{CryptoError, Curve, EccPoint, HashAlg, PublicKey, RPoint, Signature};
use v2x_wire::ItsAid;

/// Why a wire value could not be turned into a crypto value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// A CHOICE alternative this implementation does not support (SM2/SM3, later extensions).
    #[error("unsupported {0}")]
    Unsupported(&'static str),
    /// The `fill` alternative of EccP256CurvePoint / EccP384CurvePoint, which is no point.
    #[error("'fill' is not a point")]
    FillPoint,
    /// A fixed-size field of the wrong length.
    #[error("expected {expected} bytes, got {got}")]
    Length { expected: usize, got: usize },
    /// 1609.2 signatures carry r as x-only or compressed R, never uncompressed.
    #[error("uncompressed r in a signature is not supported")]
    UncompressedR,
    /// 1609.2 ECIES is defined on P-256 and brainpoolP256r1 only.
    #[error("1609.2 ECIES supports only p256 and bp256, not {0}")]
    EciesCurve(Curve),
    /// The point or signature values are not a valid key or signature.
    #[error("{what}: {source}")]
    Crypto {
        what: &'static str,
        #[source]
        source: CryptoError,
    },
}

fn crypto(what: &'static str) -> impl FnOnce(CryptoError) -> ConvertError {
    move |source| ConvertError::Crypto { what, source }
}

/// The value of a wire PSID (`None` beyond 64 bits).
pub fn psid_value(psid: &bt::Psid) -> Option<ItsAid> {
    u64::try_from(&psid.0).ok().map(ItsAid)
}

pub fn psid(value: impl Into<ItsAid>) -> bt::Psid {
    bt::Psid(Integer::from(value.into().value()))
}

pub fn hash_alg_from_wire(h: &bt::HashAlgorithm) -> Result<HashAlg, ConvertError> {
    match h {
        bt::HashAlgorithm::Sha256 => Ok(HashAlg::Sha256),
        bt::HashAlgorithm::Sha384 => Ok(HashAlg::Sha384),
        _ => Err(ConvertError::Unsupported("hash algorithm")),
    }
}

pub fn hash_alg_to_wire(h: HashAlg) -> bt::HashAlgorithm {
    match h {
        HashAlg::Sha256 => bt::HashAlgorithm::Sha256,
        HashAlg::Sha384 => bt::HashAlgorithm::Sha384,
    }
}

fn p256_point(p: &bt::EccP256CurvePoint) -> Result<EccPoint, ConvertError> {
    Ok(match p {
        bt::EccP256CurvePoint::XOnly(x) => EccPoint::XOnly(x.to_vec()),
        bt::EccP256CurvePoint::CompressedY0(x) => EccPoint::CompressedY0(x.to_vec()),
        bt::EccP256CurvePoint::CompressedY1(x) => EccPoint::CompressedY1(x.to_vec()),
        bt::EccP256CurvePoint::Uncompressed(u) => EccPoint::Uncompressed {
            x: u.x.to_vec(),
            y: u.y.to_vec(),
        },
        bt::EccP256CurvePoint::Fill(()) => return Err(ConvertError::FillPoint),
    })
}

fn p384_point(p: &bt::EccP384CurvePoint) -> Result<EccPoint, ConvertError> {
    Ok(match p {
        bt::EccP384CurvePoint::XOnly(x) => EccPoint::XOnly(x.to_vec()),
        bt::EccP384CurvePoint::CompressedY0(x) => EccPoint::CompressedY0(x.to_vec()),
        bt::EccP384CurvePoint::CompressedY1(x) => EccPoint::CompressedY1(x.to_vec()),
        bt::EccP384CurvePoint::Uncompressed(u) => EccPoint::Uncompressed {
            x: u.x.to_vec(),
            y: u.y.to_vec(),
        },
        bt::EccP384CurvePoint::Fill(()) => return Err(ConvertError::FillPoint),
    })
}

fn fixed<const N: usize>(b: &[u8]) -> Result<FixedOctetString<N>, ConvertError> {
    FixedOctetString::<N>::try_from(b).map_err(|_| ConvertError::Length {
        expected: N,
        got: b.len(),
    })
}

fn to_p256_point(p: &EccPoint) -> Result<bt::EccP256CurvePoint, ConvertError> {
    Ok(match p {
        EccPoint::XOnly(x) => bt::EccP256CurvePoint::XOnly(fixed(x)?),
        EccPoint::CompressedY0(x) => bt::EccP256CurvePoint::CompressedY0(fixed(x)?),
        EccPoint::CompressedY1(x) => bt::EccP256CurvePoint::CompressedY1(fixed(x)?),
        EccPoint::Uncompressed { x, y } => bt::EccP256CurvePoint::Uncompressed(bt::EccP256CurvePointUncompressedP256 {
            x: fixed(x)?,
            y: fixed(y)?,
        }),
    })
}

fn to_p384_point(p: &EccPoint) -> Result<bt::EccP384CurvePoint, ConvertError> {
    Ok(match p {
        EccPoint::XOnly(x) => bt::EccP384CurvePoint::XOnly(fixed(x)?),
        EccPoint::CompressedY0(x) => bt::EccP384CurvePoint::CompressedY0(fixed(x)?),
        EccPoint::CompressedY1(x) => bt::EccP384CurvePoint::CompressedY1(fixed(x)?),
        EccPoint::Uncompressed { x, y } => bt::EccP384CurvePoint::Uncompressed(bt::EccP384CurvePointUncompressedP384 {
            x: fixed(x)?,
            y: fixed(y)?,
        }),
    })
}

/// The curve and point of a verification key.
pub fn verification_point(vk: &bt::PublicVerificationKey) -> Result<(Curve, EccPoint), ConvertError> {
    Ok(match vk {
        bt::PublicVerificationKey::EcdsaNistP256(p) => (Curve::NistP256, p256_point(p)?),
        bt::PublicVerificationKey::EcdsaBrainpoolP256r1(p) => (Curve::BrainpoolP256r1, p256_point(p)?),
        bt::PublicVerificationKey::EcdsaBrainpoolP384r1(p) => (Curve::BrainpoolP384r1, p384_point(p)?),
        bt::PublicVerificationKey::EcdsaNistP384(p) => (Curve::NistP384, p384_point(p)?),
        _ => return Err(ConvertError::Unsupported("verification key")),
    })
}

pub fn verification_key(vk: &bt::PublicVerificationKey) -> Result<PublicKey, ConvertError> {
    let (curve, point) = verification_point(vk)?;
    PublicKey::from_point(curve, &point).map_err(crypto("verification key"))
}

/// Wire form of a verification key (compressed, as 1609.2 canonicalization wants).
pub fn verification_key_to_wire(key: &PublicKey) -> Result<bt::PublicVerificationKey, ConvertError> {
    let p = key.to_point(true);
    Ok(match key.curve() {
        Curve::NistP256 => bt::PublicVerificationKey::EcdsaNistP256(to_p256_point(&p)?),
        Curve::BrainpoolP256r1 => bt::PublicVerificationKey::EcdsaBrainpoolP256r1(to_p256_point(&p)?),
        Curve::BrainpoolP384r1 => bt::PublicVerificationKey::EcdsaBrainpoolP384r1(to_p384_point(&p)?),
        Curve::NistP384 => bt::PublicVerificationKey::EcdsaNistP384(to_p384_point(&p)?),
    })
}

/// Public encryption key (1609.2 supports ECIES on P-256 and brainpoolP256r1 only).
pub fn encryption_key(k: &bt::BasePublicEncryptionKey) -> Result<PublicKey, ConvertError> {
    let (curve, p) = match k {
        bt::BasePublicEncryptionKey::EciesNistP256(p) => (Curve::NistP256, p256_point(p)?),
        bt::BasePublicEncryptionKey::EciesBrainpoolP256r1(p) => (Curve::BrainpoolP256r1, p256_point(p)?),
        _ => return Err(ConvertError::Unsupported("encryption key")),
    };
    PublicKey::from_point(curve, &p).map_err(crypto("encryption key"))
}

pub fn encryption_key_to_wire(key: &PublicKey) -> Result<bt::BasePublicEncryptionKey, ConvertError> {
    let p = to_p256_point(&key.to_point(true))?;
    match key.curve() {
        Curve::NistP256 => Ok(bt::BasePublicEncryptionKey::EciesNistP256(p)),
        Curve::BrainpoolP256r1 => Ok(bt::BasePublicEncryptionKey::EciesBrainpoolP256r1(p)),
        c => Err(ConvertError::EciesCurve(c)),
    }
}

/// The ephemeral point of an ECIES-wrapped key, as a key on `curve`.
pub fn ecies_point(curve: Curve, p: &bt::EccP256CurvePoint) -> Result<PublicKey, ConvertError> {
    PublicKey::from_point(curve, &p256_point(p)?).map_err(crypto("ECIES ephemeral key"))
}

pub fn ecies_point_to_wire(key: &PublicKey) -> Result<bt::EccP256CurvePoint, ConvertError> {
    to_p256_point(&key.to_point(true))
}

fn r_point(p: EccPoint) -> Result<RPoint, ConvertError> {
    Ok(match p {
        EccPoint::XOnly(x) => RPoint::XOnly(x),
        EccPoint::CompressedY0(x) => RPoint::Compressed { y_odd: false, x },
        EccPoint::CompressedY1(x) => RPoint::Compressed { y_odd: true, x },
        EccPoint::Uncompressed { .. } => return Err(ConvertError::UncompressedR),
    })
}

pub fn signature(sig: &bt::Signature) -> Result<Signature, ConvertError> {
    let (curve, r, s) = match sig {
        bt::Signature::EcdsaNistP256(s) => (Curve::NistP256, p256_point(&s.r_sig)?, s.s_sig.to_vec()),
        bt::Signature::EcdsaBrainpoolP256r1(s) => (Curve::BrainpoolP256r1, p256_point(&s.r_sig)?, s.s_sig.to_vec()),
        bt::Signature::EcdsaBrainpoolP384r1(s) => (Curve::BrainpoolP384r1, p384_point(&s.r_sig)?, s.s_sig.to_vec()),
        bt::Signature::EcdsaNistP384(s) => (Curve::NistP384, p384_point(&s.r_sig)?, s.s_sig.to_vec()),
        _ => return Err(ConvertError::Unsupported("signature algorithm")),
    };
    Signature::new(curve, r_point(r)?, s).map_err(crypto("signature"))
}

pub fn signature_to_wire(sig: &Signature) -> Result<bt::Signature, ConvertError> {
    let r = match &sig.r {
        RPoint::XOnly(x) => EccPoint::XOnly(x.clone()),
        RPoint::Compressed { y_odd: false, x } => EccPoint::CompressedY0(x.clone()),
        RPoint::Compressed { y_odd: true, x } => EccPoint::CompressedY1(x.clone()),
    };
    Ok(match sig.curve {
        Curve::NistP256 => bt::Signature::EcdsaNistP256(bt::EcdsaP256Signature {
            r_sig: to_p256_point(&r)?,
            s_sig: fixed(&sig.s)?,
        }),
        Curve::BrainpoolP256r1 => bt::Signature::EcdsaBrainpoolP256r1(bt::EcdsaP256Signature {
            r_sig: to_p256_point(&r)?,
            s_sig: fixed(&sig.s)?,
        }),
        Curve::BrainpoolP384r1 => bt::Signature::EcdsaBrainpoolP384r1(bt::EcdsaP384Signature {
            r_sig: to_p384_point(&r)?,
            s_sig: fixed(&sig.s)?,
        }),
        Curve::NistP384 => bt::Signature::EcdsaNistP384(bt::EcdsaP384Signature {
            r_sig: to_p384_point(&r)?,
            s_sig: fixed(&sig.s)?,
        }),
    })
}

pub fn hashed_id8_to_wire(id: v2x_crypto::HashedId8) -> bt::HashedId8 {
    bt::HashedId8(FixedOctetString::from(id.0))
}

pub fn hashed_id8_from_wire(id: &bt::HashedId8) -> v2x_crypto::HashedId8 {
    let mut out = [0u8; 8];
    out.copy_from_slice(&id.0[..]);
    v2x_crypto::HashedId8(out)
}

pub fn hashed_id3_to_wire(id: v2x_crypto::HashedId3) -> bt::HashedId3 {
    bt::HashedId3(FixedOctetString::from(id.0))
}

pub fn hashed_id3_from_wire(id: &bt::HashedId3) -> v2x_crypto::HashedId3 {
    let mut out = [0u8; 3];
    out.copy_from_slice(&id.0[..]);
    v2x_crypto::HashedId3(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_crypto::PrivateKey;

    #[test]
    fn keys_and_signatures_round_trip_every_curve() {
        for curve in Curve::ALL {
            let k = PrivateKey::generate(curve).unwrap();
            let w = verification_key_to_wire(k.public_key()).unwrap();
            assert_eq!(&verification_key(&w).unwrap(), k.public_key());
            let sig = k.sign_digest(&[7u8; 32]).unwrap();
            assert_eq!(signature(&signature_to_wire(&sig).unwrap()).unwrap(), sig);
            let sig = k.sign_digest_compressed_r(&[7u8; 32]).unwrap();
            assert_eq!(signature(&signature_to_wire(&sig).unwrap()).unwrap(), sig);
        }
        assert_eq!(psid_value(&psid(36)), Some(ItsAid::CAM));
    }
}
