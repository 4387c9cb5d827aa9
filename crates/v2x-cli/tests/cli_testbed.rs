//! End-to-end: `v2x testbed` starts real station processes on loopback (issue 14's CI case).

use std::path::Path;

mod common;
use common::{repo, v2x_command};

/// Testbed runs measure delivery under load: one at a time, so that one test's flood is
/// not another test's loaded machine.
static ONE_RUN_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn exclusive() -> std::sync::MutexGuard<'static, ()> {
    ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Station (and emulator) processes still alive whose command line names `dir`.
fn survivors(dir: &Path) -> Vec<String> {
    common::processes_naming(dir, &["station"])
}

#[test]
fn three_senders_and_an_invalid_signature_attacker_on_loopback() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = common::testbed_command(&repo("").join("scenarios/testbed/attack.toml"), &out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let rx = &s["receivers"]["rx0"];
    let benign = &rx["benign"];
    // 3 senders × 10 Hz × 3 s.
    assert_eq!(benign["sent"], 90, "{benign}");
    assert_eq!(benign["accepted"], 90, "zero benign loss: {benign}");
    assert_eq!(benign["consistent"], true);
    let attack = &rx["A-SIG-01"];
    assert_eq!(attack["sent"], 30, "{attack}");
    assert_eq!(attack["accepted"], 0, "{attack}");
    assert_eq!(attack["rejected"], 30, "every attack packet rejected: {attack}");
    assert_eq!(attack["reasons"]["false-signature"], 30, "with its reason: {attack}");
    assert_eq!(attack["consistent"], true);
    assert!(benign["e2e"]["p50_us"].as_u64().unwrap() > 0);
    // CPU and RSS of every process.
    for p in ["rx0", "tx0", "tx1", "tx2", "a-sig-01-0"] {
        assert!(
            s["processes"][p]["max_rss_kib"].as_u64().unwrap() > 0,
            "{p}: {}",
            s["processes"]
        );
    }
    assert!(out.join("report.md").exists());
    // The stations' logs merged into one table each, with a Parquet twin for pandas: the
    // receiver's rows of the 90 benign and 30 attack packets are all in rx.csv.
    let rx_csv = std::fs::read_to_string(out.join("rx.csv")).unwrap();
    let header = rx_csv.lines().next().unwrap();
    assert!(header.starts_with("station,src,digest,bytes,received_us"), "{header}");
    let rx0_rows = rx_csv.lines().filter(|l| l.starts_with("rx0,")).count();
    assert!(rx0_rows >= 120, "{rx0_rows} rows of rx0");
    // report.html with its figures: the goodput of both cases, the benign E2E CDF.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("A-SIG-01") && html.contains("false-signature: 30"),
        "report.html"
    );
    for f in ["goodput.svg", "e2e_latency_cdf.svg", "verification_time_cdf.svg"] {
        let svg = std::fs::read_to_string(out.join(f)).unwrap();
        assert!(svg.contains("rx0"), "{f} names the receiver");
    }
    for t in ["tx", "rx", "events"] {
        let p = std::fs::read(out.join(format!("{t}.parquet"))).unwrap();
        assert!(p.starts_with(b"PAR1") && p.ends_with(b"PAR1"), "{t}.parquet");
    }
    assert!(survivors(&out).is_empty(), "orphan stations: {:?}", survivors(&out));
}

/// A-SIG-03 (no security), A-SIG-06 (60 s old) and A-CER-03 (expired ticket): every packet
/// rejected with the reason of its case, benign traffic untouched.
#[test]
fn unsigned_stale_and_expired_certificate_attacks_are_rejected_with_their_reasons() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("cases.toml");
    let mut text =
        String::from("duration_s = 2.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n");
    for case in ["A-SIG-03", "A-SIG-06", "A-CER-03"] {
        text.push_str(&format!("[[attackers]]\ncase = \"{case}\"\nrate_hz = 10.0\n"));
    }
    std::fs::write(&scenario, text).unwrap();
    let out = dir.path().join("run");
    let o = common::testbed_command(&scenario, &out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let rx = &s["receivers"]["rx0"];
    assert_eq!(rx["benign"]["sent"], 40, "{}", rx["benign"]);
    assert_eq!(rx["benign"]["accepted"], 40, "{}", rx["benign"]);
    for (case, reason) in [
        ("A-SIG-03", "incompatible-protocol"),
        ("A-SIG-06", "stale-message"),
        ("A-CER-03", "certificate-expired"),
    ] {
        let c = &rx[case];
        assert_eq!(c["sent"], 20, "{case}: {c}");
        assert_eq!(c["accepted"], 0, "{case}: {c}");
        assert_eq!(c["reasons"][reason], 20, "{case} rejected as {reason}: {c}");
    }
    assert!(survivors(&out).is_empty(), "orphan stations: {:?}", survivors(&out));
}

