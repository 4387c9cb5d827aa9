//! Property tests of the ETSI TS 103 759 codec (the decoder of untrusted reports; its fuzz
//! target is fuzz/fuzz_targets/mbd_report.rs): every report round-trips byte-exact, and no
//! input — random, truncated or with a flipped bit — panics or decodes to something that
//! does not re-encode to the same bytes.

use proptest::prelude::*;
use rasn::types::{Integer, OctetString};
use v2x_mbd::report::asn::{
    decode_exact, AidSpecificReport, AsrCam, EtsiTs103759Data, EtsiTs103759Mbr, MbSingleObservation, MbrSec,
    NonV2xPduEvidenceItem, ObservationsByTarget, ThreeDLocation, V2xPduStream,
};

fn octets(max: usize) -> impl Strategy<Value = OctetString> {
    prop::collection::vec(any::<u8>(), 0..max).prop_map(OctetString::from)
}

fn asr_cam() -> impl Strategy<Value = AsrCam> {
    let observation = (any::<u8>(), octets(6)).prop_map(|(obs_id, obs)| MbSingleObservation { obs_id, obs });
    let by_target = (any::<u8>(), prop::collection::vec(observation, 0..4))
        .prop_map(|(tgt_id, observations)| ObservationsByTarget { tgt_id, observations });
    let stream = (any::<u8>(), prop::collection::vec(octets(40), 1..4), any::<u8>()).prop_map(
        |(pdu_type, v2x_pdus, subject_pdu_index)| V2xPduStream {
            pdu_type,
            v2x_pdus,
            certificate: None,
            subject_pdu_index,
        },
    );
    let item = (any::<u8>(), octets(16)).prop_map(|(id, evidence)| NonV2xPduEvidenceItem { id, evidence });
    (
        prop::collection::vec(by_target, 1..4),
        prop::collection::vec(stream, 1..3),
        prop::collection::vec(item, 0..3),
    )
        .prop_map(|(observations, v2x_pdu_evidence, non_v2x_pdu_evidence)| AsrCam {
            observations,
            v2x_pdu_evidence,
            non_v2x_pdu_evidence,
        })
}

fn mbr() -> impl Strategy<Value = EtsiTs103759Mbr> {
    (
        any::<u64>(),
        -900_000_000i32..=900_000_001,
        -1_799_999_999i32..=1_800_000_001,
        any::<u16>(),
        0i64..=u32::MAX as i64,
        asr_cam(),
    )
        .prop_map(
            |(generation_time, latitude, longitude, elevation, aid, asr)| EtsiTs103759Mbr {
                generation_time,
                observation_location: ThreeDLocation {
                    latitude,
                    longitude,
                    elevation,
                },
                report: AidSpecificReport {
                    aid: Integer::from(aid),
                    content: OctetString::from(rasn::coer::encode(&asr).unwrap()),
                },
            },
        )
}

fn report() -> impl Strategy<Value = EtsiTs103759Data> {
    let secured = || prop::collection::vec(any::<u8>(), 1..64);
    prop_oneof![
        mbr().prop_map(MbrSec::Plaintext),
        secured().prop_map(MbrSec::Signed),
        secured().prop_map(MbrSec::SignedThenEncrypted),
    ]
    .prop_map(|content| EtsiTs103759Data { content })
}

/// What the fuzz target checks: decoding never panics, and what decodes is canonical.
fn decodes_canonically_or_not_at_all(bytes: &[u8]) {
    if let Ok(d) = EtsiTs103759Data::decode(bytes) {
        assert_eq!(d.encode().unwrap(), bytes);
        if let MbrSec::Plaintext(m) = &d.content {
            if let Ok(a) = decode_exact::<AsrCam>(&m.report.content) {
                assert_eq!(rasn::coer::encode(&a).unwrap(), m.report.content.to_vec());
            }
        }
    }
    if let Ok(m) = decode_exact::<EtsiTs103759Mbr>(bytes) {
        assert_eq!(rasn::coer::encode(&m).unwrap(), bytes);
    }
}

