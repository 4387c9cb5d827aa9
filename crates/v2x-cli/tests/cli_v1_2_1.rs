//! End-to-end: `v2x encap --format v1.2.1` and `v2x decap` recognising the legacy
//! format by itself, bare or inside a GeoNetworking packet.

use std::process::Output;

mod common;
use common::{p, v2x};

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "stdout {} stderr {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn legacy_messages_encap_and_decap_with_format_detection() {
    let tmp = tempfile::tempdir().unwrap();
    let pki = tmp.path().join("pki");
    ok(&v2x(&["pki", "init", "--dir", p(&pki)]));
    let payload = tmp.path().join("payload");
    std::fs::write(&payload, b"legacy denm").unwrap();
    let msg = tmp.path().join("denm.v1");
    ok(&v2x(&[
        "encap",
        "--pki",
        p(&pki),
        "--profile",
        "denm",
        "--location",
        "48.1,11.5",
        "--format",
        "v1.2.1",
        "--in",
        p(&payload),
        "--out",
        p(&msg),
    ]));
    let bytes = std::fs::read(&msg).unwrap();
    assert_eq!(bytes[0], 2, "v1.2.1 protocol version");
    assert!(pki.join("v1.2.1/root.cert").exists() && pki.join("v1.2.1/aa.cert").exists());

    // Bare message: accepted, payload on stdout, the JSON names the format.
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&msg)]);
    ok(&o);
    assert_eq!(o.stdout, b"legacy denm");
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&msg), "--json"]);
    ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "v1.2.1");
    assert_eq!(v["its_aid"], 37);

    // Inside a GeoNetworking secured packet (version 0, as v1.2.1 equipment sends it).
    let mut gn = v2x_wire::geonet::secured_packet(&bytes);
    gn[0] &= 0x0f;
    let gn_path = tmp.path().join("denm.gn");
    std::fs::write(&gn_path, &gn).unwrap();
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&gn_path)]);
    ok(&o);
    assert_eq!(o.stdout, b"legacy denm");

    // A flipped bit in the signature: rejected with exit 1 and the reason code.
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x01;
    let bad_path = tmp.path().join("bad.v1");
    std::fs::write(&bad_path, &bad).unwrap();
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&bad_path)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("false-signature"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    // A CAM of the same station: the ticket is reused (no new credential).
    let cam = tmp.path().join("cam.v1");
    ok(&v2x(&[
        "encap",
        "--pki",
        p(&pki),
        "--profile",
        "cam",
        "--format",
        "v1.2.1",
        "--in",
        p(&payload),
        "--out",
        p(&cam),
    ]));
    ok(&v2x(&["decap", "--trust", p(&pki), "--in", p(&cam)]));

    // --signature-only works for v1.2.1 too (issue 11 defect 8), with its warning.
    let o = v2x(&["decap", "--trust", p(&pki), "--in", p(&cam), "--signature-only"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning: --signature-only"));
}
