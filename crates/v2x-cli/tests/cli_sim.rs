//! End-to-end `v2x sim`: the demo scenarios (shortened) produce every output file, and a
//! bad scenario exits 2 with the file, line and field.

use std::path::{Path, PathBuf};
use std::process::Command;

fn v2x() -> Command {
    Command::new(env!("CARGO_BIN_EXE_v2x"))
}

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(name)
}

#[test]
fn demo_urban_grid_writes_results_folder() {
    let out = tempfile::tempdir().unwrap();
    let o = v2x()
        .args(["sim", scenario("demo-urban-grid.toml").to_str().unwrap(), "--out"])
        .arg(out.path())
        .args(["--duration", "0.3", "--seed", "7", "--replications", "2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("ecdsa-xeon") && stdout.contains("ecdsa-i7"), "{stdout}");
    for f in [
        "summary.json",
        "resolved.toml",
        "resolved.json",
        "pdr_vs_distance.csv",
        "runs.csv",
        "report.html",
        "mac_delay_ccdf.svg",
    ] {
        assert!(out.path().join(f).exists(), "{f}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["seed"], 7);
    assert_eq!(summary["replications"], 2);
    let variants = summary["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 3);
    for v in variants {
        assert_eq!(v["replications"], 2);
        let pdr = v["pdr_network"]["mean"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&pdr));
    }
    let resolved = std::fs::read_to_string(out.path().join("resolved.toml")).unwrap();
    assert!(
        resolved.contains("duration_s = 0.3"),
        "overrides are in the resolved configuration"
    );
}

#[test]
fn bad_scenario_exits_2_with_location() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.toml");
    std::fs::write(&f, "duration_s = 5\n[radio]\ntx_power = 20\n").unwrap();
    let o = v2x()
        .args(["sim", f.to_str().unwrap(), "--out"])
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.toml:3:") && err.contains("tx_power"), "{err}");
    std::fs::write(&f, "[cam]\nrate_hz = 0\n").unwrap();
    let o = v2x()
        .args(["sim", f.to_str().unwrap(), "--out"])
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cam.rate_hz"));
}
