//! Issue 27, item 4: revocation cannot be rolled back. With `--trust DIR` a directory of
//! certificates (root, AA) and the root's CRL: deleting the CRL, or putting back an older
//! validly signed one, re-admitted a revoked ticket on 726a8c9 — even with a `--state` that
//! had processed messages under the newer CRL. Now the state remembers the newest CRL per
//! issuer and refuses an older one, and a root without its CRL is refused
//! (`revocation-status-unknown`) unless `--insecure-allow-missing-crl`. Each assertion marked
//! "726a8c9" failed there.

use std::path::Path;

mod common;
use common::{p, text, v2x};

const ROADWORKS_DENM: &str =
    "02010000002ac780000015000080000000000000000000052506340722494c01f4190384249f066000f03e705100600000";

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn ok(o: &std::process::Output) {
    assert!(o.status.success(), "{}", text(o));
}

/// A PKI, four DENMs of its first ticket (each run decaps a new one: a second decap of the
/// same message would be a replay), and a certificate directory (root, AA, CRL serial 1).
fn setup(tmp: &Path) -> (std::path::PathBuf, std::path::PathBuf, Vec<std::path::PathBuf>, Vec<u8>) {
    let pki = tmp.join("pki");
    ok(&v2x(&["pki", "init", "--dir", p(&pki)]));
    let payload = tmp.join("p.bin");
    // A roadworks DENM (60 s freshness: the runs below take a few seconds).
    std::fs::write(&payload, hex(ROADWORKS_DENM)).unwrap();
    let msgs: Vec<_> = (0..4).map(|i| tmp.join(format!("denm-{i}.oer"))).collect();
    for m in &msgs {
        ok(&v2x(&[
            "encap",
            "--pki",
            p(&pki),
            "--profile",
            "denm",
            "--location",
            "48.1,11.5",
            "--in",
            p(&payload),
            "--out",
            p(m),
        ]));
    }
    let dir = tmp.join("trust");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(pki.join("root/cert.oer"), dir.join("root.oer")).unwrap();
    std::fs::copy(pki.join("aa/cert.oer"), dir.join("aa.oer")).unwrap();
    let first_crl = std::fs::read(pki.join("crl.oer")).unwrap();
    std::fs::write(dir.join("crl.oer"), &first_crl).unwrap();
    (pki, dir, msgs, first_crl)
}

fn decap(dir: &Path, msg: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["decap", "--trust", p(dir), "--in", p(msg)];
    args.extend_from_slice(extra);
    v2x(&args)
}

#[test]
fn an_older_crl_is_refused_once_the_state_has_seen_a_newer_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (pki, dir, msgs, first_crl) = setup(tmp.path());
    let state = tmp.path().join("state");
    let st = ["--state", p(&state)];
    let o = decap(&dir, &msgs[0], &st);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Revoke the ticket: the root issues CRL serial 2.
    ok(&v2x(&[
        "pki",
        "revoke",
        "--dir",
        p(&pki),
        "--cert",
        p(&pki.join("stations/station-1/tickets/at-0000.oer")),
    ]));
    std::fs::copy(pki.join("crl.oer"), dir.join("crl.oer")).unwrap();
    let o = decap(&dir, &msgs[1], &st);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("revoked-certificate"), "{}", text(&o));
    // Roll back to the first CRL (validly signed, older): 726a8c9 accepted the revoked ticket.
    std::fs::write(dir.join("crl.oer"), &first_crl).unwrap();
    let o = decap(&dir, &msgs[2], &st);
    assert_eq!(o.status.code(), Some(2), "726a8c9: {}", text(&o));
    assert!(text(&o).contains("undo revocations"), "{}", text(&o));
    // Delete it: the issuer the state has seen is expected, so its chains are refused.
    std::fs::remove_file(dir.join("crl.oer")).unwrap();
    let o = decap(&dir, &msgs[3], &st);
    assert_eq!(o.status.code(), Some(1), "726a8c9: {}", text(&o));
    assert!(text(&o).contains("revocation-status-unknown"), "{}", text(&o));
}

#[test]
fn a_root_without_its_crl_is_refused_unless_insecurely_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir, msgs, _) = setup(tmp.path());
    assert_eq!(decap(&dir, &msgs[0], &[]).status.code(), Some(0));
    std::fs::remove_file(dir.join("crl.oer")).unwrap();
    let o = decap(&dir, &msgs[1], &[]);
    assert_eq!(o.status.code(), Some(1), "726a8c9: {}", text(&o));
    assert!(text(&o).contains("revocation-status-unknown"), "{}", text(&o));
    let o = decap(&dir, &msgs[2], &["--insecure-allow-missing-crl"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("insecure"), "{}", text(&o));
}

/// A fresh v1.2.1 DENM of the PKI's station (v1.2.1 messages are stale after 2 s, so each
/// run gets one made just before).
fn v1_denm(pki: &Path, out: &Path) -> std::path::PathBuf {
    ok(&v2x(&[
        "encap",
        "--pki",
        p(pki),
        "--profile",
        "denm",
        "--location",
        "48.1,11.5",
        "--format",
        "v1.2.1",
        "--in",
        p(&out.with_extension("payload")),
        "--out",
        p(out),
    ]));
    out.to_path_buf()
}

