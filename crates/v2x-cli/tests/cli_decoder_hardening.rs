//! Issue 11, defect 1, end to end: the crafted certificate and messages of
//! `vectors/regressions/` aborted every command that decoded them
//! ("capacity overflow" panic, status 101) before any signature check. Each command must now
//! answer with its normal outcome: an error (status 2) that names the failure (decap: input
//! that does not decode is malformed, `invalid-encoding`, not a rejection).

use std::path::{Path, PathBuf};

mod common;
use common::{lossy, p, v2x};

fn vector(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/regressions")
        .join(name)
}

fn certificate() -> PathBuf {
    vector("forged-app-extensions-certificate.oer")
}

/// The command ended with `code` and said why, without panicking.
fn assert_outcome(args: &[&str], code: i32, says: &str) {
    let o = v2x(args);
    let (out, err) = (lossy(&o.stdout), lossy(&o.stderr));
    assert!(!err.contains("panicked"), "v2x {args:?} panicked: {err}");
    assert_eq!(
        o.status.code(),
        Some(code),
        "v2x {args:?}\nstdout: {out}\nstderr: {err}"
    );
    assert!(
        out.contains(says) || err.contains(says),
        "v2x {args:?}: {says:?} not in\n{out}{err}"
    );
}

/// The messages, bare and inside a secured GeoNetworking packet.
fn messages(dir: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for name in [
        "forged-app-extensions-p2pcd-message.oer",
        "misaligned-signer-message.oer",
    ] {
        let bare = vector(name);
        let gn = dir.join(format!("{name}.gn"));
        std::fs::write(&gn, v2x_wire::geonet::secured_packet(&std::fs::read(&bare).unwrap())).unwrap();
        all.push(bare);
        all.push(gn);
    }
    all
}

fn pki(dir: &Path) -> PathBuf {
    let pki = dir.join("pki");
    let o = v2x(&["pki", "init", "--dir", p(&pki)]);
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    pki
}

#[test]
fn crafted_messages_are_rejected_not_crashes() {
    let tmp = tempfile::tempdir().unwrap();
    let pki = pki(tmp.path());
    for m in messages(tmp.path()) {
        assert_outcome(&["decap", "--trust", p(&pki), "--in", p(&m)], 2, "invalid-encoding");
        assert_outcome(&["decap", "--signature-only", "--in", p(&m)], 2, "invalid-encoding");
        assert_outcome(&["inspect", p(&m)], 2, "not a recognised format");
    }
    assert_outcome(&["inspect", p(&certificate())], 2, "malformed C-OER");
}

#[test]
fn crafted_certificate_files_are_errors_not_crashes() {
    let tmp = tempfile::tempdir().unwrap();
    let pki = pki(tmp.path());
    let payload = tmp.path().join("payload");
    std::fs::write(&payload, b"hello").unwrap();
    let cam = tmp.path().join("cam.oer");
    let o = v2x(&[
        "encap",
        "--pki",
        p(&pki),
        "--profile",
        "cam",
        "--in",
        p(&payload),
        "--out",
        p(&cam),
    ]);
    assert!(o.status.success(), "{}", lossy(&o.stderr));

    // As a trust anchor.
    let trust = tmp.path().join("trust");
    std::fs::create_dir(&trust).unwrap();
    std::fs::copy(certificate(), trust.join("root.oer")).unwrap();
    assert_outcome(&["decap", "--trust", p(&trust), "--in", p(&cam)], 2, "trust/root.oer");
    // As the certificate to revoke, and as the recipient to encrypt to.
    assert_outcome(
        &["pki", "revoke", "--dir", p(&pki), "--cert", p(&certificate())],
        2,
        "does not decode",
    );
    let out = tmp.path().join("enc.oer");
    let cert = certificate();
    let encap = [
        "encap",
        "--pki",
        p(&pki),
        "--profile",
        "generic",
        "--psid",
        "36",
        "--encrypt-to",
        p(&cert),
        "--in",
        p(&payload),
        "--out",
        p(&out),
    ];
    assert_outcome(&encap, 2, "does not decode");
    // The PKI still works: nothing was half-written.
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&cam)]);
    assert_eq!(o.status.code(), Some(0), "{}", lossy(&o.stdout));
}

/// Issue 27, item 7: every input is read with a size cap (64 MiB); on 726a8c9 `--in
/// /dev/zero` grew to about 1 GB of memory before anything was refused.
#[test]
fn an_endless_input_is_refused_at_the_size_cap() {
    for args in [
        &["decap", "--signature-only", "--in", "/dev/zero"][..],
        &["inspect", "/dev/zero"][..],
    ] {
        let o = common::v2x(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("input size cap"),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
