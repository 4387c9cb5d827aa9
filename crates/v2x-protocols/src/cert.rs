//! A compact explicit ECDSA certificate and its CA, for the protocols' signed control
//! messages (hash-chain RSU authentication, TESLA chain commitments, TESLA paper-001
//! per-packet signatures) when they are not wrapped in the full IEEE 1609.2 stack.
//!
//! Layout (P-256: 117 bytes, the RSU certificate size paper 001 §4.1 counts):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | subject: the station number the CA certified |
//! | 8 | issuer: HashedId8 (SHA-256, low 8 bytes) of the CA's compressed public key |
//! | 4 | valid from, seconds since the deployment epoch |
//! | 4 | valid until, seconds since the deployment epoch |
//! | 1 + f | subject's verification key, SEC 1 compressed (f = field length) |
//! | 2f | CA's ECDSA signature (r x-only, s) over all the fields above |
//!
//! It carries what a verifier needs and nothing else: no permissions (the protocols
//! give every certified station the same rights) and no region.

use crate::{RejectReason, Rejection, Timestamp};
use v2x_crypto::{hashed_id8, CryptoError, Curve, HashAlg, PrivateKey, PublicKey, RPoint, Signature};
use v2x_wire::cursor::{CursorError, Reader, Writer};

/// Bytes of a signature (r x-only ‖ s) on `curve`.
pub const fn signature_len(curve: Curve) -> usize {
    2 * curve.field_len()
}

/// Bytes of a compact certificate on `curve`.
pub const fn certificate_len(curve: Curve) -> usize {
    4 + 8 + 4 + 4 + 1 + curve.field_len() + signature_len(curve)
}

/// Encodes a signature as r ‖ s (x-only r).
pub fn encode_signature(sig: &Signature) -> Result<Vec<u8>, CryptoError> {
    let sig = sig.to_x_only()?;
    let mut out = Vec::with_capacity(signature_len(sig.curve));
    if let RPoint::XOnly(r) = &sig.r {
        out.extend_from_slice(r);
    }
    out.extend_from_slice(&sig.s);
    Ok(out)
}

/// Decodes r ‖ s (exactly `2f` bytes).
pub fn decode_signature(curve: Curve, bytes: &[u8]) -> Result<Signature, CursorError> {
    let mut rd = Reader::new(bytes);
    let f = curve.field_len();
    let r = rd.take(f, "signature r")?;
    let s = rd.take(f, "signature s")?;
    rd.finish("signature")?;
    Signature::new(curve, RPoint::XOnly(r.to_vec()), s.to_vec())
        .map_err(|e| Reader::invalid_at("signature", 0, e.to_string()))
}

/// Signs `data` with `key` (curve's hash) and encodes the signature.
pub fn sign(key: &PrivateKey, data: &[u8]) -> Result<Vec<u8>, CryptoError> {
    encode_signature(&key.sign_message(data)?)
}

/// Verifies an encoded signature; a malformed signature is simply false.
pub fn verify(key: &PublicKey, data: &[u8], sig: &[u8]) -> bool {
    match decode_signature(key.curve(), sig) {
        Ok(sig) => key.verify_message(data, &sig).unwrap_or(false),
        Err(_) => false,
    }
}

/// What verifiers trust: the CA's public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustAnchor {
    pub public: PublicKey,
    pub digest: [u8; 8],
}

impl TrustAnchor {
    pub fn new(public: PublicKey) -> TrustAnchor {
        let digest = hashed_id8(HashAlg::Sha256, &public.to_sec1(true)).0;
        TrustAnchor { public, digest }
    }

    pub fn curve(&self) -> Curve {
        self.public.curve()
    }
}

/// A certification authority issuing compact certificates.
#[derive(Debug, Clone)]
pub struct CompactCa {
    key: PrivateKey,
    anchor: TrustAnchor,
}

impl CompactCa {
    pub fn generate(curve: Curve) -> Result<CompactCa, CryptoError> {
        let key = PrivateKey::generate(curve)?;
        let anchor = TrustAnchor::new(key.public_key().clone());
        Ok(CompactCa { key, anchor })
    }

    pub fn anchor(&self) -> &TrustAnchor {
        &self.anchor
    }

    /// Issues a certificate for `subject` valid over `[from_s, until_s]` seconds.
    pub fn issue(
        &self,
        subject: u32,
        public: &PublicKey,
        from_s: u32,
        until_s: u32,
    ) -> Result<CompactCertificate, CryptoError> {
        if public.curve() != self.key.curve() {
            return Err(CryptoError::CurveMismatch {
                expected: self.key.curve(),
                found: public.curve(),
            });
        }
        let mut w = Writer::with_capacity(certificate_len(public.curve()));
        w.u32(subject)
            .bytes(&self.anchor.digest)
            .u32(from_s)
            .u32(until_s)
            .bytes(&public.to_sec1(true));
        let sig = sign(&self.key, w.as_slice())?;
        w.bytes(&sig);
        Ok(CompactCertificate {
            subject,
            issuer: self.anchor.digest,
            valid_from_s: from_s,
            valid_until_s: until_s,
            public: public.clone(),
            encoded: w.into_vec(),
        })
    }

    /// A fresh key pair with a certificate for it: what a station is provisioned with.
    pub fn enrol(&self, subject: u32, from_s: u32, until_s: u32) -> Result<Credential, CryptoError> {
        let key = PrivateKey::generate(self.key.curve())?;
        let certificate = self.issue(subject, key.public_key(), from_s, until_s)?;
        Ok(Credential { key, certificate })
    }
}

