//! Issue 34 in the live testbed: senders enrol and obtain their tickets from a TS 102 941 PKI
//! service the orchestrator starts (`[pki_service]`), then exchange CAMs signed with them; and
//! what the stations do when the AA is slow, down or flooded.

use std::path::Path;

mod common;
use common::repo;

fn run(dir: &Path, name: &str, aa: &str, extra: &str) -> (serde_json::Value, serde_json::Value) {
    let text = std::fs::read_to_string(repo("").join("scenarios/testbed/pki-service.toml"))
        .unwrap()
        .replace("aa = \"normal\"", &format!("aa = \"{aa}\""))
        .replace("aa_delay_ms = 2000", extra);
    let scenario = dir.join(format!("{name}.toml"));
    std::fs::write(&scenario, text).unwrap();
    let out = dir.join(name);
    let o = common::testbed_command(&scenario, &out).output().unwrap();
    assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
    let read = |p: &Path| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    (
        read(&out.join("summary.json")),
        read(&out.join("pki-service").join("report.json")),
    )
}

#[test]
fn senders_use_tickets_from_the_service_and_a_missing_or_slow_or_flooded_aa_shows() {
    let dir = tempfile::tempdir().unwrap();
    // Normal: every sender gets its 4 tickets; the receiver accepts every CAM signed with them.
    let (s, r) = run(dir.path(), "normal", "normal", "aa_delay_ms = 2000");
    assert_eq!(r["without_tickets"].as_array().unwrap().len(), 0, "{r}");
    for sender in r["senders"].as_array().unwrap() {
        assert_eq!(sender["tickets"], 4, "{sender}");
        assert!(sender["enrol_ms"].as_f64().unwrap() > 0.0);
    }
    let benign = &s["receivers"]["rx0"]["benign"];
    assert_eq!(benign["sent"], 120, "{benign}");
    assert_eq!(benign["accepted"], 120, "{benign}");
    // Slow AA (300 ms per answer): every ticket comes, each at least 300 ms apart.
    let (_, r) = run(dir.path(), "slow", "slow", "aa_delay_ms = 300");
    for sender in r["senders"].as_array().unwrap() {
        assert_eq!(sender["tickets"], 4, "{sender}");
        assert!(sender["tickets_ms"].as_f64().unwrap() >= 4.0 * 300.0, "{sender}");
    }
    // AA down: no sender obtains a ticket, each gives up after its attempts, none is started.
    let (s, r) = run(dir.path(), "down", "down", "aa_delay_ms = 2000");
    assert_eq!(r["without_tickets"].as_array().unwrap().len(), 4, "{r}");
    for sender in r["senders"].as_array().unwrap() {
        assert_eq!(sender["tickets"], 0, "{sender}");
        assert!(
            sender["first_error"].as_str().unwrap().contains("aa/authorization"),
            "{sender}"
        );
    }
    // Nothing was sent (the receiver, with nothing received, has no table at all).
    assert_eq!(s["receivers"]["rx0"]["benign"]["sent"].as_u64().unwrap_or(0), 0, "{s}");
    // Flooded AA: the junk gets typed refusals (400) or is shed (503); the senders still get
    // their tickets (retrying when shed).
    let (_, r) = run(dir.path(), "flood", "flood", "aa_delay_ms = 2000");
    assert!(r["flood_sent"].as_u64().unwrap() > 0, "{r}");
    let answers = r["flood_answers"].as_object().unwrap();
    assert!(answers.keys().all(|k| k == "400" || k == "503"), "{r}");
    for sender in r["senders"].as_array().unwrap() {
        assert_eq!(sender["tickets"], 4, "{sender}");
    }
}
