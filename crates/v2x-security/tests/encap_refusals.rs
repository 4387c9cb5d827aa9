//! Issue 11, defect 7: the sender refuses, with a reason, to sign with a ticket that is not
//! valid at the generation time or is revoked, and to encrypt to a certificate that does not
//! validate, is expired or revoked; only the named insecure options lift that. A PKI issues
//! no ticket that is already over. Each of these failed on the code before the fix.

use std::time::Duration;
use v2x_security::*;

fn pki() -> InMemoryPki {
    InMemoryPki::builder().build().unwrap()
}

fn cam_ticket(fx: &InMemoryPki, start: TaiTime, validity: Duration) -> Credentials {
    fx.ticket_with(
        &[AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))],
        start,
        validity,
        None,
    )
    .unwrap()
}

#[test]
fn no_signing_with_an_expired_or_not_yet_valid_ticket() {
    let fx = pki();
    let hour = Duration::from_secs(3600);
    for (name, start) in [
        ("expired", fx.now.saturating_sub(2 * hour)),
        ("not yet valid", fx.now.saturating_add(hour)),
    ] {
        let mut s = fx.sender(cam_ticket(&fx, start, hour));
        match s.encap(&EncapRequest::cam(b"cam").at(fx.now)) {
            Err(EncapError::SignerNotValid { at, .. }) => assert_eq!(at, fx.now.seconds(), "{name}"),
            other => panic!("{name}: {other:?}"),
        }
        s.encap_policy_mut().insecure_sign_with_invalid_certificate = true;
        assert!(
            s.encap(&EncapRequest::cam(b"cam").at(fx.now)).is_ok(),
            "{name}: lab option"
        );
    }
}

#[test]
fn a_pool_moves_past_an_expired_ticket_and_refuses_when_none_is_valid() {
    let fx = pki();
    let hour = Duration::from_secs(3600);
    let expired = cam_ticket(&fx, fx.now.saturating_sub(2 * hour), hour);
    let valid = cam_ticket(&fx, fx.now.saturating_sub(hour), 2 * hour);
    let valid_id = valid.certificate.hashed_id8();
    let mut s = fx.pool_sender(vec![expired.clone(), valid]).unwrap();
    assert!(s.encap(&EncapRequest::cam(b"cam").at(fx.now)).is_ok());
    assert_eq!(s.signing_certificate().unwrap().hashed_id8(), valid_id);
    let mut only_expired = fx.pool_sender(vec![expired]).unwrap();
    assert!(matches!(
        only_expired.encap(&EncapRequest::cam(b"cam").at(fx.now)),
        Err(EncapError::SignerNotValid { .. })
    ));
}

#[test]
fn no_signing_with_a_revoked_ticket() {
    let fx = pki();
    let t = fx.ticket().unwrap();
    let mut store = fx.store();
    store.apply_crl(&fx.crl(&[&t.certificate], 1).unwrap()).unwrap();
    let mut s = SecurityEntity::with_credentials(store, t, fx.chain());
    assert!(matches!(
        s.encap(&EncapRequest::cam(b"cam").at(fx.now)),
        Err(EncapError::SignerRevoked { .. })
    ));
    s.encap_policy_mut().insecure_sign_with_invalid_certificate = true;
    assert!(s.encap(&EncapRequest::cam(b"cam").at(fx.now)).is_ok());

    // From a PKI directory: a revoked ticket's station refuses to sign.
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pki::init(dir.path(), PkiConfig::default(), "car").unwrap();
    let ticket = p.tickets("car").unwrap()[0].certificate.clone();
    p.revoke(&ticket).unwrap();
    let mut car = p.entity("car").unwrap();
    assert!(matches!(
        car.encap(&EncapRequest::cam(b"cam")),
        Err(EncapError::SignerRevoked { .. })
    ));
}

fn encrypt_to(s: &mut SecurityEntity, fx: &InMemoryPki, to: &Credentials) -> Result<Encapsulated, EncapError> {
    s.encap(
        &EncapRequest::new(ProfileKind::Generic, b"secret")
            .at(fx.now)
            .encrypted_to(Recipient::Certificate(to.certificate.clone())),
    )
}

