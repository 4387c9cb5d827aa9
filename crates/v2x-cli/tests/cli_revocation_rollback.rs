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
