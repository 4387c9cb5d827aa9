//! One air in two clocks: the same frames driven through `v2x sim`'s engine (simulated
//! time) and through the channel emulator's [`Channel`] played the way its wall-clock loop
//! plays it (frames handed over at their stamps, the air advanced to irregular horizons)
//! give the same receptions, link by link.
//!
//! The frames are the engine's own CAMs: static stations, protocol `none` (no processing
//! delay), explicit start offsets, so each CAM's hand-over time is known; the emulator gets
//! a packet of the same size from the same station at the same nanosecond.

use std::collections::BTreeMap;
use v2x_sim::scenario::{AccessCategory, MobilityConfig, Scenario, VariantConfig, WeakInterference};
use v2x_sim::time::ns;
use v2x_testbed::emulator::{Channel, ChannelModel, EmulatedStation};

const PAYLOAD: usize = 200;

/// 16 stations over 900 m x 40 m (hidden terminals, the fading transition region), CAMs
/// at 20 Hz for 3 s, generated within 2.5 ms of each other (deferrals, collisions).
fn scenario() -> Scenario {
    let mut sc = Scenario {
        duration_s: 3.0,
        warmup_s: 0.0,
        seed: 11,
        replications: 1,
        ..Scenario::default()
    };
    let n = 16;
    let positions: Vec<[f64; 2]> = (0..n).map(|i| [(i * 577 % 900) as f64, (i * 13 % 40) as f64]).collect();
    sc.mobility = MobilityConfig::Static { positions_m: positions };
    sc.radio.weak_interference = WeakInterference::PerReceiver;
    sc.cam.rate_hz = 20.0;
    sc.cam.payload_bytes = PAYLOAD as u32;
    sc.cam.access_category = AccessCategory::LegacyDcf;
    // All within 2.5 ms: frames contend for the medium every period.
    sc.cam.start_offsets_s = (0..n).map(|i| (i * 1_571 % 2_500) as f64 * 1e-6).collect();
    sc.metrics.per_pair_counts = true;
    // The transmissions' candidate lists reach the cutoff range only (the emulator has no
    // metrics radius): the same lists, in the same order, in both drivers.
    sc.metrics.max_distance_m = 100.0;
    sc.variants = vec![VariantConfig {
        name: "plain".into(),
        protocol: "none".parse().unwrap(),
        ..VariantConfig::default()
    }];
    sc.validate().unwrap();
    sc
}

/// Received frames per (sender, receiver) from the engine.
fn simulated(sc: &Scenario) -> BTreeMap<(usize, usize), u64> {
    let r = v2x_sim::run(sc, &v2x_report::Silent).unwrap();
    let run = &r.variants[0].runs[0];
    run.per_pair
        .iter()
        .filter(|(_, c)| c.received > 0)
        .map(|(&(s, d), c)| ((s as usize, d as usize), c.received))
        .collect()
}

/// Received frames per (sender, receiver) from the emulator's channel, its air advanced to
/// the horizons a wall clock would give (every 0.2-1.9 ms, irregularly).
fn emulated(sc: &Scenario, carrier_sense: bool) -> BTreeMap<(usize, usize), u64> {
    let MobilityConfig::Static { positions_m } = &sc.mobility else {
        unreachable!()
    };
    let stations = positions_m
        .iter()
        .enumerate()
        .map(|(i, &p)| EmulatedStation {
            name: format!("s{i}"),
            addr: "127.0.0.1:9".parse().unwrap(),
            position_m: p,
            receives: true,
        })
        .collect();
    let model = ChannelModel {
        radio: sc.radio.clone(),
        mac: sc.mac.clone(),
        access_category: sc.cam.access_category,
        carrier_sense,
        seed: sc.seed,
    };
    model.check().unwrap();
    let mut channel = Channel::new(stations, &model);
    // Every CAM hand-over of the run, in time order.
    let (end, period) = (ns(sc.duration_s), ns(1.0 / sc.cam.rate_hz));
    let mut frames: Vec<(u64, usize)> = sc
        .cam
        .start_offsets_s
        .iter()
        .enumerate()
        .flat_map(|(i, &o)| (0..).map(move |k| (ns(o) + k * period, i)).take_while(|f| f.0 <= end))
        .collect();
    frames.sort_unstable();
    let mut got = BTreeMap::new();
    let (mut next, mut horizon, mut step) = (0, 0u64, 0u64);
    while horizon < end {
        step += 1;
        horizon = (horizon + 200_000 + (step * 7_919_993) % 1_700_000).min(end);
        while let Some(&(t, i)) = frames.get(next).filter(|f| f.0 <= horizon) {
            channel.transmit(i, vec![0; PAYLOAD], t);
            next += 1;
        }
        for d in channel.advance(horizon) {
            *got.entry((d.from, d.to)).or_insert(0) += 1;
        }
    }
    got
}

#[test]
fn the_engine_and_the_emulator_drive_one_air_to_the_same_receptions() {
    let sc = scenario();
    let sim = simulated(&sc);
    let emu = emulated(&sc, true);
    let total: u64 = sim.values().sum();
    // A channel with losses of every kind: not every link delivers everything.
    let links = sim.len();
    assert!(links > 100 && total > 5_000, "{links} links, {total} receptions");
    let sent_per_station = 3 * 20;
    assert!(sim.values().any(|&c| c < sent_per_station - 5), "{sim:?}");
    assert_eq!(sim, emu, "per-link receptions, simulated vs emulated");
    // The comparison tells access layers apart: without carrier sense the same frames
    // give other receptions.
    assert_ne!(emulated(&sc, false), sim);
}
