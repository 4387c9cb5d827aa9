//! Issue 11, defect 3: a re-encoded signature (s → n − s, r as x-only or as either
//! compressed form of R) is the same message. The v1.2.1 receiver took such copies for new
//! messages (the test below failed on the code before the fix); the v2 receiver never keys
//! its replay window on signature bytes. Optional low-s and x-only-r policies refuse the
//! other encodings altogether.

use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::message_signature::{is_low_s, negate_s};
use v2x_security::v1_2_1::*;
use v2x_security::{convert, EncapRequest, InMemoryPki, RejectReason, SignatureForm, TaiTime};
use v2x_wire::v1_2_1::{EccPoint, SecuredMessage, Signature as V1Signature, TrailerField};

const START: u32 = 600_000_000;

fn at(s: u64) -> TaiTime {
    TaiTime((u64::from(START) + s) * 1_000_000)
}

fn entity(pki: &V1Pki, cred: Credential) -> V1Entity {
    let mut s = V1TrustStore::new();
    s.add_anchor(pki.root.certificate.clone());
    s.add_authority(pki.aa.certificate.clone());
    V1Entity::new(Some(cred), vec![pki.aa.certificate.clone()], s)
}

/// The three other encodings of a v1.2.1 message's signature.
fn v1_reencodings(bytes: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let msg = SecuredMessage::from_bytes(bytes).unwrap();
    let Some(TrailerField::Signature(V1Signature::Ecdsa { algorithm, r, s })) = msg.trailer_fields.last().cloned()
    else {
        panic!("signed")
    };
    let EccPoint::XCoordinateOnly(x) = r.clone() else {
        panic!("x-only r")
    };
    let curve = convert_curve(&algorithm);
    let high = negate_s(&v2x_crypto::Signature::new(curve, v2x_crypto::RPoint::XOnly(x.clone()), s.clone()).unwrap()).s;
    let with = |r: EccPoint, s: Vec<u8>| {
        let mut m = msg.clone();
        m.trailer_fields = vec![TrailerField::Signature(V1Signature::Ecdsa { algorithm, r, s })];
        m.to_bytes()
    };
    vec![
        ("s -> n - s", with(r.clone(), high)),
        ("R compressed y0", with(EccPoint::CompressedLsbY0(x.clone()), s.clone())),
        ("R compressed y1", with(EccPoint::CompressedLsbY1(x), s)),
    ]
}

fn convert_curve(a: &v2x_wire::v1_2_1::PublicKeyAlgorithm) -> Curve {
    v2x_security::v1_2_1::crypto::to_curve(a.curve().unwrap())
}

#[test]
fn v1_2_1_reencoded_signature_is_a_duplicate() {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let mut alice = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    let mut bob = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    let mut req = V1EncapRequest::new(V1Profile::Cam, b"cam", at(3600));
    req.signer = SignerChoice::Certificate;
    let original = alice.encap(&req).unwrap();
    let copies = v1_reencodings(&original);
    // (r, n - s) verifies on its own: it is the same signature. (Whether the compressed
    // form with the wrong parity of y verifies depends on the verifier; it is a copy
    // either way.)
    let mut fresh = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    assert!(fresh.decap(&copies[0].1, at(3600)).is_ok(), "s -> n - s verifies");
    bob.decap(&original, at(3600)).unwrap();
    for (name, copy) in &copies {
        let e = bob.decap(copy, at(3600)).unwrap_err();
        assert_eq!(e.reason, RejectReason::DuplicateMessage, "{name}");
    }
}

#[test]
fn v1_2_1_low_s_and_x_only_policies() {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let mut alice = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    let mut req = V1EncapRequest::new(V1Profile::Cam, b"cam", at(3600));
    req.signer = SignerChoice::Certificate;
    let original = alice.encap(&req).unwrap();
    let copies = v1_reencodings(&original);
    let strict = SignatureForm {
        require_low_s: true,
        require_x_only_r: true,
    };
    let verdict = |bytes: &[u8]| {
        let mut bob = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
        bob.policy.signature_form = strict;
        bob.decap(bytes, at(3600)).map(|_| ()).map_err(|e| e.reason)
    };
    let (low, high) = if verdict(&original).is_ok() {
        (&original, &copies[0].1)
    } else {
        (&copies[0].1, &original)
    };
    assert_eq!(verdict(low), Ok(()));
    assert_eq!(verdict(high), Err(RejectReason::FalseSignature));
    assert_eq!(verdict(&copies[1].1), Err(RejectReason::FalseSignature));
    assert_eq!(verdict(&copies[2].1), Err(RejectReason::FalseSignature));
}

/// The other encodings of a v2 message's signature (the signature is the message's tail).
fn v2_reencodings(bytes: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let (data, _) = v2x_wire::ieee1609dot2::parse_data(bytes).unwrap();
    let signed = v2x_wire::ieee1609dot2::signed_data(&data).unwrap();
    let sig = convert::signature(&signed.signature).unwrap();
    let v2x_crypto::RPoint::XOnly(x) = sig.r.clone() else {
        panic!("x-only")
    };
    let old_tail = v2x_wire::ieee1609dot2::encode(&signed.signature).unwrap();
    let body = &bytes[..bytes.len() - old_tail.len()];
    let with = |s: v2x_crypto::Signature| {
        let mut out = body.to_vec();
        out.extend(v2x_wire::ieee1609dot2::encode(&convert::signature_to_wire(&s).unwrap()).unwrap());
        out
    };
    let compressed = |y_odd| v2x_crypto::Signature {
        r: v2x_crypto::RPoint::Compressed { y_odd, x: x.clone() },
        ..sig.clone()
    };
    vec![
        ("s -> n - s", with(negate_s(&sig))),
        ("R compressed y0", with(compressed(false))),
        ("R compressed y1", with(compressed(true))),
    ]
}

#[test]
fn v2_reencoded_signature_is_a_duplicate() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let copies = v2_reencodings(&m);
    assert!(
        fx.receiver().decap_at(&copies[0].1, fx.now).is_ok(),
        "s -> n - s verifies on its own"
    );
    let mut r = fx.receiver();
    r.decap_at(&m, fx.now).unwrap();
    for (name, copy) in &copies {
        let later = fx.now.saturating_add(Duration::from_millis(10));
        assert_eq!(
            r.decap_at(copy, later).unwrap_err().reason,
            RejectReason::DuplicateMessage,
            "{name}"
        );
    }
}

#[test]
fn v2_low_s_and_x_only_policies() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let copies = v2_reencodings(&m);
    let verdict = |bytes: &[u8]| {
        let mut r = fx.receiver();
        r.policy_mut().signature_form = SignatureForm {
            require_low_s: true,
            require_x_only_r: true,
        };
        r.decap_at(bytes, fx.now).map(|_| ()).map_err(|e| e.reason)
    };
    let (data, _) = v2x_wire::ieee1609dot2::parse_data(&m).unwrap();
    let sig = convert::signature(&v2x_wire::ieee1609dot2::signed_data(&data).unwrap().signature).unwrap();
    let (low, high) = if is_low_s(&sig) {
        (&m, &copies[0].1)
    } else {
        (&copies[0].1, &m)
    };
    assert_eq!(verdict(low), Ok(()));
    assert_eq!(verdict(high), Err(RejectReason::FalseSignature));
    assert_eq!(verdict(&copies[1].1), Err(RejectReason::FalseSignature));
    assert_eq!(verdict(&copies[2].1), Err(RejectReason::FalseSignature));
    // The default accepts every form 1609.2 allows.
    assert!(fx.receiver().decap_at(high, fx.now).is_ok());
}
