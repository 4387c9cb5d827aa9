//! One test per SN-DECAP rejection reason: build such a message, see that exact reason.

use std::time::Duration;
use v2x_security::signed::{sign_data, SignerKind};
use v2x_security::*;

fn pki() -> InMemoryPki {
    InMemoryPki::builder().build().unwrap()
}

fn location(lat: f64, lon: f64) -> Location {
    Location {
        point: GeoPoint::from_degrees(lat, lon),
        elevation: 0,
    }
}

fn perm(psid: u64, ssp: Option<Vec<u8>>) -> AppPermission {
    AppPermission::new(psid, ssp)
}

fn ticket_from(
    fx: &InMemoryPki,
    issuer: &v2x_security::authority::Authority,
    perms: &[AppPermission],
    start: TaiTime,
    validity: Duration,
    region: Option<Region>,
) -> Credentials {
    let mut spec = TicketSpec::new(&[], validity);
    spec.permissions = perms.to_vec();
    spec.start = Some(start);
    spec.region = region;
    fx.issue_ticket_from(issuer, &spec).unwrap()
}

fn reason(r: Result<Decapped, Rejection>) -> RejectReason {
    match r {
        Ok(d) => panic!("accepted: {d:?}"),
        Err(e) => e.reason,
    }
}

fn denm_at(fx: &InMemoryPki, s: &mut SecurityEntity, loc: Location) -> Vec<u8> {
    s.encap(&EncapRequest::denm(&denm_payload(), loc).at(fx.now))
        .unwrap()
        .bytes
}

#[test]
fn accepts_a_valid_cam() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let mut r = fx.receiver();
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap();
    let d = r.decap_at(&m.bytes, fx.now).unwrap();
    assert_eq!(d.payload, b"cam");
    assert_eq!(d.psid, Some(ItsAid::CAM));
    assert_eq!(d.ssp.as_deref(), Some(&[1u8, 0xff, 0xfc][..]));
}

#[test]
fn bit_flipped_signature_is_false_signature() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut bad = m.clone();
    let n = bad.len();
    bad[n - 5] ^= 0x01; // inside s of the signature
    assert_eq!(
        reason(fx.receiver().decap_at(&bad, fx.now)),
        RejectReason::FalseSignature
    );
}

#[test]
fn forged_payload_is_false_signature() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam payload").at(fx.now)).unwrap().bytes;
    let pos = m.windows(11).position(|w| w == b"cam payload").unwrap();
    let mut bad = m.clone();
    bad[pos] = b'C';
    assert_eq!(
        reason(fx.receiver().decap_at(&bad, fx.now)),
        RejectReason::FalseSignature
    );
}

#[test]
fn unsigned_where_signing_is_required() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").unsigned()).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::UnsignedMessage
    );
}

#[test]
fn stale_and_future_generation_time() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let old = s
        .encap(&EncapRequest::cam(b"cam").at(fx.now.saturating_sub(Duration::from_millis(2500))))
        .unwrap();
    assert_eq!(
        reason(fx.receiver().decap_at(&old.bytes, fx.now)),
        RejectReason::StaleMessage
    );
    let future = s
        .encap(&EncapRequest::cam(b"cam").at(fx.now.saturating_add(Duration::from_millis(500))))
        .unwrap();
    assert_eq!(
        reason(fx.receiver().decap_at(&future.bytes, fx.now)),
        RejectReason::FutureMessage
    );
    // Within the CAM window both ways.
    let ok = s
        .encap(&EncapRequest::cam(b"cam").at(fx.now.saturating_add(Duration::from_millis(100))))
        .unwrap();
    assert!(fx.receiver().decap_at(&ok.bytes, fx.now).is_ok());
}

#[test]
fn expired_and_not_yet_valid_certificate() {
    let fx = pki();
    let perms = [perm(36, Some(vec![1, 0xff, 0xfc]))];
    let expired = fx
        .ticket_with(
            &perms,
            fx.now.saturating_sub(Duration::from_secs(7200)),
            Duration::from_secs(3600),
            None,
        )
        .unwrap();
    let mut s = fx.sender(expired);
    // The sender refuses to sign with it unless told to (the lab option).
    assert!(matches!(
        s.encap(&EncapRequest::cam(b"cam").at(fx.now)),
        Err(EncapError::SignerNotValid { .. })
    ));
    s.encap_policy_mut().insecure_sign_with_invalid_certificate = true;
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::CertificateExpired
    );
    let later = fx
        .ticket_with(
            &perms,
            fx.now.saturating_add(Duration::from_secs(3600)),
            Duration::from_secs(3600),
            None,
        )
        .unwrap();
    let mut s = fx.sender(later);
    s.encap_policy_mut().insecure_sign_with_invalid_certificate = true;
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::CertificateNotYetValid
    );
}

