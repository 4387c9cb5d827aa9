//! One run on several threads gives the same results as on one: the receivers of a
//! transmission are evaluated in parallel with random draws keyed by (transmission,
//! receiver), so `summary.json` (but for its wall-clock fields) and the result tables are
//! identical for a seed whatever the thread count.

use std::path::Path;
use v2x_sim::scenario::MobilityConfig;
use v2x_sim::Scenario;

/// Wall-clock fields of `summary.json`: the only ones allowed to differ.
// Provenance holds the date and the host load.
const WALL_CLOCK: [&str; 5] = [
    "wall_s",
    "run_wall_s",
    "receptions_per_wall_s",
    "signals_per_wall_s",
    "provenance",
];

fn strip_wall_clock(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(map) => {
            for k in WALL_CLOCK {
                map.remove(k);
            }
            map.values_mut().for_each(strip_wall_clock);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_wall_clock),
        _ => {}
    }
}

/// The city benchmark's model (Manhattan torus at 200 veh/km², ECDSA CAMs), shrunk to
/// 1 km² and 1 s so that it runs in seconds in a debug build: ~200 vehicles, every one
/// within range of every other, so each transmission has well over the receivers it takes
/// to split the work across threads.
fn dense_city() -> Scenario {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut s = Scenario::load(&root.join("scenarios/bench-city/bench-city-300.toml")).unwrap();
    s.duration_s = 1.0;
    s.warmup_s = 0.25;
    s.seed = 11;
    if let MobilityConfig::Grid { width_m, height_m, .. } = &mut s.mobility {
        *width_m = 1000.0;
        *height_m = 1000.0;
    }
    s.metrics.per_pair_counts = true;
    s
}

#[test]
fn summary_json_is_identical_with_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut reference: Option<(serde_json::Value, Vec<String>)> = None;
    for threads in [1, 2, 3] {
        let mut s = dense_city();
        s.engine.threads = threads;
        let r = v2x_sim::run(&s, &v2x_report::Silent).unwrap();
        let out = dir.path().join(format!("threads-{threads}"));
        v2x_sim::output::write_all(&r, &out).unwrap();
        let mut summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
        strip_wall_clock(&mut summary);
        let tables: Vec<String> = ["pdr_vs_distance.csv", "delay_distributions.csv", "per_pair_counts.csv"]
            .iter()
            .map(|f| std::fs::read_to_string(out.join(f)).unwrap())
            .collect();
        let perf = &summary["variants"][0]["performance"];
        assert!(perf["receptions"].as_u64().unwrap() > 100_000, "{perf}");
        match &reference {
            None => reference = Some((summary, tables)),
            Some((sum1, tables1)) => {
                assert_eq!(
                    &summary, sum1,
                    "summary.json with {threads} threads differs from 1 thread"
                );
                assert!(
                    tables == *tables1,
                    "result tables with {threads} threads differ from 1 thread"
                );
            }
        }
    }
}

/// Another seed gives other results (the comparison above is not vacuous).
#[test]
fn another_seed_changes_the_summary() {
    let (mut a, mut b) = (dense_city(), dense_city());
    a.duration_s = 0.5;
    b.duration_s = 0.5;
    b.seed += 1;
    let ra = v2x_sim::run(&a, &v2x_report::Silent).unwrap();
    let rb = v2x_sim::run(&b, &v2x_report::Silent).unwrap();
    let (mut sa, mut sb) = (v2x_sim::output::summary(&ra), v2x_sim::output::summary(&rb));
    strip_wall_clock(&mut sa);
    strip_wall_clock(&mut sb);
    assert_ne!(sa["variants"], sb["variants"]);
}
