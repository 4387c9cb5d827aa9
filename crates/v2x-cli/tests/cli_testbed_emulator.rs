//! End-to-end: the live testbed through the channel emulator gives the same packet delivery
//! ratio by distance as `v2x sim` on the same positions (issue 14's must-show), and a
//! broken channel is caught by the same comparison.
//!
//! Six senders at 100…600 m from one receiver (the default channel's transition region)
//! send unsecured CAMs (`protocol = "none"`: the channel alone decides delivery) at 20 Hz
//! for 4 s through `v2x testbed`; `v2x sim` runs the same static positions, packet size,
//! rate, send phases and access category (legacy DCF, with carrier sense in both) for 50 s. Per distance a two-proportion z-test compares the
//! testbed's PDR (packets read from the receiver's socket / sent) with the simulator's;
//! Holm's step-down keeps the family-wise false-alarm rate at 0.1 %.

use std::path::Path;

mod common;
use common::{json, p, text, v2x};

const DISTANCES_M: [f64; 6] = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0];
const RATE_HZ: f64 = 20.0;
const FAMILY_ALPHA: f64 = 0.001;

/// Testbed runs measure real-time delivery: one at a time within this test binary.
static ONE_RUN_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn exclusive() -> std::sync::MutexGuard<'static, ()> {
    ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// (sent, received) per sender at DISTANCES_M, and the datagram size, from a testbed run
/// through the emulator with `radio` as `[medium.radio]`.
fn testbed(dir: &Path, radio: &str) -> (Vec<(u64, u64)>, u64) {
    let distances: Vec<String> = DISTANCES_M.iter().map(|d| format!("{d:.1}")).collect();
    let scenario = dir.join("testbed.toml");
    std::fs::write(
        &scenario,
        format!(
            "duration_s = 4.0\nsenders = 6\nrate_hz = {RATE_HZ}\n[protocol]\nprotocol = \"none\"\n\
             [medium]\nkind = \"emulator\"\nsender_distances_m = [{}]\nseed = 7\naccess_category = \"legacy-dcf\"\n\
             [medium.radio]\n{radio}",
            distances.join(", ")
        ),
    )
    .unwrap();
    let out = dir.join("run");
    let o = common::testbed_command(&scenario, &out).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(survivors(&out).is_empty(), "orphans: {:?}", survivors(&out));
    // The relay keeps real time: deliveries at the end of their air time, give or take
    // the machine's scheduling (a relay waking on the kernel's tick would lag by ms).
    let channel = json(&out.join("logs/channel-emulator/channel.json"));
    let lag = channel["delivery_lag_p50_us"].as_u64().unwrap();
    assert!(lag < 5_000, "median delivery lag {lag} µs: {channel}");
    let s = json(&out.join("summary.json"));
    let links = s["links"].as_array().expect("per-link table in summary.json");
    assert_eq!(links.len(), DISTANCES_M.len(), "{links:?}");
    let mut counts = Vec::new();
    for (l, d) in links.iter().zip(DISTANCES_M) {
        assert_eq!(l["distance_m"].as_f64(), Some(d), "{l}");
        let c = &l["channel"];
        let (sent, received) = (l["sent"].as_u64().unwrap(), l["received"].as_u64().unwrap());
        // Every packet went on the emulated air; what the channel delivered reached the
        // socket, and the unsecured packets were all accepted: the loss is the channel's.
        assert_eq!(c["frames"].as_u64(), Some(sent), "{l}");
        assert_eq!(c["delivered"].as_u64(), Some(received), "{l}");
        // The security layer may still drop a packet past its deadline on a loaded machine;
        // what it did is counted apart from the channel.
        let (accepted, security_lost) = (l["accepted"].as_u64().unwrap(), l["security_lost"].as_u64().unwrap());
        assert_eq!(accepted + security_lost, received, "{l}");
        let reasons: u64 = ["below_sensitivity", "preamble_missed", "collision", "chunk_error"]
            .iter()
            .map(|k| c[k].as_u64().unwrap())
            .sum();
        assert_eq!(reasons, sent - received, "every channel loss has one reason: {l}");
        counts.push((sent, received));
    }
    // 4 s at 20 Hz per sender (a loaded machine may start a sender a period late).
    assert!(counts.iter().all(|c| (76..=80).contains(&c.0)), "{counts:?}");
    let tx = std::fs::read_to_string(out.join("tx.csv")).unwrap();
    let header: Vec<&str> = tx.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "bytes").unwrap();
    let mut sizes: Vec<u64> = tx
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(col).unwrap().parse().unwrap())
        .collect();
    sizes.dedup();
    assert_eq!(sizes.len(), 1, "one packet size: {sizes:?}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("below sensitivity") && report.contains("| tx5 | rx0 | benign | 600 |"));
    assert!(out.join("channel_frames.csv").exists() && out.join("channel_frames.parquet").exists());
    (counts, sizes[0])
}

