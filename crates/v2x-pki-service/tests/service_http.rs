//! The service over HTTP on its default store (SQLite): enrolment, twenty tickets, re-enrolment,
//! a CAM another station verifies with the trust lists it downloaded; the binding's status codes;
//! the standard's response codes for refusals; replays; malformed input.

mod common;

use common::{http, TestService};
use std::time::Duration;
use v2x_pki_service::config::{content_type, paths, RESPONSE_CODE_HEADER};
use v2x_pki_service::its_station::{ItsError, PoolPlan};
use v2x_pki_service::store::{AnyStore, Store};
use v2x_security::certificate::AppPermission;
use v2x_security::ts102941::attributes::attributes;
use v2x_security::ts102941::station::{self, AuthorizationOptions, AuthorizationOutcome, EnrolmentIdentity};
use v2x_security::ts102941::wire::AuthorizationResponseCode;
use v2x_security::{ItsAid, SecurityEntity, TaiTime};

fn counts(svc: &TestService) -> v2x_pki_service::store::Counts {
    let url = svc.store.clone();
    svc.rt.block_on(async move {
        match AnyStore::open(&url).await.unwrap() {
            AnyStore::Sqlite(s) => s.counts().await.unwrap(),
            AnyStore::Postgres(s) => s.counts().await.unwrap(),
        }
    })
}

#[test]
fn a_station_enrols_obtains_twenty_tickets_re_enrols_and_its_cam_is_verified_by_another() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), None, |_| {});
    let a = svc.station(&tmp.path().join("car-1"), "car-1");
    let b = svc.station(&tmp.path().join("car-2"), "car-2");
    let auth = svc.authorities(&a);
    let ec = a.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    assert!(ec.certificate.verify_signature(Some(&auth.ea)));
    let got = a.obtain(&http(), &auth, 20, &PoolPlan::new(20, 20)).unwrap();
    assert_eq!(got.len(), 20);
    let pool = a.tickets(TaiTime::now(), Duration::ZERO).unwrap();
    assert_eq!(pool.len(), 20);
    for t in &pool {
        assert!(t.certificate.verify_signature(Some(&auth.aa)));
        assert!(t.certificate.permission_for(ItsAid::CAM).is_some());
        assert!(t.encryption_key.is_some());
    }
    // Pool mode: nothing to do while 20 are valid; refilled to 25 when asked for more.
    assert!(a.refill(&http(), &auth, &PoolPlan::new(25, 10)).unwrap().is_empty());
    assert_eq!(a.refill(&http(), &auth, &PoolPlan::new(25, 21)).unwrap().len(), 5);
    // Re-enrolment: signed by the current EC, a new EC for the same station.
    let ec2 = a.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    assert_ne!(ec2.certificate.hashed_id8(), ec.certificate.hashed_id8());
    assert_eq!(
        a.enrolment_credential().unwrap().unwrap().certificate.hashed_id8(),
        ec2.certificate.hashed_id8()
    );
    let c = counts(&svc);
    assert_eq!((c.enrolment_credentials, c.authorization_tickets), (2, 25));
    // A CAM signed with a ticket; the other station verifies it with its own trust lists.
    svc.authorities(&b);
    let store_a = v2x_security::load_trust_dir(&a.trust_dir()).unwrap();
    let t = pool[0].clone();
    let mut sender = SecurityEntity::with_credentials(store_a, t, vec![auth.aa.clone()]);
    let cam = sender
        .encap(&v2x_security::EncapRequest::cam(b"a CAM payload"))
        .unwrap();
    let mut receiver = SecurityEntity::new(v2x_security::load_trust_dir(&b.trust_dir()).unwrap());
    receiver.decap(&cam.bytes).expect("the other station accepts the CAM");
    svc.stop();
}

