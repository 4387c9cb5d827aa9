//! ECDSA keys and signatures, ECDH, and the point forms 1609.2 carries. Carried out by
//! [`backend`] (OpenSSL, aws-lc, RustCrypto, our own), with our own variable-time arithmetic
//! in `ec` and the per-signer tables of `precomp` for verification.

pub mod backend;
pub(crate) mod ec;
pub(crate) mod precomp;

use crate::{hash, CryptoError, Curve};
use backend::{backend, selected, AwsAgreement, AwsPrivate, AwsPublic, CryptoOp, RcPrivate, RcPublic};
use ec::{point::Affine, point::Group, table::FixedTable, verify::QMul};
use openssl::bn::{BigNum, BigNumContext};
use openssl::ec::{EcGroup, EcGroupRef, EcKey, EcPoint, PointConversionForm};
use openssl::pkey::{Private, Public};
use precomp::SignerTable;
use std::sync::{Arc, OnceLock};

/// An elliptic-curve point in one of the forms 1609.2 puts on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EccPoint {
    /// x coordinate only (used for the r of a signature, never for public keys).
    XOnly(Vec<u8>),
    /// compressed with even y.
    CompressedY0(Vec<u8>),
    /// compressed with odd y.
    CompressedY1(Vec<u8>),
    Uncompressed {
        x: Vec<u8>,
        y: Vec<u8>,
    },
}

impl EccPoint {
    /// SEC 1 octet string of the point (x-only has none).
    pub fn to_sec1(&self) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(97);
        match self {
            EccPoint::XOnly(_) => return None,
            EccPoint::CompressedY0(x) => {
                out.push(2);
                out.extend_from_slice(x);
            }
            EccPoint::CompressedY1(x) => {
                out.push(3);
                out.extend_from_slice(x);
            }
            EccPoint::Uncompressed { x, y } => {
                out.push(4);
                out.extend_from_slice(x);
                out.extend_from_slice(y);
            }
        }
        Some(out)
    }

    /// Parses a SEC 1 octet string (02/03/04 prefix) without checking the curve.
    pub fn from_sec1(bytes: &[u8]) -> Result<EccPoint, CryptoError> {
        let bad = || CryptoError::InvalidPublicKey(format!("bad SEC1 point of {} bytes", bytes.len()));
        let (&tag, rest) = bytes.split_first().ok_or_else(bad)?;
        match tag {
            2 => Ok(EccPoint::CompressedY0(rest.to_vec())),
            3 => Ok(EccPoint::CompressedY1(rest.to_vec())),
            4 if rest.len() % 2 == 0 => {
                let (x, y) = rest.split_at(rest.len() / 2);
                Ok(EccPoint::Uncompressed {
                    x: x.to_vec(),
                    y: y.to_vec(),
                })
            }
            _ => Err(bad()),
        }
    }
}

/// A verification (or encryption) public key on a known curve. Cloning is cheap (shared);
/// each backend's parsed form of the key is built on first use and kept.
#[derive(Clone)]
pub struct PublicKey {
    inner: Arc<PublicInner>,
}

struct PublicInner {
    curve: Curve,
    /// OpenSSL's form, built only when the OpenSSL backend uses the key (reading a point into
    /// OpenSSL costs more than validating it with our own arithmetic).
    key: OnceLock<Result<EcKey<Public>, CryptoError>>,
    /// SEC 1 uncompressed encoding.
    sec1: Vec<u8>,
    aws: OnceLock<Result<AwsPublic, CryptoError>>,
    rustcrypto: OnceLock<Result<RcPublic, CryptoError>>,
    own: OnceLock<OwnPoint>,
}

/// The key as a point of our own arithmetic.
pub(crate) enum OwnPoint {
    N4(Affine<4>),
    N6(Affine<6>),
}

impl std::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PublicKey({}, {})", self.curve(), hex_lower(&self.to_sec1(true)))
    }
}

