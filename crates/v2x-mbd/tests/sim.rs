//! `[misbehaviour]` in the simulator (`v2x_mbd::sim`) on small hand-checked scenarios:
//! an insider lying from `start_s` is reported, revoked after `min_reporters` reports and
//! the latencies, then dropped by every receiver once the CRL came; no benign station is
//! reported; an unknown attack lists the valid names; the watcher leaves the run's own
//! metrics as they were; a caller without the model refuses the table.

use v2x_mbd::sim::{watcher_factory, RunOutcome, SimMisbehaviour, Summary};
use v2x_sim::Scenario;

/// Six vehicles 40 m apart driving east at 20-23.5 m/s on one lane (a hand-written SUMO FCD
/// trace, all within range of each other), 10 Hz CAMs, no security costs; the insider and
/// its lies drawn from the seeds.
fn scenario(misbehaviour: &str) -> Scenario {
    // One file per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("v2x-mbd-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join(format!("line-{call}.xml"));
    let mut xml = String::from("<fcd-export>\n");
    for t in 0..=7 {
        xml.push_str(&format!("<timestep time=\"{t}.00\">\n"));
        for v in 0..6 {
            let x = 40.0 * f64::from(v) + (20.0 + 0.7 * f64::from(v)) * f64::from(t);
            xml.push_str(&format!(
                "<vehicle id=\"veh{v}\" x=\"{x:.2}\" y=\"0.00\" angle=\"90.00\" type=\"passenger\" speed=\"{:.2}\" pos=\"{x:.2}\" lane=\"road_0\" slope=\"0.00\"/>\n",
                20.0 + 0.7 * f64::from(v)
            ));
        }
        xml.push_str("</timestep>\n");
    }
    xml.push_str("</fcd-export>\n");
    std::fs::write(&trace, xml).unwrap();
    let text = format!(
        r#"
name = "mbd-line"
duration_s = 6.0
warmup_s = 0.5
seed = 3
[mobility]
kind = "sumo-fcd"
path = "{}"
[cam]
rate_hz = 10.0
[[variant]]
name = "none"
protocol = "none"
[misbehaviour]
{misbehaviour}
"#,
        trace.display()
    );
    Scenario::parse(&text, "test").unwrap()
}

const LOOP: &str = r#"attack = "constantPositionOffset"
start_s = 2.0
min_reporters = 3
report_latency_s = 0.1
decision_latency_s = 0.5
crl_latency_s = 1.0"#;

fn run(sc: &Scenario) -> Vec<RunOutcome> {
    let cfg = SimMisbehaviour::of(sc).unwrap().unwrap();
    let factory = watcher_factory(sc, &cfg).unwrap();
    let (_, watched) = v2x_sim::run_watched(sc, &v2x_report::progress::Silent, None, None, Some(&*factory)).unwrap();
    watched[0]
        .iter()
        .map(|v| serde_json::from_value(v.clone()).unwrap())
        .collect()
}

