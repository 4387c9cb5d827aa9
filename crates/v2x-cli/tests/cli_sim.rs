//! End-to-end `v2x sim`: the demo scenarios (shortened) produce every output file, and a
//! bad scenario exits 2 with the file, line and field.

use std::path::{Path, PathBuf};

mod common;
use common::v2x_command;

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(name)
}

#[test]
fn demo_urban_grid_writes_results_folder() {
    let out = tempfile::tempdir().unwrap();
    let o = v2x_command()
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
    let o = v2x_command()
        .args(["sim", f.to_str().unwrap(), "--out"])
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.toml:3:") && err.contains("tx_power"), "{err}");
    std::fs::write(&f, "[cam]\nrate_hz = 0\n").unwrap();
    let o = v2x_command()
        .args(["sim", f.to_str().unwrap(), "--out"])
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cam.rate_hz"));
}

/// `[misbehaviour]` (issue 33): the example's insiders are reported, revoked and then
/// dropped, no benign station is, and the section lands in summary.json and
/// misbehaviour.txt with every setting shown; an unknown attack lists the valid ones.
#[test]
fn misbehaviour_sim_highway_revokes_the_insiders() {
    let out = tempfile::tempdir().unwrap();
    let o = v2x_command()
        .args([
            "sim",
            scenario("misbehaviour-sim-highway.toml").to_str().unwrap(),
            "--out",
        ])
        .arg(out.path())
        .args(["--duration", "8", "--replications", "1"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("misbehaviour, variant etsi") && stdout.contains("per sender"),
        "{stdout}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("summary.json")).unwrap()).unwrap();
    let m = &summary["misbehaviour"];
    for key in [
        "attack",
        "attackers",
        "start_s",
        "min_reporters",
        "detector",
        "seed",
        "report_latency_s",
        "decision_latency_s",
        "crl_latency_s",
    ] {
        assert!(!m["settings"][key].is_null(), "{key} shown: {m}");
    }
    let v = &m["variants"][0];
    assert_eq!(v["attackers"], 2);
    assert_eq!(v["attackers_revoked"], 2, "{v}");
    assert!(v["insider_dropped_after_crl"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["benign_revoked"]["mean"], 0.0, "{v}");
    assert!(v["per_message"]["f1"]["mean"].as_f64().unwrap() > 0.5, "{v}");
    assert!(out.path().join("misbehaviour.txt").exists());

    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.toml");
    let text = std::fs::read_to_string(scenario("misbehaviour-sim-highway.toml"))
        .unwrap()
        .replace("\"constantPositionOffset\"", "\"teleport\"");
    std::fs::write(&f, text).unwrap();
    let o = v2x_command()
        .args(["sim", f.to_str().unwrap(), "--out"])
        .arg(dir.path().join("o"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("misbehaviour.attack") && e.contains("dataReplay"), "{e}");
}

/// Every scenario under scenarios/ (the documented examples of every key and name) runs,
/// shortened; those that need `v2x bench` output first say so in their header and are
/// covered by `cli_bench_to_sim`; the city-scale speed benchmark (10,000 vehicles, too
/// large for a debug build) only loads here and runs in scripts/bench-city.sh.
#[test]
fn every_shipped_scenario_runs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        if std::fs::read_to_string(&path)
            .unwrap()
            .contains("out/bench/profile.json")
        {
            continue;
        }
        if std::fs::read_to_string(&path).unwrap().contains("(bench: city scale)") {
            v2x_sim::Scenario::load(&path).unwrap();
            continue;
        }
        let out = tempfile::tempdir().unwrap();
        let o = v2x_command()
            .arg("sim")
            .arg(&path)
            .args(["--quiet", "--duration", "1.2", "--out"])
            .arg(out.path())
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.path().join("summary.json")).unwrap()).unwrap();
        for v in summary["variants"].as_array().unwrap() {
            assert!(v["cams_generated"].as_u64().unwrap() > 0, "{}: {v}", path.display());
        }
        ran += 1;
    }
    assert!(ran >= 4, "only {ran} scenarios");
}