#[test]
fn bad_scenarios_get_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\nfoo = 3\n[protocol]\nprotocol = \"ieee1609.2\"\n",
    )
    .unwrap();
    let o = v2x_command()
        .args(["testbed", "--out"])
        .arg(dir.path().join("o"))
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("foo"), "{err}");
    std::fs::write(
        &bad,
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"rsa\"\n",
    )
    .unwrap();
    let o = v2x_command()
        .args(["testbed", "--out"])
        .arg(dir.path().join("o"))
        .arg(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("ieee1609.2") && err.contains("tesla"),
        "valid protocols listed: {err}"
    );
    std::fs::write(
        &bad,
        "duration_s = -1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"none\"\n",
    )
    .unwrap();
    let o = v2x_command()
        .args(["testbed", "--out"])
        .arg(dir.path().join("o"))
        .arg(&bad)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("duration_s"));
}

#[test]
fn every_shipped_testbed_scenario_loads() {
    let mut n = 0;
    for e in std::fs::read_dir(repo("").join("scenarios/testbed")).unwrap() {
        let path = e.unwrap().path();
        if let Err(err) = v2x_testbed::orchestrator::Scenario::load(&path) {
            panic!("{}: {err}", path.display());
        }
        n += 1;
    }
    assert!(n >= 3);
}

/// Runs `v2x testbed` on a scenario text; returns the summary.
fn run_scenario(dir: &Path, name: &str, text: &str) -> serde_json::Value {
    let scenario = dir.join(format!("{name}.toml"));
    std::fs::write(&scenario, text).unwrap();
    let out = dir.join(name);
    let o = common::testbed_command(&scenario, &out).output().unwrap();
    assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
    assert!(survivors(&out).is_empty(), "orphan stations: {:?}", survivors(&out));
    serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap()
}

/// Runs `v2x testbed` on a scenario text that must be refused; returns the error text.
fn refused(dir: &Path, text: &str) -> String {
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, text).unwrap();
    let o = v2x_command()
        .args(["testbed", "--out"])
        .arg(dir.join("refused"))
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!o.status.success(), "accepted: {text}");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// DoS defence `known_signers_first`: a single verifier thread made deliberately slow
/// (5 ms per signature check, `emulated_verify_cost_us`: at most 200 checks/s whatever the
/// machine's load) under a flood of ~1,000 invalid signatures/s. FIFO, the benign CAMs
/// wait behind the flood and most miss their deadline; with the defence the three benign
/// signers, verified once, go first.
#[test]
fn known_signers_first_keeps_benign_goodput_where_the_undefended_receiver_loses_it() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let scenario = |defence: bool| {
        format!(
            "duration_s = 3.0\nsenders = 3\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
             [receiver]\nverifier_threads = 1\ndeadline_ms = 100\nemulated_verify_cost_us = 5000\n\
             known_signers_first = {defence}\n[[attackers]]\ncase = \"A-SIG-04\"\ncount = 2\nrate_hz = 500.0\n"
        )
    };
    let plain = run_scenario(dir.path(), "undefended", &scenario(false));
    let defended = run_scenario(dir.path(), "defended", &scenario(true));
    let goodput = |s: &serde_json::Value| s["receivers"]["rx0"]["benign"]["goodput"].as_f64().unwrap();
    let (g0, g1) = (goodput(&plain), goodput(&defended));
    assert!(
        g0 < 0.8,
        "the undefended receiver keeps up ({g0}): {}",
        plain["receivers"]["rx0"]
    );
    assert!(
        g1 >= 0.97,
        "the defence loses benign CAMs ({g1}): {}",
        defended["receivers"]["rx0"]
    );
    // The flood really was a flood in both runs, and none of it got through.
    for s in [&plain, &defended] {
        let flood = &s["receivers"]["rx0"]["A-SIG-04"];
        assert!(flood["sent"].as_u64().unwrap() > 1000, "{flood}");
        assert_eq!(flood["accepted"], 0, "{flood}");
        assert_eq!(s["receivers"]["rx0"]["benign"]["consistent"], true);
    }
}

