//! Must-show property (issue 11): no mutated signed message is ever accepted unless the
//! mutation left the bytes unchanged, for the legacy v1.2.1 format and for v2 messages
//! inside a GeoNetworking packet (the v2 bare messages are covered in decap_never_panics).
//! Each receiver first accepts the genuine message, so a mutation that leaves the signed
//! message intact (only the GeoNetworking header, or a re-encoded signature) is a replay.

use proptest::prelude::*;
use std::sync::OnceLock;
use v2x_crypto::Curve;
use v2x_security::time::TaiTime;
use v2x_security::v1_2_1::*;
use v2x_security::*;
use v2x_wire::geonet::GnPacket;

const START: u32 = 600_000_000;

fn t() -> TaiTime {
    TaiTime((u64::from(START) + 3600) * 1_000_000)
}

struct V1Samples {
    pki: V1Pki,
    messages: Vec<Vec<u8>>,
}

fn v1_store(pki: &V1Pki) -> V1TrustStore {
    let mut s = V1TrustStore::new();
    s.add_anchor(pki.root.certificate.clone());
    s.add_authority(pki.aa.certificate.clone());
    s
}

fn v1_receiver(pki: &V1Pki) -> V1Entity {
    V1Entity::new(None, Vec::new(), v1_store(pki))
}

fn v1_samples() -> &'static V1Samples {
    static S: OnceLock<V1Samples> = OnceLock::new();
    S.get_or_init(|| {
        let pki = V1Pki::generate(Curve::NistP256, START, 30).unwrap();
        let cred = pki.ticket(Curve::NistP256, START, 7, None).unwrap();
        let mut alice = V1Entity::new(Some(cred), vec![pki.aa.certificate.clone()], v1_store(&pki));
        let mut cam = V1EncapRequest::new(V1Profile::Cam, b"v1 cam", t());
        cam.signer = SignerChoice::Certificate;
        let mut denm = V1EncapRequest::new(V1Profile::Denm, b"v1 denm", t());
        denm.location = Some(v2x_wire::v1_2_1::ThreeDLocation {
            latitude: 481_000_000,
            longitude: 115_000_000,
            elevation: [0, 0],
        });
        let messages = vec![alice.encap(&cam).unwrap(), alice.encap(&denm).unwrap()];
        V1Samples { pki, messages }
    })
}

struct GnSamples {
    fx: InMemoryPki,
    packets: Vec<Vec<u8>>,
}

fn gn_samples() -> &'static GnSamples {
    static S: OnceLock<GnSamples> = OnceLock::new();
    S.get_or_init(|| {
        let fx = InMemoryPki::builder().build().unwrap();
        let mut s = fx.sender(fx.ticket().unwrap());
        let a = s.encap(&EncapRequest::cam(b"gn cam").at(fx.now)).unwrap().bytes;
        let packets = vec![v2x_wire::geonet::secured_packet(&a)];
        GnSamples { fx, packets }
    })
}

/// The receiver's view of a GeoNetworking packet: the secured message inside, if any.
fn gn_decap(r: &mut SecurityEntity, packet: &[u8], now: TaiTime) -> bool {
    match GnPacket::parse(packet) {
        Ok(GnPacket::Secured { secured, .. }) => r.decap_at(secured, now).is_ok(),
        _ => false,
    }
}

fn mutate(m: &[u8], flips: &[(usize, u8)]) -> Vec<u8> {
    let mut m = m.to_vec();
    for (pos, x) in flips {
        let n = m.len();
        m[pos % n] ^= x;
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn no_mutated_v1_2_1_message_is_accepted(which in 0usize..2, flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 1..4)) {
        let s = v1_samples();
        let mut r = v1_receiver(&s.pki);
        for m in &s.messages {
            r.decap(m, t()).unwrap();
        }
        let m = mutate(&s.messages[which], &flips);
        if m != s.messages[which] {
            prop_assert!(r.decap(&m, t()).is_err(), "a mutated copy of v1.2.1 sample {} was accepted", which);
        }
    }

    #[test]
    fn no_mutated_geonetworking_packet_is_accepted(flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 1..4)) {
        let s = gn_samples();
        let mut r = s.fx.receiver();
        prop_assert!(gn_decap(&mut r, &s.packets[0], s.fx.now));
        let m = mutate(&s.packets[0], &flips);
        if m != s.packets[0] {
            prop_assert!(!gn_decap(&mut r, &m, s.fx.now), "a mutated GeoNetworking packet was accepted");
        }
    }
}

/// The genuine messages are accepted (the properties above would pass vacuously otherwise).
#[test]
fn the_genuine_samples_are_accepted() {
    let s = v1_samples();
    let mut r = v1_receiver(&s.pki);
    for m in &s.messages {
        r.decap(m, t()).unwrap();
    }
    let g = gn_samples();
    assert!(gn_decap(&mut g.fx.receiver(), &g.packets[0], g.fx.now));
}