fn hex_lower(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn group(curve: Curve) -> Result<EcGroup, CryptoError> {
    Ok(EcGroup::from_curve_name(curve.nid())?)
}

/// The curve's group, built once per process (OpenSSL builds an `EC_GROUP` on every
/// `EC_GROUP_new_by_curve_name`; decoding a point needs one).
fn shared_group(curve: Curve) -> Result<&'static EcGroupRef, CryptoError> {
    static GROUPS: [OnceLock<Option<EcGroup>>; 4] = [const { OnceLock::new() }; 4];
    let i = Curve::ALL.iter().position(|c| *c == curve).expect("a listed curve");
    GROUPS[i]
        .get_or_init(|| group(curve).ok())
        .as_deref()
        .ok_or_else(|| CryptoError::Backend(format!("OpenSSL has no group for {curve}")))
}

impl PublicKey {
    /// Builds a key from a point; the point must lie on the curve (checked by OpenSSL).
    pub fn from_point(curve: Curve, point: &EccPoint) -> Result<PublicKey, CryptoError> {
        let sec1 = point
            .to_sec1()
            .ok_or_else(|| CryptoError::InvalidPublicKey("x-only point cannot be a public key".into()))?;
        PublicKey::from_sec1(curve, &sec1)
    }

    pub fn from_sec1(curve: Curve, sec1: &[u8]) -> Result<PublicKey, CryptoError> {
        let expected = match sec1.first() {
            Some(2) | Some(3) => 1 + curve.field_len(),
            Some(4) => 1 + 2 * curve.field_len(),
            _ => return Err(CryptoError::InvalidPublicKey("unknown point form".into())),
        };
        if sec1.len() != expected {
            return Err(CryptoError::InvalidLength {
                what: "public key",
                expected,
                got: sec1.len(),
            });
        }
        // Public-key validation (SEC 1 §3.2.2.1) with our own arithmetic (all public values):
        // coordinates inside the field and the point on the curve (uncompressed: y² = x³ + ax
        // + b checked; compressed: y is the square root, which must exist); no 02/03/04
        // encoding is the point at infinity. Every curve here has cofactor 1, so a point on
        // the curve is in the group of order n: an n·Q = O test (`EC_KEY_check_key`, a full
        // scalar multiplication) would add nothing. OpenSSL's form of the key is built only
        // if its backend is used.
        let n = curve.field_len();
        let x = &sec1[1..1 + n];
        let own = match (curve, sec1[0]) {
            (Curve::NistP256 | Curve::BrainpoolP256r1, 4) => {
                with_curve4(curve, |g, _| g.affine_from_be(x, &sec1[1 + n..])).map(OwnPoint::N4)
            }
            (Curve::NistP384 | Curve::BrainpoolP384r1, 4) => {
                with_curve6(curve, |g, _| g.affine_from_be(x, &sec1[1 + n..])).map(OwnPoint::N6)
            }
            (Curve::NistP256 | Curve::BrainpoolP256r1, tag) => {
                with_curve4(curve, |g, _| g.decompress(x, tag == 3)).map(OwnPoint::N4)
            }
            (Curve::NistP384 | Curve::BrainpoolP384r1, tag) => {
                with_curve6(curve, |g, _| g.decompress(x, tag == 3)).map(OwnPoint::N6)
            }
        }
        .ok_or_else(|| CryptoError::InvalidPublicKey(format!("point not on {curve}")))?;
        let mut uncompressed = Vec::with_capacity(1 + 2 * n);
        uncompressed.push(4);
        uncompressed.extend_from_slice(x);
        match &own {
            OwnPoint::N4(a) => with_curve4(curve, |g, _| {
                uncompressed.extend_from_slice(&ec::field::to_be_bytes(&g.p.to_plain(&a.y), n))
            }),
            OwnPoint::N6(a) => with_curve6(curve, |g, _| {
                uncompressed.extend_from_slice(&ec::field::to_be_bytes(&g.p.to_plain(&a.y), n))
            }),
        }
        Ok(PublicKey {
            inner: Arc::new(PublicInner {
                curve,
                key: OnceLock::new(),
                sec1: uncompressed,
                aws: OnceLock::new(),
                rustcrypto: OnceLock::new(),
                own: OnceLock::from(own),
            }),
        })
    }