#[test]
fn revoked_certificate_via_crl() {
    let fx = pki();
    let t = fx.ticket().unwrap();
    let cert = t.certificate.clone();
    let mut s = fx.sender(t);
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let crl = fx.crl(&[&cert], 1).unwrap();
    let mut r = fx.receiver();
    assert_eq!(r.trust_store_mut().apply_crl(&crl).unwrap(), 1);
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::RevokedCertificate);
    // A CRL signed by someone else is refused.
    let other = pki();
    let forged =
        v2x_security::crl::issue_crl(&[&cert], 1, fx.now, fx.now, &other.root.certificate, &other.root.key).unwrap();
    assert!(fx.receiver().trust_store_mut().apply_crl(&forged).is_err());
}

#[test]
fn psid_not_permitted() {
    let fx = pki();
    let t = fx
        .ticket_with(
            &[perm(36, None)],
            fx.now.saturating_sub(Duration::from_secs(60)),
            Duration::from_secs(3600),
            None,
        )
        .unwrap();
    // SN-ENCAP refuses to sign for a PSID the ticket lacks ...
    let mut s = fx.sender(t.clone());
    assert!(matches!(
        s.encap(&EncapRequest::cam(b"x").with_psid(37)),
        Err(EncapError::PsidNotPermitted(ItsAid(37)))
    ));
    // ... so forge one with the generic signer.
    let header = rasn_its::ieee1609dot2::HeaderInfo::builder()
        .psid(v2x_security::convert::psid(99))
        .generation_time(rasn_its::ieee1609dot2::base_types::Time64(fx.now.0))
        .build();
    let m = sign_data(b"x", header, &t.certificate, &t.signing_key, SignerKind::Certificate).unwrap();
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::PsidNotPermitted
    );
}

#[test]
fn ssp_not_permitted() {
    let fx = pki();
    let t = fx
        .ticket_with(
            &[perm(36, Some(vec![1, 0x00, 0x00]))],
            fx.now.saturating_sub(Duration::from_secs(60)),
            Duration::from_secs(3600),
            None,
        )
        .unwrap();
    let mut s = fx.sender(t);
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    // The receiving CAM profile requires the first permission bit (e.g. emergency container).
    r.policy_mut().profiles.get_mut(&ItsAid::CAM).unwrap().ssp = SspRule::Mask(SspRequirement {
        value: vec![1, 0x80],
        mask: vec![0xff, 0x80],
    });
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::SspNotPermitted);
}

#[test]
fn broken_chain_issuer_signature_invalid() {
    let fx = pki();
    // The AA certificate with one bit of its signature flipped.
    let mut bytes = fx.aa.certificate.encoded().to_vec();
    let n = bytes.len();
    bytes[n - 3] ^= 0x01;
    let broken = std::sync::Arc::new(Certificate::from_bytes(&bytes).unwrap());
    let broken_aa = v2x_security::authority::Authority {
        certificate: broken.clone(),
        key: fx.aa.key.clone(),
    };
    let t = ticket_from(
        &fx,
        &broken_aa,
        &[perm(36, Some(vec![1, 0xff, 0xfc]))],
        fx.now.saturating_sub(Duration::from_secs(60)),
        Duration::from_secs(3600),
        None,
    );
    let mut s = fx.sender(t);
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    r.trust_store_mut().add_ca_certificate(broken);
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::InvalidChainSignature);
}

#[test]
fn untrusted_root() {
    let fx = pki();
    let other = pki();
    let mut s = other.sender(other.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    r.trust_store_mut().add_ca_certificate(other.aa.certificate.clone());
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::UntrustedRoot);
}

#[test]
fn unknown_signer_digest_queues_a_p2pcd_request() {
    let fx = pki();
    let t = fx.ticket().unwrap();
    let id3 = t.certificate.hashed_id3();
    let mut s = fx.sender(t);
    let first = s.encap(&EncapRequest::cam(b"1").at(fx.now)).unwrap();
    assert!(first.signer_was_certificate);
    let second = s
        .encap(&EncapRequest::cam(b"2").at(fx.now.saturating_add(Duration::from_millis(100))))
        .unwrap();
    assert!(!second.signer_was_certificate);
    let mut r = fx.receiver();
    let e = r.decap_at(&second.bytes, fx.now).unwrap_err();
    assert_eq!(e.reason, RejectReason::SignerCertificateNotFound);
    assert_eq!(r.pending_p2pcd_requests(), vec![id3]);
}

#[test]
fn replay_is_duplicate() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    r.decap_at(&m, fx.now).unwrap();
    assert_eq!(
        reason(r.decap_at(&m, fx.now.saturating_add(Duration::from_millis(50)))),
        RejectReason::DuplicateMessage
    );
}

