//! The packets attackers make by hand rather than through their `Authenticator`: a
//! replayed copy with its signature re-encoded (A-SIG-05), and CAMs forged with a copied
//! certificate (the `copied-certificates` forger).

use v2x_crypto::{RPoint, Signature};
use v2x_security::message_signature::negate_s;
use v2x_security::{convert, CertRef, ItsAid};
use v2x_wire::ieee1609dot2 as wire;
use v2x_wire::v1_2_1::{SecuredMessage, Signature as V1Signature, TrailerField};

/// `bytes` with its ECDSA signature re-encoded as (r, n − s) — the same signature, another
/// datagram — for a signed 1609.2 (v2) or v1.2.1 message; `None` for anything else (the
/// lightweight schemes' tags have no second encoding).
pub fn reencoded(bytes: &[u8]) -> Option<Vec<u8>> {
    match bytes.first() {
        Some(3) => reencoded_v2(bytes),
        Some(2) => reencoded_v1(bytes),
        _ => None,
    }
}

fn reencoded_v2(bytes: &[u8]) -> Option<Vec<u8>> {
    let (data, _) = wire::parse_data(bytes).ok()?;
    let signed = wire::signed_data(&data)?;
    let sig = convert::signature(&signed.signature).ok()?;
    // The signature is the message's last field.
    let tail = wire::encode(&signed.signature).ok()?;
    let body = bytes.get(..bytes.len().checked_sub(tail.len())?)?;
    let mut out = body.to_vec();
    out.extend(wire::encode(&convert::signature_to_wire(&negate_s(&sig)).ok()?).ok()?);
    Some(out)
}

fn reencoded_v1(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut msg = SecuredMessage::from_bytes(bytes).ok()?;
    let Some(TrailerField::Signature(V1Signature::Ecdsa { algorithm, r, s })) = msg.trailer_fields.last_mut() else {
        return None;
    };
    let curve = v2x_security::v1_2_1::crypto::to_curve(algorithm.curve()?);
    let x = match r {
        v2x_wire::v1_2_1::EccPoint::XCoordinateOnly(x)
        | v2x_wire::v1_2_1::EccPoint::CompressedLsbY0(x)
        | v2x_wire::v1_2_1::EccPoint::CompressedLsbY1(x) => x.clone(),
        _ => return None,
    };
    *s = negate_s(&Signature::new(curve, RPoint::XOnly(x), s.clone()).ok()?).s;
    Some(msg.to_bytes())
}

/// A forger holding other stations' certificates (public: every CAM with a certificate
/// carries one), which it names, in turn, as the signer of CAMs with random signatures.
pub struct Forger {
    certificates: Vec<CertRef>,
    next: usize,
}

/// Why the forger cannot forge.
#[derive(Debug, thiserror::Error)]
pub enum ForgeError {
    #[error("no certificate to copy")]
    NoCertificate,
    #[error("encoding a forged CAM: {0}")]
    Encoding(String),
}

impl Forger {
    pub fn new(certificates: Vec<CertRef>) -> Result<Forger, ForgeError> {
        if certificates.is_empty() {
            return Err(ForgeError::NoCertificate);
        }
        Ok(Forger { certificates, next: 0 })
    }

    /// A CAM carrying `payload`, generated at `generation_us` (TAI µs), naming the next
    /// copied certificate as its signer, with a random signature.
    pub fn forge(&mut self, payload: &[u8], generation_us: u64) -> Result<Vec<u8>, ForgeError> {
        let cert = &self.certificates[self.next % self.certificates.len()];
        self.next += 1;
        let curve = cert.curve();
        let len = curve.field_len();
        let sig = Signature::new(
            curve,
            RPoint::XOnly(v2x_crypto::random_bytes(len)),
            v2x_crypto::random_bytes(len),
        )
        .map_err(|e| ForgeError::Encoding(e.to_string()))?;
        let sig = convert::signature_to_wire(&sig).map_err(|e| ForgeError::Encoding(e.to_string()))?;
        let tbs = wire::assemble::unsecured_tbs_data(payload, ItsAid::CAM.value(), generation_us, None);
        wire::assemble::signed_data(
            convert::hash_alg_to_wire(curve.hash_alg()),
            &tbs,
            wire::assemble::SignerRef::Certificate(cert.encoded()),
            &sig,
        )
        .map_err(|e| ForgeError::Encoding(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_security::{EncapRequest, InMemoryPki, RejectReason};

    #[test]
    fn a_reencoded_copy_differs_verifies_alone_and_is_a_replay_after_its_original() {
        let fx = InMemoryPki::builder().build().unwrap();
        let mut s = fx.sender(fx.ticket().unwrap());
        let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
        let copy = reencoded(&m).unwrap();
        assert_ne!(copy, m);
        assert!(fx.receiver().decap_at(&copy, fx.now).is_ok(), "the same signature");
        let mut r = fx.receiver();
        r.decap_at(&m, fx.now).unwrap();
        assert_eq!(
            r.decap_at(&copy, fx.now).unwrap_err().reason,
            RejectReason::DuplicateMessage
        );
        assert_eq!(reencoded(b"\x07junk"), None);
    }

    #[test]
    fn forged_cams_name_the_copied_certificate_and_fail_on_their_signature() {
        let fx = InMemoryPki::builder().build().unwrap();
        let owner = fx.ticket().unwrap();
        let mut f = Forger::new(vec![owner.certificate.clone()]).unwrap();
        let mut r = fx.receiver();
        for i in 0..3u64 {
            let m = f.forge(b"forged", fx.now.0 + i).unwrap();
            let p = r.precheck(&m, fx.now);
            assert!(p.verdict.is_ok(), "{p:?}");
            assert_eq!(p.signer, Some(owner.certificate.hashed_id8()));
            let e = r.decap_at(&m, fx.now).unwrap_err();
            assert_eq!(e.reason, RejectReason::FalseSignature);
        }
        assert!(Forger::new(Vec::new()).is_err());
    }
}