    fn from_ec_key(curve: Curve, key: EcKey<Public>) -> Result<PublicKey, CryptoError> {
        let mut ctx = BigNumContext::new()?;
        let sec1 = key
            .public_key()
            .to_bytes(key.group(), PointConversionForm::UNCOMPRESSED, &mut ctx)?;
        Ok(PublicKey {
            inner: Arc::new(PublicInner {
                curve,
                key: OnceLock::from(Ok(key)),
                sec1,
                aws: OnceLock::new(),
                rustcrypto: OnceLock::new(),
                own: OnceLock::new(),
            }),
        })
    }

    pub fn curve(&self) -> Curve {
        self.inner.curve
    }

    /// The SEC 1 uncompressed encoding, borrowed.
    pub(crate) fn sec1_uncompressed(&self) -> &[u8] {
        &self.inner.sec1
    }

    pub fn to_sec1(&self, compressed: bool) -> Vec<u8> {
        let sec1 = &self.inner.sec1;
        if !compressed {
            return sec1.clone();
        }
        let n = self.curve().field_len();
        let mut out = Vec::with_capacity(1 + n);
        out.push(2 + (sec1[2 * n] & 1));
        out.extend_from_slice(&sec1[1..1 + n]);
        out
    }

    pub fn to_point(&self, compressed: bool) -> EccPoint {
        EccPoint::from_sec1(&self.to_sec1(compressed)).expect("own encoding parses")
    }

    /// Verifies a signature over an already computed digest with the selected backend
    /// (the fastest for the curve unless one is chosen, see [`crate::backend`]).
    ///
    /// A compressed R is a claim about the point itself, so it is checked exactly (x and the
    /// parity of y) with our own arithmetic: the backends verify x-only r and would accept
    /// the flipped-parity twin, which the per-signer tables reject. One verdict for every
    /// strategy costs the speed of the `v2x` backend on compressed-R signatures only.
    pub fn verify_digest(&self, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        self.check_curve(sig)?;
        if matches!(sig.r, RPoint::Compressed { .. }) {
            return self.verify_digest_vartime(digest, sig);
        }
        backend(selected(self.curve(), CryptoOp::Verify)).verify_digest(self, digest, sig)
    }

    /// Verifies with our own variable-time arithmetic and no per-signer table (the `v2x`
    /// backend); a compressed R is checked exactly.
    pub fn verify_digest_vartime(&self, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        self.check_curve(sig)?;
        Ok(match self.own_point() {
            OwnPoint::N4(q) => with_curve4(self.curve(), |g, gt| {
                ec::verify::verify(g, gt, QMul::Once(q), digest, &sig.r, &sig.s)
            }),
            OwnPoint::N6(q) => with_curve6(self.curve(), |g, gt| {
                ec::verify::verify(g, gt, QMul::Once(q), digest, &sig.r, &sig.s)
            }),
        })
    }

    /// Hashes `message` with the curve's hash and verifies.
    pub fn verify_message(&self, message: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        self.verify_digest(hash(self.curve().hash_alg(), message).as_ref(), sig)
    }

    pub(crate) fn check_curve(&self, sig: &Signature) -> Result<(), CryptoError> {
        if sig.curve != self.curve() {
            return Err(CryptoError::CurveMismatch {
                expected: self.curve(),
                found: sig.curve,
            });
        }
        Ok(())
    }

