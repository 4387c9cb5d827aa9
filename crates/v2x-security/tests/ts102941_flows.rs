//! TS 102 941 enrolment and authorization end to end in memory: ITS-S, EA and AA as the
//! policy modules build and check the messages (the service adds HTTP and storage around the
//! same calls). Every variant of the authorization request, and the refusals each step owns.

use std::sync::Arc;
use std::time::Duration;
use v2x_crypto::{Curve, PrivateKey};
use v2x_security::certificate::AppPermission;
use v2x_security::ts102941::aa::AaPolicy;
use v2x_security::ts102941::attributes::attributes;
use v2x_security::ts102941::authorities::Authorities;
use v2x_security::ts102941::ea::{EaPolicy, EcRecord, StationRecord};
use v2x_security::ts102941::station::{
    self, AuthorizationOptions, AuthorizationOutcome, EnrolmentIdentity, EnrolmentOutcome,
};
use v2x_security::ts102941::wire::{
    AuthorizationResponseCode, AuthorizationValidationResponseCode, EnrolmentResponseCode,
};
use v2x_security::ts102941::NotOpened;
use v2x_security::{Authority, ItsAid, TaiTime};

fn ec_attributes() -> v2x_security::ts102941::wire::CertificateSubjectAttributes {
    attributes(
        &[AppPermission::new(ItsAid::CERT_REQUEST, Some(vec![0x01, 0xc0]))],
        None,
        None,
    )
}

fn at_attributes() -> v2x_security::ts102941::wire::CertificateSubjectAttributes {
    attributes(
        &[AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))],
        None,
        None,
    )
}

struct World {
    auth: Authorities,
    canonical: PrivateKey,
    station: StationRecord,
}

fn world(curve: Curve) -> World {
    let auth = Authorities::create(curve, TaiTime::now()).unwrap();
    let canonical = PrivateKey::generate(curve).unwrap();
    let station = StationRecord {
        canonical_key: canonical.public_key().clone(),
        revoked: false,
        at_permissions: vec![
            AppPermission::new(ItsAid::CAM, None),
            AppPermission::new(ItsAid::DENM, None),
        ],
    };
    World {
        auth,
        canonical,
        station,
    }
}

fn enrol(w: &World) -> Authority {
    let ea = w.auth.enrolment_authority(EaPolicy::default());
    let now = TaiTime::now();
    let req = station::enrolment_request(
        EnrolmentIdentity::Canonical {
            its_id: b"vehicle-1",
            key: &w.canonical,
        },
        ea.certificate(),
        &ec_attributes(),
        w.canonical.curve(),
        false,
        now,
    )
    .unwrap();
    let opened = ea.open_enrolment(&req.message, now).unwrap();
    assert_eq!(
        opened.requester,
        v2x_security::ts102941::ea::Requester::Canonical(b"vehicle-1".to_vec())
    );
    let ec = ea.decide_enrolment(&opened, Some(&w.station), None, now).unwrap();
    let resp = ea
        .enrolment_response(&opened.reply, EnrolmentResponseCode::Ok, Some(&ec), now)
        .unwrap();
    match station::read_enrolment_response(&resp, req, ea.certificate()).unwrap() {
        EnrolmentOutcome::Enrolled { ec: got, .. } => {
            assert_eq!(got.certificate.encoded(), ec.encoded());
            assert!(got.certificate.verify_signature(Some(ea.certificate())));
            got
        }
        other => panic!("{other:?}"),
    }
}

