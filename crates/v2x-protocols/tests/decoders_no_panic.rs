//! Every decoder and every station's `decap` takes random and mutated bytes without
//! panicking; unmutated packets still go through (round trip).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::RefCell;
use v2x_crypto::Curve;
use v2x_protocols::cert::{decode_signature, CompactCertificate};
use v2x_protocols::loopback::Link;
use v2x_protocols::session::crypto::{EncryptionAlg, SessionCert, SignatureAlg};
use v2x_protocols::session::wire;
use v2x_protocols::session::{Protection, Scheme, SessionConfig, Topology};
use v2x_protocols::tesla::{Bootstrap, KeyDisclosure, TeslaConfig};
use v2x_protocols::{build_pair, hash_chain, none, tesla, two_flip, Authenticator, ProtocolConfig, Timestamp};

const NOW: Timestamp = Timestamp(5_000_000);

fn configs() -> Vec<ProtocolConfig> {
    vec![
        ProtocolConfig::None(Default::default()),
        ProtocolConfig::HashChain(Default::default()),
        ProtocolConfig::HashChain(hash_chain::HashChainConfig {
            pair_link: hash_chain::Link::V2i,
            ..Default::default()
        }),
        ProtocolConfig::Tesla(TeslaConfig::paper004(KeyDisclosure::Separate)),
        ProtocolConfig::Tesla(TeslaConfig {
            bootstrap: Bootstrap::Compact,
            ..TeslaConfig::paper004(KeyDisclosure::Attached)
        }),
        ProtocolConfig::Tesla(TeslaConfig::paper001()),
        ProtocolConfig::TwoFlip(Default::default()),
        ProtocolConfig::Session(SessionConfig::default()),
        ProtocolConfig::Session(SessionConfig {
            scheme: Scheme::Wang,
            protection: Protection::EncryptThenSignMac,
            ..SessionConfig::default()
        }),
        ProtocolConfig::Session(SessionConfig {
            topology: Topology::Group,
            signature: SignatureAlg::Dsa,
            encryption: EncryptionAlg::Rsa,
            ..SessionConfig::default()
        }),
        ProtocolConfig::Ieee1609Dot2(Default::default()),
        ProtocolConfig::ExperimentalPq(v2x_protocols::experimental_pq::ExperimentalPqConfig::new(
            v2x_security::pq::PqDesign::Composite(v2x_crypto::pq::PqAlgorithm::FnDsa512),
        )),
    ]
}

/// Runs a real exchange and returns every packet the receiver saw, in order.
fn sample_packets(a: &mut Box<dyn Authenticator>, b: &mut Box<dyn Authenticator>) -> Vec<Vec<u8>> {
    let mut out = a.encap(b"sample payload", NOW).unwrap();
    out.extend(a.encap(b"second payload", NOW.plus_micros(1_000)).unwrap());
    let x = Link::new().deliver(&mut [&mut **a, &mut **b], 0, out, NOW.plus_micros(2_000));
    assert!(
        x.rejections().is_empty(),
        "genuine packet rejected: {:?}",
        x.rejections()
    );
    let mut seen: Vec<Vec<u8>> = x.deliveries.into_iter().map(|d| d.bytes).collect();
    for p in a.poll(NOW.plus_micros(200_000)).send {
        seen.push(p.bytes);
    }
    seen
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Truncate(usize),
    Insert(usize, u8),
    Random(Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, b)| Mutation::Flip(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        proptest::collection::vec(any::<u8>(), 0..400).prop_map(Mutation::Random),
    ]
}

fn apply(mut bytes: Vec<u8>, m: &Mutation) -> Vec<u8> {
    match m {
        Mutation::Flip(i, b) if !bytes.is_empty() => {
            let n = bytes.len();
            bytes[i % n] ^= b;
        }
        Mutation::Truncate(i) => bytes.truncate(i % (bytes.len() + 1)),
        Mutation::Insert(i, b) => {
            let n = bytes.len();
            bytes.insert(i % (n + 1), *b);
        }
        Mutation::Random(r) => return r.clone(),
        _ => {}
    }
    bytes
}

#[test]
fn station_decap_never_panics_on_mutated_packets() {
    for config in configs() {
        let (mut a, mut b) = build_pair(&config).unwrap();
        let samples = sample_packets(&mut a, &mut b);
        assert!(!samples.is_empty());
        let rx = RefCell::new(b);
        let mut runner = TestRunner::new(Config {
            cases: 96,
            ..Config::default()
        });
        runner
            .run(&(0..samples.len(), mutation()), |(k, m)| {
                let bytes = apply(samples[k].clone(), &m);
                let d = rx.borrow_mut().decap(&bytes, NOW.plus_micros(3_000));
                // Whatever happens, it is a typed outcome; released packets are fine too.
                let _ = (d.outcome, d.released, d.send);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{config:?}: {e}"));
    }
}

/// Every session-scheme message parser, both schemes.
fn session_messages(bytes: &[u8]) {
    for wang in [false, true] {
        let _ = wire::Hello::parse(bytes, wang);
        let _ = wire::Reply::parse(bytes, wang);
        let mut r = v2x_wire::cursor::Reader::new(bytes);
        if wire::read_confirm_header(&mut r).is_ok() {
            let _ = wire::ConfirmBody::read(&mut r, bytes, wang);
        }
    }
    let _ = wire::GroupKey::parse(bytes);
    let _ = wire::DataHeader::parse(bytes);
    let _ = wire::KeyTransport::parse(bytes);
}

proptest! {
    #![proptest_config(Config { cases: 512, ..Config::default() })]

    #[test]
    fn parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = none::parse(&bytes, true);
        let _ = hash_chain::parse(&bytes, Curve::NistP256);
        let _ = hash_chain::decode_revocation_list(&bytes);
        for config in [
            TeslaConfig::paper004(KeyDisclosure::Separate),
            TeslaConfig::paper004(KeyDisclosure::Attached),
            TeslaConfig::paper001(),
            TeslaConfig { bootstrap: Bootstrap::Compact, ..TeslaConfig::paper001() },
        ] {
            let _ = tesla::parse(&config.format(), &bytes);
            let _ = tesla::parse_commitment_body_exact(&config.format(), &bytes);
        }
        let _ = two_flip::parse(&bytes);
        let _ = CompactCertificate::decode(Curve::NistP256, &bytes);
        let _ = decode_signature(Curve::NistP256, &bytes);
        for sig in [SignatureAlg::Ecdsa, SignatureAlg::Rsa, SignatureAlg::Dsa] {
            for enc in [EncryptionAlg::Ecies, EncryptionAlg::Rsa] {
                let _ = SessionCert::decode(sig, enc, &bytes);
            }
        }
        session_messages(&bytes);
    }

    #[test]
    fn revocation_lists_round_trip(pids in proptest::collection::vec(any::<[u8; 20]>(), 0..40)) {
        let enc = hash_chain::encode_revocation_list(&pids);
        prop_assert_eq!(hash_chain::decode_revocation_list(&enc).unwrap(), pids);
    }
}