/// DoS defence `precheck`: replays, stale messages, expired certificates and unsigned
/// packets are refused on the socket thread with SN-DECAP's reasons, before any queue
/// slot or signature check; benign CAMs (digest-signed after the first) all pass.
#[test]
fn precheck_refuses_replayed_stale_unsigned_and_expired_certificate_packets_before_the_queue() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(
        "duration_s = 2.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n[receiver]\nprecheck = true\n",
    );
    for case in ["A-SIG-03", "A-SIG-05", "A-SIG-06", "A-CER-03"] {
        text.push_str(&format!("[[attackers]]\ncase = \"{case}\"\nrate_hz = 10.0\n"));
    }
    let s = run_scenario(dir.path(), "precheck", &text);
    let rx = &s["receivers"]["rx0"];
    assert_eq!(rx["benign"]["accepted"], 40, "{}", rx["benign"]);
    assert_eq!(rx["benign"]["prechecked"], 0, "{}", rx["benign"]);
    assert_eq!(rx["A-SIG-05-source"]["accepted"], 20, "{}", rx["A-SIG-05-source"]);
    for (case, reason) in [
        // The bare payload is not 1609.2 at all (as SN-DECAP says too).
        ("A-SIG-03", "incompatible-protocol"),
        ("A-SIG-05", "duplicate-message"),
        ("A-SIG-06", "stale-message"),
        ("A-CER-03", "certificate-expired"),
    ] {
        let c = &rx[case];
        assert_eq!(c["sent"], 20, "{case}: {c}");
        assert_eq!(c["reasons"][reason], 20, "{case} refused as {reason}: {c}");
        assert_eq!(c["prechecked"], 20, "{case} refused before the queue: {c}");
    }
}

#[test]
fn flood_search_needs_a_defence_to_compare_and_lists_the_options() {
    let dir = tempfile::tempdir().unwrap();
    let err = refused(
        dir.path(),
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
         [flood_search]\nmin_rate_hz = 10.0\nmax_rate_hz = 100.0\n",
    );
    assert!(err.contains("known_signers_first") && err.contains("precheck"), "{err}");
}

/// `[load_plan]` runs one benign run per (senders, rate) cell and writes the §4.1-style
/// table with the paper's values beside ours.
#[test]
fn load_plan_runs_every_cell_with_the_papers_values_beside() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    // A loaded 2-core machine running the debug build can stall a verifier beyond the default
    // 100 ms deadline; this test checks the plan's mechanics, so the deadline is set out of
    // reach. Zero security-layer loss at high load is measured on the release build
    // (docs/testbed.md, "PRESERVE load plan").
    let s = run_scenario(
        dir.path(),
        "plan",
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
         [receiver]\ndeadline_ms = 10000\n\
         [load_plan]\nsenders = [1, 15]\nrates_hz = [20.0]\nduration_s = 1.0\n",
    );
    let cells = s["load_plan"].as_array().expect("load_plan in summary.json");
    assert_eq!(cells.len(), 2, "{cells:?}");
    for (c, senders) in cells.iter().zip([1, 15]) {
        assert_eq!(c["senders"], senders);
        // A sender starting late on a loaded machine skips its backlog: sent <= 20 per sender.
        let sent = c["benign_sent"].as_u64().unwrap();
        assert!(sent > 0 && sent <= 20 * senders, "{c}");
        assert_eq!(c["benign_accepted"], sent, "{c}");
        assert_eq!(c["security_loss"], 0.0, "{c}");
        assert!(c["e2e_mean_ms"].as_f64().unwrap() > 0.0, "{c}");
    }
    // Paper 002 §4.1: 15 senders at 20 Hz, verification "approximately 0.011 sec".
    assert_eq!(cells[1]["paper"]["verify_ms"], 11.0);
    let report = std::fs::read_to_string(dir.path().join("plan/report.md")).unwrap();
    assert!(report.contains("PRESERVE load plan"), "{report}");
    assert!(dir.path().join("plan/load-plan/15x20hz/summary.json").exists());
}

