//! SN-DECAP under the opt-in `precomputed` verification strategy and with compressed-R
//! senders: the same verdicts as the plain strategy, tables built for repeat signers.

use std::time::Duration;
use v2x_crypto::{CacheConfig, Curve, VerifyStrategy};
use v2x_security::*;

fn precomputed(build_after: u32) -> VerifyStrategy {
    VerifyStrategy::Precomputed(CacheConfig {
        build_after,
        ..CacheConfig::default()
    })
}

#[test]
fn precomputed_strategy_accepts_and_rejects_like_plain() {
    for curve in [Curve::NistP256, Curve::BrainpoolP384r1] {
        let fx = InMemoryPki::builder().curve(curve).build().unwrap();
        for compressed_r in [false, true] {
            let mut s = fx.sender(fx.ticket().unwrap());
            s.set_sign_compressed_r(compressed_r);
            let mut plain = fx.receiver();
            let mut fast = fx.receiver();
            fast.set_verify_strategy(precomputed(2));
            for i in 0..6u64 {
                let at = fx.now.saturating_add(Duration::from_millis(100 * i));
                let m = s
                    .encap(&EncapRequest::cam(format!("cam {i}").as_bytes()).at(at))
                    .unwrap()
                    .bytes;
                let mut bad = m.clone();
                let n = bad.len();
                bad[n - 3] ^= 0x10; // inside s
                assert_eq!(
                    fast.decap_at(&bad, at).unwrap_err().reason,
                    RejectReason::FalseSignature,
                    "{curve} compressed_r={compressed_r}"
                );
                assert_eq!(
                    plain.decap_at(&bad, at).unwrap_err().reason,
                    RejectReason::FalseSignature
                );
                assert_eq!(fast.decap_at(&m, at).unwrap().payload, format!("cam {i}").as_bytes());
                assert_eq!(plain.decap_at(&m, at).unwrap().payload, format!("cam {i}").as_bytes());
            }
            let stats = fast.verifier().cache_stats().expect("precomputed keeps a cache");
            assert_eq!(stats.builds, 1, "one signer, one table: {stats:?}");
            assert!(stats.table_hits >= 10, "{stats:?}");
            assert!(plain.verifier().cache_stats().is_none());
        }
    }
}

#[test]
fn strategy_names_round_trip_and_unknown_lists_valid() {
    assert_eq!(VerifyStrategy::from_name("plain").unwrap(), VerifyStrategy::Plain);
    assert_eq!(VerifyStrategy::from_name("precomputed").unwrap().name(), "precomputed");
    let e = VerifyStrategy::from_name("turbo").unwrap_err().to_string();
    assert!(e.contains("plain") && e.contains("precomputed"), "{e}");
    assert_eq!(
        VerifyStrategy::default(),
        VerifyStrategy::Plain,
        "precomputation is opt-in"
    );
}
