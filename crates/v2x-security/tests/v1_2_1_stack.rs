//! The v1.2.1 stack end to end: PKI issuance, SN-ENCAP/SN-DECAP for every protection,
//! signer type, curve and AES size, the CAM certificate rules, and one test per
//! rejection reason.

use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::time::TaiTime;
use v2x_security::v1_2_1::*;
use v2x_security::RejectReason;
use v2x_wire::v1_2_1::{
    Certificate, GeographicRegion, HeaderField, PayloadType, SecuredMessage, SignerInfo, SymmetricAlgorithm,
    ThreeDLocation, TwoDLocation,
};

/// 2023-01-05 in TAI seconds since 2004.
const START: u32 = 600_000_000;

fn at(seconds_after_start: u64) -> TaiTime {
    TaiTime((u64::from(START) + seconds_after_start) * 1_000_000)
}

const NOW: u64 = 3600;

struct World {
    pki: V1Pki,
    alice: V1Entity,
    bob: V1Entity,
}

fn store(pki: &V1Pki) -> V1TrustStore {
    let mut s = V1TrustStore::new();
    s.add_anchor(pki.root.certificate.clone());
    s.add_authority(pki.aa.certificate.clone());
    s
}

fn entity(pki: &V1Pki, cred: Credential) -> V1Entity {
    V1Entity::new(Some(cred), vec![pki.aa.certificate.clone()], store(pki))
}

fn world(curve: Curve) -> World {
    let pki = V1Pki::generate(curve, START, 30).unwrap();
    let alice = entity(&pki, pki.ticket(curve, START, 7, None).unwrap());
    let bob = entity(&pki, pki.ticket(curve, START, 7, None).unwrap());
    World { pki, alice, bob }
}

fn loc(lat_deg: f64, lon_deg: f64) -> ThreeDLocation {
    ThreeDLocation {
        latitude: (lat_deg * 1e7) as i32,
        longitude: (lon_deg * 1e7) as i32,
        elevation: [0, 0],
    }
}

fn req<'a>(profile: V1Profile, payload: &'a [u8], t: TaiTime) -> V1EncapRequest<'a> {
    let mut r = V1EncapRequest::new(profile, payload, t);
    r.location = Some(loc(48.1, 11.5));
    r
}

fn reason(r: Result<V1Accepted, v2x_security::Rejection>) -> RejectReason {
    r.expect_err("should be rejected").reason
}

#[test]
fn issued_chain_validates_and_certificates_round_trip() {
    for curve in Curve::ALL {
        let pki = V1Pki::generate(curve, START, 30).unwrap();
        let t = pki
            .ticket(
                curve,
                START,
                7,
                Some(GeographicRegion::Circle {
                    center: TwoDLocation {
                        latitude: 481_000_000,
                        longitude: 115_000_000,
                    },
                    radius: 20_000,
                }),
            )
            .unwrap();
        for c in [&pki.root.certificate, &pki.aa.certificate, &t.certificate] {
            assert_eq!(&Certificate::from_bytes(&c.to_bytes()).unwrap(), c);
        }
        let mut s = store(&pki);
        let chain = s.validate_chain(&t.certificate, &[], START + 10).unwrap();
        assert_eq!(chain.len(), 3);
        assert_eq!(certificate_digest(&t.certificate), t.digest());
        assert_eq!(t.digest().len(), 8);
    }
}

