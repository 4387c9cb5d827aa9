//! LTE-V2X Mode 4's results pinned to what main gave before NR-V2X Mode 2 was added (the
//! sidelink modules are shared): the counters every output of a run is made of.

use v2x_sim::{RunMetrics, Scenario};

mod common;
use common::{ring, run, stats};

/// The counters a run's outputs are made of.
fn fingerprint(m: &RunMetrics) -> Vec<u64> {
    let s = stats(m);
    let lost = |f: fn(&v2x_sim::sidelink::LossBin) -> u64| s.losses.iter().map(f).sum::<u64>();
    vec![
        m.cams_generated,
        m.frames_sent,
        m.signals,
        m.receptions,
        m.headline_attempts,
        m.headline_received,
        m.bins.iter().map(|b| b.attempts).sum(),
        m.bins
            .iter()
            .enumerate()
            .map(|(i, b)| b.received * (i as u64 + 1))
            .sum(),
        m.inter_arrival.count,
        (m.inter_arrival.mean_ms() * 1e6) as u64,
        (m.mac_delay.mean_ms() * 1e6) as u64,
        lost(|b| b.half_duplex),
        lost(|b| b.sensing),
        lost(|b| b.propagation),
        lost(|b| b.collision),
        s.transmissions,
        s.subchannels_used,
        s.selections_new,
        s.selections_counter,
        s.selections_size,
        s.threshold_steps,
        s.superseded,
        s.cbr_monitored,
        s.cbr_busy,
        m.busy_ns as u64,
    ]
}

/// LTE-V2X Mode 4 gives what main gave before NR-V2X was added (values printed by this
/// test's fingerprint on main at 705341c), with 1 and 2 threads.
#[test]
fn mode4_results_are_unchanged_by_nr() {
    let s = ring("lte-v2x-mode4", "");
    let got = fingerprint(&run(&s, 1));
    let main: Vec<u64> = MODE4_MAIN.to_vec();
    assert_eq!(got, main);
    assert_eq!(fingerprint(&run(&s, 2)), main);
}

const MODE4_MAIN: [u64; 25] = [
    1997,
    1940,
    585060,
    223176,
    115847,
    104289,
    192683,
    2957880,
    91937,
    108872456,
    17756795,
    1497,
    43835,
    304,
    6650,
    1940,
    1940,
    200,
    203,
    0,
    0,
    0,
    792160,
    199032,
    49758000000,
];

/// The shipped Mode 4 example (both variants: IEEE 1609.2's certificates make size
/// reselections), on a 2 km ring for 1.5 s, gives what main gave (printed on main at
/// 705341c).
#[test]
fn mode4_example_results_are_unchanged_by_nr() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/cv2x-highway.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("warmup_s = 2.0", "warmup_s = 0.5")
        .replace("length_m = 5000.0", "length_m = 2000.0");
    let mut s = Scenario::parse(&text, "cv2x-highway").unwrap();
    s.duration_s = 1.5;
    let r = v2x_sim::run(&s, &v2x_report::Silent).unwrap();
    let got: Vec<Vec<u64>> = r.variants.iter().map(|v| fingerprint(&v.pooled)).collect();
    assert_eq!(got, EXAMPLE_MAIN.iter().map(|v| v.to_vec()).collect::<Vec<_>>());
}

const EXAMPLE_MAIN: [[u64; 25]; 2] = [
    [
        1997,
        1941,
        585259,
        251359,
        115843,
        111293,
        192705,
        3745842,
        99003,
        102821954,
        17760751,
        1507,
        17808,
        332,
        9722,
        1941,
        1941,
        200,
        203,
        0,
        0,
        0,
        792156,
        226950,
        56737500000,
    ],
    [
        1997,
        1897,
        576503,
        222586,
        113326,
        101564,
        188510,
        3183772,
        89310,
        106532695,
        29304150,
        1390,
        17510,
        1311,
        24410,
        1897,
        3452,
        200,
        195,
        77,
        0,
        3,
        792348,
        314213,
        78553250000,
    ],
];
