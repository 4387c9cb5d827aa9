//! RustCrypto (`p256`, `p384`, `bp256`, `bp384` on `ecdsa` / `elliptic-curve`): every
//! curve, pure Rust, constant-time signing with hedged nonces (RFC 6979 with fresh
//! randomness from OpenSSL's DRBG mixed in, so two signatures of the same digest differ,
//! as with the other backends).

use super::{Backend, BackendId, CryptoOp};
use crate::{CryptoError, Curve, PrivateKey, PublicKey, RPoint, Signature};
use bp256::BrainpoolP256r1;
use bp384::BrainpoolP384r1;
use ecdsa::signature::hazmat::{PrehashVerifier, RandomizedPrehashSigner};
use p256::NistP256;
use p384::NistP384;

pub(super) struct RustCrypto;

/// OpenSSL's DRBG as the randomness of hedged signing.
struct OpenSslRng;

impl rand_core::TryRng for OpenSslRng {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        openssl::rand::rand_bytes(dst).expect("OpenSSL DRBG");
        Ok(())
    }
}

impl rand_core::TryCryptoRng for OpenSslRng {}

/// RustCrypto's verification key per curve (kept in the [`PublicKey`]).
pub(crate) enum RcPublic {
    P256(ecdsa::VerifyingKey<NistP256>),
    P384(ecdsa::VerifyingKey<NistP384>),
    Bp256(ecdsa::VerifyingKey<BrainpoolP256r1>),
    Bp384(ecdsa::VerifyingKey<BrainpoolP384r1>),
}

/// RustCrypto's signing key per curve (kept in the [`PrivateKey`]).
pub(crate) enum RcPrivate {
    P256(ecdsa::SigningKey<NistP256>),
    P384(ecdsa::SigningKey<NistP384>),
    Bp256(ecdsa::SigningKey<BrainpoolP256r1>),
    Bp384(ecdsa::SigningKey<BrainpoolP384r1>),
}

fn bad_pub(e: impl std::fmt::Display) -> CryptoError {
    CryptoError::InvalidPublicKey(format!("rustcrypto: {e}"))
}

fn bad_priv(e: impl std::fmt::Display) -> CryptoError {
    CryptoError::InvalidPrivateKey(format!("rustcrypto: {e}"))
}

pub(crate) fn parse_public(key: &PublicKey) -> Result<RcPublic, CryptoError> {
    let sec1 = key.to_sec1(false);
    Ok(match key.curve() {
        Curve::NistP256 => RcPublic::P256(ecdsa::VerifyingKey::from_sec1_bytes(&sec1).map_err(bad_pub)?),
        Curve::NistP384 => RcPublic::P384(ecdsa::VerifyingKey::from_sec1_bytes(&sec1).map_err(bad_pub)?),
        Curve::BrainpoolP256r1 => RcPublic::Bp256(ecdsa::VerifyingKey::from_sec1_bytes(&sec1).map_err(bad_pub)?),
        Curve::BrainpoolP384r1 => RcPublic::Bp384(ecdsa::VerifyingKey::from_sec1_bytes(&sec1).map_err(bad_pub)?),
    })
}

pub(crate) fn parse_private(key: &PrivateKey) -> Result<RcPrivate, CryptoError> {
    let d = key.scalar();
    Ok(match key.curve() {
        Curve::NistP256 => RcPrivate::P256(ecdsa::SigningKey::from_slice(&d).map_err(bad_priv)?),
        Curve::NistP384 => RcPrivate::P384(ecdsa::SigningKey::from_slice(&d).map_err(bad_priv)?),
        Curve::BrainpoolP256r1 => RcPrivate::Bp256(ecdsa::SigningKey::from_slice(&d).map_err(bad_priv)?),
        Curve::BrainpoolP384r1 => RcPrivate::Bp384(ecdsa::SigningKey::from_slice(&d).map_err(bad_priv)?),
    })
}

fn split(curve: Curve, bytes: &[u8]) -> Signature {
    let (r, s) = bytes.split_at(curve.field_len());
    Signature {
        curve,
        r: RPoint::XOnly(r.to_vec()),
        s: s.to_vec(),
    }
}

