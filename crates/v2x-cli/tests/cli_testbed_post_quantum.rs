//! End-to-end: `v2x testbed` runs the EXPERIMENTAL post-quantum designs (issue 32) — each
//! station process signs and verifies every CAM with the design's real SN-ENCAP / SN-DECAP
//! from its own ticket deployed beside the run's PKI; a classical-only signer is refused as
//! `downgrade-refused`; through the channel emulator a message over one 802.11p MSDU never
//! goes on the air and is counted as `refused-oversize`.

use std::path::Path;

mod common;
use common::repo;

/// Testbed runs measure delivery: one at a time within this test binary.
static ONE_RUN_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn exclusive() -> std::sync::MutexGuard<'static, ()> {
    ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn run(scenario: &Path, out: &Path) -> serde_json::Value {
    let o = common::testbed_command(scenario, out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let survivors = common::processes_naming(out, &["station", "channel-emulator"]);
    assert!(survivors.is_empty(), "orphans: {survivors:?}");
    common::json(&out.join("summary.json"))
}

/// Lengths of the benign data packets `station` sent (tx.csv).
fn sent_lengths(out: &Path, station: &str) -> Vec<usize> {
    let tx = std::fs::read_to_string(out.join("tx.csv")).unwrap();
    let mut lines = tx.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (station_col, case_col, bytes_col) = (col("station"), col("case"), col("bytes"));
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[station_col] == station && r[case_col] == "benign")
        .map(|r| r[bytes_col].parse().unwrap())
        .collect()
}

/// The example: the partially hybrid design, three senders, a classical-downgrade attacker.
#[test]
fn partially_hybrid_stations_verify_every_cam_and_refuse_the_classical_signer() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let s = run(&repo("scenarios/testbed/post-quantum.toml"), &out);
    let rx = &s["receivers"]["rx0"];
    let benign = &rx["benign"];
    // 3 senders × 10 Hz × 3 s.
    assert_eq!(benign["sent"], 90, "{benign}");
    assert_eq!(benign["accepted"], 90, "{benign}");
    assert!(benign["e2e"]["p50_us"].as_u64().unwrap() > 0, "{benign}");
    let attack = &rx["classical-downgrade"];
    assert_eq!(attack["sent"], 30, "{attack}");
    assert_eq!(attack["accepted"], 0, "{attack}");
    assert_eq!(attack["reasons"]["downgrade-refused"], 30, "{attack}");
    // Each station's ticket of the design on disk, its key private.
    let design = out.join("pki/experimental-pq/experimental-partially-hybrid-ndss2024");
    for station in ["rx0", "tx0", "tx1", "tx2"] {
        let key = design.join(format!("stations/{station}/ticket-0000.key"));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{}", key.display());
    }
    // The design's messages: an ECDSA signature with a digest (the once-a-second CAM rule),
    // the ticket signed with ECDSA P-256 + FN-DSA-512 (over 700 octets) once a second.
    let lengths = sent_lengths(&out, "tx0");
    let with_certificate = lengths.iter().filter(|&&n| n > 700).count();
    assert!((3..=4).contains(&with_certificate), "{lengths:?}");
    assert!(lengths.iter().any(|&n| n < 300), "{lengths:?}");
}

/// ML-DSA-44 alone: on loopback its 2,420-octet signatures travel (one UDP datagram each);
/// corrupted, replayed and stale CAMs are refused with their reasons; through the emulator's
/// 802.11p every message is over one MSDU, refused before the air and counted, and the
/// receiver reports all of it lost.
#[test]
fn ml_dsa_44_crosses_loopback_but_not_one_80211p_msdu() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("ml-dsa-44.toml");
    std::fs::write(
        &scenario,
        "duration_s = 2.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"experimental-pq\"\n\
         design = \"experimental-pq-only-ml-dsa-44\"\n[[attackers]]\ncase = \"A-SIG-01\"\nrate_hz = 10.0\n\
         [[attackers]]\ncase = \"A-SIG-05\"\nrate_hz = 10.0\n[[attackers]]\ncase = \"A-SIG-06\"\nrate_hz = 10.0\n",
    )
    .unwrap();
    let out = dir.path().join("loopback");
    let s = run(&scenario, &out);
    let rx = &s["receivers"]["rx0"];
    assert_eq!(rx["benign"]["sent"], 40, "{}", rx["benign"]);
    assert_eq!(rx["benign"]["accepted"], 40, "{}", rx["benign"]);
    for (case, reason) in [
        ("A-SIG-01", "false-signature"),
        ("A-SIG-05", "duplicate-message"),
        ("A-SIG-06", "stale-message"),
    ] {
        assert_eq!(rx[case]["accepted"], 0, "{case}: {}", rx[case]);
        assert_eq!(rx[case]["reasons"][reason], 20, "{case}: {}", rx[case]);
    }
    assert!(sent_lengths(&out, "tx0").iter().all(|&n| n > 2420));

    let out = dir.path().join("emulator");
    let s = run(&repo("scenarios/testbed/post-quantum-emulator.toml"), &out);
    let benign = &s["receivers"]["rx0"]["benign"];
    // 2 senders × 10 Hz × 3 s, none on the air.
    assert_eq!(benign["sent"], 60, "{benign}");
    assert_eq!(benign["network_lost"], 60, "{benign}");
    let links = s["links"].as_array().unwrap();
    assert_eq!(links.len(), 2, "{links:?}");
    for l in links {
        assert_eq!(l["sent"], 30, "{l}");
        assert_eq!(l["channel"]["refused_oversize"], 30, "{l}");
        assert_eq!(l["received"], 0, "{l}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("refused oversize"), "{report}");
}

/// What an experimental design cannot run is refused before any process starts, with why.
#[test]
fn what_a_design_cannot_stage_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    let pq = "protocol = \"experimental-pq\"\ndesign = \"experimental-pq-only-fn-dsa-512\"";
    let attacker = |case: &str| format!("[[attackers]]\ncase = \"{case}\"\nrate_hz = 10.0\n");
    for (protocol, rest, says) in [
        (
            "protocol = \"ieee1609.2\"",
            attacker("classical-downgrade"),
            "needs protocol = \"experimental-pq\"",
        ),
        (
            pq,
            attacker("A-CER-03"),
            "A-CER-03 needs tickets the experimental post-quantum PKI does not issue",
        ),
        (
            pq,
            "[pki_service]\n".to_string(),
            "the PKI service issues 1609.2 tickets",
        ),
    ] {
        std::fs::write(
            &bad,
            format!("duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\n{protocol}\n{rest}"),
        )
        .unwrap();
        let o = common::testbed_command(&bad, &dir.path().join("o")).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{rest}: {err}");
        assert!(err.contains(says), "{rest}: {err}");
    }
}
