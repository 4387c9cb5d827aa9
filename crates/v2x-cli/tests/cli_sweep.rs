//! End-to-end `v2x sweep`: the small example spec runs into per-run folders and one table;
//! a second call redoes nothing; a single run done alone in another folder gives the same
//! record as in the whole sweep and merges; an unknown run id is a clear error.

use std::path::{Path, PathBuf};
use std::process::Command;

fn v2x() -> Command {
    Command::new(env!("CARGO_BIN_EXE_v2x"))
}

fn spec(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/sweeps")
        .join(name)
}

fn run_ids(spec: &Path) -> Vec<String> {
    let o = v2x()
        .args(["sweep", spec.to_str().unwrap(), "--list"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn small_sweep_runs_resumes_and_merges_single_runs() {
    let spec = spec("small-ecdsa-cores.toml");
    let ids = run_ids(&spec);
    assert_eq!(ids.len(), 8, "2 densities x 2 core counts x 2 replications");
    let out = tempfile::tempdir().unwrap();
    let sweep = |out: &Path, extra: &[&str]| {
        let o = v2x()
            .args(["sweep", spec.to_str().unwrap(), "--threads", "2", "--quiet", "--out"])
            .arg(out)
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    sweep(out.path(), &[]);
    for id in &ids {
        let dir = out.path().join("runs").join(id);
        for f in ["record.json", "summary.json", "resolved.toml"] {
            assert!(dir.join(f).is_file(), "{id}/{f}");
        }
    }
    let parquet = std::fs::read(out.path().join("results.parquet")).unwrap();
    assert!(parquet.starts_with(b"PAR1") && parquet.ends_with(b"PAR1"));
    let table = std::fs::read_to_string(out.path().join("results.csv")).unwrap();
    let header = table.lines().next().unwrap();
    assert_eq!(
        header,
        "run_id,point,replication,seed,mobility.density_veh_per_km_lane,variant.0.cores,variant,protocol,metric,distance_from_m,distance_to_m,value"
    );
    for id in &ids {
        assert!(
            table
                .lines()
                .any(|l| l.starts_with(id.as_str()) && l.contains(",pdr_application_ratio,")),
            "{id}"
        );
    }
    let seeds: std::collections::BTreeSet<&str> = table.lines().skip(1).map(|l| l.split(',').nth(3).unwrap()).collect();
    assert_eq!(seeds.into_iter().collect::<Vec<_>>(), ["11", "12"]);

    // Resumable: a finished run is not redone (its record keeps its modification time).
    let rec = out.path().join("runs").join(&ids[0]).join("record.json");
    let before = std::fs::metadata(&rec).unwrap().modified().unwrap();
    let o = v2x()
        .args(["sweep", spec.to_str().unwrap(), "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("0 run(s) done now, 8 already finished"));
    assert_eq!(std::fs::metadata(&rec).unwrap().modified().unwrap(), before);

    // One replication alone, elsewhere: the same record, and the table holds only it.
    let alone = tempfile::tempdir().unwrap();
    sweep(alone.path(), &["--run", &ids[5]]);
    let a = std::fs::read_to_string(alone.path().join("runs").join(&ids[5]).join("record.json")).unwrap();
    let b = std::fs::read_to_string(out.path().join("runs").join(&ids[5]).join("record.json")).unwrap();
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        v.as_object_mut().unwrap().remove("wall_s");
        v
    };
    assert_eq!(
        strip(&a),
        strip(&b),
        "a run alone measures what it measures in the sweep"
    );
    let t = std::fs::read_to_string(alone.path().join("results.csv")).unwrap();
    assert!(t.lines().skip(1).all(|l| l.starts_with(ids[5].as_str())));
    // Another run added later merges into the same table.
    sweep(alone.path(), &["--run", &ids[2]]);
    let t = std::fs::read_to_string(alone.path().join("results.csv")).unwrap();
    assert!(t.lines().any(|l| l.starts_with(ids[2].as_str())) && t.lines().any(|l| l.starts_with(ids[5].as_str())));

    let o = v2x()
        .args(["sweep", spec.to_str().unwrap(), "--run", "nosuchrun", "--out"])
        .arg(alone.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no run nosuchrun"));
}

#[test]
fn bad_axis_key_names_the_run_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("bad.toml");
    std::fs::write(&s, "[scenario]\nduration_s = 1.0\n[axes]\n\"cam.rate_hzz\" = [5.0]\n").unwrap();
    let o = v2x()
        .args(["sweep", s.to_str().unwrap(), "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("rate_hzz") && err.contains("cam.rate_hzz=5.0"), "{err}");
}
