//! End-to-end `v2x reproduce --quick`: one report for every paper, every published value
//! beside ours with a difference and a reason where they differ, the conclusions with their
//! evidence, and the model and simulator folders behind them.

mod common;
use common::{json, v2x};

#[test]
fn quick_reproduction_writes_one_report_for_every_paper() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = v2x(&["reproduce", "--quick", "--no-progress", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    for p in ["000", "001", "002", "003", "004"] {
        assert!(text.contains(&format!("paper {p}: ")), "{text}");
    }

    let r = json(&out.join("report.json"));
    assert_eq!(r["quick"], true);
    let rows = r["rows"].as_array().unwrap();
    for p in ["000", "001", "002", "003", "004"] {
        assert!(rows.iter().any(|x| x["paper"] == p), "no row for paper {p}");
    }
    for x in rows {
        assert!(x["paper_value"].as_f64().unwrap().is_finite(), "{x}");
        assert!(!x["source"].as_str().unwrap().is_empty(), "{x}");
        match x["verdict"].as_str().unwrap() {
            "differs" => {
                assert!(x["ours"].as_f64().is_some(), "{x}");
                assert!(
                    !x["reason"].as_str().unwrap().is_empty(),
                    "a difference without a reason: {x}"
                );
            }
            "reproduced" => assert!(x["ours"].as_f64().is_some(), "{x}"),
            "not-compared" => assert!(!x["reason"].as_str().unwrap().is_empty(), "{x}"),
            v => panic!("unknown verdict {v}"),
        }
    }

    // Paper 003: the model reproduces Table 4 to the printed precision.
    let t4: Vec<_> = rows
        .iter()
        .filter(|x| x["paper"] == "003" && x["source"] == "Table 4")
        .collect();
    assert!(!t4.is_empty());
    assert!(t4.iter().all(|x| x["verdict"] == "reproduced"), "{t4:?}");

    // Paper 000 Sec. 5: every simulated value of Figs. 15-19 and Table 7 has ours, from the
    // scenario, with its location in the paper.
    for src in ["Fig. 15", "Fig. 16", "Fig. 17", "Fig. 18", "Fig. 19", "Table 7"] {
        let sim: Vec<_> = rows
            .iter()
            .filter(|x| x["paper"] == "000" && x["source"] == src)
            .collect();
        assert!(!sim.is_empty(), "no {src} row");
        for x in sim {
            let v = x["ours"].as_f64().unwrap_or_else(|| panic!("no simulated value: {x}"));
            assert!(v >= 0.0, "{x}");
            if x["unit"] == "" {
                assert!(v <= 1.0, "a fraction above 1: {x}");
            }
            assert!(x["location"].as_str().unwrap().contains("Sec. 5"), "{x}");
        }
    }
    // The security variants lose CAMs the baseline does not (the paper's premise).
    let pdr = |variant: &str| {
        rows.iter()
            .find(|x| {
                x["item"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("[{variant} pdr_application]"))
            })
            .and_then(|x| x["ours"].as_f64())
            .unwrap()
    };
    assert!(pdr("ecdsa-xeon") < pdr("no-security"));

    let findings = r["findings"].as_array().unwrap();
    for p in ["000", "002", "003"] {
        assert!(
            findings.iter().any(|f| f["paper"] == p),
            "no conclusion checked for paper {p}"
        );
    }
    for f in findings {
        assert!(["holds", "contradicted", "inconclusive"].contains(&f["verdict"].as_str().unwrap()));
        assert!(!f["evidence"].as_str().unwrap().is_empty());
    }
    assert!(!r["not_done"].as_array().unwrap().is_empty());

    let csv = std::fs::read_to_string(out.join("report.csv")).unwrap();
    assert!(csv.starts_with("paper,source,location,item,unit,paper,ours,ours_ci95,difference,verdict,reason"));
    assert_eq!(csv.lines().count(), rows.len() + 1);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("Paper 000") && html.contains("Paper 003") && html.contains("<svg"));
    assert!(out.join("003/summary.json").exists());
    assert!(out.join("sim/000-table6/summary.json").exists());
}

#[test]
fn one_paper_only_and_unknown_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = v2x(&["reproduce", "--paper", "003", "--quick", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r = json(&out.join("report.json"));
    assert!(r["rows"].as_array().unwrap().iter().all(|x| x["paper"] == "003"));
    assert!(r["host"].is_null(), "paper 003 alone measures nothing");
    // The closed form beside the simulated relay chains: 4 chains x 10 hop counts.
    let relay: Vec<&serde_json::Value> = r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["source"] == "Sec. 3 relay chain")
        .collect();
    assert_eq!(relay.len(), 40);
    let idle = relay
        .iter()
        .find(|x| {
            x["item"]
                .as_str()
                .unwrap()
                .starts_with("paper DSA idle, 12 Mbit/s: 10 hop(s)")
        })
        .unwrap();
    let (closed, ours) = (idle["paper_value"].as_f64().unwrap(), idle["ours"].as_f64().unwrap());
    assert!(
        (closed - 106.7751).abs() < 1e-3 && ours > closed && ours - closed < 0.72,
        "{idle}"
    );
    assert_eq!(idle["verdict"], "reproduced");
    assert!(out.join("003-relay-chain.csv").exists() && out.join("paper003_relay_chain_paper-003.svg").exists());

    let o = v2x(&["reproduce", "--paper", "005", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("unknown paper `005`") && e.contains("000, 001, 002, 003, 004"),
        "{e}"
    );
}