/// (sent, received) per sender at DISTANCES_M from `v2x sim` on the same set-up.
fn sim(dir: &Path, payload_bytes: u64) -> Vec<(f64, f64)> {
    let positions: Vec<String> = std::iter::once(0.0)
        .chain(DISTANCES_M)
        .map(|x| format!("[{x:.1}, 0.0]"))
        .collect();
    // The testbed's send phases: station number n (rx0 is 1) starts n × 7919 µs into the period.
    let period_us = (1e6 / RATE_HZ) as u64;
    let offsets: Vec<String> = (1..=7u64)
        .map(|n| format!("{:.6}", ((n * 7919) % period_us) as f64 / 1e6))
        .collect();
    let scenario = dir.join("sim.toml");
    std::fs::write(
        &scenario,
        format!(
            "name = \"emulator-crosscheck\"\nduration_s = 50.0\nwarmup_s = 0.0\nseed = 3\nreplications = 1\n\
             [mobility]\nkind = \"static\"\npositions_m = [{}]\n\
             [cam]\nrate_hz = {RATE_HZ}\npayload_bytes = {payload_bytes}\naccess_category = \"legacy-dcf\"\n\
             start_offsets_s = [{}]\n[metrics]\nper_pair_counts = true\n\
             [[variant]]\nname = \"plain\"\nprotocol = \"none\"\n",
            positions.join(", "),
            offsets.join(", ")
        ),
    )
    .unwrap();
    let out = dir.join("sim");
    let o = v2x(&["sim", p(&scenario), "--out", p(&out)]);
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(out.join("per_pair_counts.csv")).unwrap();
    let mut counts = vec![(0.0, 0.0); DISTANCES_M.len()];
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (sender, receiver): (usize, usize) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        if receiver == 0 && sender >= 1 {
            counts[sender - 1] = (f[3].parse().unwrap(), f[4].parse().unwrap());
        }
    }
    assert!(counts.iter().all(|c| c.0 >= 990.0), "{counts:?}");
    counts
}

/// Two-sided p-value of the pooled two-proportion z-test.
fn two_proportion_p(k1: f64, n1: f64, k2: f64, n2: f64) -> f64 {
    let pooled = (k1 + k2) / (n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se == 0.0 {
        return 1.0; // both all delivered or all lost
    }
    statrs::function::erf::erfc((k1 / n1 - k2 / n2).abs() / se / std::f64::consts::SQRT_2)
}

/// The distances whose PDR differs after Holm's step-down at FAMILY_ALPHA, with the table.
fn differing(testbed: &[(u64, u64)], sim: &[(f64, f64)]) -> (Vec<f64>, String) {
    let mut rows: Vec<(f64, f64, String)> = DISTANCES_M
        .iter()
        .zip(testbed.iter().zip(sim))
        .map(|(&d, (&(n1, k1), &(n2, k2)))| {
            let pv = two_proportion_p(k1 as f64, n1 as f64, k2, n2);
            let line = format!(
                "{d:>5.0} m: testbed {:.3} ({k1}/{n1}), sim {:.3} ({k2}/{n2}), p = {pv:.2e}",
                k1 as f64 / n1 as f64,
                k2 / n2
            );
            (d, pv, line)
        })
        .collect();
    let table = rows.iter().map(|r| r.2.clone()).collect::<Vec<_>>().join("\n");
    rows.sort_by(|a, b| a.1.total_cmp(&b.1));
    let m = rows.len();
    let mut out = Vec::new();
    for (i, (d, pv, _)) in rows.iter().enumerate() {
        if *pv > FAMILY_ALPHA / (m - i) as f64 {
            break;
        }
        out.push(*d);
    }
    (out, table)
}

#[test]
fn the_emulated_channel_gives_v2x_sims_pdr_by_distance_and_a_broken_one_is_caught() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let (good_dir, broken_dir) = (dir.path().join("good"), dir.path().join("broken"));
    std::fs::create_dir_all(&good_dir).unwrap();
    std::fs::create_dir_all(&broken_dir).unwrap();
    // The default [radio] in both: the emulator's channel is the simulator's.
    let (testbed_counts, bytes) = testbed(&good_dir, "");
    let sim_counts = sim(&good_dir, bytes);
    let (diff, table) = differing(&testbed_counts, &sim_counts);
    eprintln!("PDR by distance, emulator vs v2x sim ({bytes} B packets):\n{table}");
    assert!(diff.is_empty(), "PDR differs at {diff:?} m:\n{table}");
    // Transition region really covered: near links mostly delivered, far ones mostly lost.
    let pdr = |i: usize| testbed_counts[i].1 as f64 / testbed_counts[i].0 as f64;
    assert!(pdr(0) > 0.8 && pdr(5) < 0.2, "{table}");
    // The same comparison rejects an emulator whose channel has no fading (the simulator
    // keeps its Nakagami fading): PDR becomes a step in distance.
    let (broken_counts, _) = testbed(&broken_dir, "[medium.radio.fading]\nmodel = \"none\"\n");
    let (diff, table) = differing(&broken_counts, &sim_counts);
    eprintln!("without fading:\n{table}");
    assert!(!diff.is_empty(), "a channel without fading went unnoticed:\n{table}");
}

