//! aws-lc (through aws-lc-rs): NIST P-256 and P-384, with its assembly field arithmetic.

use super::{Backend, BackendId, CryptoOp};
use crate::{CryptoError, Curve, PrivateKey, PublicKey, RPoint, Signature};
use aws_lc_rs::{agreement, digest, signature as sig};

pub(super) struct AwsLc;

/// aws-lc's parsed verification key (kept in the [`PublicKey`]).
pub(crate) type AwsPublic = sig::ParsedPublicKey;
/// aws-lc's signing key (kept in the [`PrivateKey`]); see [`sign_shim`].
pub(crate) type AwsPrivate = sign_shim::SigningKey;
/// aws-lc's key-agreement key (kept in the [`PrivateKey`]: building it from the scalar
/// recomputes the public point, a scalar multiplication per ECDH otherwise).
pub(crate) type AwsAgreement = agreement::PrivateKey;

struct Algs {
    verify: &'static sig::EcdsaVerificationAlgorithm,
    ecdh: &'static agreement::Algorithm,
    digest: &'static digest::Algorithm,
}

fn algs(curve: Curve) -> Option<Algs> {
    match curve {
        Curve::NistP256 => Some(Algs {
            verify: &sig::ECDSA_P256_SHA256_FIXED,
            ecdh: &agreement::ECDH_P256,
            digest: &digest::SHA256,
        }),
        Curve::NistP384 => Some(Algs {
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
    let nid = match key.curve() {
        Curve::NistP256 => aws_lc_sys::NID_X9_62_prime256v1,
        Curve::NistP384 => aws_lc_sys::NID_secp384r1,
        c => return Err(unsupported(c)),
    };
    sign_shim::SigningKey::new(nid, &key.scalar(), &key.public_key().to_sec1(false))
}

pub(crate) fn parse_agreement(key: &PrivateKey) -> Result<AwsAgreement, CryptoError> {
    let a = algs(key.curve()).ok_or_else(|| unsupported(key.curve()))?;
    agreement::PrivateKey::from_private_key(a.ecdh, &key.scalar())
        .map_err(|e| CryptoError::InvalidPrivateKey(format!("aws-lc: {e}")))
}

/// A fresh ephemeral key agreed with `peer`: the ephemeral public point (SEC 1 uncompressed)
/// and the x coordinate of the shared point. One base-point multiplication for the key and
/// one for the agreement (an ephemeral [`PrivateKey`] would cost a second base-point
/// multiplication when aws-lc rebuilds it from the scalar).
pub(crate) fn ephemeral_ecdh_x(peer: &PublicKey) -> Result<(Vec<u8>, Vec<u8>), CryptoError> {
    let a = algs(peer.curve()).ok_or_else(|| unsupported(peer.curve()))?;
    let failed = |what: &str| CryptoError::Backend(format!("aws-lc: {what}"));
    let ours = agreement::PrivateKey::generate(a.ecdh).map_err(|_| failed("ephemeral key generation"))?;
    let public = ours.compute_public_key().map_err(|_| failed("ephemeral public key"))?;
    let theirs = agreement::UnparsedPublicKey::new(a.ecdh, peer.sec1_uncompressed());
    let z = agreement::agree(&ours, theirs, failed("ECDH failed"), |z| Ok(z.to_vec()))?;
    Ok((public.as_ref().to_vec(), z))
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
        let (r, s) = key.aws()?.sign_digest(digest_bytes, key.curve().field_len())?;
        Ok(Signature {
            curve: key.curve(),
            r: RPoint::XOnly(r),
            s,
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
        let theirs = agreement::UnparsedPublicKey::new(a.ecdh, peer.sec1_uncompressed());
        agreement::agree(
            private.aws_agreement()?,
            theirs,
            CryptoError::Backend("aws-lc: ECDH failed".into()),
            |z| Ok(z.to_vec()),
        )
    }
}

/// ECDSA signing through aws-lc's C API (`ECDSA_do_sign`), the one FFI shim of the crate.
///
/// Why not aws-lc-rs's `EcdsaKeyPair::sign_digest`: per call it creates an `EVP_PKEY_CTX`,
/// DER-encodes the signature and parses the DER back into fixed-width r || s, which is
/// ~3% of a P-256 signature (ENCAP's target is 1.2x OpenSSL's sign). `ECDSA_do_sign` is the
/// signer underneath that path: the same constant-time scalar multiplication and the same
/// hedged nonce (fresh randomness mixed with the key and the digest).
#[allow(unsafe_code)] // the FFI shim: every unsafe block below carries its SAFETY comment
mod sign_shim {
    use crate::CryptoError;
    use aws_lc_sys as ffi;
    use std::ptr::{self, NonNull};

    /// An `EC_KEY` holding the private scalar and the public point, built once per key.
    pub(crate) struct SigningKey(NonNull<ffi::EC_KEY>);

    // SAFETY: the EC_KEY is only mutated in `new`, before it is shared; signing takes it by
    // const pointer, which aws-lc (as BoringSSL) documents as safe from several threads.
    unsafe impl Send for SigningKey {}
    // SAFETY: as for `Send`: shared references only sign, through a const pointer.
    unsafe impl Sync for SigningKey {}

    impl Drop for SigningKey {
        fn drop(&mut self) {
            // SAFETY: we own the only reference to this EC_KEY (it clears the scalar).
            unsafe { ffi::EC_KEY_free(self.0.as_ptr()) }
        }
    }

    /// A BIGNUM freed (and cleared: it may hold the scalar) on drop.
    struct Bn(NonNull<ffi::BIGNUM>);

    impl Bn {
        fn from_be(bytes: &[u8]) -> Result<Bn, CryptoError> {
            // SAFETY: `bytes` is a valid slice; a null `ret` asks aws-lc to allocate.
            let p = unsafe { ffi::BN_bin2bn(bytes.as_ptr(), bytes.len(), ptr::null_mut()) };
            NonNull::new(p)
                .map(Bn)
                .ok_or_else(|| CryptoError::Backend("aws-lc: BN_bin2bn".into()))
        }
    }

    impl Drop for Bn {
        fn drop(&mut self) {
            // SAFETY: allocated by BN_bin2bn and owned here.
            unsafe { ffi::BN_clear_free(self.0.as_ptr()) }
        }
    }

    impl SigningKey {
        /// `sec1` is the uncompressed public point (04 || x || y) that belongs to `scalar`;
        /// `EC_KEY_check_key` confirms the pair.
        pub(crate) fn new(nid: i32, scalar: &[u8], sec1: &[u8]) -> Result<SigningKey, CryptoError> {
            let invalid = |what: &str| CryptoError::InvalidPrivateKey(format!("aws-lc: {what}"));
            let n = (sec1.len().saturating_sub(1)) / 2;
            if sec1.len() != 1 + 2 * n || sec1.first() != Some(&4) {
                return Err(invalid("public key is not an uncompressed point"));
            }
            // SAFETY: plain constructor; null is handled.
            let key = NonNull::new(unsafe { ffi::EC_KEY_new_by_curve_name(nid) })
                .map(SigningKey)
                .ok_or_else(|| invalid("EC_KEY_new_by_curve_name"))?;
            let d = Bn::from_be(scalar)?;
            let x = Bn::from_be(&sec1[1..1 + n])?;
            let y = Bn::from_be(&sec1[1 + n..])?;
            // SAFETY: all pointers are live, non-null objects owned by this function; the
            // setters copy the BIGNUMs.
            let ok = unsafe {
                ffi::EC_KEY_set_private_key(key.0.as_ptr(), d.0.as_ptr()) == 1
                    && ffi::EC_KEY_set_public_key_affine_coordinates(key.0.as_ptr(), x.0.as_ptr(), y.0.as_ptr()) == 1
                    && ffi::EC_KEY_check_key(key.0.as_ptr()) == 1
            };
            if ok {
                Ok(key)
            } else {
                Err(invalid("private and public key do not form a valid key pair"))
            }
        }

        /// (r, s), each big-endian and `n` bytes long.
        pub(crate) fn sign_digest(&self, digest: &[u8], n: usize) -> Result<(Vec<u8>, Vec<u8>), CryptoError> {
            let failed = || CryptoError::Backend("aws-lc: signing failed".into());
            // SAFETY: `digest` is a valid slice and the key a live EC_KEY (const use).
            let sig = unsafe { ffi::ECDSA_do_sign(digest.as_ptr(), digest.len(), self.0.as_ptr()) };
            if sig.is_null() {
                return Err(failed());
            }
            let (mut r, mut s) = (vec![0u8; n], vec![0u8; n]);
            // SAFETY: `sig` is non-null and freed exactly once below; get0 borrows r and s
            // from it, and each output buffer is `n` bytes long.
            let ok = unsafe {
                let (mut br, mut bs) = (ptr::null(), ptr::null());
                ffi::ECDSA_SIG_get0(sig, &mut br, &mut bs);
                let ok = !br.is_null()
                    && !bs.is_null()
                    && ffi::BN_bn2bin_padded(r.as_mut_ptr(), n, br) == 1
                    && ffi::BN_bn2bin_padded(s.as_mut_ptr(), n, bs) == 1;
                ffi::ECDSA_SIG_free(sig);
                ok
            };
            if ok {
                Ok((r, s))
            } else {
                Err(failed())
            }
        }
    }
}
