//! End-to-end: `v2x testbed` starts real station processes on loopback (issue 14's CI case).

use std::path::Path;

mod common;
use common::{repo, v2x_command};

/// Processes still alive whose command line names `dir` (the run's station configs).
fn survivors(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().to_string();
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(&needle) && cmd.contains("station") {
                out.push(cmd);
            }
        }
    }
    out
}

#[test]
fn three_senders_and_an_invalid_signature_attacker_on_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = v2x_command()
        .args(["testbed", "--quiet", "--out"])
        .arg(&out)
        .arg(repo("").join("scenarios/testbed/attack.toml"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let rx = &s["receivers"]["rx0"];
    let benign = &rx["benign"];
    // 3 senders × 10 Hz × 3 s.
    assert_eq!(benign["sent"], 90, "{benign}");
    assert_eq!(benign["accepted"], 90, "zero benign loss: {benign}");
    assert_eq!(benign["consistent"], true);
    let attack = &rx["A-SIG-01"];
    assert_eq!(attack["sent"], 30, "{attack}");
    assert_eq!(attack["accepted"], 0, "{attack}");
    assert_eq!(attack["rejected"], 30, "every attack packet rejected: {attack}");
    assert_eq!(attack["reasons"]["false-signature"], 30, "with its reason: {attack}");
    assert_eq!(attack["consistent"], true);
    assert!(benign["e2e"]["p50_us"].as_u64().unwrap() > 0);
    // CPU and RSS of every process.
    for p in ["rx0", "tx0", "tx1", "tx2", "a-sig-01-0"] {
        assert!(
            s["processes"][p]["max_rss_kib"].as_u64().unwrap() > 0,
            "{p}: {}",
            s["processes"]
        );
    }
    assert!(out.join("report.md").exists());
    // The stations' logs merged into one table each, with a Parquet twin for pandas: the
    // receiver's rows of the 90 benign and 30 attack packets are all in rx.csv.
    let rx_csv = std::fs::read_to_string(out.join("rx.csv")).unwrap();
    let header = rx_csv.lines().next().unwrap();
    assert!(header.starts_with("station,src,digest,bytes,received_us"), "{header}");
    let rx0_rows = rx_csv.lines().filter(|l| l.starts_with("rx0,")).count();
    assert!(rx0_rows >= 120, "{rx0_rows} rows of rx0");
    for t in ["tx", "rx", "events"] {
        let p = std::fs::read(out.join(format!("{t}.parquet"))).unwrap();
        assert!(p.starts_with(b"PAR1") && p.ends_with(b"PAR1"), "{t}.parquet");
    }
    assert!(survivors(&out).is_empty(), "orphan stations: {:?}", survivors(&out));
}

/// A-SIG-03 (no security), A-SIG-06 (60 s old) and A-CER-03 (expired ticket): every packet
/// rejected with the reason of its case, benign traffic untouched.
#[test]
fn unsigned_stale_and_expired_certificate_attacks_are_rejected_with_their_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("cases.toml");
    let mut text =
        String::from("duration_s = 2.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n");
    for case in ["A-SIG-03", "A-SIG-06", "A-CER-03"] {
        text.push_str(&format!("[[attackers]]\ncase = \"{case}\"\nrate_hz = 10.0\n"));
    }
    std::fs::write(&scenario, text).unwrap();
    let out = dir.path().join("run");
    let o = v2x_command()
        .args(["testbed", "--quiet", "--out"])
        .arg(&out)
        .arg(&scenario)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let rx = &s["receivers"]["rx0"];
    assert_eq!(rx["benign"]["sent"], 40, "{}", rx["benign"]);
    assert_eq!(rx["benign"]["accepted"], 40, "{}", rx["benign"]);
    for (case, reason) in [
        ("A-SIG-03", "incompatible-protocol"),
        ("A-SIG-06", "stale-message"),
        ("A-CER-03", "certificate-expired"),
    ] {
        let c = &rx[case];
        assert_eq!(c["sent"], 20, "{case}: {c}");
        assert_eq!(c["accepted"], 0, "{case}: {c}");
        assert_eq!(c["reasons"][reason], 20, "{case} rejected as {reason}: {c}");
    }
    assert!(survivors(&out).is_empty(), "orphan stations: {:?}", survivors(&out));
}

#[test]
fn bad_scenarios_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\nfoo = 3\n[protocol]\nprotocol = \"ieee1609.2\"\n",
    )
    .unwrap();
    let o = v2x_command()
        .args(["testbed", "--out"])
        .arg(dir.path().join("o"))
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("foo"), "{err}");
    std::fs::write(
        &bad,
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"rsa\"\n",
    )
    .unwrap();
    let o = v2x_command()
        .args(["testbed", "--out"])
        .arg(dir.path().join("o"))
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("ieee1609.2") && err.contains("tesla"),
        "valid protocols listed: {err}"
    );
    std::fs::write(
        &bad,
        "duration_s = -1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"none\"\n",
    )
    .unwrap();
    let o = v2x_command()
        .args(["testbed", "--out"])
        .arg(dir.path().join("o"))
        .arg(&bad)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("duration_s"));
}

#[test]
fn every_shipped_testbed_scenario_loads() {
    let mut n = 0;
    for e in std::fs::read_dir(repo("").join("scenarios/testbed")).unwrap() {
        let path = e.unwrap().path();
        if let Err(err) = v2x_testbed::orchestrator::Scenario::load(&path) {
            panic!("{}: {err}", path.display());
        }
        n += 1;
    }
    assert!(n >= 3);
}