#[test]
fn credentials_save_and_load_with_private_keys_0600() {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let t = pki.ticket(Curve::NistP256, START, 7, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    t.save(dir.path(), "at").unwrap();
    let back = Credential::load(dir.path(), "at").unwrap();
    assert_eq!(back.certificate, t.certificate);
    assert_eq!(back.signing_key.public_key(), t.signing_key.public_key());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("at.key"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        // Saving over a key file that someone made world-readable narrows it again.
        let key = dir.path().join("at.key");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        t.save(dir.path(), "at").unwrap();
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
    }
}

#[test]
fn every_protection_signer_curve_and_aes_size_round_trips() {
    for curve in Curve::ALL {
        let mut w = world(curve);
        let bob_cert = w.bob.credential().unwrap().certificate.clone();
        // Each message gets its own generation time: two messages with the same signed
        // content and time are one message to a receiver (a replay), whatever their signatures.
        let mut tick = 0u64;
        for protection in [V1Protection::Sign, V1Protection::Encrypt, V1Protection::SignAndEncrypt] {
            for signer in [SignerChoice::Certificate, SignerChoice::Chain, SignerChoice::Digest] {
                for symmetric in [SymmetricAlgorithm::AES_128_CCM, SymmetricAlgorithm::AES_256_CCM] {
                    let payload = b"GN common header + BTP + CAM";
                    // Encrypted-only messages are unsigned: the CAM AID (36) would be refused.
                    let aid = if protection == V1Protection::Encrypt { 140 } else { 36 };
                    tick += 1;
                    let t = TaiTime(at(NOW).0 + tick);
                    let mut r = req(V1Profile::Generic { its_aid: aid }, payload, t);
                    r.protection = protection;
                    r.signer = signer;
                    r.symmetric = symmetric;
                    let recipients = [bob_cert.clone()];
                    r.recipients = &recipients;
                    // Bob must know Alice's ticket for a digest: send it once in full first.
                    let mut first = req(V1Profile::Generic { its_aid: 36 }, b"x", t);
                    first.signer = SignerChoice::Certificate;
                    let m = w.alice.encap(&first).unwrap();
                    let _ = w.bob.decap(&m, t);
                    let bytes = w.alice.encap(&r).unwrap();
                    let got = w
                        .bob
                        .decap(&bytes, t)
                        .unwrap_or_else(|e| panic!("{curve} {protection:?} {signer:?} {symmetric:?}: {e}"));
                    assert_eq!(got.payload, payload);
                    if protection != V1Protection::Encrypt {
                        assert_eq!(got.signer, Some(w.alice.credential().unwrap().digest()));
                    }
                    let m = SecuredMessage::from_bytes(&bytes).unwrap();
                    if protection != V1Protection::Sign {
                        assert!(
                            !m.payload.data.windows(payload.len()).any(|w| w == payload),
                            "payload in clear"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn signed_external_and_denm_round_trip() {
    let mut w = world(Curve::NistP256);
    let mut r = req(V1Profile::Denm, b"external payload", at(NOW));
    r.protection = V1Protection::SignExternal;
    let bytes = w.alice.encap(&r).unwrap();
    assert_eq!(
        SecuredMessage::from_bytes(&bytes).unwrap().payload.payload_type,
        PayloadType::SIGNED_EXTERNAL
    );
    let ok = w.bob.decap_external(&bytes, b"external payload", at(NOW)).unwrap();
    assert_eq!(ok.payload, b"external payload");
    let tampered = w.bob.decap_external(&bytes, b"external payloaD", at(NOW));
    assert_eq!(reason(tampered), RejectReason::FalseSignature);

    let denm = w.alice.encap(&req(V1Profile::Denm, b"denm", at(NOW))).unwrap();
    let m = SecuredMessage::from_bytes(&denm).unwrap();
    assert!(matches!(m.signer_info(), Some(SignerInfo::Certificate(_))));
    assert!(m
        .header_fields
        .iter()
        .any(|h| matches!(h, HeaderField::GenerationLocation(_))));
    assert_eq!(w.bob.decap(&denm, at(NOW)).unwrap().its_aid, Some(37));
}

fn signer_type(bytes: &[u8]) -> u8 {
    SecuredMessage::from_bytes(bytes)
        .unwrap()
        .signer_info()
        .unwrap()
        .type_value()
}

#[test]
fn cam_sends_its_certificate_once_per_second() {
    let mut w = world(Curve::NistP256);
    let mut kinds = Vec::new();
    for i in 0..25u64 {
        let t = TaiTime(at(NOW).0 + i * 100_000);
        let bytes = w.alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", t)).unwrap();
        kinds.push(signer_type(&bytes));
        w.bob.decap(&bytes, t).unwrap();
    }
    // certificate (2) at 0 s, 1 s, 2 s; digest (1) otherwise.
    let certs: Vec<usize> = kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| **k == 2)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(certs, vec![0, 10, 20]);
    assert!(kinds.iter().all(|k| *k == 1 || *k == 2));
}

#[test]
fn request_unrecognized_certificate_exchange() {
    let mut w = world(Curve::NistP256);
    // Alice has sent her certificate to others before; Bob joins late and sees a digest.
    let t0 = at(NOW);
    let _ = w.alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", t0)).unwrap();
    let t1 = TaiTime(t0.0 + 100_000);
    let digest_cam = w.alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", t1)).unwrap();
    assert_eq!(signer_type(&digest_cam), 1);
    assert_eq!(
        reason(w.bob.decap(&digest_cam, t1)),
        RejectReason::SignerCertificateNotFound
    );
    let alice_id3 = w.alice.credential().unwrap().id3();
    assert_eq!(w.bob.pending_certificate_requests(), vec![alice_id3]);
    // Bob's next CAM asks for it.
    let t2 = TaiTime(t1.0 + 50_000);
    let bob_cam = w.bob.encap(&V1EncapRequest::new(V1Profile::Cam, b"bob", t2)).unwrap();
    let m = SecuredMessage::from_bytes(&bob_cam).unwrap();
    assert!(m
        .header_fields
        .iter()
        .any(|h| h == &HeaderField::RequestUnrecognizedCertificate(vec![alice_id3])));
    assert!(w.bob.pending_certificate_requests().is_empty());
    w.alice.decap(&bob_cam, t2).unwrap();
    // Alice answers within the second with her full certificate.
    let t3 = TaiTime(t2.0 + 50_000);
    let answer = w.alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", t3)).unwrap();
    assert_eq!(signer_type(&answer), 2);
    w.bob.decap(&answer, t3).unwrap();
    // And digests work from then on.
    let t4 = TaiTime(t3.0 + 100_000);
    let next = w.alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", t4)).unwrap();
    assert_eq!(signer_type(&next), 1);
    w.bob.decap(&next, t4).unwrap();
}

#[test]
fn request_for_the_aa_is_answered_with_a_chain() {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let mut alice = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    // Carol trusts the root but has never seen the AA.
    let mut carol_store = V1TrustStore::new();
    carol_store.add_anchor(pki.root.certificate.clone());
    let mut carol = V1Entity::new(
        Some(pki.ticket(Curve::NistP256, START, 7, None).unwrap()),
        vec![pki.aa.certificate.clone()],
        carol_store,
    );
    let t0 = at(NOW);
    let first = alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", t0)).unwrap();
    assert_eq!(reason(carol.decap(&first, t0)), RejectReason::SignerCertificateNotFound);
    assert_eq!(
        carol.pending_certificate_requests(),
        vec![certificate_id3(&pki.aa.certificate)]
    );
    let t1 = TaiTime(t0.0 + 100_000);
    let ask = carol.encap(&V1EncapRequest::new(V1Profile::Cam, b"carol", t1)).unwrap();
    alice.decap(&ask, t1).unwrap();
    let t2 = TaiTime(t1.0 + 100_000);
    let chain = alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", t2)).unwrap();
    assert_eq!(signer_type(&chain), 3);
    carol.decap(&chain, t2).unwrap();
}

// ---- one test per rejection reason ----

fn signed_cam(w: &mut World, t: TaiTime) -> Vec<u8> {
    let mut r = V1EncapRequest::new(V1Profile::Cam, b"cam payload", t);
    r.signer = SignerChoice::Certificate;
    w.alice.encap(&r).unwrap()
}

#[test]
fn rejects_invalid_encoding_and_incompatible_protocol() {
    let mut w = world(Curve::NistP256);
    assert_eq!(reason(w.bob.decap(&[2, 5, 1], at(NOW))), RejectReason::InvalidEncoding);
    let mut b = signed_cam(&mut w, at(NOW));
    b.push(0);
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::InvalidEncoding);
    let mut b = signed_cam(&mut w, at(NOW));
    b[0] = 3;
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::IncompatibleProtocol);
    // Header fields out of order.
    let mut m = SecuredMessage::from_bytes(&signed_cam(&mut w, at(NOW))).unwrap();
    let good = m.clone();
    m.header_fields.swap(1, 2);
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::InvalidEncoding
    );
    // signer_info twice.
    let mut m = good.clone();
    let signer = m.header_fields[0].clone();
    m.header_fields.push(signer);
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::InvalidEncoding
    );
    // signer_info not first.
    let mut m = good;
    m.header_fields.rotate_left(1);
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::InvalidEncoding
    );
}

#[test]
fn rejects_unsigned_and_unencrypted() {
    let mut w = world(Curve::NistP256);
    let mut r = V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW));
    r.protection = V1Protection::InsecureUnsecured;
    let b = w.alice.encap(&r).unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::UnsignedMessage);
    w.bob.policy.insecure_accept_unsecured = true;
    assert_eq!(w.bob.decap(&b, at(NOW)).unwrap().payload, b"cam");
    w.bob.policy.insecure_accept_unsecured = false;
    w.bob.policy.require_encryption.insert(36);
    let b = signed_cam(&mut w, at(NOW));
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::UnencryptedMessage);
}