proptest! {
    #[test]
    fn every_report_round_trips_byte_exact(r in report()) {
        let bytes = r.encode().unwrap();
        let back = EtsiTs103759Data::decode(&bytes).unwrap();
        prop_assert_eq!(&back, &r);
        prop_assert_eq!(back.encode().unwrap(), bytes);
        if let MbrSec::Plaintext(m) = &r.content {
            let asr: AsrCam = decode_exact(&m.report.content).unwrap();
            prop_assert_eq!(rasn::coer::encode(&asr).unwrap(), m.report.content.to_vec());
        }
    }

    #[test]
    fn a_damaged_report_is_refused_or_canonical(r in report(), bit in any::<usize>(), cut in any::<usize>()) {
        let bytes = r.encode().unwrap();
        let mut flipped = bytes.clone();
        let b = bit % (8 * flipped.len());
        flipped[b / 8] ^= 1 << (b % 8);
        decodes_canonically_or_not_at_all(&flipped);
        let truncated = &bytes[..cut % bytes.len()];
        decodes_canonically_or_not_at_all(truncated);
        // A plaintext report cut short never decodes (C-OER lengths are exact).
        if matches!(r.content, MbrSec::Plaintext(_)) {
            prop_assert!(EtsiTs103759Data::decode(truncated).is_err());
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        decodes_canonically_or_not_at_all(&bytes);
        let mut framed = vec![EtsiTs103759Data::VERSION, 0x80];
        framed.extend_from_slice(&bytes);
        decodes_canonically_or_not_at_all(&framed);
    }
}

/// Writes the fuzz target's seeds (fuzz/seeds/mbd_report/): run explicitly with
/// `cargo test -p v2x-mbd --test report_codec -- --ignored`.
#[test]
#[ignore = "writes fuzz seeds into the repository"]
fn write_fuzz_seeds() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRng, TestRunner};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds/mbd_report");
    std::fs::create_dir_all(dir).unwrap();
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::deterministic_rng(Default::default()));
    for (i, r) in std::iter::repeat_with(|| report().new_tree(&mut runner).unwrap().current())
        .filter(|r| matches!(r.content, MbrSec::Plaintext(_)))
        .take(4)
        .enumerate()
    {
        std::fs::write(format!("{dir}/plaintext-{i}.oer"), r.encode().unwrap()).unwrap();
    }
}

/// Found by a fuzz campaign of `mbd_report` (fuzz/seeds/mbd_report/crash-empty-extension-bitmap-in-evidence-certificate):
/// a CAM report whose evidence certificate sets its toBeSigned extension bit over an empty
/// addition bitmap (`01 00`). `rasn` decoded it and re-encoded it without the bitmap; the
/// decoder now accepts only the canonical encoding.
#[test]
fn a_non_canonical_evidence_certificate_is_refused() {
    let bytes = hex(concat!(
        "010001018001010100000301808080a080ffffff808080808080808080808080",
        "808080808080808080807f7f80807f7f7f7f7f7f818080808080808080808080",
        "80808080808080808080806a808080808080800d01108100800d01800d010001",
        "00000100",
    ));
    assert!(matches!(
        decode_exact::<AsrCam>(&bytes),
        Err(v2x_mbd::report::asn::ReportCodecError::NotCanonical)
    ));
    // The same report with the extension bit cleared and the empty bitmap removed decodes
    // and round-trips: the refusal is of the form, not of the content.
    let mut canonical = bytes.clone();
    assert_eq!(canonical[21], 0x80, "toBeSigned's preamble");
    canonical[21] = 0x00;
    let at = canonical.len() - 5;
    assert_eq!(&canonical[at..at + 2], &[0x01, 0x00], "the empty extension bitmap");
    canonical.drain(at..at + 2);
    let cam = decode_exact::<AsrCam>(&canonical).expect("the canonical form decodes");
    assert_eq!(rasn::coer::encode(&cam).unwrap(), canonical);
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}
