//! The experimental post-quantum designs' sizes in the simulator come from their real
//! encoder: `RealEncoder` against the overhead report's own encoding (`v2x overhead`), for
//! the scenario's payload, and through the scenario's resolution.

use v2x_profile::ProtocolId;
use v2x_sim::security::SizeEncoder;
use v2x_sim_crypto::RealEncoder;

fn designs() -> Vec<ProtocolId> {
    let all: Vec<ProtocolId> = v2x_sim::scenario::SIMULATED_PROTOCOLS
        .iter()
        .copied()
        .filter(|p| p.is_experimental_pq())
        .collect();
    assert_eq!(all.len(), 5, "{all:?}");
    all
}

/// The security bytes of a 100-byte CAM equal the overhead report's, which encodes with
/// its own sender (another ticket, another payload) in both signer forms.
#[test]
fn encoded_sizes_equal_the_overhead_reports() {
    let report = v2x_protocols::overhead::try_report().unwrap();
    for kind in designs() {
        let e = RealEncoder.encode(kind, 100).unwrap();
        let row = |signer: &str| {
            report
                .rows
                .iter()
                .find(|r| r.protocol == kind.name() && r.variant.starts_with(&format!("sign/{signer}/")))
                .unwrap_or_else(|| panic!("{kind} {signer}"))
                .total_bytes as u32
        };
        assert_eq!(
            (e.digest_bytes, e.certificate_bytes),
            (row("digest"), row("certificate")),
            "{kind}"
        );
        assert!(e.encoder.contains(kind.name()), "{}", e.encoder);
    }
    // ML-DSA-44 alone: its 2,420-byte signature on every message (FIPS 204).
    let ml = RealEncoder.encode(ProtocolId::ExperimentalPqOnlyMlDsa44, 100).unwrap();
    assert!(ml.digest_bytes > 2420, "{ml:?}");
}

/// The payload's C-OER length takes 1 byte up to 127 bytes and 3 from 256: the encoder
/// sees the scenario's payload, not a reference one.
#[test]
fn sizes_follow_the_scenarios_payload() {
    for kind in designs() {
        let short = RealEncoder.encode(kind, 100).unwrap();
        let long = RealEncoder.encode(kind, 300).unwrap();
        assert_eq!(long.digest_bytes, short.digest_bytes + 2, "{kind}");
        assert_eq!(long.certificate_bytes, short.certificate_bytes + 2, "{kind}");
    }
    let e = RealEncoder.encode(ProtocolId::Ieee16092, 100).unwrap_err();
    assert!(e.contains("not an experimental design"), "{e}");
}

/// The shipped examples resolve through the bridge with the encoder's sizes, and every
/// design's costs come from the shipped measured profile.
#[test]
fn shipped_post_quantum_scenarios_resolve_with_encoded_sizes() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    for name in [
        "post-quantum-city.toml",
        "post-quantum-highway.toml",
        "post-quantum-city-lte-v2x.toml",
        "post-quantum-highway-lte-v2x.toml",
    ] {
        let sc = v2x_sim::Scenario::load(&dir.join(name)).unwrap();
        let models = v2x_sim_crypto::resolve_variants(&sc).unwrap();
        let pq: Vec<_> = models.iter().filter(|m| m.kind.is_experimental_pq()).collect();
        assert_eq!(pq.len(), 5, "{name}");
        for m in pq {
            let e = RealEncoder.encode(m.kind, sc.cam.payload_bytes).unwrap();
            assert_eq!(
                (m.overhead_digest, m.overhead_certificate),
                (e.digest_bytes, e.certificate_bytes),
                "{name} {}",
                m.name
            );
            assert!(m.sizes.source.starts_with("real encoder"), "{}", m.sizes.source);
            for c in &m.costs {
                assert!(c.key.as_deref().is_some_and(|k| k.starts_with(m.kind.name())), "{c:?}");
            }
        }
        // Without the encoder (v2x_sim alone) the designs are refused, naming where they run.
        let e = v2x_sim::resolve_variants(&sc).unwrap_err().to_string();
        assert!(e.contains("real encoder"), "{e}");
    }
}