/// A-CON-01: DENMs validly signed with a ticket that only permits CAMs (the attacker's
/// SN-ENCAP uses the named lab option `insecure_sign_outside_permissions`) are rejected
/// for their PSID; A-SIG-02 DENMs (DENM profile, corrupted signature) for the signature.
#[test]
fn denms_outside_the_tickets_permissions_are_rejected_for_their_psid() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let mut text =
        String::from("duration_s = 2.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n");
    for case in ["A-CON-01", "A-SIG-02"] {
        text.push_str(&format!("[[attackers]]\ncase = \"{case}\"\nrate_hz = 10.0\n"));
    }
    let s = run_scenario(dir.path(), "content", &text);
    let rx = &s["receivers"]["rx0"];
    assert_eq!(rx["benign"]["accepted"], 40, "{}", rx["benign"]);
    for (case, reason) in [("A-CON-01", "psid-not-permitted"), ("A-SIG-02", "false-signature")] {
        let c = &rx[case];
        assert_eq!(c["sent"], 20, "{case}: {c}");
        assert_eq!(c["accepted"], 0, "{case}: {c}");
        assert_eq!(c["reasons"][reason], 20, "{case} rejected as {reason}: {c}");
    }
    // A-CON-01 rests on 1609.2 permissions: other protocols get a clear error.
    let err = refused(
        dir.path(),
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"none\"\n\
         [[attackers]]\ncase = \"A-CON-01\"\nrate_hz = 10.0\n",
    );
    assert!(err.contains("A-CON-01") && err.contains("ieee1609.2"), "{err}");
}

/// F-PSN-01: a sender changing pseudonym every second during the run; the receiver sees
/// its CAMs under successive certificates and loses none across the changes (the first
/// CAM after a change carries the new certificate).
#[test]
fn pseudonym_changes_during_the_run_as_the_receiver_sees_them() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let s = run_scenario(
        dir.path(),
        "psn",
        "duration_s = 3.5\nsenders = 1\nrate_hz = 10.0\npseudonym_change_s = 1.0\n\
         [protocol]\nprotocol = \"ieee1609.2\"\n",
    );
    let benign = &s["receivers"]["rx0"]["benign"];
    assert_eq!(benign["sent"], 35, "{benign}");
    assert_eq!(benign["accepted"], 35, "no loss across pseudonym changes: {benign}");
    // tx0 is station 2 (rx0 is 1).
    let view = &s["pseudonyms"]["rx0"]["2"];
    assert!(view["changes"].as_u64().unwrap() >= 3, "{view}");
    assert!(view["pseudonyms"].as_array().unwrap().len() >= 3, "{view}");
    assert_eq!(view["accepted"], 35, "{view}");
}

/// HashedId8 (hex) of ticket `i` of `station` in a run's PKI.
fn ticket_id(run: &Path, station: &str, i: usize) -> String {
    let path = run.join(format!("pki/stations/{station}/tickets/at-{i:04}.oer"));
    let cert = v2x_security::Certificate::from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    hex::encode(cert.hashed_id8().0)
}

