//! Round trips for every profile and content type, certificate-once-per-second,
//! P2PCD, signature-only mode, symmetric key reuse and pseudonym rotation.

use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::*;

fn location(lat: f64, lon: f64) -> Location {
    Location {
        point: GeoPoint::from_degrees(lat, lon),
        elevation: 0,
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn every_profile_round_trips_on_every_curve() {
    for curve in Curve::ALL {
        let fx = InMemoryPki::builder().curve(curve).build().unwrap();
        let mut s = fx.sender(fx.ticket().unwrap());
        let mut r = fx.receiver();
        let cam = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap();
        assert_eq!(r.decap_at(&cam.bytes, fx.now).unwrap().payload, b"cam", "{curve}");
        let denm = s
            .encap(&EncapRequest::denm(&denm_payload(), location(48.0, 11.0)).at(fx.now))
            .unwrap();
        assert!(denm.signer_was_certificate);
        let d = r.decap_at(&denm.bytes, fx.now).unwrap();
        assert_eq!((d.payload, d.psid), (denm_payload(), Some(ItsAid::DENM)));
        assert_eq!(d.generation_location, Some(GeoPoint::from_degrees(48.0, 11.0)));
        let g = s
            .encap(&EncapRequest::new(ProfileKind::Generic, b"gen").at(fx.now))
            .unwrap();
        assert_eq!(r.decap_at(&g.bytes, fx.now).unwrap().payload, b"gen");
    }
}

#[test]
fn cam_carries_the_certificate_at_least_once_per_second() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut s = fx.sender(fx.ticket().unwrap());
    let mut r = fx.receiver();
    let full: Vec<bool> = [0u64, 100, 500, 999, 1000, 1100, 2050]
        .iter()
        .map(|&t| {
            let m = s
                .encap(&EncapRequest::cam(b"c").at(fx.now.saturating_add(ms(t))))
                .unwrap();
            assert!(r.decap_at(&m.bytes, fx.now.saturating_add(ms(t))).is_ok(), "t={t}");
            m.signer_was_certificate
        })
        .collect();
    assert_eq!(full, vec![true, false, false, false, true, false, true]);
}

#[test]
fn new_station_heard_triggers_a_full_certificate() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut a = fx.sender(fx.ticket().unwrap());
    let mut b = fx.sender(fx.ticket().unwrap());
    a.encap(&EncapRequest::cam(b"a0").at(fx.now)).unwrap();
    let a1 = a
        .encap(&EncapRequest::cam(b"a1").at(fx.now.saturating_add(ms(100))))
        .unwrap();
    assert!(!a1.signer_was_certificate);
    // A hears B for the first time.
    let b0 = b
        .encap(&EncapRequest::cam(b"b0").at(fx.now.saturating_add(ms(150))))
        .unwrap();
    a.decap_at(&b0.bytes, fx.now.saturating_add(ms(150))).unwrap();
    let a2 = a
        .encap(&EncapRequest::cam(b"a2").at(fx.now.saturating_add(ms(200))))
        .unwrap();
    assert!(a2.signer_was_certificate);
}

#[test]
fn p2pcd_request_for_a_ticket_and_for_the_aa() {
    let fx = InMemoryPki::builder().build().unwrap();
    let a_ticket = fx.ticket().unwrap();
    let a_id3 = a_ticket.certificate.hashed_id3();
    let mut a = fx.sender(a_ticket);
    // B trusts the root but does not know A's AA yet.
    let mut b_store = TrustStore::new();
    b_store.add_trust_anchor(fx.root.certificate.clone()).unwrap();
    let mut b = SecurityEntity::with_credentials(b_store, fx.ticket().unwrap(), vec![fx.aa.certificate.clone()]);
    let t = |n: u64| fx.now.saturating_add(ms(n));

    // A's first CAM (with certificate) cannot be validated by B: the AA is unknown, so B
    // asks for the AA; A's next CAM is a digest that B does not know, so B asks for it too.
    let a0 = a.encap(&EncapRequest::cam(b"a0").at(t(0))).unwrap();
    assert_eq!(
        b.decap_at(&a0.bytes, t(0)).unwrap_err().reason,
        RejectReason::IssuerCertificateNotFound
    );
    let a1 = a.encap(&EncapRequest::cam(b"a1").at(t(100))).unwrap();
    assert_eq!(
        b.decap_at(&a1.bytes, t(100)).unwrap_err().reason,
        RejectReason::SignerCertificateNotFound
    );
    let aa_id3 = fx.aa.certificate.hashed_id3();
    assert_eq!(b.pending_p2pcd_requests(), vec![aa_id3, a_id3]);

    // B's next CAM carries the requests; A accepts it and answers.
    let b0 = b.encap(&EncapRequest::cam(b"b0").at(t(200))).unwrap();
    assert!(b.pending_p2pcd_requests().is_empty());
    let got = a.decap_at(&b0.bytes, t(200)).unwrap();
    assert_eq!(got.payload, b"b0");
    let a2 = a.encap(&EncapRequest::cam(b"a2").at(t(300))).unwrap();
    assert!(
        a2.signer_was_certificate,
        "A answers the request for its ticket with the full certificate"
    );
    // The same CAM carries the AA certificate in requestedCertificate; B learns it and
    // then validates A's certificate.
    let d = b.decap_at(&a2.bytes, t(300)).unwrap();
    assert_eq!(d.payload, b"a2");
    let a3 = a.encap(&EncapRequest::cam(b"a3").at(t(400))).unwrap();
    assert!(!a3.signer_was_certificate);
    assert_eq!(b.decap_at(&a3.bytes, t(400)).unwrap().payload, b"a3");
}