/// Station (and emulator) processes still alive whose command line names `dir`.
fn survivors(dir: &Path) -> Vec<String> {
    common::processes_naming(dir, &["station", "channel-emulator"])
}

#[test]
fn ctrl_c_stops_the_emulator_and_every_station() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("long.toml");
    std::fs::write(
        &scenario,
        "duration_s = 60.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"none\"\n\
         [medium]\nkind = \"emulator\"\nsender_distances_m = [50.0, 80.0]\n",
    )
    .unwrap();
    // Once the emulator and the three stations run, Ctrl-C the orchestrator.
    common::interrupt_testbed(&scenario, &dir.path().join("run"), 4, survivors, |_, running| {
        assert!(running.iter().any(|c| c.contains("channel-emulator")), "{running:?}");
    });
}

#[test]
fn medium_mistakes_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let head = "duration_s = 1.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"none\"\n";
    for (medium, expected) in [
        ("[medium]\nkind = \"wifi\"\n", &["loopback", "emulator", "netns"][..]),
        (
            "[medium]\nkind = \"emulator\"\nsender_distances_m = [50.0]\n",
            &["1 distances for 2 senders"][..],
        ),
        (
            "[medium]\nkind = \"emulator\"\n[medium.positions_m]\nrx0 = [0.0, 0.0]\ntx0 = [10.0, 0.0]\n",
            &["no position for station `tx1`"][..],
        ),
        (
            "[medium]\nkind = \"emulator\"\nsender_distances_m = [50.0, 60.0]\n[medium.radio]\nfading = \"rayleigh\"\n",
            &["radio"][..],
        ),
        (
            "[medium]\nsender_distances_m = [50.0, 60.0]\n",
            &["kind = \"emulator\""][..],
        ),
        (
            "[medium]\nkind = \"emulator\"\nsender_distances_m = [50.0, 60.0]\n\
             [load_plan]\nsenders = [1]\nrates_hz = [10.0]\n",
            &["[load_plan]", "loopback"][..],
        ),
        (
            "[medium]\nkind = \"netns\"\n[[functional]]\ncase = \"F-SIG-05\"\n",
            &["[[functional]]", "loopback"][..],
        ),
    ] {
        let path = dir.path().join("bad.toml");
        std::fs::write(&path, format!("{head}{medium}")).unwrap();
        let o = v2x(&["testbed", p(&path), "--out", p(&dir.path().join("out"))]);
        assert!(!o.status.success(), "{medium}");
        let msg = text(&o);
        for e in expected {
            assert!(msg.contains(e), "{medium}: {msg}");
        }
        assert!(!msg.contains("panicked"), "{msg}");
    }
}