/// A decoded compact certificate (keeps its encoding so signatures are checked over the
/// received bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactCertificate {
    pub subject: u32,
    pub issuer: [u8; 8],
    pub valid_from_s: u32,
    pub valid_until_s: u32,
    pub public: PublicKey,
    encoded: Vec<u8>,
}

impl CompactCertificate {
    /// Decodes exactly one certificate of `curve` (no trailing bytes).
    pub fn decode(curve: Curve, bytes: &[u8]) -> Result<CompactCertificate, CursorError> {
        let mut r = Reader::new(bytes);
        let c = CompactCertificate::read(curve, &mut r)?;
        r.finish("certificate")?;
        Ok(c)
    }

    /// Reads one certificate of `curve` from `r` (errors name offsets in `r`'s input).
    pub fn read(curve: Curve, r: &mut Reader<'_>) -> Result<CompactCertificate, CursorError> {
        let start = r.peek_rest();
        let subject = r.u32("certificate subject")?;
        let issuer = r.array::<8>("certificate issuer")?;
        let valid_from_s = r.u32("certificate valid from")?;
        let valid_until_s = r.u32("certificate valid until")?;
        let key_at = r.offset();
        let key = r.take(1 + curve.field_len(), "certificate public key")?;
        let public = PublicKey::from_sec1(curve, key)
            .map_err(|e| Reader::invalid_at("certificate public key", key_at, e.to_string()))?;
        r.take(signature_len(curve), "certificate signature")?;
        Ok(CompactCertificate {
            subject,
            issuer,
            valid_from_s,
            valid_until_s,
            public,
            encoded: start[..certificate_len(curve)].to_vec(),
        })
    }

    pub fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    /// HashedId8 of the encoding (how messages refer to it by digest).
    pub fn digest(&self) -> [u8; 8] {
        hashed_id8(HashAlg::Sha256, &self.encoded).0
    }

    /// Checks issuer, CA signature and validity at `now`.
    pub fn verify(&self, anchor: &TrustAnchor, now: Timestamp) -> Result<(), Rejection> {
        // Public identifiers: an ordinary comparison is fine.
        if self.issuer != anchor.digest {
            return Err(Rejection::new(
                RejectReason::UntrustedRoot,
                "certificate issuer is not the trust anchor",
            ));
        }
        let split = self.encoded.len().saturating_sub(signature_len(anchor.curve()));
        let (tbs, sig) = self.encoded.split_at(split);
        if !verify(&anchor.public, tbs, sig) {
            return Err(Rejection::new(
                RejectReason::InvalidChainSignature,
                "CA signature on certificate is false",
            ));
        }
        let now_s = now.as_micros() / 1_000_000;
        if now_s < u64::from(self.valid_from_s) {
            return Err(Rejection::new(
                RejectReason::CertificateNotYetValid,
                "certificate not yet valid",
            ));
        }
        if now_s > u64::from(self.valid_until_s) {
            return Err(Rejection::new(RejectReason::CertificateExpired, "certificate expired"));
        }
        Ok(())
    }
}

/// A station's signing key and its certificate.
#[derive(Debug, Clone)]
pub struct Credential {
    pub key: PrivateKey,
    pub certificate: CompactCertificate,
}

impl Credential {
    pub fn sign(&self, data: &[u8]) -> Result<Vec<u8>, CryptoError> {
        sign(&self.key, data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p256_certificate_is_117_bytes_and_verifies() {
        let ca = CompactCa::generate(Curve::NistP256).unwrap();
        let cred = ca.enrol(9, 0, 1000).unwrap();
        assert_eq!(cred.certificate.encoded().len(), 117);
        assert_eq!(certificate_len(Curve::NistP256), 117);
        cred.certificate
            .verify(ca.anchor(), Timestamp::from_millis(5_000))
            .unwrap();
        let again = CompactCertificate::decode(Curve::NistP256, cred.certificate.encoded()).unwrap();
        assert_eq!(again, cred.certificate);
    }

    #[test]
    fn rejects_other_ca_tampering_and_validity() {
        let ca = CompactCa::generate(Curve::NistP256).unwrap();
        let other = CompactCa::generate(Curve::NistP256).unwrap();
        let cred = ca.enrol(9, 10, 20).unwrap();
        let at = Timestamp::from_millis(15_000);
        assert_eq!(
            cred.certificate.verify(other.anchor(), at).unwrap_err().reason,
            RejectReason::UntrustedRoot
        );
        let mut bytes = cred.certificate.encoded().to_vec();
        bytes[0] ^= 1;
        let forged = CompactCertificate::decode(Curve::NistP256, &bytes).unwrap();
        assert_eq!(
            forged.verify(ca.anchor(), at).unwrap_err().reason,
            RejectReason::InvalidChainSignature
        );
        let late = Timestamp::from_millis(21_000);
        assert_eq!(
            cred.certificate.verify(ca.anchor(), late).unwrap_err().reason,
            RejectReason::CertificateExpired
        );
        let early = Timestamp::from_millis(9_000);
        assert_eq!(
            cred.certificate.verify(ca.anchor(), early).unwrap_err().reason,
            RejectReason::CertificateNotYetValid
        );
        assert!(CompactCertificate::decode(Curve::NistP256, &bytes[..100]).is_err());
    }
}
