//! ECDSA keys and signatures, ECDH, and the point forms 1609.2 carries.

use crate::{hash, CryptoError, Curve};
use openssl::bn::{BigNum, BigNumContext, BigNumRef};
use openssl::ec::{EcGroup, EcKey, EcPoint, PointConversionForm};
use openssl::ecdsa::EcdsaSig;
use openssl::pkey::{PKey, Private, Public};

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

/// A verification (or encryption) public key on a known curve.
#[derive(Clone)]
pub struct PublicKey {
    curve: Curve,
    key: EcKey<Public>,
}

impl std::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PublicKey({}, {})", self.curve, hex_lower(&self.to_sec1(true)))
    }
}

fn hex_lower(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn group(curve: Curve) -> Result<EcGroup, CryptoError> {
    Ok(EcGroup::from_curve_name(curve.nid())?)
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
        let group = group(curve)?;
        let mut ctx = BigNumContext::new()?;
        let point = EcPoint::from_bytes(&group, sec1, &mut ctx)
            .map_err(|e| CryptoError::InvalidPublicKey(format!("point not on {curve}: {e}")))?;
        let key = EcKey::from_public_key(&group, &point)?;
        key.check_key()
            .map_err(|e| CryptoError::InvalidPublicKey(e.to_string()))?;
        Ok(PublicKey { curve, key })
    }

    pub fn curve(&self) -> Curve {
        self.curve
    }

    pub fn to_sec1(&self, compressed: bool) -> Vec<u8> {
        let form = if compressed {
            PointConversionForm::COMPRESSED
        } else {
            PointConversionForm::UNCOMPRESSED
        };
        let mut ctx = BigNumContext::new().expect("BN_CTX allocation");
        self.key
            .public_key()
            .to_bytes(self.key.group(), form, &mut ctx)
            .expect("encoding a valid point")
    }

    pub fn to_point(&self, compressed: bool) -> EccPoint {
        EccPoint::from_sec1(&self.to_sec1(compressed)).expect("own encoding parses")
    }

    /// Verifies a signature over an already computed digest.
    pub fn verify_digest(&self, digest: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        if sig.curve != self.curve {
            return Err(CryptoError::CurveMismatch {
                expected: self.curve,
                found: sig.curve,
            });
        }
        let r = match &sig.r {
            RPoint::XOnly(r) => BigNum::from_slice(r)?,
            RPoint::Compressed { x, .. } => {
                // r = x(R) mod n
                let mut ctx = BigNumContext::new()?;
                let mut order = BigNum::new()?;
                self.key.group().order(&mut order, &mut ctx)?;
                let x = BigNum::from_slice(x)?;
                let mut r = BigNum::new()?;
                r.nnmod(&x, &order, &mut ctx)?;
                r
            }
        };
        let s = BigNum::from_slice(&sig.s)?;
        let sig = EcdsaSig::from_private_components(r, s)?;
        Ok(sig.verify(digest, &self.key)?)
    }

    /// Hashes `message` with the curve's hash and verifies.
    pub fn verify_message(&self, message: &[u8], sig: &Signature) -> Result<bool, CryptoError> {
        self.verify_digest(hash(self.curve.hash_alg(), message).as_ref(), sig)
    }

    pub(crate) fn ec_key(&self) -> &EcKey<Public> {
        &self.key
    }
}

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.curve == other.curve && self.to_sec1(true) == other.to_sec1(true)
    }
}
impl Eq for PublicKey {}

/// A signing (or decryption) private key.
#[derive(Clone)]
pub struct PrivateKey {
    curve: Curve,
    key: EcKey<Private>,
    public: PublicKey,
}