    /// OpenSSL's form of the key (built on first use from the validated point).
    pub(crate) fn ec_key(&self) -> Result<&EcKey<Public>, CryptoError> {
        self.inner
            .key
            .get_or_init(|| {
                let group = shared_group(self.curve())?;
                let mut ctx = BigNumContext::new()?;
                let point = EcPoint::from_bytes(group, &self.inner.sec1, &mut ctx)
                    .map_err(|e| CryptoError::InvalidPublicKey(format!("OpenSSL: {e}")))?;
                Ok(EcKey::from_public_key(group, &point)?)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    pub(crate) fn aws(&self) -> Result<&AwsPublic, CryptoError> {
        self.inner
            .aws
            .get_or_init(|| crate::ecdsa::backend::aws_lc_parse_public(self))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub(crate) fn rustcrypto(&self) -> Result<&RcPublic, CryptoError> {
        self.inner
            .rustcrypto
            .get_or_init(|| crate::ecdsa::backend::rustcrypto_parse_public(self))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The key as a point of our own arithmetic (validated on construction).
    pub(crate) fn own_point(&self) -> &OwnPoint {
        self.inner.own.get_or_init(|| {
            let n = self.curve().field_len();
            let (x, y) = self.inner.sec1[1..].split_at(n);
            match self.curve() {
                Curve::NistP256 | Curve::BrainpoolP256r1 => {
                    OwnPoint::N4(with_curve4(self.curve(), |g, _| g.affine_from_be(x, y)).expect("a validated point"))
                }
                Curve::NistP384 | Curve::BrainpoolP384r1 => {
                    OwnPoint::N6(with_curve6(self.curve(), |g, _| g.affine_from_be(x, y)).expect("a validated point"))
                }
            }
        })
    }
}

/// The group and generator table of a 4-limb curve.
pub(crate) fn with_curve4<R>(curve: Curve, f: impl FnOnce(&'static Group<4>, &'static FixedTable<4>) -> R) -> R {
    match curve {
        Curve::NistP256 => f(&ec::P256, &ec::P256_G),
        Curve::BrainpoolP256r1 => f(&ec::BP256, &ec::BP256_G),
        _ => unreachable!("{curve} is not a 256-bit curve"),
    }
}

/// The group and generator table of a 6-limb curve.
pub(crate) fn with_curve6<R>(curve: Curve, f: impl FnOnce(&'static Group<6>, &'static FixedTable<6>) -> R) -> R {
    match curve {
        Curve::NistP384 => f(&ec::P384, &ec::P384_G),
        Curve::BrainpoolP384r1 => f(&ec::BP384, &ec::BP384_G),
        _ => unreachable!("{curve} is not a 384-bit curve"),
    }
}

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.curve() == other.curve() && self.inner.sec1 == other.inner.sec1
    }
}
impl Eq for PublicKey {}

/// A signing (or decryption) private key.
#[derive(Clone)]
pub struct PrivateKey {
    inner: Arc<PrivateInner>,
}

struct PrivateInner {
    curve: Curve,
    key: EcKey<Private>,
    public: PublicKey,
    aws: OnceLock<Result<AwsPrivate, CryptoError>>,
    aws_agreement: OnceLock<Result<AwsAgreement, CryptoError>>,
    rustcrypto: OnceLock<Result<RcPrivate, CryptoError>>,
    /// Our own public key's table, to recover R for compressed-R signatures.
    own_table: OnceLock<SignerTable>,
}

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the secret.
        write!(f, "PrivateKey({}, public {:?})", self.curve(), self.public_key())
    }
}

impl PrivateKey {
    pub fn generate(curve: Curve) -> Result<PrivateKey, CryptoError> {
        let group = group(curve)?;
        let key = EcKey::generate(&group)?;
        Self::from_ec_key(curve, key)
    }

    /// From a big-endian scalar (as in the test vectors).
    pub fn from_scalar(curve: Curve, scalar: &[u8]) -> Result<PrivateKey, CryptoError> {
        let group = group(curve)?;
        let d = BigNum::from_slice(scalar)?;
        let mut ctx = BigNumContext::new()?;
        let mut order = BigNum::new()?;
        group.order(&mut order, &mut ctx)?;
        if d.num_bits() == 0 || d >= order {
            return Err(CryptoError::InvalidPrivateKey("scalar out of range".into()));
        }
        let mut q = EcPoint::new(&group)?;
        q.mul_generator2(&group, &d, &mut ctx)?;
        let key = EcKey::from_private_components(&group, &d, &q)?;
        Self::from_ec_key(curve, key)
    }

