//! What the sidelink tests share: the ring highway long enough for every cause of loss and a
//! run of it on a given number of threads.

#![allow(dead_code)] // each test file uses its own part

use v2x_sim::sidelink::SidelinkStats;
use v2x_sim::{RunMetrics, Scenario};

pub fn stats(m: &RunMetrics) -> &SidelinkStats {
    m.sidelink.as_ref().expect("a sidelink run")
}

/// A 2 km ring highway, 2 lanes each way at 25 veh/km/lane, WINNER+ B1 path loss, 3 dB
/// shadowing and Nakagami fading, on access layer `kind` with `extra` TOML in `[sidelink]`.
pub fn ring(kind: &str, extra: &str) -> Scenario {
    Scenario::parse(
        &format!(
            r#"
        duration_s = 1.5
        warmup_s = 0.5
        [access]
        kind = "{kind}"
        [sidelink]
        shadowing_sd_db = 3.0
        {extra}
        [mobility]
        kind = "highway"
        length_m = 2000.0
        lanes_per_direction = 2
        density_veh_per_km_lane = 25.0
        [radio]
        tx_power_dbm = 20.0
        frequency_hz = 5.91e9
        noise_figure_db = 9.0
        [radio.path_loss]
        model = "winner-b1"
        [radio.fading]
        model = "nakagami"
        [metrics]
        distance_bin_m = 10.0
        max_distance_m = 500.0
        "#
        ),
        "ring",
    )
    .unwrap()
}

/// The first variant's pooled metrics of `s` run on `threads` threads (wall time zeroed, so
/// that runs compare whole).
pub fn run(s: &Scenario, threads: u32) -> RunMetrics {
    let mut s = s.clone();
    s.engine.threads = threads;
    let mut m = v2x_sim::run(&s, &v2x_report::Silent).unwrap().variants[0]
        .pooled
        .clone();
    m.wall_s = 0.0;
    m
}
