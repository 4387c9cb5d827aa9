//! The SN-DECAP step order is pinned: for each pair of adjacent steps, a message with both
//! faults is rejected for the first; the same message without the first fault is rejected
//! for the second (so both faults are real). The README's table lists the same steps and
//! reasons in the same order.

use rasn_its::ieee1609dot2 as w;
use rasn_its::ieee1609dot2::base_types as bt;
use std::time::Duration;
use v2x_security::{
    convert, AppPermission, Credentials, DecapStep, EncapRequest, GeoPoint, InMemoryPki, ItsAid, Location, ProfileKind,
    Recipient, Region, RejectReason, SecurityEntity, TaiTime,
};
use v2x_wire::ieee1609dot2 as wire;

fn reason(r: Result<v2x_security::Decapped, v2x_security::Rejection>) -> RejectReason {
    match r {
        Ok(d) => panic!("accepted: {d:?}"),
        Err(e) => e.reason,
    }
}

fn pki() -> InMemoryPki {
    InMemoryPki::builder().build().unwrap()
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn flip_signature_bit(m: &[u8]) -> Vec<u8> {
    let mut bad = m.to_vec();
    let n = bad.len();
    bad[n - 5] ^= 0x01; // inside s
    bad
}

fn ticket(
    fx: &InMemoryPki,
    perms: Vec<AppPermission>,
    start: TaiTime,
    validity: Duration,
    region: Option<Region>,
) -> Credentials {
    fx.ticket_with(&perms, start, validity, region).unwrap()
}

fn cam_perm() -> AppPermission {
    AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))
}

fn denm_perm(ssp: &[u8]) -> AppPermission {
    AppPermission::new(ItsAid::DENM, Some(ssp.to_vec()))
}

/// A signed message built by hand: `payload` is either unsecured data or only an external
/// data hash; `generation_time` may be left out.
fn hand_signed(creds: &Credentials, unsecured_payload: bool, generation_time: Option<TaiTime>) -> Vec<u8> {
    let payload = if unsecured_payload {
        w::SignedDataPayload::builder()
            .data(wire::unsecured(b"x".to_vec()))
            .build()
            .unwrap()
    } else {
        w::SignedDataPayload::builder()
            .ext_data_hash(w::HashedData::Sha256HashedData(bt::HashedId32([7u8; 32].into())))
            .build()
            .unwrap()
    };
    let header = w::HeaderInfo::builder()
        .psid(convert::psid(ItsAid::CAM))
        .maybe_generation_time(generation_time.map(|t| bt::Time64(t.0)))
        .build();
    let tbs = wire::encode(&w::ToBeSignedData {
        payload,
        header_info: header,
    })
    .unwrap();
    let cert = &creds.certificate;
    let digest = v2x_security::certificate::join_hash(
        v2x_crypto::HashAlg::Sha256,
        v2x_crypto::sha256(&tbs).as_ref(),
        cert.signer_hash().as_ref(),
    );
    let sig = convert::signature_to_wire(&creds.signing_key.sign_digest(digest.as_ref()).unwrap()).unwrap();
    let signer = w::SignerIdentifier::Certificate(w::SequenceOfCertificate(vec![cert.decoded().clone()]));
    wire::encode_signed_data_from_parts(bt::HashAlgorithm::Sha256, &tbs, &signer, &sig).unwrap()
}

#[test]
fn decode_before_decrypt() {
    let fx = pki();
    let bob = fx.ticket().unwrap();
    let mut alice = fx.sender(fx.ticket().unwrap());
    let mut carol = fx.sender(fx.ticket().unwrap());
    let m = alice
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"secret")
                .at(fx.now)
                .encrypted_to(Recipient::Certificate(bob.certificate)),
        )
        .unwrap()
        .bytes;
    let mut both = m.clone();
    both.push(0); // trailing byte, and not for carol
    assert_eq!(reason(carol.decap_at(&both, fx.now)), RejectReason::InvalidEncoding);
    assert_eq!(reason(carol.decap_at(&m, fx.now)), RejectReason::NotForThisRecipient);
}

