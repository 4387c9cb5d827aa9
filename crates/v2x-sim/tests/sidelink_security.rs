//! Security processing on the sidelink (`engine::security_layer`): the CAMs its receivers
//! decode are verified as on 802.11p, on the variant's cores with its deadline, lost to an
//! unknown certificate when the signer's is not held, and counted into the verified PDR,
//! awareness and crypto loss under the same keys.

use v2x_sim::{RunMetrics, Scenario};

mod common;
use common::{ring, run};

/// The ring of `common` on LTE-V2X Mode 4 with one IEEE 1609.2 variant of these keys.
fn ring_with(variant: &str) -> Scenario {
    let mut s = ring("lte-v2x-mode4", "");
    let v = Scenario::parse(
        &format!("[[variant]]\nname = \"v\"\nprotocol = \"ieee1609.2\"\n{variant}\n"),
        "v",
    )
    .unwrap()
    .variants;
    s.variants = v;
    s.validate().unwrap();
    s
}

fn verified(m: &RunMetrics) -> u64 {
    m.bins.iter().map(|b| b.verified).sum()
}

/// A verification that takes longer than the deadline (150 ms against the default 100 ms)
/// loses every CAM decoded to the deadline: none is verified, in any bin. The same run
/// with a 1 µs verification verifies what the radio decoded, losing none to the deadline.
/// Either way the radio is the same.
#[test]
fn a_verification_above_the_deadline_loses_every_cam_to_it() {
    let keys = |us: f64| {
        format!(
            "certificate = {{ policy = \"always\" }}\nsign_cost_us = 1.0\nverify_cost_us = {us}\n\
             overhead_bytes = 93\noverhead_with_certificate_bytes = 180"
        )
    };
    let slow = run(&ring_with(&keys(150_000.0)), 1);
    let fast = run(&ring_with(&keys(1.0)), 1);
    assert_eq!(slow.receptions, fast.receptions, "the radio does not change");
    assert!(slow.security_arrivals > 10_000, "{}", slow.security_arrivals);
    assert_eq!(verified(&slow), 0);
    assert_eq!(slow.headline_verified, 0);
    assert_eq!(slow.crypto_lost_unknown_certificate, 0);
    // Drop-at-start: a CAM is lost when its job would start too late; those still waiting
    // when the run ends are neither verified nor lost (the first at most the deadline's worth).
    assert!(
        slow.crypto_lost_deadline > slow.security_arrivals * 9 / 10,
        "{} of {}",
        slow.crypto_lost_deadline,
        slow.security_arrivals
    );
    assert!(slow.crypto_loss_ratio() > 0.9);
    // Fast: all but those decoded in the last subframe (their verification ends after the
    // run) are verified.
    assert_eq!(fast.crypto_lost_deadline, 0);
    let received: u64 = fast.bins.iter().map(|b| b.received).sum();
    assert!(
        verified(&fast) <= received && verified(&fast) + 300 > received,
        "{} of {received}",
        verified(&fast)
    );
    assert!(fast.headline_verified + 300 > fast.headline_received);
    assert!(fast.awareness() > 0.5, "{}", fast.awareness());
    assert!(slow.awareness() == 0.0, "{}", slow.awareness());
}

/// Certificates above the pool's largest transport block (871 B) are refused by the MAC:
/// no receiver learns a signer's certificate, so every digest-signed CAM decoded is lost to
/// an unknown certificate and nothing is verified; with a certificate that fits, the same
/// schedule verifies CAMs.
#[test]
fn refused_certificates_leave_every_signer_unknown() {
    let keys = |certificate: u32| {
        format!(
            "certificate = {{ policy = \"interval\", interval_s = 0.2 }}\nsign_cost_us = 1.0\n\
             verify_cost_us = 1.0\noverhead_bytes = 93\noverhead_with_certificate_bytes = {certificate}"
        )
    };
    let refused = run(&ring_with(&keys(1500)), 1);
    let fits = run(&ring_with(&keys(180)), 1);
    assert!(refused.cams_refused_oversize > 0);
    assert!(refused.security_arrivals > 10_000, "{}", refused.security_arrivals);
    assert_eq!(refused.crypto_lost_unknown_certificate, refused.security_arrivals);
    assert_eq!(refused.certificates_received, 0);
    assert_eq!(verified(&refused), 0);
    assert_eq!(refused.crypto_loss_ratio(), 1.0);
    assert_eq!(refused.awareness(), 0.0);
    assert!(refused.awareness_heard_ratio() > 0.5);
    assert_eq!(fits.cams_refused_oversize, 0);
    assert!(verified(&fits) > 0 && fits.certificates_received > 0);
    assert!(fits.crypto_loss_ratio() < 0.5, "{}", fits.crypto_loss_ratio());
}

/// Awareness on a case worked out by hand: two static vehicles 100 m apart (free space,
/// no fading: every CAM decoded), 1 Hz CAMs generated at 0.0 s + k and 0.3 s + k, each
/// carrying its certificate and verified in 0.5 ms; samples every 100 ms from 1.0 s to
/// 3.9 s, window 500 ms. A CAM generated at t is sent within the selection window (T2 =
/// 100 ms), so verified at v in (t, t + 0.1005] s, never on the 100 ms grid: exactly 5
/// samples fall in [v, v + 0.5]. CAMs generated at 1, 2, 3 s (and 1.3, 2.3, 3.3 s) count
/// in full, those at 0.0 and 0.3 s end their window before 1.0 s: 15 of the 30 samples per
/// direction see the other vehicle verified. Neighbours 2 x 30 = 60, verified 30, weighted
/// (no position error) 30: awareness 0.5.
#[test]
fn awareness_on_the_sidelink_is_the_hand_worked_value() {
    let s = Scenario::parse(
        r#"
        duration_s = 4.0
        warmup_s = 1.0
        [access]
        kind = "lte-v2x-mode4"
        [mobility]
        kind = "static"
        positions_m = [[0.0, 0.0], [100.0, 0.0]]
        [radio.path_loss]
        model = "free-space"
        [cam]
        rate_hz = 1.0
        start_offsets_s = [0.0, 0.3]
        [metrics]
        awareness_radius_m = 300.0
        awareness_window_ms = 500.0
        awareness_sample_interval_s = 0.1
        [[variant]]
        name = "v"
        protocol = "ieee1609.2"
        certificate = { policy = "always" }
        sign_cost_us = 1.0
        verify_cost_us = 500.0
        overhead_bytes = 93
        overhead_with_certificate_bytes = 180
        "#,
        "two",
    )
    .unwrap();
    let m = run(&s, 1);
    assert_eq!(m.receptions, 8, "every CAM decoded");
    assert_eq!(m.awareness_neighbours, 60);
    assert_eq!(m.awareness_verified, 30);
    assert_eq!(m.awareness_weighted, 30.0);
    assert_eq!(m.awareness(), 0.5);
}