#[test]
fn the_insider_is_reported_revoked_and_then_dropped_and_no_benign_station_is() {
    let sc = scenario(LOOP);
    let out = run(&sc);
    assert_eq!(out.len(), 1);
    let r = &out[0];
    assert_eq!(r.attackers.len(), 1);
    let a = &r.attackers[0];
    let ms = |x: u64| x as f64 * 1e-6;
    let first_lie = a.first_lie_ns.expect("it lied");
    // Its first CAM from 2 s on lies (10 Hz: within 0.1 s of start_s).
    assert!((2_000_000_000..2_100_000_000).contains(&first_lie), "{}", ms(first_lie));
    // A 20-70 m jump in 0.1 s at 20-23.5 m/s: every other vehicle flags the first lie.
    let detected = a.detected_ns.unwrap();
    assert!(
        detected >= first_lie && detected - first_lie < 10_000_000,
        "{} {}",
        ms(first_lie),
        ms(detected)
    );
    assert_eq!(a.reporters, 5, "every receiver reports it once");
    // Revoked when the third report has arrived (+0.1 s) and the MA decided (+0.5 s); the
    // reports go out within the same CAM's receptions (a few ms).
    let revoked = a.revoked_ns.unwrap();
    assert!(
        revoked >= detected + 600_000_000 && revoked < detected + 620_000_000,
        "{}",
        ms(revoked - detected)
    );
    assert_eq!(a.crl_ns, Some(revoked + 1_000_000_000));
    // Between decision and CRL (1 s), its 10 CAMs reach 5 receivers: about 50 accepted;
    // then every one dropped: 6 s - ~3.6 s at 10 Hz to 5 receivers, about 120.
    assert!((35..=50).contains(&a.accepted_after_revocation), "{a:?}");
    assert!((100..=125).contains(&a.dropped_after_crl), "{a:?}");
    assert_eq!((r.benign_reported, r.benign_revoked), (0, 0), "{r:?}");
    assert_eq!(r.messages.fp, 0, "{r:?}");
    assert!(r.messages.tp >= 5, "{r:?}");
    assert_eq!(r.senders.fp, 0);
    assert_eq!(r.senders.tp, 5, "five receivers were lied to and reported");
    let s = Summary::of("none", &[serde_json::to_value(r).unwrap()]).unwrap();
    assert_eq!((s.attackers, s.attackers_revoked), (1, 1));
}

#[test]
fn without_enough_reporters_nothing_is_revoked() {
    // Six reporters needed, five receivers: the insider is reported, never revoked, and its
    // messages are never dropped.
    let sc = scenario(&LOOP.replace("min_reporters = 3", "min_reporters = 6"));
    let r = &run(&sc)[0];
    let a = &r.attackers[0];
    assert!(a.detected_ns.is_some());
    assert_eq!(
        (a.revoked_ns, a.dropped_after_crl, a.accepted_after_revocation),
        (None, 0, 0)
    );
}

#[test]
fn an_unknown_attack_or_detector_lists_the_valid_ones_and_latencies_are_required() {
    let err = |text: &str| SimMisbehaviour::of(&scenario(text)).unwrap_err().to_string();
    let e = err(&LOOP.replace("constantPositionOffset", "teleport"));
    assert!(
        e.contains("misbehaviour.attack") && e.contains("dataReplay") && e.contains("trafficCongestionSybil"),
        "{e}"
    );
    let e = err(&format!("{LOOP}\ndetector = \"oracle\""));
    assert!(e.contains("catch-reference"), "{e}");
    let e = err(&LOOP.replace("crl_latency_s = 1.0", ""));
    assert!(e.contains("crl_latency_s"), "no default: {e}");
    let e = err(&LOOP.replace("start_s = 2.0", "start_s = 0.1"));
    assert!(e.contains("start_s") && e.contains("warmup_s"), "{e}");
    let late = SimMisbehaviour::of(&scenario(&LOOP.replace("start_s = 2.0", "start_s = 9.0")))
        .unwrap()
        .unwrap();
    assert!(late.warnings(&scenario(LOOP))[0].contains("never lie"));
}

#[test]
fn the_watcher_leaves_the_runs_metrics_as_they_were_and_a_caller_without_it_refuses() {
    let sc = scenario(LOOP);
    let cfg = SimMisbehaviour::of(&sc).unwrap().unwrap();
    let factory = watcher_factory(&sc, &cfg).unwrap();
    let models = v2x_sim::resolve_variants(&sc).unwrap();
    let (mut watched, w, ..) = v2x_sim::run_once_watched(&sc, &models[0], 0, None, None, Some(&*factory)).unwrap();
    assert!(w.is_some());
    let mut plain_sc = sc.clone();
    plain_sc.misbehaviour = None;
    let (mut plain, ..) = v2x_sim::run_once(&plain_sc, &models[0], 0, None, None).unwrap();
    watched.wall_s = 0.0;
    plain.wall_s = 0.0;
    assert_eq!(watched, plain);
    let e = v2x_sim::run(&sc, &v2x_report::progress::Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("misbehaviour"), "{e}");
}