#[test]
fn unknown_names_list_the_valid_ones() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.toml");
    let run = |text: &str| {
        std::fs::write(&f, text).unwrap();
        let o = v2x_command()
            .args(["sim", f.to_str().unwrap(), "--out"])
            .arg(dir.path().join("o"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    let e = run("[[variant]]\nname = 'a'\nprotocol = 'tesal'\n");
    assert!(
        e.contains("unknown protocol `tesal`") && e.contains("tesla-attached, hash-chain, 2flip"),
        "{e}"
    );
    let e = run("[[variant]]\nname = 'a'\nprotocol = 'etsi-v1.2.1'\nprofile = 'xeon'\n");
    assert!(
        e.contains("unknown profile `xeon`") && e.contains("xeon-e5-2667"),
        "{e}"
    );
    let e = run(
        "[[variant]]\nname = 'a'\nprotocol = 'etsi-v1.2.1'\nprofile = 'xeon-e5-2667'\nverify_variant = 'p256/cma'\n",
    );
    assert!(
        e.contains("bad.toml:5:") && e.contains("`cma`") && e.contains("cam, denm"),
        "{e}"
    );
    let e =
        run("[[variant]]\nname = 'a'\nprotocol = 'etsi-v1.2.1'\nprofile = 'xeon-e5-2667'\nverify_variant = 'p999'\n");
    assert!(e.contains("`p999`"), "{e}");
    let e = run("[[variant]]\nname = 'a'\nprotocol = 'etsi-v1.2.1'\nprofile = 'cubieboard'\nverify_variant = 'p256'\n");
    assert!(
        e.contains("etsi-v1.2.1/decap/p192-sha256/sign/digest"),
        "lists the profile's costs: {e}"
    );
}

/// A sidelink highway example shortened (0.5 s warm-up, 2 km ring, 1.5 s) and run with
/// `extra` arguments: its temporary folder and results folder.
fn run_small_highway(example: &str, extra: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(scenario(example)).unwrap();
    let small = text
        .replace("warmup_s = 2.0", "warmup_s = 0.5")
        .replace("length_m = 5000.0", "length_m = 2000.0");
    assert_ne!(small, text);
    let f = dir.path().join("small.toml");
    std::fs::write(&f, small).unwrap();
    let out = dir.path().join("out");
    let o = v2x_command()
        .args(["sim", f.to_str().unwrap(), "--out"])
        .arg(&out)
        .args(["--duration", "1.5"])
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (dir, out)
}

/// The LTE-V2X Mode 4 example, on a shorter and smaller highway: every output file, the
/// losses by cause per 10 m bin, and the certificate's larger packets in the reservations.
#[test]
fn cv2x_highway_example_runs_on_the_sidelink() {
    let (_dir, out) = run_small_highway("cv2x-highway.toml", &["--replications", "2"]);
    for f in [
        "summary.json",
        "pdr_vs_distance.csv",
        "sidelink_losses.csv",
        "report.html",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let v = summary["variants"].as_array().unwrap();
    assert_eq!(
        (v[0]["name"].as_str(), v[1]["name"].as_str()),
        (Some("none"), Some("ieee1609.2"))
    );
    for x in v {
        let cbr = x["sidelink"]["cbr"]["mean"].as_f64().unwrap();
        assert!(cbr > 0.0 && cbr < 1.0, "{cbr}");
        assert!(x["pdr_network"]["mean"].as_f64().unwrap() > 0.5);
    }
    // 100 B alone fits one sub-channel; with 1609.2's 93 / 180 B some need two.
    assert_eq!(v[0]["sidelink"]["mean_subchannels"].as_f64(), Some(1.0));
    assert!(v[1]["sidelink"]["mean_subchannels"].as_f64().unwrap() > 1.0);
    assert!(v[1]["sidelink"]["selections"]["size"].as_u64().unwrap() > 0);
    let losses = std::fs::read_to_string(out.join("sidelink_losses.csv")).unwrap();
    assert!(losses.starts_with("variant,replication,distance_from_m,distance_to_m,attempts,received,half_duplex,sensing,propagation,collision,pdr"));
    // 2 variants x (2 replications + pooled) x 50 bins of 10 m.
    assert_eq!(losses.lines().count(), 1 + 2 * 3 * 50);
}

/// The NR-V2X Mode 2 example, shorter and smaller: its outputs, every loss cause's
/// column, the re-evaluations, and the certificate's larger packets in the reservations.
#[test]
fn cv2x_nr_highway_example_runs_on_nr_mode2() {
    let (_dir, out) = run_small_highway("cv2x-nr-highway.toml", &[]);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let v = summary["variants"].as_array().unwrap();
    for x in v {
        let s = &x["sidelink"];
        assert!(s["cbr"]["mean"].as_f64().unwrap() > 0.0);
        assert!(x["pdr_network"]["mean"].as_f64().unwrap() > 0.5);
        assert!(s["re_evaluation"]["runs"].as_u64().unwrap() > 0, "{s}");
        assert!(x["notes"].to_string().contains("NR-V2X Mode 2"));
    }
    // 100 B fits one 12-PRB sub-channel at MCS 9 (217 B), 193 B too, 280 B needs both.
    assert_eq!(v[0]["sidelink"]["mean_subchannels"].as_f64(), Some(1.0));
    assert!(v[1]["sidelink"]["mean_subchannels"].as_f64().unwrap() > 1.0);
    let losses = std::fs::read_to_string(out.join("sidelink_losses.csv")).unwrap();
    assert_eq!(losses.lines().count(), 1 + 2 * 2 * 50);
    // The scenario as run keeps NR's table, so it runs again as NR.
    let resolved = std::fs::read_to_string(out.join("resolved.toml")).unwrap();
    assert!(resolved.contains("[sidelink.nr]") && resolved.contains("nr-v2x-mode2"));
}

#[test]
fn an_unknown_access_kind_lists_the_valid_ones() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.toml");
    std::fs::write(&f, "[access]\nkind = \"nr-v2x-mode1\"\n").unwrap();
    let o = v2x_command()
        .args(["sim", f.to_str().unwrap(), "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("its-g5") && e.contains("lte-v2x-mode4") && e.contains("nr-v2x-mode2"),
        "{e}"
    );
}