/// Paper 002's functional cases (Table 2.17), each checked on what the receivers logged
/// (not only on the verdict the testbed gives them), and their verdicts beside the paper's.
#[test]
fn functional_cases_behave_as_paper_002_expects() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(
        "duration_s = 2.5\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
         [[functional]]\ncase = \"F-SIG-03\"\nrate_hz = 200.0\n",
    );
    for case in ["F-SIG-01", "F-SIG-04", "F-SIG-05", "F-SIG-06", "F-SIG-07", "F-CER-02"] {
        text.push_str(&format!("[[functional]]\ncase = \"{case}\"\n"));
    }
    let s = run_scenario(dir.path(), "func", &text);
    let run = dir.path().join("func");
    let rx = &s["receivers"]["rx0"];
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
    for case in ["F-SIG-01", "F-SIG-03", "F-SIG-04", "F-SIG-05"] {
        let c = &rx[case];
        assert!(n(&c["sent"]) >= 20, "{case}: {c}");
        assert_eq!(c["accepted"], c["sent"], "{case}: every message accepted: {c}");
        assert_eq!(n(&c["rejected"]), 0, "{case}: {c}");
    }
    // F-SIG-03 alternates CAMs and DENMs: both kinds accepted.
    let rx_csv = std::fs::read_to_string(run.join("rx.csv")).unwrap();
    for kind in [",cam", ",denm"] {
        let accepted = rx_csv
            .lines()
            .filter(|l| l.starts_with("rx0,") && l.contains(",accepted,") && l.ends_with(kind))
            .count();
        assert!(accepted >= 100, "{kind}: {accepted}");
    }
    let verdict = |case: &str| {
        s["functional"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["case"] == case)
            .unwrap_or_else(|| panic!("{case}: {}", s["functional"]))
            .clone()
    };
    // F-SIG-04: under the current pseudonym; F-SIG-05: its first ticket lacks CAM, so
    // SN-ENCAP signed with the next one.
    assert_eq!(
        verdict("F-SIG-04")["pseudonyms"]["rx0"],
        serde_json::json!([ticket_id(&run, "f-sig-04", 0)])
    );
    assert_eq!(
        verdict("F-SIG-05")["pseudonyms"]["rx0"],
        serde_json::json!([ticket_id(&run, "f-sig-05", 1)])
    );
    // F-SIG-06: nothing sent, every CAM refused with its reason.
    assert!(rx.get("F-SIG-06").is_none_or(|c| n(&c["sent"]) == 0), "{rx}");
    let refused = &s["refused"]["F-SIG-06"];
    let (reason, count) = refused.as_object().unwrap().iter().next().unwrap();
    assert!(reason.contains("permits PSID 36"), "{reason}");
    assert!(n(count) >= 20, "{refused}");
    let events = std::fs::read_to_string(run.join("events.csv")).unwrap();
    assert!(events.contains("f-sig-06,") && events.contains(",encap-refused,F-SIG-06: "));
    // F-SIG-07: every CAM rejected for the chain's permissions.
    let c = &rx["F-SIG-07"];
    assert_eq!(n(&c["accepted"]), 0, "{c}");
    assert_eq!(c["reasons"]["inconsistent-chain"], c["sent"], "{c}");
    // F-CER-02: its receiver lacks the AA: rejected issuer-certificate-not-found, then (AA learnt by
    // P2PCD) accepted, never the other way round.
    let c = &s["receivers"]["rx-f-cer-02"]["F-CER-02"];
    assert!(n(&c["reasons"]["issuer-certificate-not-found"]) >= 1, "{c}");
    assert_eq!(c["reasons"].as_object().unwrap().len(), 1, "{c}");
    assert!(n(&c["accepted"]) + 5 >= n(&c["sent"]), "{c}");
    assert!(n(&c["first_accepted_us"]) > n(&c["last_rejected_us"]), "{c}");
    assert!(
        events.contains("f-cer-02,") && events.contains(",heard,"),
        "the sender heard its receiver"
    );
    // Only F-CER-02's sender sends to its receiver.
    assert_eq!(s["receivers"]["rx-f-cer-02"].as_object().unwrap().len(), 1);
    for v in s["functional"].as_array().unwrap() {
        assert_eq!(v["paper"], "passed");
        assert_eq!(v["passed"], true, "{v}");
    }
    assert_eq!(s["functional"].as_array().unwrap().len(), 7);
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(html.contains("Functional cases (paper 002 Table 2.17)") && html.contains("F-CER-02"));
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(report.contains("| F-SIG-07 | Signing a CAM with its-aid-ssp not compatible with the long term certificate | passed | passed |"), "{report}");
}

#[test]
fn functional_cases_need_1609_2_and_unknown_names_list_the_valid_ones() {
    let dir = tempfile::tempdir().unwrap();
    let err = refused(
        dir.path(),
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
         [[functional]]\ncase = \"F-SIG-99\"\n",
    );
    assert!(err.contains("F-SIG-01") && err.contains("F-CER-02"), "{err}");
    let err = refused(
        dir.path(),
        "duration_s = 1.0\nsenders = 1\nrate_hz = 10.0\n[protocol]\nprotocol = \"none\"\n\
         [[functional]]\ncase = \"F-SIG-05\"\n",
    );
    assert!(err.contains("F-SIG-05") && err.contains("ieee1609.2"), "{err}");
}