    fn from_ec_key(curve: Curve, key: EcKey<Private>) -> Result<PrivateKey, CryptoError> {
        let public = EcKey::from_public_key(key.group(), key.public_key())?;
        Ok(PrivateKey {
            inner: Arc::new(PrivateInner {
                curve,
                key,
                public: PublicKey::from_ec_key(curve, public)?,
                aws: OnceLock::new(),
                aws_agreement: OnceLock::new(),
                rustcrypto: OnceLock::new(),
                own_table: OnceLock::new(),
            }),
        })
    }

    pub fn curve(&self) -> Curve {
        self.inner.curve
    }

    pub fn public_key(&self) -> &PublicKey {
        &self.inner.public
    }

    /// The secret scalar, big-endian, padded to the field length.
    pub fn scalar(&self) -> Vec<u8> {
        self.inner
            .key
            .private_key()
            .to_vec_padded(self.curve().field_len() as i32)
            .expect("scalar fits the field")
    }

    /// SEC 1 PEM ("EC PRIVATE KEY"), for storage with owner-only permissions.
    pub fn to_pem(&self) -> Result<Vec<u8>, CryptoError> {
        Ok(self.inner.key.private_key_to_pem()?)
    }

    pub fn from_pem(curve: Curve, pem: &[u8]) -> Result<PrivateKey, CryptoError> {
        let key = EcKey::private_key_from_pem(pem).map_err(|e| CryptoError::InvalidPrivateKey(e.to_string()))?;
        let expected = curve.nid();
        if key.group().curve_name() != Some(expected) {
            return Err(CryptoError::InvalidPrivateKey(format!("PEM key is not on {curve}")));
        }
        key.check_key()
            .map_err(|e| CryptoError::InvalidPrivateKey(e.to_string()))?;
        Self::from_ec_key(curve, key)
    }

    /// ECDSA over a digest with the selected backend (constant time); r is returned
    /// x-only (the form 1609.2 senders normally use).
    pub fn sign_digest(&self, digest: &[u8]) -> Result<Signature, CryptoError> {
        backend(selected(self.curve(), CryptoOp::Sign)).sign_digest(self, digest)
    }

    /// ECDSA that also carries the point R in compressed form (1609.2 allows it so that
    /// receivers can verify against R exactly and batch-verify).
    ///
    /// The signature itself comes from the constant-time backend. R is then recovered
    /// from public values only, R = (e/s)·G + (r/s)·Q, with our variable-time arithmetic
    /// and a table of our own public key: nothing secret enters variable-time code.
    pub fn sign_digest_compressed_r(&self, digest: &[u8]) -> Result<Signature, CryptoError> {
        let sig = self.sign_digest(digest)?;
        let table = self
            .inner
            .own_table
            .get_or_init(|| SignerTable::build(self.public_key(), crate::ecdsa::precomp::DEFAULT_WINDOW));
        let (x, y_odd) = table
            .recover_r(digest, &sig)
            .ok_or_else(|| CryptoError::Backend("R recovery failed for a fresh signature".into()))?;
        Ok(Signature {
            curve: sig.curve,
            r: RPoint::Compressed { y_odd, x },
            s: sig.s,
        })
    }

    /// Hashes `message` with the curve's hash and signs.
    pub fn sign_message(&self, message: &[u8]) -> Result<Signature, CryptoError> {
        self.sign_digest(hash(self.curve().hash_alg(), message).as_ref())
    }

    pub(crate) fn ec_key(&self) -> &EcKey<Private> {
        &self.inner.key
    }

