//! aws-lc (through aws-lc-rs): NIST P-256 and P-384, with its assembly field arithmetic.

use super::{Backend, BackendId, CryptoOp};
use crate::{CryptoError, Curve, PrivateKey, PublicKey, RPoint, Signature};
use aws_lc_rs::{agreement, digest, signature as sig};

pub(super) struct AwsLc;

/// aws-lc's parsed verification key (kept in the [`PublicKey`]).
pub(crate) type AwsPublic = sig::ParsedPublicKey;
/// aws-lc's signing key pair (kept in the [`PrivateKey`]).
pub(crate) type AwsPrivate = sig::EcdsaKeyPair;

struct Algs {
    signing: &'static sig::EcdsaSigningAlgorithm,
    verify: &'static sig::EcdsaVerificationAlgorithm,
    ecdh: &'static agreement::Algorithm,
    digest: &'static digest::Algorithm,
}

fn algs(curve: Curve) -> Option<Algs> {
    match curve {
        Curve::NistP256 => Some(Algs {
            signing: &sig::ECDSA_P256_SHA256_FIXED_SIGNING,
            verify: &sig::ECDSA_P256_SHA256_FIXED,
            ecdh: &agreement::ECDH_P256,
            digest: &digest::SHA256,
        }),
        Curve::NistP384 => Some(Algs {
            signing: &sig::ECDSA_P384_SHA384_FIXED_SIGNING,
            verify: &sig::ECDSA_P384_SHA384_FIXED,
            ecdh: &agreement::ECDH_P384,
            digest: &digest::SHA384,
        }),
        Curve::BrainpoolP256r1 | Curve::BrainpoolP384r1 => None,
    }
}

fn unsupported(curve: Curve) -> CryptoError {
    CryptoError::Unsupported(format!("aws-lc has no {curve}"))
}

pub(crate) fn parse_public(key: &PublicKey) -> Result<AwsPublic, CryptoError> {
    let a = algs(key.curve()).ok_or_else(|| unsupported(key.curve()))?;
    sig::ParsedPublicKey::new(a.verify, key.to_sec1(false))
        .map_err(|e| CryptoError::InvalidPublicKey(format!("aws-lc: {e}")))
}

pub(crate) fn parse_private(key: &PrivateKey) -> Result<AwsPrivate, CryptoError> {
    let a = algs(key.curve()).ok_or_else(|| unsupported(key.curve()))?;
    sig::EcdsaKeyPair::from_private_key_and_public_key(a.signing, &key.scalar(), &key.public_key().to_sec1(false))
        .map_err(|e| CryptoError::InvalidPrivateKey(format!("aws-lc: {e}")))
}

impl Backend for AwsLc {
    fn id(&self) -> BackendId {
        BackendId::AwsLc
    }

    fn supports(&self, curve: Curve, _op: CryptoOp) -> bool {
        algs(curve).is_some()
    }

    fn sign_digest(&self, key: &PrivateKey, digest_bytes: &[u8]) -> Result<Signature, CryptoError> {
        let a = algs(key.curve()).ok_or_else(|| unsupported(key.curve()))?;
        if digest_bytes.len() != a.digest.output_len() {
            // aws-lc signs only digests of the curve's own hash length.
            return super::backend(BackendId::OpenSsl).sign_digest(key, digest_bytes);
        }
        let d = digest::Digest::import_less_safe(digest_bytes, a.digest)
            .map_err(|_| CryptoError::Backend("aws-lc: digest import".into()))?;
        let out = key
            .aws()?
            .sign_digest(&d)
            .map_err(|_| CryptoError::Backend("aws-lc: signing failed".into()))?;
        let n = key.curve().field_len();
        let (r, s) = out.as_ref().split_at(n);
        Ok(Signature {
            curve: key.curve(),
            r: RPoint::XOnly(r.to_vec()),
            s: s.to_vec(),
        })
    }

    fn verify_digest(&self, key: &PublicKey, digest_bytes: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        let a = algs(key.curve()).ok_or_else(|| unsupported(key.curve()))?;
        if digest_bytes.len() != a.digest.output_len() {
            return super::backend(BackendId::OpenSsl).verify_digest(key, digest_bytes, sig);
        }
        let d = digest::Digest::import_less_safe(digest_bytes, a.digest)
            .map_err(|_| CryptoError::Backend("aws-lc: digest import".into()))?;
        let mut rs = [0u8; 96];
        let n = key.curve().field_len();
        rs[..n].copy_from_slice(&sig.x_only_r());
        rs[n..2 * n].copy_from_slice(&sig.s);
        Ok(key.aws()?.verify_digest_sig(&d, &rs[..2 * n]).is_ok())
    }

    fn ecdh_x(&self, private: &PrivateKey, peer: &PublicKey) -> Result<Vec<u8>, CryptoError> {
        let a = algs(private.curve()).ok_or_else(|| unsupported(private.curve()))?;
        let ours = agreement::PrivateKey::from_private_key(a.ecdh, &private.scalar())
            .map_err(|e| CryptoError::InvalidPrivateKey(format!("aws-lc: {e}")))?;
        let theirs = agreement::UnparsedPublicKey::new(a.ecdh, peer.to_sec1(false));
        agreement::agree(&ours, theirs, CryptoError::Backend("aws-lc: ECDH failed".into()), |z| {
            Ok(z.to_vec())
        })
    }
}