#[test]
fn outside_region() {
    let fx = pki();
    let region = Region::Circle {
        center: GeoPoint::from_degrees(48.1, 11.5),
        radius_m: 5000,
    };
    let t = fx
        .ticket_with(
            &[perm(37, Some(vec![1, 0xff, 0xff, 0xff]))],
            fx.now.saturating_sub(Duration::from_secs(60)),
            Duration::from_secs(3600),
            Some(region),
        )
        .unwrap();
    let mut s = fx.sender(t);
    let inside = denm_at(&fx, &mut s, location(48.11, 11.5));
    assert!(fx.receiver().decap_at(&inside, fx.now).unwrap().region_checked);
    let outside = denm_at(&fx, &mut s, location(48.3, 11.5));
    assert_eq!(
        reason(fx.receiver().decap_at(&outside, fx.now)),
        RejectReason::OutsideRegion
    );
}

#[test]
fn denm_without_location_misses_a_header_field() {
    let fx = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    assert!(matches!(
        s.encap(&EncapRequest::new(ProfileKind::Denm, b"d")),
        Err(EncapError::MissingLocation(ProfileKind::Denm))
    ));
    let m = s
        .encap(&EncapRequest::new(ProfileKind::Generic, b"d").with_psid(37).at(fx.now))
        .unwrap()
        .bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::MissingHeaderField
    );
}

#[test]
fn tampered_ciphertext_fails_decryption() {
    let fx = pki();
    let bob_ticket = fx.ticket().unwrap();
    let bob_cert = bob_ticket.certificate.clone();
    let mut alice = fx.sender(fx.ticket().unwrap());
    let mut bob = fx.sender(bob_ticket);
    let m = alice
        .encap(
            &EncapRequest::new(ProfileKind::Generic, b"secret")
                .at(fx.now)
                .encrypted_to(Recipient::Certificate(bob_cert)),
        )
        .unwrap()
        .bytes;
    let mut bad = m.clone();
    let n = bad.len();
    bad[n - 20] ^= 0x40;
    assert_eq!(reason(bob.decap_at(&bad, fx.now)), RejectReason::DecryptionFailed);
    assert_eq!(bob.decap_at(&m, fx.now).unwrap().payload, b"secret");
}

#[test]
fn wrong_recipient() {
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
    assert_eq!(reason(carol.decap_at(&m, fx.now)), RejectReason::NotForThisRecipient);
}

#[test]
fn garbage_and_wrong_version() {
    let fx = pki();
    let mut r = fx.receiver();
    assert_eq!(reason(r.decap_at(&[], fx.now)), RejectReason::InvalidEncoding);
    assert_eq!(reason(r.decap_at(&[3, 0x81, 0], fx.now)), RejectReason::InvalidEncoding);
    assert_eq!(
        reason(r.decap_at(&[2, 0x80, 1, 0], fx.now)),
        RejectReason::IncompatibleProtocol
    );
    let mut s = fx.sender(fx.ticket().unwrap());
    let mut m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    m.push(0);
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::InvalidEncoding);
}

#[test]
fn inconsistent_chain_validity_and_permissions() {
    let fx = pki();
    // A ticket outliving its AA.
    let aa_end = fx.aa.certificate.validity().end;
    let long = fx
        .ticket_with(
            &[perm(36, Some(vec![1, 0xff, 0xfc]))],
            fx.now.saturating_sub(Duration::from_secs(60)),
            Duration::from_secs(aa_end - fx.now.seconds() + 3600),
            None,
        )
        .unwrap();
    let mut s = fx.sender(long);
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    assert_eq!(
        reason(fx.receiver().decap_at(&m, fx.now)),
        RejectReason::InconsistentChain
    );

    // An AA allowed to issue only PSID 37 issuing a CAM ticket.
    let key = v2x_crypto::PrivateKey::generate(v2x_crypto::Curve::NistP256).unwrap();
    let mut spec = CertificateSpec::new(
        Some("denm-only AA"),
        fx.now.saturating_sub(Duration::from_secs(60)),
        Duration::from_secs(86400),
    );
    spec.issue_permissions = Some(IssuePermissions::Psids(vec![ItsAid::DENM]));
    let narrow = issue_certificate(
        &spec,
        key.public_key(),
        IssuerKey::Ca {
            cert: &fx.root.certificate,
            key: &fx.root.key,
        },
    )
    .unwrap();
    let narrow = v2x_security::authority::Authority {
        certificate: std::sync::Arc::new(narrow),
        key,
    };
    let t = ticket_from(
        &fx,
        &narrow,
        &[perm(36, None)],
        fx.now.saturating_sub(Duration::from_secs(60)),
        Duration::from_secs(3600),
        None,
    );
    let mut s = fx.sender(t);
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap().bytes;
    let mut r = fx.receiver();
    r.trust_store_mut().add_ca_certificate(narrow.certificate.clone());
    assert_eq!(reason(r.decap_at(&m, fx.now)), RejectReason::InconsistentChain);
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
