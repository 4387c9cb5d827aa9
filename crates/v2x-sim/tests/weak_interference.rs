//! Weak interference summed per map cell (`[radio] weak_interference = "aggregate"`)
//! against every signal as its own event at every receiver, on a dense ring road where
//! most signals within the cutoff range are weak: PDR by distance, decoded frames and the
//! channel busy ratio agree within the replications' noise, while the receivers evaluate
//! fewer signals one by one.

#![allow(clippy::field_reassign_with_default)] // scenarios read best as "defaults, then these changes"

use v2x_sim::scenario::{MobilityConfig, WeakInterference};
use v2x_sim::{RunMetrics, Scenario};

/// 6 km ring, 3+3 lanes, 90 vehicles per km (540): the cutoff range (about 2.3 km) covers
/// some 420 vehicles, the weak radius (about 1.1 km) half of them.
fn dense_ring(weak: WeakInterference) -> Scenario {
    let mut s = Scenario::default();
    s.duration_s = 1.6;
    s.warmup_s = 0.4;
    s.seed = 21;
    s.replications = 4;
    s.mobility = MobilityConfig::Highway {
        length_m: 6000.0,
        lanes_per_direction: 3,
        lane_width_m: 3.5,
        density_veh_per_km_lane: 15.0,
        speed_mps: 25.0,
        speed_sd_mps: 2.0,
        update_interval_s: 0.1,
    };
    s.radio.weak_interference = weak;
    s
}

/// Mean and standard error over the replications.
fn mean_se(runs: &[RunMetrics], f: impl Fn(&RunMetrics) -> f64) -> (f64, f64) {
    let v: Vec<f64> = runs.iter().map(f).collect();
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn aggregated_weak_interference_changes_results_only_within_noise() {
    let full = v2x_sim::run(&dense_ring(WeakInterference::PerReceiver), &v2x_report::Silent).unwrap();
    let agg = v2x_sim::run(&dense_ring(WeakInterference::Aggregate), &v2x_report::Silent).unwrap();
    let (full, agg) = (&full.variants[0], &agg.variants[0]);
    // The aggregate took over part of the signals (most of those above the floor come
    // from within the weak radius; most candidates beyond it fall below the floor)...
    assert!(
        (agg.pooled.signals as f64) < 0.9 * full.pooled.signals as f64,
        "signals: aggregate {} vs full {}",
        agg.pooled.signals,
        full.pooled.signals
    );
    // ...and the results stay within the noise of 4 replications (3 standard errors of
    // the difference, plus half a point for the bins with few attempts).
    let within = |name: &str, f: &dyn Fn(&RunMetrics) -> f64| {
        let (a, sa) = mean_se(&full.runs, f);
        let (b, sb) = mean_se(&agg.runs, f);
        let tol = 3.0 * (sa * sa + sb * sb).sqrt() + 0.005 * a.abs().max(b.abs());
        assert!((a - b).abs() <= tol, "{name}: full {a} ± {sa}, aggregate {b} ± {sb}");
    };
    for bin in 0..(500 / 25) {
        within(&format!("PDR {}-{} m", bin * 25, bin * 25 + 25), &|m: &RunMetrics| {
            let b = &m.bins[bin];
            b.received as f64 / b.attempts.max(1) as f64
        });
    }
    within("PDR network", &RunMetrics::pdr_network);
    within("decoded frames per frame sent", &|m: &RunMetrics| {
        m.receptions as f64 / m.frames_sent.max(1) as f64
    });
    within("channel busy ratio", &RunMetrics::channel_busy_ratio);
}
