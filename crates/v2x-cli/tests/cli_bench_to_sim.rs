//! Bench -> profile -> simulator, end to end: `v2x bench --quick --suite stack,protocols`
//! measures this machine, then `v2x sim` runs every shipped broadcast protocol from that
//! `profile.json`, and the results say which measured costs and sizes each run used.

mod common;
use common::{json, v2x_command};

const PROTOCOLS: [&str; 6] = [
    "ieee1609.2",
    "etsi-v1.2.1",
    "tesla",
    "tesla-attached",
    "hash-chain",
    "2flip",
];

#[test]
fn measured_profile_drives_every_protocol_in_the_simulator() {
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("bench");
    let o = v2x_command()
        .args([
            "bench",
            "--quick",
            "--suite",
            "stack,protocols",
            "--no-progress",
            "--out",
        ])
        .arg(&bench)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let profile = json(&bench.join("profile.json"));
    assert_eq!(profile["name"], "this-host");
    assert_eq!(profile["source"]["kind"], "measured");

    // The shipped scenario, one variant per protocol, costs and sizes all from the profile.
    let shipped = std::fs::read_to_string(common::repo("scenarios/measured-profile.toml")).unwrap();
    let sc = shipped.replace("../out/bench/profile.json", "bench/profile.json");
    let file = dir.path().join("measured-profile.toml");
    std::fs::write(&file, sc).unwrap();
    let out = dir.path().join("sim");
    let o = v2x_command()
        .args(["sim", file.to_str().unwrap(), "--quiet", "--duration", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let summary = json(&out.join("summary.json"));
    let costs = profile["costs"].as_array().unwrap();
    let sizes = profile["sizes"].as_array().unwrap();
    let variants = summary["variants"].as_array().unwrap();
    assert_eq!(variants.len(), PROTOCOLS.len());
    for (v, p) in variants.iter().zip(PROTOCOLS) {
        assert_eq!(v["protocol"], p);
        assert_eq!(v["profile"], "this-host");
        let used = v["security"]["costs"].as_array().unwrap();
        for (role, op) in [("verify", "decap"), ("sign", "encap")] {
            let c = used
                .iter()
                .find(|c| c["role"] == role)
                .unwrap_or_else(|| panic!("{p}: no {role}"));
            assert_eq!(c["source"], "profile this-host", "{p} {role}: {c}");
            let key = c["key"].as_str().unwrap();
            assert!(key.starts_with(&format!("{p}/{op}/")), "{p} {role} uses {key}");
            // The very cost the bench measured.
            let measured = costs
                .iter()
                .find(|m| {
                    format!(
                        "{}/{}/{}",
                        m["protocol"].as_str().unwrap(),
                        m["operation"].as_str().unwrap(),
                        m["variant"].as_str().unwrap()
                    ) == key
                })
                .unwrap_or_else(|| panic!("{key} not in profile.json"));
            assert_eq!(c["mean_us"], measured["latency"]["mean_us"], "{key}");
        }
        // Sizes from the protocol's describe(), as the profile carries them.
        let s = &v["security"]["sizes"];
        assert_eq!(s["source"], "profile this-host (measured)", "{p}: {s}");
        let entry = sizes
            .iter()
            .find(|e| e["protocol"] == p)
            .unwrap_or_else(|| panic!("{p}: no sizes"));
        assert_eq!(s["overhead_bytes"], entry["overhead_bytes"], "{p}");
        if let Some(k) = entry["key_disclosure"]["key_packet_bytes"].as_u64() {
            // Key packets become whole frames: + 36 B of MAC/LLC overhead (the default).
            assert_eq!(s["tesla_key_frame_bytes"].as_u64(), Some(k + 36), "{p}");
        }
        // Messages were generated, received and verified with those costs.
        assert!(v["cams_generated"].as_u64().unwrap() > 0, "{p}");
        let pdr = v["pdr_application"]["mean"].as_f64().unwrap();
        assert!(pdr > 0.0 && pdr <= 1.0, "{p}: verified PDR {pdr}");
    }
    let key_of = |i: usize| variants[i]["security"]["costs"][0]["key"].as_str().unwrap().to_string();
    assert_eq!(key_of(0), "ieee1609.2/decap/p256/cam/sign/digest/100");
    assert_eq!(key_of(1), "etsi-v1.2.1/decap/p256/cam/sign/digest/100");
    assert_eq!(key_of(2), "tesla/decap/paper004/100");
    assert_eq!(key_of(3), "tesla-attached/decap/paper004/100");
    // Issue 28: the defaults that chose a cost are in the summary, and TESLA attached,
    // with a deadline above its key delay, verifies most of what the radio delivers.
    // The shipped ieee1609.2 variant names its row; etsi-v1.2.1 leaves it to the defaults.
    let chosen_by = |i: usize| {
        variants[i]["security"]["costs"][0]["chosen_by"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(chosen_by(0), "scenario");
    let chosen = chosen_by(1);
    assert!(chosen.starts_with("default: curve p256"), "{chosen}");
    let attached = &variants[3];
    let ratio =
        attached["pdr_application"]["mean"].as_f64().unwrap() / attached["pdr_network"]["mean"].as_f64().unwrap();
    assert!(ratio > 0.5, "TESLA attached verifies {ratio} of what it receives");
    let settings = attached["security"]["settings"].as_array().unwrap();
    assert!(
        settings
            .iter()
            .any(|s| s["name"] == "key_delay_ms" && s["value"] == "100"),
        "{settings:?}"
    );
    assert_eq!(variants[0]["security"]["sizes"]["certificate"]["policy"], "interval");
    let resolved = std::fs::read_to_string(out.join("resolved.toml")).unwrap();
    assert!(resolved.contains("profile.json"), "{resolved}");
}