/// One authorization through AA → EA → AA; returns the AA's final code.
fn authorize(
    w: &World,
    ec: &Authority,
    options: AuthorizationOptions,
    ec_record: Option<&EcRecord>,
) -> AuthorizationOutcome {
    let ea = w.auth.enrolment_authority(EaPolicy::default());
    let aa = w.auth.authorization_authority(AaPolicy::default());
    let now = TaiTime::now();
    let req =
        station::authorization_request(ec, ea.certificate(), aa.certificate(), &at_attributes(), options, now).unwrap();
    let opened = aa.open_authorization(&req.message, now).unwrap();
    let pending = aa.validation_request(&opened, now).unwrap();
    let validation = ea.open_validation(&pending.message, now).unwrap();
    assert_eq!(validation.ec, ec.certificate.hashed_id8());
    let (code, confirmed) = match ea.decide_validation(&validation, ec_record, now) {
        Ok(c) => (AuthorizationValidationResponseCode::Ok, Some(c)),
        Err(r) => (r.code, None),
    };
    let v_resp = ea.validation_response(&validation.reply, code, confirmed, now).unwrap();
    let (code, confirmed) = aa
        .read_validation_response(&v_resp, &pending, ea.certificate())
        .unwrap();
    let resp = match (code, confirmed) {
        (AuthorizationValidationResponseCode::Ok, Some(c)) => {
            let at = aa.issue_at(&opened, &c, now).unwrap();
            aa.authorization_response(&opened.reply, AuthorizationResponseCode::Ok, Some(&at), now)
                .unwrap()
        }
        (code, _) => aa
            .authorization_response(&opened.reply, v2x_security::ts102941::aa::relay_code(code), None, now)
            .unwrap(),
    };
    station::read_authorization_response(&resp, req, aa.certificate()).unwrap()
}

