//! Every shipped simulator scenario (scenarios/, papers/, bench-city/) loads and every
//! variant resolves under the rules for defaults: no shipped example may rely on a default
//! that picks a cost among several, takes a curve the protocol does not mandate, or sets a
//! deadline a TESLA key cannot meet.

use std::path::{Path, PathBuf};

fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            // Testbed scenarios, sweep specs and profiles are other formats.
            if !matches!(
                p.file_name().and_then(|n| n.to_str()),
                Some("testbed" | "sweeps" | "profiles")
            ) {
                scenario_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

#[test]
fn every_shipped_scenario_resolves_without_a_hidden_default() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files = Vec::new();
    scenario_files(&root, &mut files);
    assert!(files.len() >= 15, "{files:?}");
    let mut resolved = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        // Model inputs (papers/003-costs-example.toml) are not simulator scenarios.
        if !text.contains("[[variant]]") {
            continue;
        }
        let sc = v2x_sim::Scenario::load(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // Measured on the machine by `v2x bench` first (tests/cli_bench_to_sim.rs runs it).
        if text.contains("out/bench/profile.json") {
            continue;
        }
        // The experimental designs' sizes come from their real encoder, outside this crate:
        // v2x-sim-crypto's tests/pq_sizes.rs resolves those scenarios with it.
        if sc.variants.iter().any(|v| v.protocol.is_experimental_pq()) {
            let e = v2x_sim::resolve_variants(&sc).unwrap_err().to_string();
            assert!(e.contains("real encoder"), "{}: {e}", f.display());
            continue;
        }
        let models = v2x_sim::resolve_variants(&sc).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for m in &models {
            assert!(
                m.settings.iter().any(|s| s.name == "deadline_ms"),
                "{}: {}",
                f.display(),
                m.name
            );
        }
        resolved += 1;
    }
    assert!(resolved >= 15, "{resolved}");
}
