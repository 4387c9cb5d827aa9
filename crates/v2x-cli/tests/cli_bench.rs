//! `v2x bench --quick`: every output file is written, with consistent statistics.
//! (Checks structure and internal consistency, never speed.)

mod common;
use common::{json as read_json, v2x_command};

fn f(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} missing in {v}"))
}

#[test]
fn quick_bench_writes_every_output_with_consistent_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bench");
    let json = dir.path().join("whole.json");
    let o = v2x_command()
        .args(["bench", "--quick", "--suite", "all", "--no-progress", "--out"])
        .arg(&out)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert!(o.status.success());
    // No row is left unmeasured because the stack refused the suite's own messages (the
    // DENM rows were, once the SSP check failed closed on their random payloads).
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("rejected a message it should accept"), "{stderr}");

    for name in v2x_bench::output::FILES {
        let p = out.join(name);
        let meta = std::fs::metadata(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(meta.len() > 0, "{name} is empty");
    }

    // The whole result, in both places, with a headline measured in this run.
    let r = read_json(&json);
    assert_eq!(r, read_json(&out.join("results.json")));
    let h = &r["headline"];
    for key in [
        "decap_vs_raw_verify",
        "encap_vs_raw_sign",
        "all_cores_vs_one_core",
        "hash_chain_verify_per_sec",
    ] {
        let v = f(h, key);
        assert!(v.is_finite() && v > 0.0, "{key} = {v}");
    }

    // Every measurement: min <= median <= p99 <= max, CI contains the mean, ops/s = 1e6/mean.
    let ms = r["measurements"].as_array().unwrap();
    assert!(ms.len() > 30, "only {} measurements", ms.len());
    for suite in ["raw", "stack", "protocols", "breakdown"] {
        assert!(ms.iter().any(|m| m["suite"] == suite), "no {suite} measurement");
    }
    for m in ms {
        let l = &m["latency"];
        let (min, med, p99, max, mean) = (
            f(l, "min_us"),
            f(l, "median_us"),
            f(l, "p99_us"),
            f(l, "max_us"),
            f(l, "mean_us"),
        );
        assert!(min > 0.0 && min <= med && med <= p99 && p99 <= max, "{m}");
        assert!(f(l, "ci95_low_us") <= mean && mean <= f(l, "ci95_high_us"), "{m}");
        let ops = f(m, "ops_per_sec");
        assert!((ops - 1e6 / mean).abs() <= 1e-6 * ops, "{m}");
        assert!(min <= mean && mean <= max, "{m}");
        let q = l["quantiles"].as_array().unwrap();
        assert!(q.windows(2).all(|w| w[0][1].as_f64() <= w[1][1].as_f64()), "{m}");
    }
    // Both standard formats and every level of the stack were measured.
    for protocol in ["ieee1609.2", "etsi-v1.2.1"] {
        for level in ["sign", "encrypt", "sign+encrypt"] {
            for op in ["encap", "decap"] {
                assert!(
                    ms.iter()
                        .any(|m| m["protocol"] == protocol && m["level"] == level && m["operation"] == op),
                    "{protocol} {level} {op} missing"
                );
            }
        }
    }
    // The post-quantum suite: every design's ENCAP and DECAP through the Authenticator, each
    // with its ratio to the P-256 adapter from the same run, and the designs' sizes.
    let pq = &r["pq"];
    let stack = pq["stack"].as_array().unwrap();
    assert_eq!(stack.len(), 20, "5 designs x 2 certificate policies x encap/decap");
    for row in stack {
        let ratio = &row["time_vs_p256"];
        assert!(
            f(ratio, "median") > 0.0 && row["reference"].as_str().unwrap().starts_with("ieee1609.2/"),
            "{row}"
        );
        let key = row["key"].as_str().unwrap();
        assert!(
            ms.iter()
                .any(|m| m["suite"] == "pq" && key.starts_with(m["protocol"].as_str().unwrap())),
            "{key}"
        );
    }
    assert!(pq["schemes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["scheme"] == "ml-dsa-44"));
    assert!(r["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["protocol"] == "experimental-partially-hybrid-ndss2024"));

    // Overhead = packet - payload where both are known.
    for m in ms.iter().filter(|m| m["overhead_bytes"].is_u64()) {
        assert_eq!(
            m["overhead_bytes"].as_u64().unwrap() + m["payload_bytes"].as_u64().unwrap(),
            m["packet_bytes"].as_u64().unwrap()
        );
    }

    // Scaling rows have both sides.
    let scaling = r["scaling"].as_array().unwrap();
    assert!(scaling.iter().any(|s| s["kind"] == "raw") && scaling.iter().any(|s| s["kind"] == "stack"));

    // The processor profile validates and holds every measurement.
    let profile = v2x_profile::ProcessorProfile::load(&out.join("profile.json")).unwrap();
    assert_eq!(profile.costs.len(), ms.len());
    let p256 = "p256".parse().unwrap();
    assert!(profile
        .require(v2x_profile::ProtocolId::Raw, v2x_profile::Operation::Verify, &p256)
        .is_ok());
    assert!(matches!(profile.source, v2x_profile::ProfileSource::Measured { .. }));

    // Comparison tables for the four papers, with some values of ours beside theirs.
    let cmp = r["comparisons"].as_array().unwrap();
    for p in ["000", "001", "002", "004"] {
        let t = cmp
            .iter()
            .find(|t| t["paper"] == p)
            .unwrap_or_else(|| panic!("paper {p}"));
        assert!(
            t["rows"].as_array().unwrap().iter().any(|row| row["ours"].is_f64()),
            "paper {p} has no comparison"
        );
    }
    let md = std::fs::read_to_string(out.join("comparison.md")).unwrap();
    assert!(md.contains("## Paper 002") && md.contains("Table 3.2"));

    // CSV: a header and one row per measurement.
    let csv = std::fs::read_to_string(out.join("measurements.csv")).unwrap();
    assert_eq!(csv.lines().count(), ms.len() + 1);
    assert!(csv.starts_with("suite,protocol,operation,variant"));

    // SVG and HTML are complete documents; the report embeds the plots.
    for svg in ["ops_per_sec.svg", "latency_per_curve.svg", "overhead.svg"] {
        let s = std::fs::read_to_string(out.join(svg)).unwrap();
        assert!(
            s.contains("<svg") && s.trim_end().ends_with("</svg>") && s.contains("<rect"),
            "{svg}"
        );
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<svg") && html.trim_end().ends_with("</html>"));
    assert!(!html.contains("src=\"http"), "the report must be self-contained");
}

#[test]
fn rejects_unknown_suite() {
    let out = v2x_command()
        .args(["bench", "--quick", "--suite", "raw,bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bogus"));
}

#[test]
fn single_suite_runs_alone() {
    let dir = tempfile::tempdir().unwrap();
    let status = v2x_command()
        .args(["bench", "--quick", "--suite", "raw", "--trials", "2", "--out"])
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let r = read_json(&dir.path().join("results.json"));
    assert_eq!(r["suites"], serde_json::json!(["raw"]));
    assert!(r["measurements"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["suite"] == "raw"));
    assert!(r["scaling"].as_array().unwrap().is_empty());
}

/// `--suite pq` alone: every design's bytes on air and ENCAP / DECAP rows, every scheme row,
/// each paired with P-256 from the same run, in results.json and results.md. Sizes are
/// checked against the published parameter sets (FIPS 204 ML-DSA-44: 1312 B public key,
/// 2420 B signature; Falcon-512 / FN-DSA-512: 897 B public key, at most 666 B signature).
#[test]
fn pq_suite_runs_alone_and_pairs_every_design_with_p256() {
    let dir = tempfile::tempdir().unwrap();
    let status = v2x_command()
        .args(["bench", "--quick", "--suite", "pq", "--trials", "3", "--out"])
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let r = read_json(&dir.path().join("results.json"));
    assert_eq!(r["suites"], serde_json::json!(["pq"]));
    let ms = r["measurements"].as_array().unwrap();
    assert!(!ms.is_empty() && ms.iter().all(|m| m["suite"] == "pq"));
    let pq = &r["pq"];

    // Bytes on air: the digest form signs with the message scheme, the certificate form
    // carries the ticket in place of the 8-byte digest.
    let designs = pq["designs"].as_array().unwrap();
    let names: Vec<&str> = designs.iter().map(|d| d["design"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "experimental-pq-only-ml-dsa-44",
            "experimental-pq-only-fn-dsa-512",
            "experimental-composite-ml-dsa-44",
            "experimental-composite-fn-dsa-512",
            "experimental-partially-hybrid-ndss2024"
        ]
    );
    let std_digest = pq["standard_cam_digest_bytes"].as_u64().unwrap();
    let n = |d: &serde_json::Value, k: &str| d[k].as_u64().unwrap();
    for d in designs {
        let (digest, with_cert, cert) = (
            n(d, "digest_message_bytes"),
            n(d, "certificate_message_bytes"),
            n(d, "certificate_bytes"),
        );
        let extra = with_cert - digest;
        assert!(cert - 8 <= extra && extra <= cert + 8, "{d}");
        let sig = match d["message_scheme"].as_str().unwrap() {
            "ml-dsa-44" => 2420..=2420,
            "ecdsa-p256+ml-dsa-44" => 2484..=2484,
            "fn-dsa-512" => 600..=666,
            "ecdsa-p256+fn-dsa-512" => 664..=730,
            "ecdsa-p256" => 64..=64,
            other => panic!("unexpected message scheme {other}"),
        };
        // Beside the signature, the message (headers, payload, digest) is the standard
        // one's (64-byte ECDSA signature) plus at most 16 B of design octet and tags.
        let beside_signature = |s: u64| digest as i64 - s as i64 - (std_digest as i64 - 64);
        assert!(
            beside_signature(*sig.end()) <= 16 && beside_signature(*sig.start()) >= 0,
            "{d}"
        );
    }
    let hybrid = &designs[4];
    assert!(n(hybrid, "digest_message_bytes") <= std_digest + 8, "{hybrid}");

    // Schemes: published sizes, and P-256 paired with itself is 1.
    let schemes = pq["schemes"].as_array().unwrap();
    let row = |s: &str, b: &str| {
        schemes
            .iter()
            .find(|x| x["scheme"] == s && x["backend"].as_str().unwrap().contains(b))
            .unwrap_or_else(|| panic!("no {s} on {b}"))
    };
    for b in ["aws-lc", "rustcrypto"] {
        let m = row("ml-dsa-44", b);
        assert_eq!((n(m, "public_key_bytes"), n(m, "signature_bytes")), (1312, 2420));
    }
    let fn512 = row("fn-dsa-512", "");
    assert_eq!(n(fn512, "public_key_bytes"), 897);
    assert!(n(fn512, "signature_bytes") <= 666);
    // SLH-DSA (FIPS 205), for reference: 32-byte public keys, 7,856 / 17,088-byte signatures,
    // timed like the others (signing far slower than verifying).
    for (s, sig) in [("slh-dsa-sha2-128s", 7856), ("slh-dsa-shake-128f", 17088)] {
        let m = row(s, "slh-dsa");
        assert_eq!((n(m, "public_key_bytes"), n(m, "signature_bytes")), (32, sig), "{m}");
        assert!(f(&m["sign"], "median_us") > 5.0 * f(&m["verify"], "median_us"), "{m}");
    }
    for s in schemes {
        for k in ["sign_vs_p256", "verify_vs_p256"] {
            let ratio = &s[k];
            let (lo, hi) = (ratio["ci95"][0].as_f64().unwrap(), ratio["ci95"][1].as_f64().unwrap());
            assert!(lo <= f(ratio, "median") && f(ratio, "median") <= hi && lo > 0.0, "{s}");
        }
    }

    // ENCAP / DECAP through the Authenticator: each design, both certificate policies, each
    // paired with the ieee1609.2 P-256 adapter; the sizes are the designs' own.
    let stack = pq["stack"].as_array().unwrap();
    assert_eq!(stack.len(), 20);
    for d in designs {
        let name = d["design"].as_str().unwrap();
        for (key, bytes) in [
            (format!("{name}/encap/cam/100"), n(d, "digest_message_bytes")),
            (
                format!("{name}/decap/cam/certificate/100"),
                n(d, "certificate_message_bytes"),
            ),
        ] {
            let s = stack
                .iter()
                .find(|s| s["key"] == key.as_str())
                .unwrap_or_else(|| panic!("no {key}"));
            assert!(s["reference"].as_str().unwrap().starts_with("ieee1609.2/"), "{s}");
            assert_eq!(s["packet_bytes"].as_u64(), Some(bytes), "{s}");
            // The P-256 reference of both tables is one message: the adapter's ticket.
            let standard = if key.contains("/certificate/") {
                "standard_cam_certificate_bytes"
            } else {
                "standard_cam_digest_bytes"
            };
            assert_eq!(s["reference_packet_bytes"], pq[standard], "{s}");
            let t = f(&s["time_vs_p256"], "median");
            let expect = f(s, "median_us") / f(s, "reference_median_us");
            assert!(t > 0.0 && (t / expect).ln().abs() < 1.0, "{s}");
        }
    }

    // The report shows both tables.
    let md = std::fs::read_to_string(dir.path().join("results.md")).unwrap();
    assert!(md.contains("## Post-quantum schemes and designs (paired with P-256)"));
    for name in names {
        assert!(md.contains(&format!("| {name} |")), "{name} row in results.md");
        assert!(md.contains(&format!("| `{name}/decap/cam/100` |")), "{name} DECAP row");
    }
}