#[test]
fn decrypt_before_content() {
    let fx = pki();
    let bob_t = fx.ticket().unwrap();
    let bob_cert = bob_t.certificate.clone();
    let mut alice = fx.sender(fx.ticket().unwrap());
    let mut bob = fx.sender(bob_t);
    let mut carol = fx.sender(fx.ticket().unwrap());
    let unsigned_inside = alice
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"e")
                .at(fx.now)
                .unsigned()
                .encrypted_to(Recipient::Certificate(bob_cert)),
        )
        .unwrap()
        .bytes;
    assert_eq!(
        reason(carol.decap_at(&unsigned_inside, fx.now)),
        RejectReason::NotForThisRecipient
    );
    assert_eq!(
        reason(bob.decap_at(&unsigned_inside, fx.now)),
        RejectReason::UnsignedMessage
    );
}

#[test]
fn content_before_header_fields() {
    // An unsigned message has no header, so the content step's other fault is used: a
    // payload that is only an external data hash, with no generation time either.
    let fx = pki();
    let t = fx.ticket().unwrap();
    let both = hand_signed(&t, false, None);
    assert_eq!(
        reason(fx.receiver().decap_at(&both, fx.now)),
        RejectReason::InvalidEncoding
    );
    let only_header = hand_signed(&t, true, None);
    assert_eq!(
        reason(fx.receiver().decap_at(&only_header, fx.now)),
        RejectReason::MissingHeaderField
    );
    // With both fixed the message is fine: the two faults were the only ones.
    assert!(fx
        .receiver()
        .decap_at(&hand_signed(&t, true, Some(fx.now)), fx.now)
        .is_ok());
}

#[test]
fn header_fields_before_freshness() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let old = fx.now.saturating_sub(Duration::from_secs(120));
    // PSID 37 (the DENM profile at the receiver: location required, 60 s window).
    let both = s
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"d")
                .with_psid(ItsAid::DENM)
                .at(old),
        )
        .unwrap()
        .bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&both, fx.now)),
        RejectReason::MissingHeaderField
    );
    let loc = Location {
        point: GeoPoint::from_degrees(48.1, 11.5),
        elevation: 0,
    };
    let only_stale = s
        .encap(&EncapRequest::denm(&denm_payload(), loc).at(old))
        .unwrap()
        .bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&only_stale, fx.now)),
        RejectReason::StaleMessage
    );
}

#[test]
fn freshness_before_signer() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let old = fx.now.saturating_sub(ms(3000));
    s.encap(&EncapRequest::cam(b"first, with certificate").at(old)).unwrap();
    let stale_digest = s
        .encap(&EncapRequest::cam(b"digest").at(old.saturating_add(ms(100))))
        .unwrap();
    assert!(!stale_digest.signer_was_certificate);
    let mut r = fx.receiver();
    assert_eq!(
        reason(r.decap_at(&stale_digest.bytes, fx.now)),
        RejectReason::StaleMessage
    );
    assert!(r.pending_p2pcd_requests().is_empty(), "a stale message queues nothing");
    s.encap(&EncapRequest::cam(b"certificate").at(fx.now)).unwrap();
    let fresh_digest = s
        .encap(&EncapRequest::cam(b"digest").at(fx.now.saturating_add(ms(100))))
        .unwrap();
    assert_eq!(
        reason(r.decap_at(&fresh_digest.bytes, fx.now.saturating_add(ms(100)))),
        RejectReason::SignerCertificateNotFound
    );
}

#[test]
fn signer_before_replay_lookup() {
    let fx = pki();
    let mut a = fx.sender(fx.ticket().unwrap());
    let mut b = fx.sender(fx.ticket().unwrap());
    let t = |n| fx.now.saturating_add(ms(n));
    let mut r = fx.receiver();
    r.trust_store_mut().set_known_capacity(2);
    r.decap_at(&a.encap(&EncapRequest::cam(b"a0").at(t(0))).unwrap().bytes, t(0))
        .unwrap();
    let digest = a.encap(&EncapRequest::cam(b"a1").at(t(100))).unwrap();
    assert!(!digest.signer_was_certificate);
    r.decap_at(&digest.bytes, t(100)).unwrap();
    // Only the replay fault: the signer is still known.
    assert_eq!(
        reason(r.decap_at(&digest.bytes, t(150))),
        RejectReason::DuplicateMessage
    );
    // B's certificate pushes A's out of the (tiny) certificate cache: the copy is now
    // both a replay and from an unknown signer.
    r.decap_at(&b.encap(&EncapRequest::cam(b"b0").at(t(200))).unwrap().bytes, t(200))
        .unwrap();
    assert_eq!(
        reason(r.decap_at(&digest.bytes, t(250))),
        RejectReason::SignerCertificateNotFound
    );
}

