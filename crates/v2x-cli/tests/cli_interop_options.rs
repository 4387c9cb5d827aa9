//! Interop options of `v2x decap` (issue 11 defect 8): a foreign root without its AA
//! (`--issuer-cert`), v1.2.1 signature-only mode and foreign v1.2.1 roots, decryption with
//! a recipient key from outside our PKI (`--decrypt-key`), and the named tolerance for
//! sender clocks that omit the leap seconds.
use std::path::Path;
use std::process::Output;
use std::time::Duration;
use v2x_security::*;

mod common;
use common::{p, text, v2x};

fn reason(o: &Output) -> String {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(o)));
    v["reason"].as_str().unwrap_or("").to_string()
}

/// A CAM of station "car" carrying its ticket only (not the AA).
fn cam(dir: &Path, at: TaiTime) -> Vec<u8> {
    let pki = Pki::init(dir, PkiConfig::default(), "car").unwrap();
    let mut e = pki.entity("car").unwrap();
    let m = e.encap(&EncapRequest::cam(b"cam").at(at)).unwrap();
    assert!(m.signer_was_certificate);
    m.bytes
}

#[test]
fn a_foreign_root_without_its_aa_verifies_with_issuer_cert() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    let m = tmp.path().join("m.oer");
    std::fs::write(&m, cam(&dir, TaiTime::now())).unwrap();
    let trust = tmp.path().join("trust");
    std::fs::create_dir(&trust).unwrap();
    std::fs::copy(dir.join("root/cert.oer"), trust.join("root.oer")).unwrap();
    // The root's CRL beside it (without one its chains are revocation-status-unknown).
    std::fs::copy(dir.join("crl.oer"), trust.join("crl.oer")).unwrap();
    let o = v2x(&["decap", "--trust", p(&trust), "--in", p(&m), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(reason(&o), "issuer-certificate-not-found");
    let aa = dir.join("aa/cert.oer");
    let o = v2x(&["decap", "--trust", p(&trust), "--issuer-cert", p(&aa), "--in", p(&m)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(o.stdout, b"cam");
    // The issuer certificate is not trusted by being named: a ticket is refused as one,
    // and an AA of another root still ends at an untrusted root.
    let ticket = dir.join("stations/car/tickets/at-0000.oer");
    let o = v2x(&[
        "decap",
        "--trust",
        p(&trust),
        "--issuer-cert",
        p(&ticket),
        "--in",
        p(&m),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not a CA certificate"), "{}", text(&o));
    let other = tmp.path().join("other");
    cam(&other, TaiTime::now());
    let o = v2x(&[
        "decap",
        "--trust",
        p(&trust),
        "--issuer-cert",
        p(&other.join("aa/cert.oer")),
        "--in",
        p(&m),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(reason(&o), "issuer-certificate-not-found");
}

fn v1_message(tmp: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = tmp.join("pki");
    assert!(v2x(&["pki", "init", "--dir", p(&dir)]).status.success());
    let payload = tmp.join("p");
    std::fs::write(&payload, b"x").unwrap();
    let msg = tmp.join("m.v1");
    let o = v2x(&[
        "encap",
        "--format",
        "v1.2.1",
        "--pki",
        p(&dir),
        "--in",
        p(&payload),
        "--out",
        p(&msg),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    (dir, msg)
}

#[test]
fn v1_2_1_signature_only_mode_checks_the_signature_and_only_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, msg) = v1_message(tmp.path());
    let o = v2x(&["decap", "--signature-only", "--in", p(&msg), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["mode"], "signature-only");
    assert_eq!(v["format"], "v1.2.1");
    assert!(text(&o).contains("warning: --signature-only"));
    // A flipped byte of the signature trailer (its last byte) is refused.
    let mut bad = std::fs::read(&msg).unwrap();
    *bad.last_mut().unwrap() ^= 1;
    let badf = tmp.path().join("bad.v1");
    std::fs::write(&badf, bad).unwrap();
    let o = v2x(&["decap", "--signature-only", "--in", p(&badf), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(reason(&o), "false-signature");
}

#[test]
fn v1_2_1_takes_a_foreign_root_and_aa_as_certificate_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, msg) = v1_message(tmp.path());
    let trust = tmp.path().join("trust");
    std::fs::create_dir(&trust).unwrap();
    std::fs::copy(dir.join("v1.2.1/root.cert"), trust.join("root.cert")).unwrap();
    std::fs::copy(dir.join("v1.2.1/root.crl"), trust.join("root.crl")).unwrap();
    let o = v2x(&["decap", "--trust", p(&trust), "--in", p(&msg), "--json"]);
    assert_eq!(o.status.code(), Some(1), "root without its AA: {}", text(&o));
    // v1.2.1 names a missing AA as the signer side's (it is the certificate the receiver
    // requests with request_unrecognized_certificate, §7.1).
    assert_eq!(reason(&o), "signer-certificate-not-found");
    std::fs::copy(dir.join("v1.2.1/aa.cert"), trust.join("aa.cert")).unwrap();
    let o = v2x(&["decap", "--trust", p(&trust), "--in", p(&msg)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(o.stdout, b"x");
    // The root's CRL is part of trusting it: without it, revocation-status-unknown.
    std::fs::remove_file(trust.join("root.crl")).unwrap();
    let o = v2x(&["decap", "--trust", p(&trust), "--in", p(&msg), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(reason(&o), "revocation-status-unknown");
    // Only the AA, no root: refused with the reason named.
    std::fs::remove_file(trust.join("root.cert")).unwrap();
    let o = v2x(&["decap", "--trust", p(&trust), "--in", p(&msg)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("root CA certificate"), "{}", text(&o));
}

#[test]
fn decrypt_key_decrypts_with_a_recipient_key_given_as_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    assert!(v2x(&["pki", "init", "--dir", p(&dir)]).status.success());
    let payload = tmp.path().join("p");
    std::fs::write(&payload, b"secret").unwrap();
    let msg = tmp.path().join("m.oer");
    let t = dir.join("stations/station-1/tickets");
    let o = v2x(&[
        "encap",
        "--pki",
        p(&dir),
        "--profile",
        "generic",
        "--encrypt-to",
        p(&t.join("at-0000.oer")),
        "--in",
        p(&payload),
        "--out",
        p(&msg),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = v2x(&["decap", "--trust", p(&dir), "--in", p(&msg), "--json"]);
    assert_eq!(o.status.code(), Some(1), "without the key: {}", text(&o));
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--in",
        p(&msg),
        "--decrypt-key",
        p(&t.join("at-0000.enc.pem")),
        "--decrypt-cert",
        p(&t.join("at-0000.oer")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(o.stdout, b"secret");
    // A key that is not the certificate's is refused before anything is decrypted.
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--in",
        p(&msg),
        "--decrypt-key",
        p(&t.join("at-0000.pem")),
        "--decrypt-cert",
        p(&t.join("at-0000.oer")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("is not the key of --decrypt-cert"), "{}", text(&o));
}

#[test]
fn sender_clock_without_leap_seconds_is_tolerated_only_when_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    // A sender whose clock counts UTC seconds since 2004 (no leap seconds): 5 s behind TAI.
    let m = tmp.path().join("m.oer");
    std::fs::write(&m, cam(&dir, TaiTime::now().saturating_sub(Duration::from_secs(5)))).unwrap();
    let o = v2x(&["decap", "--trust", p(&dir), "--in", p(&m), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(reason(&o), "stale-message");
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--in",
        p(&m),
        "--sender-clock-omits-leap-seconds",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("warning: --sender-clock-omits-leap-seconds"));
    // It widens the window by 5 s, not more: 12 s behind is still stale.
    let old = tmp.path().join("old.oer");
    let pki = Pki::open(&dir).unwrap();
    let mut e = pki.entity("car").unwrap();
    let b = e
        .encap(&EncapRequest::cam(b"old").at(TaiTime::now().saturating_sub(Duration::from_secs(12))))
        .unwrap();
    std::fs::write(&old, b.bytes).unwrap();
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--in",
        p(&old),
        "--sender-clock-omits-leap-seconds",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(reason(&o), "stale-message");
}
