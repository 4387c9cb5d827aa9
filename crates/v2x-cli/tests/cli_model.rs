//! End-to-end `v2x model`: the results folder (inputs, costs, summary, CSV, SVG, HTML),
//! the paper's tables and crossovers on standard output, the cost file round trip, the
//! example cost file against the paper, measuring this machine, and errors that list the
//! valid names.

use std::process::Output;

mod common;
use common::{json, repo, v2x};

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn model_writes_its_results_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let text = stdout(&v2x(&[
        "model",
        "--rate",
        "6",
        "--hops",
        "12",
        "--out",
        out.to_str().unwrap(),
    ]));
    // Tables 4-6 with paper, model, difference; the crossovers, the paper's and today's.
    assert!(text.contains("Table 5  wang (RSA, AES)"), "{text}");
    assert!(text.contains("26 of 30 printed cells reproduced"), "{text}");
    assert!(text.contains("lines cross at n = 7.01") && text.contains("lines cross at n = 11.86"));
    assert!(
        text.contains("DOES NOT HOLD"),
        "the corrected Fig. 2 crossover is reported"
    );
    assert!(text.contains("802.11p 6 Mbit/s, 250 m per hop") && text.contains("today as (DSA-2048"));
    for f in [
        "inputs.toml",
        "costs.toml",
        "summary.json",
        "tables.csv",
        "lines.csv",
        "steps.csv",
        "crossovers.csv",
        "sweep.csv",
        "report.html",
        "fig1.svg",
        "fig2.svg",
        "fig3.svg",
        "fig4.svg",
        "fig5.svg",
        "today-wang-6mbps.svg",
        "today-raya-hubaux-6mbps.svg",
    ] {
        let p = out.join(f);
        assert!(p.exists(), "{f} missing");
        if f.ends_with(".svg") {
            let svg = std::fs::read_to_string(&p).unwrap();
            assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"), "{f}");
            assert!(
                svg.contains("Number of nodes n") && svg.contains("Security cost (ms)"),
                "{f}"
            );
        }
    }
    let s = json(&out.join("summary.json"));
    assert_eq!(s["paper_id"], "003");
    assert_eq!(s["hops"], 12);
    assert_eq!(s["paper"]["cells"].as_array().unwrap().len(), 30);
    assert_eq!(s["paper"]["reproduced"], 26);
    assert_eq!(s["paper"]["crossovers"].as_array().unwrap().len(), 3);
    assert_eq!(s["paper"]["deviations"].as_array().unwrap().len(), 2);
    let radios = s["today"]["radios"].as_array().unwrap();
    assert_eq!(radios.len(), 1);
    assert_eq!(radios[0]["radio"]["kind"], "802.11p");
    assert!(s["files"].as_array().unwrap().iter().any(|f| f == "report.html"));
    // Cost at 12 hops = a * 13 + b for every line.
    for l in s["paper"]["lines"].as_array().unwrap() {
        let (a, b, c) = (
            l["a"].as_f64().unwrap(),
            l["b"].as_f64().unwrap(),
            l["cost_at_hops_ms"].as_f64().unwrap(),
        );
        assert!((a * 13.0 + b - c).abs() < 1e-9);
    }
    let tables = std::fs::read_to_string(out.join("tables.csv")).unwrap();
    assert_eq!(tables.lines().count(), 31, "header + 30 cells");
    assert!(tables
        .lines()
        .next()
        .unwrap()
        .starts_with("table,row,column,paper,model,difference,corrected"));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(
        html.matches("<svg").count() >= 7,
        "five paper figures and two of today's"
    );
    assert!(
        !html.contains("src=") && !html.contains("href="),
        "self-contained: nothing to fetch"
    );
    let inputs = std::fs::read_to_string(out.join("inputs.toml")).unwrap();
    assert!(inputs.contains("hops = 12") && inputs.contains("rate_mbps = 11.0") && inputs.contains("rate_mbps = 6.0"));

    // costs.toml reloads and gives the same lines.
    let again = v2x(&[
        "model",
        "--rate",
        "6",
        "--hops",
        "12",
        "--json",
        "--costs",
        out.join("costs.toml").to_str().unwrap(),
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&again)).unwrap();
    assert_eq!(j["today"]["radios"][0]["best"], s["today"]["radios"][0]["best"]);
    assert_eq!(
        j["today"]["radios"][0]["crossovers"],
        s["today"]["radios"][0]["crossovers"]
    );
}