#[test]
fn replay_lookup_before_message_signature() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    r.decap_at(&m, fx.now).unwrap();
    let bad = flip_signature_bit(&m);
    assert_eq!(reason(r.decap_at(&bad, fx.now)), RejectReason::DuplicateMessage);
    assert_eq!(
        reason(fx.receiver().decap_at(&bad, fx.now)),
        RejectReason::FalseSignature
    );
}

#[test]
fn message_signature_before_chain() {
    let fx = pki();
    let other = pki();
    let mut s = other.sender(other.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&flip_signature_bit(&m), fx.now)),
        RejectReason::FalseSignature
    );
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::IssuerCertificateNotFound
    );
}

fn expired_sender(fx: &InMemoryPki) -> (SecurityEntity, Credentials) {
    let t = ticket(
        fx,
        vec![cam_perm()],
        fx.now.saturating_sub(Duration::from_secs(7200)),
        Duration::from_secs(3600),
        None,
    );
    let mut s = fx.sender(t.clone());
    s.encap_policy_mut().insecure_sign_with_invalid_certificate = true;
    (s, t)
}

#[test]
fn chain_before_certificate_validity() {
    let fx = pki();
    let other = pki();
    let (mut foreign, _) = expired_sender(&other);
    let both = foreign.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&both, fx.now)),
        RejectReason::IssuerCertificateNotFound
    );
    let (mut own, _) = expired_sender(&fx);
    let only_expired = own.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&only_expired, fx.now)),
        RejectReason::CertificateExpired
    );
}

#[test]
fn certificate_validity_before_revocation() {
    let fx = pki();
    let (mut s, t) = expired_sender(&fx);
    let both = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let valid = fx.ticket().unwrap();
    let crl = fx.crl(&[&t.certificate, &valid.certificate], 1).unwrap();
    let mut r = fx.receiver();
    r.trust_store_mut().apply_crl(&crl).unwrap();
    assert_eq!(reason(r.decap_at(&both, fx.now)), RejectReason::CertificateExpired);
    let only_revoked = fx
        .sender(valid)
        .encap(&EncapRequest::cam(b"cam").at(fx.now))
        .unwrap()
        .bytes;
    assert_eq!(
        reason(r.decap_at(&only_revoked, fx.now)),
        RejectReason::RevokedCertificate
    );
}

fn munich() -> Region {
    Region::Circle {
        center: GeoPoint::from_degrees(48.1, 11.5),
        radius_m: 5000,
    }
}

fn denm_at(s: &mut SecurityEntity, payload: &[u8], lat: f64, t: TaiTime) -> Vec<u8> {
    let loc = Location {
        point: GeoPoint::from_degrees(lat, 11.5),
        elevation: 0,
    };
    s.encap(&EncapRequest::denm(payload, loc).at(t)).unwrap().bytes
}

#[test]
fn revocation_before_region() {
    let fx = pki();
    let start = fx.now.saturating_sub(ms(60_000));
    let revoked = ticket(
        &fx,
        vec![denm_perm(&[1, 0xff, 0xff, 0xff])],
        start,
        Duration::from_secs(3600),
        Some(munich()),
    );
    let kept = ticket(
        &fx,
        vec![denm_perm(&[1, 0xff, 0xff, 0xff])],
        start,
        Duration::from_secs(3600),
        Some(munich()),
    );
    let mut r = fx.receiver();
    r.trust_store_mut()
        .apply_crl(&fx.crl(&[&revoked.certificate], 1).unwrap())
        .unwrap();
    let both = denm_at(&mut fx.sender(revoked), &denm_payload(), 48.3, fx.now);
    assert_eq!(reason(r.decap_at(&both, fx.now)), RejectReason::RevokedCertificate);
    let only_outside = denm_at(&mut fx.sender(kept), &denm_payload(), 48.3, fx.now);
    assert_eq!(reason(r.decap_at(&only_outside, fx.now)), RejectReason::OutsideRegion);
}