#[test]
fn rejects_unknown_signer_and_unsupported_signer_type() {
    let mut w = world(Curve::NistP256);
    let mut r = V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW));
    r.signer = SignerChoice::Digest;
    let b = w.alice.encap(&r).unwrap();
    assert_eq!(
        reason(w.bob.decap(&b, at(NOW))),
        RejectReason::SignerCertificateNotFound
    );
    let mut r = req(V1Profile::Denm, b"denm", at(NOW));
    r.signer = SignerChoice::Digest;
    let b = w.alice.encap(&r).unwrap();
    assert_eq!(
        reason(w.bob.decap(&b, at(NOW))),
        RejectReason::UnsupportedSignerIdentifierType
    );
    let mut m = SecuredMessage::from_bytes(&signed_cam(&mut w, at(NOW))).unwrap();
    m.header_fields[0] = HeaderField::SignerInfo(SignerInfo::SelfSigned);
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::UnsupportedSignerIdentifierType
    );
}

#[test]
fn rejects_false_signature() {
    let mut w = world(Curve::NistP256);
    let b = signed_cam(&mut w, at(NOW));
    let mut m = SecuredMessage::from_bytes(&b).unwrap();
    m.payload.data[0] ^= 1;
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::FalseSignature
    );
}

#[test]
fn rejects_invalid_certificate_and_chain_signature() {
    let mut w = world(Curve::NistP256);
    // Signed by the AA itself: not a ticket.
    let mut aa_signer = V1Entity::new(Some(w.pki.aa.clone()), vec![], store(&w.pki));
    let mut r = V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW));
    r.signer = SignerChoice::Certificate;
    let b = aa_signer.encap(&r).unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::InvalidCertificate);
    // A ticket altered after issuance (longer validity): the AA's signature breaks.
    let mut forged = w.alice.credential().unwrap().clone();
    forged.certificate.validity_restrictions[0] = v2x_wire::v1_2_1::ValidityRestriction::TimeStartAndEnd {
        start: START,
        end: START + 20 * 86_400,
    };
    let mut mallory = V1Entity::new(Some(forged), vec![], store(&w.pki));
    let b = mallory.encap(&r).unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::InvalidChainSignature);
}

