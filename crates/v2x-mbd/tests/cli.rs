//! End-to-end: the `v2x-mbd` binary through the runnable example
//! (scenarios/misbehaviour-detection.sh) and its input errors.

use std::path::Path;
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_v2x-mbd")
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The F1 a `score` line printed.
fn f1(line: &str) -> f64 {
    line.split("F1 ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn the_runnable_example_attacks_and_scores() {
    let out = Command::new("sh")
        .arg("scenarios/misbehaviour-detection.sh")
        .arg(bin())
        .current_dir(repo())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        text.contains("unknown attack `noSuchAttack`; valid: timeDelayAttack,"),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    for attack in ["dataReplay", "dosAttack", "trafficCongestionSybil"] {
        let at = lines.iter().position(|l| l.contains(&format!("== {attack}:"))).unwrap();
        let (reference, full) = (f1(lines[at + 1]), f1(lines[at + 2]));
        assert!(full > 0.8 && full > reference, "{attack}: {reference} -> {full}");
    }
}

#[test]
fn bad_input_is_named() {
    let run = |args: &[&str]| {
        let out = Command::new(bin()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let input = repo().join("crates/v2x-mbd/tests/fixtures/nextgen/input");
    let input = input.to_str().unwrap();
    assert!(run(&["score", "--in", input, "--detector", "best"]).contains("valid: catch-reference, plausibility, full"));
    assert!(run(&["score", "--in", input, "--detector", "full", "--half", "x"]).contains("valid: test, tune"));
    assert!(run(&["score", "--in", "/nonexistent", "--detector", "full"]).contains("/nonexistent"));
    assert!(run(&["frobnicate"]).contains("usage"));
}