/// Issue 27 item 2: an A-SIG-05 copy comes from another source address of the attacker,
/// its signature re-encoded (s → n − s): byte for byte a new datagram, verified by
/// whichever of the receiver's verifier threads is free. The threads share one replay
/// window, so every copy is a duplicate — undefended (in the verifier) and with
/// `precheck` (before the queue) — and the summary lists no attack packet accepted.
/// (Each thread had its own window, and datagrams went to a thread by source address:
/// such copies were accepted.)
#[test]
fn reencoded_replays_from_another_address_are_caught_by_every_verifier_thread() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    for precheck in [false, true] {
        let name = format!("replay-{precheck}");
        let s = run_scenario(
            dir.path(),
            &name,
            &format!(
                "duration_s = 2.0\nsenders = 2\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
                 [receiver]\nverifier_threads = 4\nprecheck = {precheck}\n\
                 [[attackers]]\ncase = \"A-SIG-05\"\nrate_hz = 20.0\n"
            ),
        );
        let rx = &s["receivers"]["rx0"];
        let copies = &rx["A-SIG-05"];
        assert_eq!(copies["sent"], 40, "{copies}");
        assert_eq!(copies["accepted"], 0, "a replay accepted: {copies}");
        assert_eq!(copies["reasons"]["duplicate-message"], 40, "{copies}");
        assert_eq!(rx["A-SIG-05-source"]["accepted"], 40, "{}", rx["A-SIG-05-source"]);
        assert_eq!(s["attacks_accepted"], serde_json::json!([]), "{s}");
        if precheck {
            assert_eq!(copies["prechecked"], 40, "{copies}");
        }
        // The copies really are another datagram from another address.
        let tx = std::fs::read_to_string(dir.path().join(&name).join("tx.csv")).unwrap();
        let digests = |case: &str| -> Vec<String> {
            tx.lines()
                .filter(|l| l.split(',').nth(3) == Some(case))
                .map(|l| l.split(',').nth(7).unwrap().to_string())
                .collect()
        };
        let (originals, replays) = (digests("A-SIG-05-source"), digests("A-SIG-05"));
        assert_eq!(replays.len(), 40);
        assert!(replays.iter().all(|d| !originals.contains(d)), "re-encoded copies");
        let rx_csv = std::fs::read_to_string(dir.path().join(&name).join("rx.csv")).unwrap();
        let ip_of = |digest: &str| -> String {
            let l = rx_csv.lines().find(|l| l.contains(digest)).unwrap();
            l.split(',').nth(1).unwrap().rsplit_once(':').unwrap().0.to_string()
        };
        assert_ne!(ip_of(&originals[0]), ip_of(&replays[0]), "copies from another address");
    }
}

/// Issue 27 item 3 at the audit's scale: the shipped `scenarios/testbed/forger.toml` as it
/// is (2,000 forged CAMs/s from 200 addresses, a verifier slowed to 1,000 checks/s) keeps the
/// benign goodput at or above 95 %. The small test below also passes its goodput bound on
/// 726a8c9 (the old defences held at 500 forgeries/s: 97.2 % [96.0, 98.4]); at this scale
/// 726a8c9's defences gave 36.9 % [7.5, 66.2] (branch wt-before27, BEFORE_AFTER.md).
#[test]
fn the_shipped_forger_scenario_keeps_the_benign_goodput_bound() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/testbed/forger.toml"
    ))
    .unwrap();
    let s = run_scenario(dir.path(), "forger", &text);
    let benign = &s["receivers"]["rx0"]["benign"];
    let forged = &s["receivers"]["rx0"]["copied-certificates"];
    assert!(forged["sent"].as_u64().unwrap() > 10_000, "{forged}");
    assert_eq!(forged["accepted"], 0, "{forged}");
    assert_eq!(benign["consistent"], true);
    let g = benign["goodput"].as_f64().unwrap();
    assert!(
        g >= 0.95,
        "benign goodput {g} below 0.95 with every defence on: {benign}"
    );
}

