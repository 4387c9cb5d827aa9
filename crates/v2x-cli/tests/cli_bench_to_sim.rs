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

    // One scenario, one variant per protocol, costs and sizes all from the profile.
    let mut sc = String::from(
        "name = \"bench-to-sim\"\nduration_s = 1.5\nwarmup_s = 0.5\nseed = 3\n\
         [mobility]\nkind = \"highway\"\nlength_m = 600.0\nlanes_per_direction = 2\ndensity_veh_per_km_lane = 10.0\n",
    );
    for p in PROTOCOLS {
        sc.push_str(&format!(
            "[[variant]]\nname = \"{p}\"\nprotocol = \"{p}\"\nprofile = \"bench/profile.json\"\n"
        ));
    }
    let file = dir.path().join("bench-to-sim.toml");
    std::fs::write(&file, sc).unwrap();
    let out = dir.path().join("sim");
    let o = v2x_command()
        .args(["sim", file.to_str().unwrap(), "--quiet", "--out"])
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
    assert_eq!(variants[0]["security"]["sizes"]["certificate"]["policy"], "interval");
    let resolved = std::fs::read_to_string(out.join("resolved.toml")).unwrap();
    assert!(resolved.contains("profile.json"), "{resolved}");
}