/// The same for v1.2.1 (726a8c9 had no v1.2.1 revocation at all): `pki revoke` of a v1.2.1
/// ticket has the v1.2.1 root re-issue `v1.2.1/root.crl`; a receiver trusting the PKI
/// directory or a certificate directory refuses the ticket, and with --state refuses the
/// older CRL put back and expects the deleted one.
#[test]
fn a_revoked_v1_2_1_ticket_stays_revoked() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let pki = t.join("pki");
    ok(&v2x(&["pki", "init", "--dir", p(&pki)]));
    std::fs::write(t.join("m.payload"), b"legacy denm").unwrap();
    let msg = t.join("m");
    v1_denm(&pki, &msg);
    let v1 = pki.join("v1.2.1");
    let dir = t.join("trust");
    std::fs::create_dir(&dir).unwrap();
    for f in ["root.cert", "aa.cert", "root.crl"] {
        std::fs::copy(v1.join(f), dir.join(f)).unwrap();
    }
    let first_crl = std::fs::read(v1.join("root.crl")).unwrap();
    let state = t.join("state");
    let st = ["--state", p(&state)];
    let o = decap(&dir, &msg, &st);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    let o = v2x(&[
        "pki",
        "revoke",
        "--dir",
        p(&pki),
        "--cert",
        p(&v1.join("stations/station-1/at.cert")),
    ]);
    ok(&o);
    assert!(text(&o).contains("revoked v1.2.1 certificate"), "{}", text(&o));
    assert_ne!(std::fs::read(v1.join("root.crl")).unwrap(), first_crl);
    // The PKI directory itself as --trust.
    let o = decap(&pki, &v1_denm(&pki, &msg), &[]);
    assert_eq!(o.status.code(), Some(1), "726a8c9: {}", text(&o));
    assert!(text(&o).contains("revoked-certificate"), "{}", text(&o));
    // The certificate directory with the new CRL, under --state.
    std::fs::copy(v1.join("root.crl"), dir.join("root.crl")).unwrap();
    let o = decap(&dir, &v1_denm(&pki, &msg), &st);
    assert_eq!(o.status.code(), Some(1), "726a8c9: {}", text(&o));
    assert!(text(&o).contains("revoked-certificate"), "{}", text(&o));
    // Rolled back to the first CRL: refused (exit 2), the state has seen a newer one.
    std::fs::write(dir.join("root.crl"), &first_crl).unwrap();
    let o = decap(&dir, &v1_denm(&pki, &msg), &st);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("undo revocations"), "{}", text(&o));
    // Without --state the older CRL is all the receiver knows: the ticket is accepted — why
    // a receiver that must not be rolled back keeps a --state.
    let o = decap(&dir, &v1_denm(&pki, &msg), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Deleted: the root the state has seen a CRL from is expected, its chains refused.
    std::fs::remove_file(dir.join("root.crl")).unwrap();
    let o = decap(&dir, &v1_denm(&pki, &msg), &st);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("revocation-status-unknown"), "{}", text(&o));
    // The PKI directory refuses to take an older CRL back, or to lose it: as issuer (encap)
    // and as a receiver's trust.
    std::fs::write(v1.join("root.crl"), &first_crl).unwrap();
    let refused = |o: &std::process::Output, why: &str| {
        assert_eq!(o.status.code(), Some(2), "{}", text(o));
        assert!(text(o).contains(why), "{}", text(o));
    };
    let payload = t.join("m.payload");
    let encap = [
        "encap",
        "--pki",
        p(&pki),
        "--format",
        "v1.2.1",
        "--in",
        p(&payload),
        "--out",
        p(&msg),
    ];
    refused(&v2x(&encap), "rolled-back CRL");
    refused(&decap(&pki, &msg, &[]), "rolled-back CRL");
    std::fs::remove_file(v1.join("root.crl")).unwrap();
    refused(&v2x(&encap), "the v1.2.1 CRL is missing");
    refused(&decap(&pki, &msg, &[]), "the v1.2.1 CRL is missing");
}

/// `--batch` takes v1.2.1 messages beside v2 ones (726a8c9 rejected every v1.2.1 line as
/// incompatible-protocol), through one receiver per format.
#[test]
fn a_batch_mixes_v2_and_v1_2_1_messages() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let pki = t.join("pki");
    ok(&v2x(&["pki", "init", "--dir", p(&pki)]));
    std::fs::write(t.join("m.payload"), b"legacy denm").unwrap();
    std::fs::write(t.join("p.bin"), hex(ROADWORKS_DENM)).unwrap();
    let v2_msg = t.join("v2.oer");
    ok(&v2x(&[
        "encap",
        "--pki",
        p(&pki),
        "--profile",
        "denm",
        "--location",
        "48.1,11.5",
        "--in",
        p(&t.join("p.bin")),
        "--out",
        p(&v2_msg),
    ]));
    let v1_msg = v1_denm(&pki, &t.join("m"));
    let to_hex = |b: Vec<u8>| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let lines = format!(
        "{}\n{}\n",
        to_hex(std::fs::read(&v1_msg).unwrap()),
        to_hex(std::fs::read(&v2_msg).unwrap())
    );
    let batch = t.join("batch.txt");
    std::fs::write(&batch, lines).unwrap();
    let o = v2x(&["decap", "--trust", p(&pki), "--batch", "--in", p(&batch), "--json"]);
    assert_eq!(o.status.code(), Some(0), "726a8c9: {}", text(&o));
    let verdicts: Vec<serde_json::Value> = o
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 2, "{}", text(&o));
    assert_eq!(verdicts[0]["format"], "v1.2.1");
    assert_eq!(verdicts[0]["its_aid"], 37);
    assert_eq!(verdicts[1]["psid"], 37);
}