#[test]
fn the_http_binding_answers_every_case_with_its_status() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), None, |_| {});
    let client = reqwest::blocking::Client::new();
    let post = |path: &str, ct: &str, body: Vec<u8>| {
        client
            .post(format!("{}{path}", svc.url))
            .header("content-type", ct)
            .body(body)
            .send()
            .unwrap()
    };
    assert_eq!(post(paths::AUTHORIZATION, "text/plain", vec![1, 2, 3]).status(), 415);
    assert_eq!(
        post(paths::AUTHORIZATION, content_type::REQUEST, vec![0; 17 * 1024]).status(),
        413
    );
    let r = post(paths::AUTHORIZATION, content_type::REQUEST, vec![3, 0x82, 1, 2, 3]);
    assert_eq!(r.status(), 400);
    assert_eq!(r.headers()[RESPONSE_CODE_HEADER], "its-aa-cantparse");
    let r = post(paths::ENROLMENT, content_type::REQUEST, b"not oer".to_vec());
    assert_eq!(r.status(), 400);
    assert_eq!(r.headers()[RESPONSE_CODE_HEADER], "cantparse");
    // An enrolment request encrypted to the AA, sent to the EA.
    let st = svc.station(&tmp.path().join("car"), "car");
    let auth = svc.authorities(&st);
    let canonical = v2x_crypto::PrivateKey::generate(v2x_crypto::Curve::NistP256).unwrap();
    let to_aa = station::enrolment_request(
        EnrolmentIdentity::Canonical {
            its_id: b"car",
            key: &canonical,
        },
        &auth.aa,
        &attributes(
            &[AppPermission::new(ItsAid::CERT_REQUEST, Some(vec![1, 0xc0]))],
            None,
            None,
        ),
        v2x_crypto::Curve::NistP256,
        false,
        TaiTime::now(),
    )
    .unwrap();
    let r = post(paths::ENROLMENT, content_type::REQUEST, to_aa.message);
    assert_eq!(r.status(), 400);
    assert_eq!(r.headers()[RESPONSE_CODE_HEADER], "imnottherecipient");
    // Distribution.
    let g = client.get(format!("{}{}", svc.url, paths::ECTL)).send().unwrap();
    assert_eq!(g.status(), 200);
    assert_eq!(g.headers()["content-type"], content_type::CTL);
    let root = auth.root.hashed_id8();
    let g = client.get(format!("{}{}/{root}", svc.url, paths::CRL)).send().unwrap();
    assert_eq!(
        (g.status().as_u16(), g.headers()["content-type"].to_str().unwrap()),
        (200, content_type::CRL)
    );
    let g = client
        .get(format!("{}{}/0011223344556677", svc.url, paths::CTL))
        .send()
        .unwrap();
    assert_eq!(g.status(), 404);
    assert_eq!(
        client
            .get(format!("{}{}", svc.url, paths::ENROLMENT))
            .send()
            .unwrap()
            .status(),
        405
    );
    let s: serde_json::Value = serde_json::from_slice(
        &client
            .get(format!("{}{}", svc.url, paths::STATUS))
            .send()
            .unwrap()
            .bytes()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(s["answered"]["unanswerable"], 3, "{s}");
    svc.stop();
}