#[test]
fn rejects_malformed_certificate_structure() {
    let mut w = world(Curve::NistP256);
    // A correctly signed ticket with two time restrictions (§6.1 allows one).
    let mut cred = w.pki.ticket(Curve::NistP256, START, 7, None).unwrap();
    cred.certificate
        .validity_restrictions
        .insert(0, v2x_wire::v1_2_1::ValidityRestriction::TimeEnd(START + 86_400));
    cred.certificate.signature =
        v2x_security::v1_2_1::crypto::sign(&w.pki.aa.signing_key, &cred.certificate.to_be_signed()).unwrap();
    let mut odd = V1Entity::new(Some(cred), vec![], store(&w.pki));
    let mut r = V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW));
    r.signer = SignerChoice::Certificate;
    let b = odd.encap(&r).unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::InvalidCertificate);
}

#[test]
fn rejects_untrusted_root() {
    let w = world(Curve::NistP256);
    let other = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let mut eve = V1Entity::new(
        Some(other.ticket(Curve::NistP256, START, 7, None).unwrap()),
        vec![other.root.certificate.clone(), other.aa.certificate.clone()],
        store(&other),
    );
    let mut r = V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW));
    r.signer = SignerChoice::Chain;
    let b = eve.encap(&r).unwrap();
    let mut bob = w.bob;
    assert_eq!(reason(bob.decap(&b, at(NOW))), RejectReason::UntrustedRoot);
}