#[test]
fn signature_only_mode_checks_just_the_signature() {
    let fx = InMemoryPki::builder().build().unwrap();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"captured").at(fx.now)).unwrap().bytes;
    // Strict by default: the AA (and the root) are unknown.
    let mut r = SecurityEntity::new(TrustStore::new());
    assert_eq!(
        r.decap_at(&m, fx.now).unwrap_err().reason,
        RejectReason::IssuerCertificateNotFound
    );
    r.set_decap_mode(DecapMode::SignatureOnly);
    // Even an hour later (stale) the signature alone is checked.
    let d = r
        .decap_at(&m, fx.now.saturating_add(Duration::from_secs(3600)))
        .unwrap();
    assert_eq!(
        (d.payload.as_slice(), d.mode),
        (&b"captured"[..], DecapMode::SignatureOnly)
    );
    let mut bad = m.clone();
    let n = bad.len();
    bad[n - 1] ^= 1;
    assert_eq!(
        r.decap_at(&bad, fx.now).unwrap_err().reason,
        RejectReason::FalseSignature
    );
}

#[test]
fn encrypted_content_types_and_symmetric_key_reuse() {
    let fx = InMemoryPki::builder().build().unwrap();
    let bob_t = fx.ticket().unwrap();
    let bob_cert = bob_t.certificate.clone();
    let mut alice = fx.sender(fx.ticket().unwrap());
    let mut bob = fx.sender(bob_t);

    // Signed then encrypted.
    let m = alice
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"q1")
                .at(fx.now)
                .encrypted_to(Recipient::Certificate(bob_cert.clone())),
        )
        .unwrap();
    let key = m.symmetric_key.unwrap();
    let d = bob.decap_at(&m.bytes, fx.now).unwrap();
    assert!(d.signed && d.encrypted);
    assert_eq!(d.symmetric_key, Some(key));

    // Bob answers with the established key (symmRecipInfo); Alice decrypts.
    assert!(bob.has_symmetric_key(&key));
    let reply = bob
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"a1")
                .at(fx.now)
                .encrypted_to(Recipient::Symmetric(key)),
        )
        .unwrap();
    let d = alice.decap_at(&reply.bytes, fx.now).unwrap();
    assert_eq!((d.payload.as_slice(), d.signed, d.encrypted), (&b"a1"[..], true, true));

    // Encrypted only (unsigned inside) is accepted only when unsigned data is allowed.
    let e = alice
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"e")
                .at(fx.now)
                .unsigned()
                .encrypted_to(Recipient::Certificate(bob_cert)),
        )
        .unwrap();
    assert_eq!(
        bob.decap_at(&e.bytes, fx.now).unwrap_err().reason,
        RejectReason::UnsignedMessage
    );
    bob.policy_mut().accept_unsigned = true;
    let d = bob.decap_at(&e.bytes, fx.now).unwrap();
    assert_eq!((d.payload.as_slice(), d.signed, d.encrypted), (&b"e"[..], false, true));
}

#[test]
fn pseudonym_rotation_changes_the_signer() {
    let fx = InMemoryPki::builder().build().unwrap();
    let pool = PseudonymPool::new(vec![fx.ticket().unwrap(), fx.ticket().unwrap(), fx.ticket().unwrap()]).unwrap();
    let mut s = SecurityEntity::with_pseudonyms(fx.store(), pool, vec![]);
    s.pseudonyms_mut().unwrap().rotation_interval = Some(Duration::from_secs(300));
    let mut r = fx.receiver();
    let first = s.signing_certificate().unwrap().hashed_id8();
    let m = s.encap(&EncapRequest::cam(b"x").at(fx.now)).unwrap();
    r.decap_at(&m.bytes, fx.now).unwrap();
    let later = fx.now.saturating_add(Duration::from_secs(301));
    let m = s.encap(&EncapRequest::cam(b"y").at(later)).unwrap();
    let second = s.signing_certificate().unwrap().hashed_id8();
    assert_ne!(first, second);
    assert!(
        m.signer_was_certificate,
        "a new pseudonym is announced with its certificate"
    );
    assert_eq!(
        r.decap_at(&m.bytes, later).unwrap().signer.unwrap().hashed_id8(),
        second
    );
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

/// Issue 27, item 7: SN-ENCAP signs with low s (s <= n/2), so a receiver that accepts one
/// encoding per signature accepts every message of ours (on 726a8c9 about a third failed).
#[test]
fn own_messages_pass_require_low_s() {
    for curve in Curve::ALL {
        let fx = InMemoryPki::builder().curve(curve).build().unwrap();
        let mut s = fx.sender(fx.ticket().unwrap());
        let mut r = fx.receiver();
        r.policy_mut().signature_form.require_low_s = true;
        for i in 0..20u8 {
            let t = fx
                .now
                .saturating_add(std::time::Duration::from_millis(u64::from(i) * 10));
            let m = s.encap(&EncapRequest::cam(&[i]).at(t)).unwrap();
            r.decap_at(&m.bytes, t)
                .unwrap_or_else(|e| panic!("{curve} message {i}: {e}"));
        }
    }
}
