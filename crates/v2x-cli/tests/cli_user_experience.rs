//! Issue 28, what a new user met, end to end: progress on long runs (in a log and on a
//! terminal), readable `pki issue` output, captures a region-restricted station's own PKI
//! accepts, a misspelt sweep axis refused at once, and a SUMO run warned about a duration
//! past its trace whose resolved.toml runs again from its own folder.

use std::path::Path;
use std::process::Command;

mod common;
use common::{lossy, p, repo, v2x, v2x_command};

/// A scenario that simulates for several seconds even in a release build.
fn long_scenario(dir: &Path) -> std::path::PathBuf {
    let f = dir.join("long.toml");
    std::fs::write(
        &f,
        "name = \"long\"\nduration_s = 20.0\nwarmup_s = 1.0\n\
         [mobility]\nkind = \"highway\"\nlength_m = 2000.0\nlanes_per_direction = 3\ndensity_veh_per_km_lane = 40.0\n\
         [[variant]]\nname = \"ecdsa\"\nprotocol = \"etsi-v1.2.1\"\nprofile = \"xeon-e5-2667\"\n",
    )
    .unwrap();
    f
}

/// Issue 28: with stderr not a terminal a long run printed nothing at all.
#[test]
fn a_long_run_writes_progress_lines_to_a_log() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = long_scenario(tmp.path());
    let mut child = v2x_command()
        .arg("sim")
        .arg(&scenario)
        .arg("--out")
        .arg(tmp.path().join("out"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Two lines are enough: the first within a few seconds, the next showing time moved.
    let mut lines = Vec::new();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        let mut got = Vec::new();
        for line in std::io::BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.starts_with("progress") {
                got.push((std::time::Instant::now(), line));
                if got.len() == 2 {
                    break;
                }
            }
        }
        got
    });
    let started = std::time::Instant::now();
    lines.extend(reader.join().unwrap());
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let first_after = lines[0].0.duration_since(started).as_secs_f64();
    assert!(first_after < 5.0, "first progress line after {first_after:.1} s");
    assert!(lines[0].1.contains("ecdsa #0"), "{}", lines[0].1);
    assert!(lines[1].1.contains("s simulated"), "{}", lines[1].1);
}

/// On a terminal: a bar that moves with simulated time (`script` gives the run a pty).
#[test]
fn a_long_run_draws_a_bar_on_a_terminal() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` (util-linux) to give the run a terminal");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let scenario = long_scenario(tmp.path());
    let log = tmp.path().join("typescript");
    let cmd = format!(
        "timeout 8 {} sim {} --out {}",
        env!("CARGO_BIN_EXE_v2x"),
        p(&scenario),
        p(&tmp.path().join("out"))
    );
    let _ = Command::new("script").args(["-qfec", &cmd]).arg(&log).output().unwrap();
    let screen = lossy(&std::fs::read(&log).unwrap());
    // The bar fills as simulated time goes (an 80-column terminal shows the short form).
    assert!(screen.contains("ecdsa #0 ") && screen.contains("/20.0 s"), "{screen}");
    assert!(screen.contains("[=") || screen.contains("[>"), "no bar: {screen}");
    assert!(
        !screen.contains("ecdsa #0 0.00/20.0 s") || screen.contains("ecdsa #0 0.1"),
        "{screen}"
    );
}

#[test]
fn pki_issue_says_what_it_issued_in_utc() {
    let tmp = tempfile::tempdir().unwrap();
    let pki = tmp.path().join("pki");
    assert!(v2x(&["pki", "init", "--dir", p(&pki)]).status.success());
    let o = v2x(&["pki", "issue", "--dir", p(&pki), "--count", "2", "--validity", "2d"]);
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let out = lossy(&o.stdout);
    for line in out.lines() {
        // HashedId8, then RFC 3339 times.
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{line}");
        assert!(
            f[0].len() == 16 && f[0].chars().all(|c| c.is_ascii_hexdigit()),
            "{line}"
        );
        assert!(
            f[2].ends_with('Z') && f[2].contains('T') && f[4].ends_with('Z'),
            "{line}"
        );
    }
    let err = lossy(&o.stderr);
    assert!(
        err.contains("36 (CAM)") && err.contains("2 day(s)") && !err.contains("TAI s"),
        "{err}"
    );
}

/// Issue 28: DENMs of a station whose tickets are restricted to a region were written at a
/// fixed location, and the capture's own PKI rejected them (`outside-region`).
#[test]
fn a_capture_of_a_region_restricted_station_is_accepted_by_its_pki() {
    let tmp = tempfile::tempdir().unwrap();
    let pki = tmp.path().join("pki");
    assert!(v2x(&["pki", "init", "--dir", p(&pki)]).status.success());
    let o = v2x(&[
        "pki",
        "issue",
        "--dir",
        p(&pki),
        "--station",
        "berlin",
        "--region",
        "circle:52.52,13.405,300",
    ]);
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let pcap = tmp.path().join("c.pcap");
    let o = v2x(&[
        "pcap",
        "--pki",
        p(&pki),
        "--out",
        p(&pcap),
        "--stations",
        "2",
        "--count",
        "60",
    ]);
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    assert!(lossy(&o.stdout).contains("DENMs"));
    let o = v2x(&["decap", "--trust", p(&pki), "--batch", "--in", p(&pcap)]);
    let out = common::text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("outside-region") && out.contains("60 accepted"), "{out}");
}

/// Issue 28: `sweep --list` listed the runs of a misspelt axis key.
#[test]
fn sweep_list_refuses_a_misspelt_axis_key() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("s.toml");
    std::fs::write(
        &spec,
        "[scenario]\nduration_s = 2.0\n[axes]\n\"mobility.densty_veh_per_km_lane\" = [10.0, 20.0]\n",
    )
    .unwrap();
    let o = v2x(&["sweep", p(&spec), "--list"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        lossy(&o.stderr).contains("densty_veh_per_km_lane"),
        "{}",
        lossy(&o.stderr)
    );
}

#[test]
fn a_sumo_run_warns_past_its_trace_and_runs_again_from_its_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sumo");
    let o = v2x(&[
        "sim",
        p(&repo("scenarios/sumo-fcd.toml")),
        "--duration",
        "24",
        "--quiet",
        "--out",
        p(&out),
    ]);
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    assert!(
        lossy(&o.stderr).contains("past the end of the mobility trace (20.0 s)"),
        "{}",
        lossy(&o.stderr)
    );
    let summary = common::json(&out.join("summary.json"));
    assert!(summary["warnings"][0].as_str().unwrap().contains("empty road"));
    // The resolved scenario, from its own folder.
    let o = v2x_command()
        .current_dir(&out)
        .args(["sim", "resolved.toml", "--duration", "2", "--quiet", "--out", "again"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    assert!(out.join("again/summary.json").exists());
}