#[test]
fn rejects_expired_and_not_yet_valid_certificates() {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let mut alice = entity(&pki, pki.ticket(Curve::NistP256, START, 1, None).unwrap());
    let mut bob = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    let late = at(2 * 86_400);
    let b = alice.encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", late)).unwrap();
    assert_eq!(reason(bob.decap(&b, late)), RejectReason::CertificateExpired);
    let mut future = entity(&pki, pki.ticket(Curve::NistP256, START + 86_400, 1, None).unwrap());
    let b = future
        .encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW)))
        .unwrap();
    assert_eq!(reason(bob.decap(&b, at(NOW))), RejectReason::CertificateNotYetValid);
}

#[test]
fn rejects_inconsistent_chain() {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let spec = CertSpec::authorization_ticket(Curve::NistP256, START, START + 60 * 86_400);
    let mut alice = entity(&pki, pki.aa.issue(&spec).unwrap());
    let mut bob = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    let b = alice
        .encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW)))
        .unwrap();
    assert_eq!(reason(bob.decap(&b, at(NOW))), RejectReason::InconsistentChain);
    // A ticket claiming an ITS-AID its AA does not have.
    let mut spec = CertSpec::authorization_ticket(Curve::NistP256, START, START + 86_400);
    spec.its_aid_ssps.push(v2x_wire::v1_2_1::ItsAidSsp {
        its_aid: 140,
        service_specific_permissions: vec![],
    });
    let mut alice = entity(&pki, pki.aa.issue(&spec).unwrap());
    let b = alice
        .encap(&V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW)))
        .unwrap();
    assert_eq!(reason(bob.decap(&b, at(NOW))), RejectReason::InconsistentChain);
}

#[test]
fn rejects_revoked_certificate() {
    let mut w = world(Curve::NistP256);
    w.bob.store.revoke(w.alice.credential().unwrap().digest());
    let b = signed_cam(&mut w, at(NOW));
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::RevokedCertificate);
}

#[test]
fn rejects_outside_region() {
    let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
    let munich = GeographicRegion::Circle {
        center: TwoDLocation {
            latitude: 481_000_000,
            longitude: 115_000_000,
        },
        radius: 20_000,
    };
    let mut alice = entity(&pki, pki.ticket(Curve::NistP256, START, 7, Some(munich)).unwrap());
    let mut bob = entity(&pki, pki.ticket(Curve::NistP256, START, 7, None).unwrap());
    let inside = alice.encap(&req(V1Profile::Denm, b"denm", at(NOW))).unwrap();
    bob.decap(&inside, at(NOW)).unwrap();
    let mut r = req(V1Profile::Denm, b"denm", at(NOW));
    r.location = Some(loc(52.5, 13.4));
    let b = alice.encap(&r).unwrap();
    assert_eq!(reason(bob.decap(&b, at(NOW))), RejectReason::OutsideRegion);
}

