//! Property test: random and mutated bytes into SN-DECAP (strict and signature-only)
//! and into the certificate, CRL and trust-list decoders never panic.

use proptest::prelude::*;
use std::sync::OnceLock;
use v2x_security::*;

struct Samples {
    fx: InMemoryPki,
    messages: Vec<Vec<u8>>,
}

fn samples() -> &'static Samples {
    static S: OnceLock<Samples> = OnceLock::new();
    S.get_or_init(|| {
        let fx = InMemoryPki::builder().build().unwrap();
        let bob = fx.ticket().unwrap();
        let mut s = fx.sender(fx.ticket().unwrap());
        let t = fx.now;
        let mut messages = vec![
            s.encap(&EncapRequest::cam(b"cam with certificate").at(t))
                .unwrap()
                .bytes,
            s.encap(&EncapRequest::cam(b"cam with digest").at(t)).unwrap().bytes,
            s.encap(
                &EncapRequest::denm(
                    &denm_payload(),
                    Location {
                        point: GeoPoint::from_degrees(48.0, 11.0),
                        elevation: 0,
                    },
                )
                .at(t),
            )
            .unwrap()
            .bytes,
            s.encap(
                &EncapRequest::new(ProfileKind::Generic, b"enc")
                    .at(t)
                    .encrypted_to(Recipient::Certificate(bob.certificate.clone())),
            )
            .unwrap()
            .bytes,
            fx.aa.certificate.encoded().to_vec(),
        ];
        messages.push(include_bytes!("../../../vectors/eu-ectl-CE4CF6C19BFED720.oer").to_vec());
        messages.push(fx.crl(&[&bob.certificate], 1).unwrap());
        messages.push(include_bytes!("../../../vectors/c2c-common-ts102941-crl.oer").to_vec());
        messages.push(include_bytes!("../../../vectors/c2c-common-ts102941-rca-ctl.oer").to_vec());
        let state = v2x_wire::facilities::VehicleState {
            station_id: 1,
            latitude: 0,
            longitude: 0,
            speed: 0,
            heading: 0,
            altitude_cm: 0,
        };
        messages
            .push(v2x_wire::facilities::encode_cam(&v2x_wire::facilities::passenger_car_cam(&state, 1, true)).unwrap());
        messages
            .push(v2x_wire::facilities::encode_denm(&v2x_wire::facilities::hazard_denm(&state, 1, 0, 3, 0)).unwrap());
        Samples { fx, messages }
    })
}

fn feed(bytes: &[u8]) {
    let s = samples();
    let mut strict = s.fx.receiver();
    let _ = strict.decap_at(bytes, s.fx.now);
    let mut lab = SecurityEntity::new(TrustStore::new());
    lab.set_decap_mode(DecapMode::SignatureOnly);
    let _ = lab.decap_at(bytes, s.fx.now);
    let _ = Certificate::from_bytes(bytes);
    let _ = v2x_security::crl::verify_crl(bytes, &s.fx.store());
    let _ = v2x_security::trust_list::verify_trust_list(bytes, &s.fx.root.certificate);
    let _ = v2x_security::trust_list::verify_rca_ctl(bytes, &s.fx.store());
    let _ = SspRule::EtsiCam.check(Some(&[1, 0xff, 0xfc]), bytes);
    let _ = SspRule::EtsiDenm.check(Some(&[1, 0xff, 0xff, 0xff]), bytes);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        feed(&bytes);
    }

    /// A receiver that accepted the signed samples accepts no mutation of them: a changed
    /// byte either breaks the message or leaves the same message (then it is a replay).
    #[test]
    fn no_mutated_signed_message_is_accepted(which in 0usize..3, flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 1..4)) {
        let s = samples();
        let mut r = s.fx.receiver();
        for m in &s.messages[..=which] {
            r.decap_at(m, s.fx.now).unwrap();
        }
        let mut m = s.messages[which].clone();
        for (pos, x) in flips {
            let n = m.len();
            m[pos % n] ^= x;
        }
        if m != s.messages[which] {
            prop_assert!(r.decap_at(&m, s.fx.now).is_err(), "a mutated copy of sample {} was accepted", which);
        }
    }

    #[test]
    fn mutated_messages_never_panic(which in 0usize..11, flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6), cut in any::<usize>()) {
        let s = samples();
        let mut m = s.messages[which % s.messages.len()].clone();
        for (pos, x) in flips {
            let n = m.len();
            m[pos % n] ^= x;
        }
        feed(&m);
        let n = m.len();
        feed(&m[..cut % (n + 1)]);
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