#[test]
fn region_before_permissions() {
    let fx = pki();
    let start = fx.now.saturating_sub(ms(60_000));
    // DENM SSP version 1 granting no cause code; the DENM reports roadworks (cause 3).
    let t = ticket(
        &fx,
        vec![denm_perm(&[1, 0, 0, 0])],
        start,
        Duration::from_secs(3600),
        Some(munich()),
    );
    let mut s = fx.sender(t);
    let state = v2x_wire::facilities::VehicleState {
        station_id: 7,
        latitude: 481_000_000,
        longitude: 115_000_000,
        speed: 0,
        heading: 0,
        altitude_cm: 50_000,
    };
    let denm = v2x_wire::facilities::encode_denm(&v2x_wire::facilities::hazard_denm(&state, 1, 0, 3, 0)).unwrap();
    let both = denm_at(&mut s, &denm, 48.3, fx.now);
    assert_eq!(
        reason(fx.receiver().decap_at(&both, fx.now)),
        RejectReason::OutsideRegion
    );
    let only_ssp = denm_at(&mut s, &denm, 48.11, fx.now.saturating_add(ms(1)));
    assert_eq!(
        reason(fx.receiver().decap_at(&only_ssp, fx.now)),
        RejectReason::SspNotPermitted
    );
}

#[test]
fn reasons_belong_to_steps_and_signature_only_mode_runs_five_of_them() {
    let mut seen = Vec::new();
    for step in DecapStep::ORDER {
        for r in step.reasons() {
            seen.push((*r, step));
        }
    }
    for r in [
        RejectReason::FalseSignature,
        RejectReason::DuplicateMessage,
        RejectReason::RevocationStatusUnknown,
        RejectReason::SspNotPermitted,
    ] {
        assert!(seen.iter().any(|(x, _)| *x == r), "{r} belongs to a step");
    }
    // Signature-only mode runs the structural steps, the signer and the signature.
    let lab: Vec<&str> = DecapStep::ORDER
        .iter()
        .filter(|s| s.runs_in_signature_only_mode())
        .map(|s| s.name())
        .collect();
    assert_eq!(lab, ["decode", "decrypt", "content", "signer", "message signature"]);
}

/// The README's SN-DECAP table lists the steps, and each step's reason codes, in the order
/// the code runs them.
#[test]
fn readme_table_matches_the_step_order() {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("<!-- decap-steps -->")
        .expect("README marks the SN-DECAP table with <!-- decap-steps -->");
    let rows: Vec<&str> = readme[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter(|l| l.split('|').nth(1).is_some_and(|c| c.trim().parse::<usize>().is_ok()))
        .collect();
    assert_eq!(rows.len(), DecapStep::ORDER.len(), "one row per step");
    for (i, (row, step)) in rows.iter().zip(DecapStep::ORDER).enumerate() {
        let cols: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cols[1], (i + 1).to_string());
        assert_eq!(cols[2], step.name(), "row {}", i + 1);
        let codes: Vec<&str> = cols[4].split('`').skip(1).step_by(2).collect();
        let want: Vec<&str> = step.reasons().iter().map(|r| r.code()).collect();
        assert_eq!(codes, want, "reason codes of step {}", step.name());
    }
}

/// A real DENM (roadworks): the DENM SSP rule reads the payload and refuses anything else.
fn denm_payload() -> Vec<u8> {
    let v = v2x_wire::facilities::VehicleState {
        station_id: 1,
        latitude: 481_000_000,
        longitude: 115_000_000,
        speed: 0,
        heading: 0,
        altitude_cm: 0,
    };
    v2x_wire::facilities::encode_denm(&v2x_wire::facilities::hazard_denm(&v, 1, 0, 3, 0)).unwrap()
}