#[test]
fn rejects_psid_and_ssp() {
    let mut w = world(Curve::NistP256);
    let b = w
        .alice
        .encap(&req(V1Profile::Generic { its_aid: 999 }, b"x", at(NOW)))
        .unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::PsidNotPermitted);
    w.bob.policy.required_ssp.insert(36, vec![0x02]);
    let b = signed_cam(&mut w, at(NOW));
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::SspNotPermitted);
    w.bob.policy.required_ssp.insert(36, vec![0x01]);
    w.bob.decap(&b, at(NOW)).unwrap();
}

#[test]
fn rejects_stale_future_and_duplicate() {
    let mut w = world(Curve::NistP256);
    let b = signed_cam(&mut w, at(NOW));
    assert_eq!(
        reason(w.bob.decap(&b, TaiTime(at(NOW).0 + 3_000_000))),
        RejectReason::StaleMessage
    );
    assert_eq!(
        reason(w.bob.decap(&b, TaiTime(at(NOW).0 - 1_000_000))),
        RejectReason::FutureMessage
    );
    w.bob.decap(&b, at(NOW)).unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::DuplicateMessage);
    w.bob.policy.max_age = Duration::from_secs(10);
    assert_eq!(
        reason(w.bob.decap(&b, TaiTime(at(NOW).0 + 3_000_000))),
        RejectReason::DuplicateMessage
    );
}

#[test]
fn rejects_missing_header_fields() {
    let mut w = world(Curve::NistP256);
    let mut m = SecuredMessage::from_bytes(&signed_cam(&mut w, at(NOW))).unwrap();
    m.header_fields.retain(|h| !matches!(h, HeaderField::GenerationTime(_)));
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::MissingHeaderField
    );
    let mut m = SecuredMessage::from_bytes(&w.alice.encap(&req(V1Profile::Denm, b"d", at(NOW))).unwrap()).unwrap();
    m.header_fields
        .retain(|h| !matches!(h, HeaderField::GenerationLocation(_)));
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::MissingHeaderField
    );
    let mut r = req(V1Profile::Denm, b"d", at(NOW));
    r.location = None;
    assert!(matches!(w.alice.encap(&r), Err(V1EncapError::MissingLocation)));
}

#[test]
fn rejects_other_recipients_and_broken_ciphertext() {
    let mut w = world(Curve::NistP256);
    let carol = w.pki.ticket(Curve::NistP256, START, 7, None).unwrap();
    let mut r = req(V1Profile::Generic { its_aid: 140 }, b"secret", at(NOW));
    r.protection = V1Protection::Encrypt;
    let to_carol = [carol.certificate.clone()];
    r.recipients = &to_carol;
    let b = w.alice.encap(&r).unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::NotForThisRecipient);
    let to_bob = [w.bob.credential().unwrap().certificate.clone()];
    r.recipients = &to_bob;
    let mut m = SecuredMessage::from_bytes(&w.alice.encap(&r).unwrap()).unwrap();
    m.payload.data[3] ^= 0x40;
    assert_eq!(
        reason(w.bob.decap(&m.to_bytes(), at(NOW))),
        RejectReason::DecryptionFailed
    );
    // An encrypted CAM without a signature is refused by the CAM profile.
    let mut r = V1EncapRequest::new(V1Profile::Cam, b"cam", at(NOW));
    r.protection = V1Protection::Encrypt;
    r.recipients = &to_bob;
    let b = w.alice.encap(&r).unwrap();
    assert_eq!(reason(w.bob.decap(&b, at(NOW))), RejectReason::UnsignedMessage);
}

/// Issue 27, item 7: the v1.2.1 sender signs with low s, so its messages pass a receiver
/// that requires it (on 726a8c9 about half of them failed `--require-low-s`).
#[test]
fn own_messages_pass_require_low_s() {
    let mut w = world(Curve::NistP256);
    w.bob.policy.signature_form.require_low_s = true;
    for i in 0..40u8 {
        let t = TaiTime(at(NOW).0 + u64::from(i) * 1000);
        let m = w.alice.encap(&req(V1Profile::Denm, &[i], t)).unwrap();
        w.bob.decap(&m, t).unwrap();
    }
}