/// Issue 27 item 3: forged CAMs carrying the benign senders' copied certificates (heard in
/// their first second of CAMs), with random signatures, from 20 addresses, to a receiver
/// slowed to 200 signature checks/s.
/// Undefended, the forgeries take the verifier and benign CAMs miss their deadline; with
/// the defences every benign signer keeps its priority (earned from its own address, never
/// lost to a forgery from another) and the forgers' addresses, failing, are limited per
/// claimed signer. No forgery is accepted either way.
#[test]
fn a_certificate_copying_forger_does_not_take_the_benign_senders_share() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let scenario = |defended: bool| {
        let defences = if defended {
            "precheck = true\nknown_signers_first = true\nknown_signer_rate_hz = 20.0\n\
             rate_limit_per_source_hz = 20.0\nrate_limit_per_signer_hz = 20.0\n"
        } else {
            ""
        };
        format!(
            "duration_s = 4.0\nsenders = 3\nrate_hz = 10.0\n[protocol]\nprotocol = \"ieee1609.2\"\n\
             [receiver]\nverifier_threads = 1\ndeadline_ms = 100\nemulated_verify_cost_us = 5000\n{defences}\
             [[attackers]]\ncase = \"copied-certificates\"\ncount = 2\nrate_hz = 250.0\nsource_addresses = 10\nstart_s = 1.0\n"
        )
    };
    let plain = run_scenario(dir.path(), "undefended", &scenario(false));
    let defended = run_scenario(dir.path(), "defended", &scenario(true));
    let benign = |s: &serde_json::Value| s["receivers"]["rx0"]["benign"].clone();
    let goodput = |s: &serde_json::Value| benign(s)["goodput"].as_f64().unwrap();
    assert!(
        goodput(&plain) < 0.8,
        "the forger is no attack here: {}",
        benign(&plain)
    );
    assert!(goodput(&defended) >= 0.95, "{}", benign(&defended));
    for s in [&plain, &defended] {
        let forged = &s["receivers"]["rx0"]["copied-certificates"];
        assert!(forged["sent"].as_u64().unwrap() > 1000, "{forged}");
        assert_eq!(forged["accepted"], 0, "{forged}");
        assert!(forged["reasons"]["false-signature"].as_u64().unwrap() > 0, "{forged}");
        assert_eq!(benign(s)["consistent"], true);
    }
    // The defended receiver refused most forgeries before spending a check on them.
    let forged = &defended["receivers"]["rx0"]["copied-certificates"];
    assert!(
        forged["reasons"]["rate-limited"].as_u64().unwrap() > forged["sent"].as_u64().unwrap() / 2,
        "{forged}"
    );
}

/// The shipped closed-loop example (one run): the misbehaviour authority is its own process
/// (`v2x mbd-authority`, its configuration and records in the run's folder), the insider is
/// reported, revoked and then dropped by every receiver, and no benign station is revoked.
#[test]
fn the_misbehaviour_closed_loop_revokes_the_insider_through_an_authority_process() {
    let _one = exclusive();
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("scenarios/testbed/misbehaviour-closed-loop.toml")).unwrap();
    let text = text.replace("runs = 5 ", "runs = 1 ");
    assert!(text.contains("runs = 1 "), "the example sets `runs = 5`");
    let scenario = dir.path().join("loop.toml");
    std::fs::write(&scenario, text).unwrap();
    let out = dir.path().join("run");
    let o = common::testbed_command(&scenario, &out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let m = &s["misbehaviour"];
    assert_eq!(
        (m["attackers_lying"].as_u64(), m["attackers_revoked"].as_u64()),
        (Some(1), Some(1)),
        "{m}"
    );
    assert_eq!(m["drops_by_revocation"], 3, "{m}");
    assert_eq!(m["accepted_after_revocation"], 0, "{m}");
    assert_eq!(
        (m["false_reports"].as_u64(), m["benign_revoked"].as_u64()),
        (Some(0), Some(0)),
        "{m}"
    );
    // What the MA process wrote: the configuration it was started with and its records,
    // the same revocation the summary counts.
    let run = out.join("misbehaviour/run-0");
    assert!(std::fs::read_to_string(run.join("ma.toml"))
        .unwrap()
        .contains("min_reporters = 2"));
    let records: serde_json::Value =
        serde_json::from_slice(&std::fs::read(run.join("ma-records.json")).unwrap()).unwrap();
    assert_eq!(records["revocations"].as_array().unwrap().len(), 1, "{records}");
    assert!(common::processes_naming(&out, &["mbd-authority"]).is_empty());
}