#[test]
fn unknown_and_revoked_stations_get_the_standards_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), None, |_| {});
    // Not registered: provisioned with the trust anchor only.
    let stranger =
        v2x_pki_service::its_station::ItsStation::create(&tmp.path().join("x"), "x", v2x_crypto::Curve::NistP256)
            .unwrap();
    stranger.install_trust_anchor(&svc.tlm()).unwrap();
    let auth = svc.authorities(&stranger);
    match stranger.enrol(&http(), &auth.ea, &auth.ea_url) {
        Err(ItsError::EnrolmentRefused(code)) => assert_eq!(code, "unknownits"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    let car = svc.station(&tmp.path().join("car"), "car");
    car.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    car.obtain(&http(), &auth, 1, &PoolPlan::new(1, 1)).unwrap();
    svc.register(&car, true);
    match car.obtain(&http(), &auth, 1, &PoolPlan::new(1, 1)) {
        Err(ItsError::AuthorizationRefused(code)) => assert_eq!(code, "deniedpermissions"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    match car.enrol(&http(), &auth.ea, &auth.ea_url) {
        Err(ItsError::EnrolmentRefused(code)) => assert_eq!(code, "baditsstatus"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    svc.stop();
}

#[test]
fn a_replayed_request_is_refused_and_issues_nothing_even_sent_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), None, |_| {});
    let car = svc.station(&tmp.path().join("car"), "car");
    let auth = svc.authorities(&car);
    let ec = car.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    let requested = attributes(&[AppPermission::new(ItsAid::CAM, None)], None, None);
    let make = || {
        station::authorization_request(
            &ec,
            &auth.ea,
            &auth.aa,
            &requested,
            AuthorizationOptions::default(),
            TaiTime::now(),
        )
        .unwrap()
    };
    // Sequential: the copy is refused.
    let first = make();
    let message = first.message.clone();
    let r1 = http().post(&auth.aa_url, &message).unwrap();
    assert!(matches!(
        station::read_authorization_response(&r1, first.clone(), &auth.aa).unwrap(),
        AuthorizationOutcome::Authorized(_)
    ));
    let r2 = http().post(&auth.aa_url, &message).unwrap();
    match station::read_authorization_response(&r2, first, &auth.aa).unwrap() {
        AuthorizationOutcome::Refused(c) => assert_eq!(c, AuthorizationResponseCode::ItsAaOutofsyncrequest),
        other => panic!("{other:?}"),
    }
    // Concurrent: eight copies of a new request at once, one ticket.
    let fresh = make();
    let message = fresh.message.clone();
    let answers: Vec<Vec<u8>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|_| s.spawn(|| http().post(&auth.aa_url, &message).unwrap()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // Every copy's answer is under the request's AES key.
    let key_holder = |bytes: &[u8]| station::read_authorization_response(bytes, fresh.clone(), &auth.aa).unwrap();
    let mut ok = 0;
    for a in &answers {
        match key_holder(a) {
            AuthorizationOutcome::Authorized(_) => ok += 1,
            // A copy caught by the AA's replay memory, or one that passed it at the same moment
            // and was caught by the EA's (its EC signature used before: deniedrequest, relayed).
            AuthorizationOutcome::Refused(c) => assert!(
                matches!(
                    c,
                    AuthorizationResponseCode::ItsAaOutofsyncrequest | AuthorizationResponseCode::Deniedpermissions
                ),
                "{c:?}"
            ),
        }
    }
    assert_eq!(ok, 1, "exactly one copy is answered with a ticket");
    assert_eq!(counts(&svc).authorization_tickets, 2);
    svc.stop();
}

/// A tiny deterministic generator for the mutations.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn mutated_and_truncated_requests_get_typed_answers_and_the_service_stays_up() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), None, |_| {});
    let car = svc.station(&tmp.path().join("car"), "car");
    let auth = svc.authorities(&car);
    let ec = car.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    let requested = attributes(&[AppPermission::new(ItsAid::CAM, None)], None, None);
    let valid = station::authorization_request(
        &ec,
        &auth.ea,
        &auth.aa,
        &requested,
        AuthorizationOptions::default(),
        TaiTime::now(),
    )
    .unwrap()
    .message;
    // The plaintext behind the envelope, to mutate what the decoders behind decryption see.
    let authorities =
        v2x_security::ts102941::authorities::Authorities::load(&tmp.path().join("svc").join("authorities")).unwrap();
    let aa_key = v2x_security::encryption::DecryptionKey {
        certificate: authorities.aa.authority.certificate.clone(),
        key: authorities.aa.encryption_key.clone(),
    };
    let (plaintext, _) = v2x_security::ts102941::envelope::decrypt_request(&valid, &aa_key).unwrap();
    let client = reqwest::blocking::Client::new();
    let mut rng = XorShift(0x9e3779b97f4a7c15);
    for i in 0..300 {
        let inner = i % 2 == 0;
        let mut m = if inner { plaintext.clone() } else { valid.clone() };
        match i % 3 {
            0 => {
                let at = (rng.next() as usize) % m.len();
                m[at] ^= 1 << (rng.next() % 8);
            }
            1 => m.truncate((rng.next() as usize) % m.len()),
            _ => {
                let at = (rng.next() as usize) % m.len();
                m.insert(at, rng.next() as u8);
            }
        }
        if inner {
            m = v2x_security::ts102941::envelope::encrypt_to(&m, &auth.aa)
                .unwrap()
                .bytes;
        }
        for path in [paths::AUTHORIZATION, paths::ENROLMENT, paths::VALIDATION] {
            let r = client
                .post(format!("{}{path}", svc.url))
                .header("content-type", content_type::REQUEST)
                .body(m.clone())
                .send()
                .unwrap();
            let s = r.status().as_u16();
            assert!(
                s == 200 || (s == 400 && r.headers().contains_key(RESPONSE_CODE_HEADER)),
                "{path}: {s}"
            );
        }
    }
    assert_eq!(
        counts(&svc).authorization_tickets,
        0,
        "no mutated request earned a ticket"
    );
    svc.stop();
}