#[test]
fn enrolment_then_authorization_in_every_variant_on_every_curve() {
    for curve in Curve::ALL {
        let w = world(curve);
        let ec = enrol(&w);
        let record = EcRecord {
            certificate: ec.certificate.clone(),
            revoked: false,
            at_permissions: w.station.at_permissions.clone(),
        };
        for privacy in [true, false] {
            for pop in [true, false] {
                let options = AuthorizationOptions {
                    privacy,
                    proof_of_possession: pop,
                    encryption_key: privacy,
                };
                match authorize(&w, &ec, options, Some(&record)) {
                    AuthorizationOutcome::Authorized(at) => {
                        assert!(at.certificate.verify_signature(Some(&w.auth.aa.authority.certificate)));
                        assert_eq!(
                            at.certificate.permission_for(ItsAid::CAM),
                            Some(Some(&[1u8, 0xff, 0xfc][..]))
                        );
                        assert_eq!(at.encryption_key.is_some(), privacy);
                        assert!(at.certificate.validity().contains(TaiTime::now()));
                    }
                    other => panic!("{curve} privacy {privacy} pop {pop}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn unknown_revoked_and_expired_credentials_get_the_standards_codes() {
    let w = world(Curve::NistP256);
    let ec = enrol(&w);
    let options = AuthorizationOptions::default();
    // Unknown EC at the EA: unknownits, relayed as such.
    match authorize(&w, &ec, options, None) {
        AuthorizationOutcome::Refused(c) => assert_eq!(c, AuthorizationResponseCode::Unknownits),
        other => panic!("{other:?}"),
    }
    // Revoked EC: the EA denies, relayed as deniedpermissions.
    let revoked = EcRecord {
        certificate: ec.certificate.clone(),
        revoked: true,
        at_permissions: w.station.at_permissions.clone(),
    };
    match authorize(&w, &ec, options, Some(&revoked)) {
        AuthorizationOutcome::Refused(c) => assert_eq!(c, AuthorizationResponseCode::Deniedpermissions),
        other => panic!("{other:?}"),
    }
    // Re-enrolment with an unknown EC: unknownits; with a revoked station: baditsstatus.
    let ea = w.auth.enrolment_authority(EaPolicy::default());
    let now = TaiTime::now();
    let req = station::enrolment_request(
        EnrolmentIdentity::Reenrolment { ec: &ec },
        ea.certificate(),
        &ec_attributes(),
        Curve::NistP256,
        false,
        now,
    )
    .unwrap();
    let opened = ea.open_enrolment(&req.message, now).unwrap();
    let refusal = ea.decide_enrolment(&opened, None, None, now).unwrap_err();
    assert_eq!(refusal.code, EnrolmentResponseCode::Unknownits);
    let refusal = ea.decide_enrolment(&opened, None, Some(&revoked), now).unwrap_err();
    assert_eq!(refusal.code, EnrolmentResponseCode::Baditsstatus);
    // An EC used after its end: baditsstatus.
    let valid = EcRecord {
        revoked: false,
        ..revoked.clone()
    };
    let later = TaiTime::from_time32(ec.certificate.validity().end as u32 + 10);
    let opened_later = {
        let req = station::enrolment_request(
            EnrolmentIdentity::Reenrolment { ec: &ec },
            ea.certificate(),
            &ec_attributes(),
            Curve::NistP256,
            false,
            later,
        )
        .unwrap();
        ea.open_enrolment(&req.message, later).unwrap()
    };
    let refusal = ea
        .decide_enrolment(&opened_later, None, Some(&valid), later)
        .unwrap_err();
    assert_eq!(refusal.code, EnrolmentResponseCode::Baditsstatus);
    // And the valid EC re-enrols.
    assert!(ea.decide_enrolment(&opened, None, Some(&valid), now).is_ok());
}

#[test]
fn stale_and_foreign_requests_are_refused_with_their_codes() {
    let w = world(Curve::NistP256);
    let ea = w.auth.enrolment_authority(EaPolicy::default());
    let now = TaiTime::now();
    let old = now.saturating_sub(Duration::from_secs(600));
    let req = station::enrolment_request(
        EnrolmentIdentity::Canonical {
            its_id: b"v",
            key: &w.canonical,
        },
        ea.certificate(),
        &ec_attributes(),
        Curve::NistP256,
        false,
        old,
    )
    .unwrap();
    match ea.open_enrolment(&req.message, now) {
        Err(NotOpened::Refused(_, r)) => assert_eq!(r.code, EnrolmentResponseCode::Deniedrequest, "{}", r.reason),
        other => panic!("{other:?}"),
    }
    // Encrypted to the AA, sent to the EA: not decryptable here, answered in clear.
    let aa_cert = w.auth.aa.authority.certificate.clone();
    let to_aa = station::enrolment_request(
        EnrolmentIdentity::Canonical {
            its_id: b"v",
            key: &w.canonical,
        },
        &aa_cert,
        &ec_attributes(),
        Curve::NistP256,
        false,
        now,
    )
    .unwrap();
    match ea.open_enrolment(&to_aa.message, now) {
        Err(NotOpened::Unanswerable(r)) => assert_eq!(r.code, EnrolmentResponseCode::Imnottherecipient),
        other => panic!("{other:?}"),
    }
    // Signed by a key that is not the registered canonical key.
    let other = PrivateKey::generate(Curve::NistP256).unwrap();
    let forged = station::enrolment_request(
        EnrolmentIdentity::Canonical {
            its_id: b"v",
            key: &other,
        },
        ea.certificate(),
        &ec_attributes(),
        Curve::NistP256,
        false,
        now,
    )
    .unwrap();
    let opened = ea.open_enrolment(&forged.message, now).unwrap();
    let refusal = ea.decide_enrolment(&opened, Some(&w.station), None, now).unwrap_err();
    assert_eq!(refusal.code, EnrolmentResponseCode::Invalidsignature);
    // Asking for more than an EC may hold.
    let greedy = station::enrolment_request(
        EnrolmentIdentity::Canonical {
            its_id: b"v",
            key: &w.canonical,
        },
        ea.certificate(),
        &at_attributes(),
        Curve::NistP256,
        false,
        now,
    )
    .unwrap();
    match ea.open_enrolment(&greedy.message, now) {
        Err(NotOpened::Refused(_, r)) => assert_eq!(r.code, EnrolmentResponseCode::Deniedpermissions),
        other => panic!("{other:?}"),
    }
    let _ = Arc::clone(&aa_cert);
}

#[test]
fn the_in_process_exchange_checks_and_decides_as_the_wire_one() {
    use v2x_security::ts102941::wire::nested_spans;
    let w = world(Curve::NistP256);
    let ec = enrol(&w);
    let record = EcRecord {
        certificate: ec.certificate.clone(),
        revoked: false,
        at_permissions: vec![AppPermission::new(ItsAid::CAM, None)],
    };
    let ea = w.auth.enrolment_authority(EaPolicy::default());
    let aa = w.auth.authorization_authority(AaPolicy::default());
    let now = TaiTime::now();
    for privacy in [true, false] {
        let options = AuthorizationOptions {
            privacy,
            ..AuthorizationOptions::default()
        };
        let req =
            station::authorization_request(&ec, ea.certificate(), aa.certificate(), &at_attributes(), options, now)
                .unwrap();
        let opened = aa.open_authorization(&req.message, now).unwrap();
        let wire = ea
            .open_validation(&aa.validation_request(&opened, now).unwrap().message, now)
            .unwrap();
        let content = aa.validation_content(&opened).unwrap();
        let local = ea.open_validation_in_process(&content, aa.certificate(), now).unwrap();
        // The same request as the EA sees it over the wire: EC, replay key, AA, decision.
        assert_eq!(
            (local.ec, local.replay_key, local.aa),
            (wire.ec, wire.replay_key, wire.aa)
        );
        let confirmed = ea.decide_validation(&local, Some(&record), now).unwrap();
        assert_eq!(confirmed, ea.decide_validation(&wire, Some(&record), now).unwrap());
        // Unknown and revoked ECs are refused with the wire's codes, relayed to the ITS-S.
        let unknown = ea.decide_validation(&local, None, now).unwrap_err();
        assert_eq!(unknown.code, AuthorizationValidationResponseCode::Unknownits);
        let revoked = EcRecord {
            revoked: true,
            ..record.clone()
        };
        let refused = ea.decide_validation(&local, Some(&revoked), now).unwrap_err();
        assert_eq!(refused.code, AuthorizationValidationResponseCode::Deniedrequest);
        let relayed = aa.issue_on(&opened, (refused.code, None), now).unwrap_err();
        assert_eq!(relayed.code, AuthorizationResponseCode::Deniedpermissions);
        // An ok without confirmed attributes issues nothing; with them, the ticket.
        let empty = aa.issue_on(&opened, (AuthorizationValidationResponseCode::Ok, None), now);
        assert_eq!(empty.unwrap_err().code, AuthorizationResponseCode::AaEaCantreachea);
        let at = aa
            .issue_on(&opened, (AuthorizationValidationResponseCode::Ok, Some(confirmed)), now)
            .unwrap();
        assert!(at.verify_signature(Some(aa.certificate())));
        // A shared request the EC signature does not cover is refused as over the wire.
        let mut changed = content.clone();
        let shared = nested_spans(&content).unwrap().shared_at_request.unwrap();
        changed[shared.end - 1] ^= 1;
        let r = ea
            .open_validation_in_process(&changed, aa.certificate(), now)
            .unwrap_err();
        assert_eq!(
            r.code,
            AuthorizationValidationResponseCode::Invalidsignature,
            "{}",
            r.reason
        );
        // Only an AA this EA serves may hand a request over: not the EA itself, not another
        // hierarchy's AA.
        let r = ea
            .open_validation_in_process(&content, ea.certificate(), now)
            .unwrap_err();
        assert_eq!(r.code, AuthorizationValidationResponseCode::Invalidaa);
        let other = Authorities::create(Curve::NistP256, now).unwrap();
        let r = ea
            .open_validation_in_process(&content, &other.aa.authority.certificate, now)
            .unwrap_err();
        assert_eq!(r.code, AuthorizationValidationResponseCode::Invalidaa);
    }
}
