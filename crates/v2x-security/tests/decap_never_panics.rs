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
                    b"denm",
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
        messages.push(include_bytes!("vectors/eu-ectl-CE4CF6C19BFED720.oer").to_vec());
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
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        feed(&bytes);
    }

    #[test]
    fn mutated_messages_never_panic(which in 0usize..6, flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6), cut in any::<usize>()) {
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