#[test]
fn example_cost_file_through_today_gives_the_corrected_paper() {
    // The example holds the paper's inputs: on the paper's radio the "today" lines must be
    // the paper's corrected lines.
    let o = v2x(&[
        "model",
        "--costs",
        repo("scenarios/papers/003-costs-example.toml").to_str().unwrap(),
        "--radio",
        "ideal",
        "--rate",
        "11",
        "--json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let corrected: Vec<_> = j["paper"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["reading"] == "corrected")
        .collect();
    let today = j["today"]["radios"][0]["evaluations"].as_array().unwrap();
    assert_eq!(today.len(), corrected.len());
    for l in corrected {
        let t = today
            .iter()
            .find(|e| {
                e["combination"]["scheme"] == l["scheme"]
                    && e["combination"]["topology"] == l["topology"]
                    && e["label"] == l["label"]
            })
            .unwrap();
        assert!((t["line"]["a"].as_f64().unwrap() - l["a"].as_f64().unwrap()).abs() < 1e-9);
        assert!((t["line"]["b"].as_f64().unwrap() - l["b"].as_f64().unwrap()).abs() < 1e-9);
    }
}

#[test]
fn measure_quick_times_this_machine() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let text = stdout(&v2x(&[
        "model",
        "--measure",
        "--quick",
        "--no-progress",
        "--rate",
        "12",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(text.contains("Today: cost set `this-machine`"), "{text}");
    let costs = std::fs::read_to_string(out.join("costs.toml")).unwrap();
    for s in ["ecdsa-p256", "rsa-1024", "rsa-2048", "rsa-3072", "dsa-1024", "dsa-2048"] {
        assert!(costs.contains(&format!("[signatures.{s}]")), "{s}");
    }
    for c in [
        "aes-128-ccm",
        "ecies-p256",
        "rsa-1024-oaep",
        "rsa-2048-oaep",
        "rsa-3072-oaep",
    ] {
        assert!(costs.contains(&format!("[ciphers.{c}]")), "{c}");
    }
    let m = std::fs::read_to_string(out.join("measurements.csv")).unwrap();
    assert!(m.lines().count() > 30, "{m}");
    assert!(m.contains("ecdsa-p256,verify,1024"));
}

#[test]
fn unknown_names_exit_2_and_list_the_valid_ones() {
    let err = |args: &[&str]| {
        let o = v2x(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(err(&["model", "--paper", "004"]).contains("valid: 003"));
    assert!(err(&["model", "--radio", "wifi"]).contains("ideal, 802.11p, c-v2x"));
    assert!(err(&["model", "--rate", "11"]).contains("valid: 3, 4.5, 6, 9, 12, 18, 24, 27"));
    assert!(err(&["model", "--radio", "c-v2x"]).contains("needs --rate"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    let example = std::fs::read_to_string(repo("scenarios/papers/003-costs-example.toml")).unwrap();
    std::fs::write(&bad, example.replace("data_cipher = \"aes\"", "data_cipher = \"des\"")).unwrap();
    let e = err(&["model", "--costs", bad.to_str().unwrap()]);
    assert!(
        e.contains("unknown cipher `des`") && e.contains("valid: aes, ecc, rsa"),
        "{e}"
    );
    std::fs::write(&bad, "name = 1\n").unwrap();
    assert!(err(&["model", "--costs", bad.to_str().unwrap()]).contains("bad.toml"));
    assert!(err(&["model", "--costs", "/nonexistent/costs.toml"]).contains("cannot read"));
}

#[test]
fn relay_chain_sets_the_closed_form_beside_the_simulation() {
    let o = v2x(&["model", "--relay-chain", "ecdsa-p256", "--rate", "6", "--hops", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Relay chain, ecdsa-p256 6 Mbit/s"))
        .skip(2)
        .take(3)
        .collect();
    assert_eq!(table.len(), 3, "{out}");
    for (k, line) in table.iter().enumerate() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cols[0], (k + 1).to_string());
        let (closed, simulated): (f64, f64) = (cols[1].parse().unwrap(), cols[2].parse().unwrap());
        // The simulator adds air-time overhead (and AIFS at fast relays), never less.
        assert!(simulated > closed && simulated < closed * 1.2, "{line}");
        assert_eq!(cols[4], "10/10", "{line}");
    }
    let o = v2x(&["model", "--relay-chain", "ecdsa", "--rate", "6", "--hops", "3"]);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("unknown signature algorithm `ecdsa`") && e.contains("ecdsa-p256"),
        "{e}"
    );
    let o = v2x(&[
        "model",
        "--relay-chain",
        "ecdsa-p256",
        "--radio",
        "ideal",
        "--rate",
        "11",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("802.11p"));
}