    pub(crate) fn aws(&self) -> Result<&AwsPrivate, CryptoError> {
        self.inner
            .aws
            .get_or_init(|| crate::ecdsa::backend::aws_lc_parse_private(self))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub(crate) fn aws_agreement(&self) -> Result<&AwsAgreement, CryptoError> {
        self.inner
            .aws_agreement
            .get_or_init(|| crate::ecdsa::backend::aws_lc_parse_agreement(self))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub(crate) fn rustcrypto(&self) -> Result<&RcPrivate, CryptoError> {
        self.inner
            .rustcrypto
            .get_or_init(|| crate::ecdsa::backend::rustcrypto_parse_private(self))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// The r part of a 1609.2 ECDSA signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RPoint {
    /// r itself (x of R reduced mod n).
    XOnly(Vec<u8>),
    /// The point R, compressed.
    Compressed { y_odd: bool, x: Vec<u8> },
}

/// An ECDSA signature as 1609.2 carries it: r (x-only or compressed R) and s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub curve: Curve,
    pub r: RPoint,
    pub s: Vec<u8>,
}

impl Signature {
    /// Builds a signature from wire parts, checking lengths against the curve.
    pub fn new(curve: Curve, r: RPoint, s: Vec<u8>) -> Result<Signature, CryptoError> {
        let n = curve.field_len();
        let rlen = match &r {
            RPoint::XOnly(x) | RPoint::Compressed { x, .. } => x.len(),
        };
        if rlen != n || s.len() != n {
            return Err(CryptoError::InvalidSignature(format!(
                "r/s must be {n} bytes, got {rlen}/{}",
                s.len()
            )));
        }
        Ok(Signature { curve, r, s })
    }

    /// A copy with r reduced to x-only form (1609.2 §5.3.1 allows verifiers and
    /// forwarders to convert).
    pub fn to_x_only(&self) -> Result<Signature, CryptoError> {
        Ok(Signature {
            curve: self.curve,
            r: RPoint::XOnly(self.x_only_r()),
            s: self.s.clone(),
        })
    }

    /// r as an integer: x-only r as is, or x(R) mod n.
    pub fn x_only_r(&self) -> Vec<u8> {
        match &self.r {
            RPoint::XOnly(r) => r.clone(),
            RPoint::Compressed { x, .. } => {
                let len = self.curve.field_len();
                match self.curve {
                    Curve::NistP256 | Curve::BrainpoolP256r1 => with_curve4(self.curve, |g, _| {
                        ec::field::from_be_bytes::<4>(x)
                            .map_or_else(|| x.clone(), |v| ec::field::to_be_bytes(&g.n.reduce_once(&v), len))
                    }),
                    Curve::NistP384 | Curve::BrainpoolP384r1 => with_curve6(self.curve, |g, _| {
                        ec::field::from_be_bytes::<6>(x)
                            .map_or_else(|| x.clone(), |v| ec::field::to_be_bytes(&g.n.reduce_once(&v), len))
                    }),
                }
            }
        }
    }
}

/// ECDH: the x coordinate of d * Q, padded to the field length (1609.2 uses it as Z),
/// with the selected backend.
pub fn ecdh_x(private: &PrivateKey, peer: &PublicKey) -> Result<Vec<u8>, CryptoError> {
    if private.curve() != peer.curve() {
        return Err(CryptoError::CurveMismatch {
            expected: private.curve(),
            found: peer.curve(),
        });
    }
    backend(selected(private.curve(), CryptoOp::Ecdh)).ecdh_x(private, peer)
}

/// ECDH with a fresh ephemeral key (ECIES): the ephemeral public key and the x coordinate
/// of the shared point, with the selected backend (aws-lc generates and agrees in one step).
pub(crate) fn ephemeral_ecdh_x(peer: &PublicKey) -> Result<(PublicKey, Vec<u8>), CryptoError> {
    if selected(peer.curve(), CryptoOp::Ecdh) == backend::BackendId::AwsLc {
        let (public, z) = backend::aws_lc_ephemeral_ecdh_x(peer)?;
        return Ok((PublicKey::from_sec1(peer.curve(), &public)?, z));
    }
    let ephemeral = PrivateKey::generate(peer.curve())?;
    let z = ecdh_x(&ephemeral, peer)?;
    Ok((ephemeral.public_key().clone(), z))
}

/// Cryptographically secure random bytes from aws-lc's DRBG (the one that also draws the
/// ECDSA nonces and ephemeral keys; a call costs a fraction of OpenSSL 3's `RAND_bytes`, whose
/// provider dispatch showed up at ≈ 2% of the PKI service's CPU).
pub fn random_bytes(len: usize) -> Vec<u8> {
    let mut buf = vec![0u8; len];
    aws_lc_rs::rand::fill(&mut buf).expect("aws-lc DRBG");
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_verify_every_curve_and_r_form() {
        for curve in Curve::ALL {
            let key = PrivateKey::generate(curve).unwrap();
            let digest = hash(curve.hash_alg(), b"hello v2x");
            for sig in [
                key.sign_digest(digest.as_ref()).unwrap(),
                key.sign_digest_compressed_r(digest.as_ref()).unwrap(),
            ] {
                assert!(
                    key.public_key().verify_digest(digest.as_ref(), &sig).unwrap(),
                    "{curve}"
                );
                let x_only = sig.to_x_only().unwrap();
                assert!(key.public_key().verify_digest(digest.as_ref(), &x_only).unwrap());
                let mut bad = sig.clone();
                bad.s[5] ^= 1;
                assert!(!key.public_key().verify_digest(digest.as_ref(), &bad).unwrap_or(false));
            }
        }
    }

    #[test]
    fn public_key_round_trips_compressed_and_uncompressed() {
        for curve in Curve::ALL {
            let key = PrivateKey::generate(curve).unwrap();
            let pubk = key.public_key();
            for compressed in [true, false] {
                let point = pubk.to_point(compressed);
                let back = PublicKey::from_point(curve, &point).unwrap();
                assert_eq!(&back, pubk);
            }
        }
    }

    #[test]
    fn rejects_off_curve_and_wrong_length_points() {
        let mut sec1 = PrivateKey::generate(Curve::NistP256)
            .unwrap()
            .public_key()
            .to_sec1(false);
        sec1[40] ^= 0xff;
        assert!(PublicKey::from_sec1(Curve::NistP256, &sec1).is_err());
        assert!(PublicKey::from_sec1(Curve::NistP256, &sec1[..10]).is_err());
        assert!(PublicKey::from_point(Curve::NistP256, &EccPoint::XOnly(vec![1; 32])).is_err());
    }

    #[test]
    fn rejects_compressed_x_outside_the_field_or_off_the_curve() {
        for curve in Curve::ALL {
            let n = curve.field_len();
            // x = 2^(8n) - 1 is above p on every curve here.
            let mut sec1 = vec![2u8];
            sec1.extend(std::iter::repeat_n(0xff, n));
            assert!(PublicKey::from_sec1(curve, &sec1).is_err(), "{curve}");
            // About half of all x have no point; find one and check both parities fail.
            let off = (1u8..=255)
                .map(|b| {
                    let mut x = vec![0u8; n];
                    x[n - 1] = b;
                    x
                })
                .find(|x| {
                    // OpenSSL is the judge of which x have a point.
                    let mut sec1 = vec![2u8];
                    sec1.extend_from_slice(x);
                    let mut ctx = BigNumContext::new().unwrap();
                    EcPoint::from_bytes(shared_group(curve).unwrap(), &sec1, &mut ctx).is_err()
                })
                .expect("an x without a point");
            for tag in [2u8, 3] {
                let mut sec1 = vec![tag];
                sec1.extend_from_slice(&off);
                assert!(PublicKey::from_sec1(curve, &sec1).is_err(), "{curve}");
            }
        }
    }

    #[test]
    fn decompression_agrees_with_openssl() {
        for curve in Curve::ALL {
            let group = shared_group(curve).unwrap();
            for _ in 0..16 {
                let key = PrivateKey::generate(curve).unwrap();
                let sec1 = key.public_key().to_sec1(false);
                let n = curve.field_len();
                let odd = sec1[2 * n] & 1 == 1;
                for parity in [odd, !odd] {
                    let mut compressed = vec![2 + u8::from(parity)];
                    compressed.extend_from_slice(&sec1[1..1 + n]);
                    let ours = PublicKey::from_sec1(curve, &compressed).unwrap().to_sec1(false);
                    let mut ctx = BigNumContext::new().unwrap();
                    let theirs = EcPoint::from_bytes(group, &compressed, &mut ctx)
                        .unwrap()
                        .to_bytes(group, PointConversionForm::UNCOMPRESSED, &mut ctx)
                        .unwrap();
                    assert_eq!(ours, theirs, "{curve}");
                    assert_eq!(ours == sec1, parity == odd, "{curve}");
                }
            }
        }
    }

    #[test]
    fn points_we_accept_openssl_accepts_and_off_curve_ones_neither() {
        for curve in Curve::ALL {
            let n = curve.field_len();
            for _ in 0..8 {
                let key = PrivateKey::generate(curve).unwrap();
                let sec1 = key.public_key().to_sec1(false);
                let read = PublicKey::from_sec1(curve, &sec1).unwrap();
                // OpenSSL's form is built lazily from the validated point and agrees.
                assert!(read.ec_key().is_ok(), "{curve}");
                let digest = hash(curve.hash_alg(), b"lazy");
                let sig = key.sign_digest(digest.as_ref()).unwrap();
                let openssl = backend(backend::BackendId::OpenSsl);
                assert!(openssl.verify_digest(&read, digest.as_ref(), &sig).unwrap(), "{curve}");
                // y + 1: off the curve (y and y + 1 cannot both square to x³ + ax + b).
                let mut off = sec1.clone();
                let last = off.len() - 1;
                off[last] = off[last].wrapping_add(1);
                if off[last] != 0 {
                    assert!(PublicKey::from_sec1(curve, &off).is_err(), "{curve}");
                }
                // y = 2^(8n) - 1, above p: refused, as OpenSSL does.
                let mut big = sec1.clone();
                big[1 + n..].iter_mut().for_each(|b| *b = 0xff);
                assert!(PublicKey::from_sec1(curve, &big).is_err(), "{curve}");
            }
        }
    }

    #[test]
    fn ephemeral_agreement_matches_the_recipient() {
        for curve in [Curve::NistP256, Curve::BrainpoolP256r1] {
            let recipient = PrivateKey::generate(curve).unwrap();
            let (ephemeral, z) = ephemeral_ecdh_x(recipient.public_key()).unwrap();
            assert_eq!(ecdh_x(&recipient, &ephemeral).unwrap(), z, "{curve}");
        }
    }

    #[test]
    fn ecdh_agrees() {
        let a = PrivateKey::generate(Curve::BrainpoolP256r1).unwrap();
        let b = PrivateKey::generate(Curve::BrainpoolP256r1).unwrap();
        assert_eq!(ecdh_x(&a, b.public_key()).unwrap(), ecdh_x(&b, a.public_key()).unwrap());
    }

    #[test]
    fn scalar_and_pem_round_trip() {
        let key = PrivateKey::generate(Curve::NistP384).unwrap();
        let again = PrivateKey::from_scalar(Curve::NistP384, &key.scalar()).unwrap();
        assert_eq!(again.public_key(), key.public_key());
        let pem = key.to_pem().unwrap();
        let back = PrivateKey::from_pem(Curve::NistP384, &pem).unwrap();
        assert_eq!(back.public_key(), key.public_key());
        assert!(PrivateKey::from_pem(Curve::NistP256, &pem).is_err());
    }
}