#[test]
fn no_encryption_to_an_untrusted_expired_or_revoked_certificate() {
    let fx = pki();
    let other = pki();
    let mut s = fx.sender(fx.ticket().unwrap());
    let refused = |r: Result<Encapsulated, EncapError>| match r {
        Err(EncapError::Recipient { reason, .. }) => reason.reason,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        refused(encrypt_to(&mut s, &fx, &other.ticket().unwrap())),
        RejectReason::IssuerCertificateNotFound
    );
    let hour = Duration::from_secs(3600);
    let expired = cam_ticket(&fx, fx.now.saturating_sub(2 * hour), hour);
    assert_eq!(
        refused(encrypt_to(&mut s, &fx, &expired)),
        RejectReason::CertificateExpired
    );
    let revoked = fx.ticket().unwrap();
    s.trust_store_mut()
        .apply_crl(&fx.crl(&[&revoked.certificate], 1).unwrap())
        .unwrap();
    assert_eq!(
        refused(encrypt_to(&mut s, &fx, &revoked)),
        RejectReason::RevokedCertificate
    );
    assert!(encrypt_to(&mut s, &fx, &fx.ticket().unwrap()).is_ok());
    s.encap_policy_mut().insecure_encrypt_to_unvalidated_recipient = true;
    assert!(encrypt_to(&mut s, &fx, &other.ticket().unwrap()).is_ok(), "lab option");
}

#[test]
fn a_pki_issues_no_ticket_that_is_already_over() {
    let dir = tempfile::tempdir().unwrap();
    let p = Pki::init(dir.path(), PkiConfig::default(), "car").unwrap();
    // Shorter than the usual five-minute back-dating: still valid now. (Validity has whole
    // seconds and excludes its end, so a 1 s ticket can be over before the assertion runs.)
    for secs in [5, 120, 299] {
        let t = p
            .issue_tickets("car", 1, &TicketSpec::new(&[ItsAid::CAM], Duration::from_secs(secs)))
            .unwrap();
        assert!(
            t[0].certificate.validity().contains(TaiTime::now()),
            "a {secs} s ticket is valid when issued"
        );
    }
    // An explicit start that makes it over already is refused, unless the lab option.
    let mut spec = TicketSpec::new(&[ItsAid::CAM], Duration::from_secs(60));
    spec.start = Some(TaiTime::now().saturating_sub(Duration::from_secs(3600)));
    assert!(matches!(
        p.issue_tickets("car", 1, &spec),
        Err(PkiError::TicketAlreadyExpired { .. })
    ));
    spec.insecure_allow_expired = true;
    assert!(p.issue_tickets("car", 1, &spec).is_ok());
}

/// PRESERVE F-SIG-05 / F-SIG-06: a pool whose active pseudonym lacks the message's PSID
/// signs with the next one that has it; with none that has it, nothing is signed and the
/// refusal names the PSID.
#[test]
fn a_pool_leaves_a_pseudonym_without_the_psid_and_refuses_when_none_has_it() {
    let fx = pki();
    let hour = Duration::from_secs(3600);
    let start = fx.now.saturating_sub(hour);
    let denm_only = fx
        .ticket_with(&[AppPermission::new(ItsAid::DENM, None)], start, 2 * hour, None)
        .unwrap();
    let cam = cam_ticket(&fx, start, 2 * hour);
    let cam_id = cam.certificate.hashed_id8();
    let mut s = fx.pool_sender(vec![denm_only.clone(), cam]).unwrap();
    assert_eq!(
        s.signing_certificate().unwrap().hashed_id8(),
        denm_only.certificate.hashed_id8()
    );
    let m = s.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap();
    assert_eq!(s.signing_certificate().unwrap().hashed_id8(), cam_id);
    assert!(
        m.signer_was_certificate,
        "the first CAM under the new pseudonym carries it"
    );
    let d = fx.receiver().decap_at(&m.bytes, fx.now).unwrap();
    assert_eq!(d.signer.unwrap().hashed_id8(), cam_id);

    let mut none = fx.pool_sender(vec![denm_only.clone(), denm_only]).unwrap();
    let e = none.encap(&EncapRequest::cam(b"cam").at(fx.now)).unwrap_err();
    assert!(
        matches!(
            e,
            EncapError::NoPseudonymPermits {
                psid: ItsAid::CAM,
                pseudonyms: 2
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("permits PSID"), "{e}");
    // The named lab option still signs outside the permissions with the active ticket.
    none.encap_policy_mut().insecure_sign_outside_permissions = true;
    assert!(none.encap(&EncapRequest::cam(b"cam").at(fx.now)).is_ok());
}