fn sign_err(e: impl std::fmt::Display) -> CryptoError {
    CryptoError::Backend(format!("rustcrypto: {e}"))
}

/// ECDH with RustCrypto's generic `diffie_hellman` for curve `C`.
fn ecdh<C>(scalar: &[u8], peer_sec1: &[u8]) -> Result<Vec<u8>, CryptoError>
where
    C: elliptic_curve::CurveArithmetic,
    elliptic_curve::FieldBytesSize<C>: elliptic_curve::sec1::ModulusSize,
    elliptic_curve::AffinePoint<C>: elliptic_curve::sec1::FromSec1Point<C> + elliptic_curve::sec1::ToSec1Point<C>,
{
    let secret = elliptic_curve::SecretKey::<C>::from_slice(scalar).map_err(bad_priv)?;
    let public = elliptic_curve::PublicKey::<C>::from_sec1_bytes(peer_sec1).map_err(bad_pub)?;
    let shared = elliptic_curve::ecdh::diffie_hellman(secret.to_nonzero_scalar(), public.as_affine());
    Ok(shared.raw_secret_bytes().to_vec())
}

impl Backend for RustCrypto {
    fn id(&self) -> BackendId {
        BackendId::RustCrypto
    }

    fn supports(&self, _curve: Curve, _op: CryptoOp) -> bool {
        true
    }

    fn sign_digest(&self, key: &PrivateKey, digest: &[u8]) -> Result<Signature, CryptoError> {
        let curve = key.curve();
        Ok(match key.rustcrypto()? {
            RcPrivate::P256(k) => {
                let s: ecdsa::Signature<NistP256> =
                    k.sign_prehash_with_rng(&mut OpenSslRng, digest).map_err(sign_err)?;
                split(curve, &s.to_bytes())
            }
            RcPrivate::P384(k) => {
                let s: ecdsa::Signature<NistP384> =
                    k.sign_prehash_with_rng(&mut OpenSslRng, digest).map_err(sign_err)?;
                split(curve, &s.to_bytes())
            }
            RcPrivate::Bp256(k) => {
                let s: ecdsa::Signature<BrainpoolP256r1> =
                    k.sign_prehash_with_rng(&mut OpenSslRng, digest).map_err(sign_err)?;
                split(curve, &s.to_bytes())
            }
            RcPrivate::Bp384(k) => {
                let s: ecdsa::Signature<BrainpoolP384r1> =
                    k.sign_prehash_with_rng(&mut OpenSslRng, digest).map_err(sign_err)?;
                split(curve, &s.to_bytes())
            }
        })
    }

    fn verify_digest(&self, key: &PublicKey, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        let mut rs = sig.x_only_r();
        rs.extend_from_slice(&sig.s);
        // from_slice rejects r or s = 0 or >= n: an invalid signature, not an error.
        Ok(match key.rustcrypto()? {
            RcPublic::P256(k) => {
                ecdsa::Signature::<NistP256>::from_slice(&rs).is_ok_and(|s| k.verify_prehash(digest, &s).is_ok())
            }
            RcPublic::P384(k) => {
                ecdsa::Signature::<NistP384>::from_slice(&rs).is_ok_and(|s| k.verify_prehash(digest, &s).is_ok())
            }
            RcPublic::Bp256(k) => {
                ecdsa::Signature::<BrainpoolP256r1>::from_slice(&rs).is_ok_and(|s| k.verify_prehash(digest, &s).is_ok())
            }
            RcPublic::Bp384(k) => {
                ecdsa::Signature::<BrainpoolP384r1>::from_slice(&rs).is_ok_and(|s| k.verify_prehash(digest, &s).is_ok())
            }
        })
    }

    fn ecdh_x(&self, private: &PrivateKey, peer: &PublicKey) -> Result<Vec<u8>, CryptoError> {
        let (d, q) = (private.scalar(), peer.to_sec1(false));
        match private.curve() {
            Curve::NistP256 => ecdh::<NistP256>(&d, &q),
            Curve::NistP384 => ecdh::<NistP384>(&d, &q),
            Curve::BrainpoolP256r1 => ecdh::<BrainpoolP256r1>(&d, &q),
            Curve::BrainpoolP384r1 => ecdh::<BrainpoolP384r1>(&d, &q),
        }
    }
}