impl std::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the secret.
        write!(f, "PrivateKey({}, public {:?})", self.curve, self.public)
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
            curve,
            key,
            public: PublicKey { curve, key: public },
        })
    }

    pub fn curve(&self) -> Curve {
        self.curve
    }

    pub fn public_key(&self) -> &PublicKey {
        &self.public
    }

    /// The secret scalar, big-endian, padded to the field length.
    pub fn scalar(&self) -> Vec<u8> {
        self.key
            .private_key()
            .to_vec_padded(self.curve.field_len() as i32)
            .expect("scalar fits the field")
    }

    /// SEC 1 PEM ("EC PRIVATE KEY"), for storage with owner-only permissions.
    pub fn to_pem(&self) -> Result<Vec<u8>, CryptoError> {
        Ok(self.key.private_key_to_pem()?)
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

    /// ECDSA over a digest; r is returned x-only (the form 1609.2 senders normally use).
    pub fn sign_digest(&self, digest: &[u8]) -> Result<Signature, CryptoError> {
        let sig = EcdsaSig::sign(digest, &self.key)?;
        let n = self.curve.field_len() as i32;
        Ok(Signature {
            curve: self.curve,
            r: RPoint::XOnly(sig.r().to_vec_padded(n)?),
            s: sig.s().to_vec_padded(n)?,
        })
    }

    /// ECDSA that also returns the point R in compressed form (1609.2 allows it so that
    /// receivers can use faster verification). Implemented with OpenSSL big-number and
    /// point operations because OpenSSL's ECDSA API does not expose R; these are not
    /// constant-time, so use it for interoperability tests, not on a production key.
    pub fn sign_digest_compressed_r(&self, digest: &[u8]) -> Result<Signature, CryptoError> {
        let group = self.key.group();
        let mut ctx = BigNumContext::new()?;
        let mut order = BigNum::new()?;
        group.order(&mut order, &mut ctx)?;
        let n = self.curve.field_len();
        let e = BigNum::from_slice(&digest[..digest.len().min(n)])?;
        let d: &BigNumRef = self.key.private_key();
        loop {
            let mut k = BigNum::new()?;
            order.rand_range(&mut k)?;
            if k.num_bits() == 0 {
                continue;
            }
            let mut point = EcPoint::new(group)?;
            point.mul_generator2(group, &k, &mut ctx)?;
            let (mut x, mut y) = (BigNum::new()?, BigNum::new()?);
            point.affine_coordinates(group, &mut x, &mut y, &mut ctx)?;
            let mut r = BigNum::new()?;
            r.nnmod(&x, &order, &mut ctx)?;
            if r.num_bits() == 0 {
                continue;
            }
            let mut kinv = BigNum::new()?;
            kinv.mod_inverse(&k, &order, &mut ctx)?;
            let mut rd = BigNum::new()?;
            rd.mod_mul(&r, d, &order, &mut ctx)?;
            let mut sum = BigNum::new()?;
            sum.mod_add(&e, &rd, &order, &mut ctx)?;
            let mut s = BigNum::new()?;
            s.mod_mul(&kinv, &sum, &order, &mut ctx)?;
            if s.num_bits() == 0 {
                continue;
            }
            return Ok(Signature {
                curve: self.curve,
                r: RPoint::Compressed {
                    y_odd: y.is_bit_set(0),
                    x: x.to_vec_padded(n as i32)?,
                },
                s: s.to_vec_padded(n as i32)?,
            });
        }
    }

    /// Hashes `message` with the curve's hash and signs.
    pub fn sign_message(&self, message: &[u8]) -> Result<Signature, CryptoError> {
        self.sign_digest(hash(self.curve.hash_alg(), message).as_ref())
    }

    pub(crate) fn ec_key(&self) -> &EcKey<Private> {
        &self.key
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
        match &self.r {
            RPoint::XOnly(_) => Ok(self.clone()),
            RPoint::Compressed { x, .. } => {
                let group = group(self.curve)?;
                let mut ctx = BigNumContext::new()?;
                let mut order = BigNum::new()?;
                group.order(&mut order, &mut ctx)?;
                let mut r = BigNum::new()?;
                let x = BigNum::from_slice(x)?;
                r.nnmod(&x, &order, &mut ctx)?;
                let r = r.to_vec_padded(self.curve.field_len() as i32)?;
                Ok(Signature {
                    curve: self.curve,
                    r: RPoint::XOnly(r),
                    s: self.s.clone(),
                })
            }
        }
    }
}

/// ECDH: the x coordinate of d * Q, padded to the field length (1609.2 uses it as Z).
pub fn ecdh_x(private: &PrivateKey, peer: &PublicKey) -> Result<Vec<u8>, CryptoError> {
    if private.curve != peer.curve {
        return Err(CryptoError::CurveMismatch {
            expected: private.curve,
            found: peer.curve,
        });
    }
    let ours = PKey::from_ec_key(private.ec_key().clone())?;
    let theirs = PKey::from_ec_key(peer.ec_key().clone())?;
    let mut deriver = openssl::derive::Deriver::new(&ours)?;
    deriver.set_peer(&theirs)?;
    Ok(deriver.derive_to_vec()?)
}

/// Cryptographically secure random bytes from OpenSSL's DRBG.
pub fn random_bytes(len: usize) -> Vec<u8> {
    let mut buf = vec![0u8; len];
    openssl::rand::rand_bytes(&mut buf).expect("OpenSSL DRBG");
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
