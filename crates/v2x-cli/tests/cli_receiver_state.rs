//! `v2x decap --state DIR` and `--batch` (issue 11 defect 5): a CLI receiver that keeps the
//! certificates it learnt and its replay window between runs, and takes a stream of
//! messages in order.
use std::path::Path;
use std::time::Duration;
use v2x_security::*;

mod common;
use common::{p, text, v2x};

/// A PKI directory and two CAMs of station "car": the first carries the certificate, the
/// second (100 ms later) only its digest, as 1609.2 senders do between full certificates.
fn two_cams(dir: &Path) -> (Vec<u8>, Vec<u8>) {
    let pki = Pki::init(dir, PkiConfig::default(), "car").unwrap();
    let mut e = pki.entity("car").unwrap();
    let now = TaiTime::now();
    let a = e.encap(&EncapRequest::cam(b"one").at(now)).unwrap();
    let b = e
        .encap(&EncapRequest::cam(b"two").at(now.saturating_add(Duration::from_millis(100))))
        .unwrap();
    assert!(a.signer_was_certificate && !b.signer_was_certificate);
    (a.bytes, b.bytes)
}

#[test]
fn a_digest_signed_cam_verifies_with_the_certificate_learnt_in_an_earlier_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, state) = (tmp.path().join("pki"), tmp.path().join("state"));
    let (a, b) = two_cams(&dir);
    let (fa, fb) = (tmp.path().join("a.oer"), tmp.path().join("b.oer"));
    std::fs::write(&fa, a).unwrap();
    std::fs::write(&fb, b).unwrap();
    // Without state the digest names nobody the receiver knows.
    let o = v2x(&["decap", "--trust", p(&dir), "--in", p(&fb)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("signer-certificate-not-found"), "{}", text(&o));
    // With state: the first run learns the certificate, the second verifies the digest.
    let o = v2x(&["decap", "--trust", p(&dir), "--state", p(&state), "--in", p(&fa)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(o.stdout, b"one");
    let o = v2x(&["decap", "--trust", p(&dir), "--state", p(&state), "--in", p(&fb)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(o.stdout, b"two");
    let mode = std::fs::metadata(state.join("receiver-state.json")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o600
    );
}

#[test]
fn a_replay_is_caught_across_runs_with_state_and_only_with_state() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, state) = (tmp.path().join("pki"), tmp.path().join("state"));
    let (a, _) = two_cams(&dir);
    let fa = tmp.path().join("a.oer");
    std::fs::write(&fa, a).unwrap();
    for _ in 0..2 {
        let o = v2x(&["decap", "--trust", p(&dir), "--in", p(&fa)]);
        assert_eq!(o.status.code(), Some(0), "stateless runs each accept: {}", text(&o));
    }
    let o = v2x(&["decap", "--trust", p(&dir), "--state", p(&state), "--in", p(&fa)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--state",
        p(&state),
        "--in",
        p(&fa),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["reason"], "duplicate-message");
}

#[test]
fn replay_entries_expire_with_their_window() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, state) = (tmp.path().join("pki"), tmp.path().join("state"));
    let (a, _) = two_cams(&dir);
    let fa = tmp.path().join("a.oer");
    std::fs::write(&fa, a).unwrap();
    let o = v2x(&["decap", "--trust", p(&dir), "--state", p(&state), "--in", p(&fa)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(state.join("receiver-state.json")).unwrap()).unwrap();
    let entries = saved["replay_window"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let e = &entries[0];
    assert!(e["expires_us"].as_u64().unwrap() > e["generation_time_us"].as_u64().unwrap());
    // Ten minutes later the message is stale (and the entry forgotten): stale, not duplicate.
    let later = ::time::OffsetDateTime::now_utc() + ::time::Duration::minutes(10);
    let later = later.format(&::time::format_description::well_known::Rfc3339).unwrap();
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--state",
        p(&state),
        "--in",
        p(&fa),
        "--at",
        &later,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_ne!(v["reason"], "duplicate-message", "{v}");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(state.join("receiver-state.json")).unwrap()).unwrap();
    assert_eq!(saved["replay_window"].as_array().unwrap().len(), 0);
}

#[test]
fn a_corrupt_state_is_refused_and_left_as_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, state) = (tmp.path().join("pki"), tmp.path().join("state"));
    let (a, _) = two_cams(&dir);
    let fa = tmp.path().join("a.oer");
    std::fs::write(&fa, a).unwrap();
    std::fs::create_dir(&state).unwrap();
    let file = state.join("receiver-state.json");
    std::fs::write(
        &file,
        b"{\"format\": \"v2x-receiver-state/1\", \"known_certificates\": [[\"zz\"]]",
    )
    .unwrap();
    let before = std::fs::read(&file).unwrap();
    let o = v2x(&["decap", "--trust", p(&dir), "--state", p(&state), "--in", p(&fa)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not a receiver state"), "{}", text(&o));
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn a_learnt_certificate_whose_root_is_no_longer_trusted_is_dropped_on_load() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, state) = (tmp.path().join("pki"), tmp.path().join("state"));
    let (a, b) = two_cams(&dir);
    let (fa, fb) = (tmp.path().join("a.oer"), tmp.path().join("b.oer"));
    std::fs::write(&fa, a).unwrap();
    std::fs::write(&fb, b).unwrap();
    assert!(
        v2x(&["decap", "--trust", p(&dir), "--state", p(&state), "--in", p(&fa)])
            .status
            .success()
    );
    // Another PKI as trust: the learnt chain no longer validates and must not let the
    // digest-signed message through.
    let other = tmp.path().join("other");
    Pki::init(&other, PkiConfig::default(), "x").unwrap();
    let o = v2x(&["decap", "--trust", p(&other), "--state", p(&state), "--in", p(&fb)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("learnt certificate no longer valid, dropped"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("signer-certificate-not-found"), "{}", text(&o));
}

#[test]
fn batch_of_hex_lines_is_one_receiver_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pki");
    let (a, b) = two_cams(&dir);
    let stream = tmp.path().join("stream.txt");
    // Digest first (unknown yet), then the certificate, the digest again, and a replay.
    let lines = format!(
        "# a receiver's view\n{}\n{}\n\n{}\n{}\n",
        hex::encode(&b),
        hex::encode(&a),
        hex::encode(&b),
        hex::encode(&a)
    );
    std::fs::write(&stream, lines).unwrap();
    let o = v2x(&["decap", "--trust", p(&dir), "--batch", "--in", p(&stream)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    let verdicts: Vec<&str> = out.lines().collect();
    assert_eq!(verdicts.len(), 4, "{out}");
    assert!(
        verdicts[0].starts_with("line 2: rejected: signer-certificate-not-found"),
        "{out}"
    );
    assert!(verdicts[1].starts_with("line 3: accepted"), "{out}");
    assert!(verdicts[2].starts_with("line 5: accepted"), "{out}");
    assert!(verdicts[2].ends_with(&hex::encode(b"two")), "{out}");
    assert!(verdicts[3].starts_with("line 6: rejected: duplicate-message"), "{out}");
    assert!(text(&o).contains("4 messages: 2 accepted, 2 rejected"), "{}", text(&o));
}

#[test]
fn batch_of_a_pcap_of_geonetworking_frames_with_state() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, state) = (tmp.path().join("pki"), tmp.path().join("state"));
    let (a, b) = two_cams(&dir);
    let mut w = v2x_wire::pcap::PcapWriter::new(Vec::new()).unwrap();
    let t = TaiTime::now()
        .to_system_time()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    let us = t.as_micros() as u64;
    for (i, m) in [&a, &b].iter().enumerate() {
        let frame = v2x_wire::pcap::geonet_frame([2, 0, 0, 0, 0, 1], &v2x_wire::geonet::secured_packet(m));
        w.write_frame(us + i as u64 * 100_000, &frame).unwrap();
    }
    let pcap = tmp.path().join("cams.pcap");
    std::fs::write(&pcap, w.into_inner().unwrap()).unwrap();
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--state",
        p(&state),
        "--batch",
        "--json",
        "--in",
        p(&pcap),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let verdicts: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 2);
    assert!(verdicts.iter().all(|v| v["accepted"] == true));
    assert_eq!(verdicts[1]["payload_hex"], hex::encode(b"two"));
    // The same capture again, as a later run: every message is a replay.
    let o = v2x(&[
        "decap",
        "--trust",
        p(&dir),
        "--state",
        p(&state),
        "--batch",
        "--in",
        p(&pcap),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.matches("rejected: duplicate-message").count(), 2, "{out}");
}

/// RFC 3339 for `--at`.
fn rfc3339(t: TaiTime) -> String {
    let d = t.to_system_time().duration_since(std::time::UNIX_EPOCH).unwrap();
    let t = ::time::OffsetDateTime::from_unix_timestamp_nanos(d.as_nanos() as i128).unwrap();
    t.format(&::time::format_description::well_known::Rfc3339).unwrap()
}

#[test]
fn an_aa_learnt_by_p2pcd_is_kept_by_the_state_for_other_tickets() {
    let tmp = tempfile::tempdir().unwrap();
    let fx = InMemoryPki::builder().build().unwrap();
    let trust = tmp.path().join("trust");
    std::fs::create_dir(&trust).unwrap();
    std::fs::write(trust.join("root.oer"), fx.root.certificate.encoded()).unwrap();
    // A root's CRL beside it (without one its chains are revocation-status-unknown).
    std::fs::write(trust.join("crl.oer"), fx.crl(&[], 1).unwrap()).unwrap();
    let ms = Duration::from_millis;
    let t = |n: u64| fx.now.saturating_add(ms(n));
    // A's CAMs; B, who trusts only the root, asks for A's AA; A answers in its next CAM.
    let mut a = fx.sender(fx.ticket().unwrap());
    let mut b_store = TrustStore::new();
    b_store.add_trust_anchor(fx.root.certificate.clone()).unwrap();
    let mut b = SecurityEntity::with_credentials(b_store, fx.ticket().unwrap(), vec![fx.aa.certificate.clone()]);
    let a0 = a.encap(&EncapRequest::cam(b"a0").at(t(0))).unwrap();
    assert!(b.decap_at(&a0.bytes, t(0)).is_err());
    let b0 = b.encap(&EncapRequest::cam(b"b0").at(t(200))).unwrap();
    a.decap_at(&b0.bytes, t(200)).unwrap();
    let a2 = a.encap(&EncapRequest::cam(b"a2").at(t(300))).unwrap();
    // A third station of the same AA, heard in a later run: its CAM carries its ticket only.
    let mut c = fx.sender(fx.ticket().unwrap());
    let c0 = c.encap(&EncapRequest::cam(b"c0").at(t(400))).unwrap();
    assert!(c0.signer_was_certificate);

    let (run1, run2) = (tmp.path().join("run1.txt"), tmp.path().join("run2.txt"));
    std::fs::write(
        &run1,
        format!("{}\n{}\n", hex::encode(&a0.bytes), hex::encode(&a2.bytes)),
    )
    .unwrap();
    std::fs::write(&run2, format!("{}\n", hex::encode(&c0.bytes))).unwrap();
    let state = tmp.path().join("state");
    let at1 = rfc3339(t(300));
    let at2 = rfc3339(t(400));
    let o = v2x(&[
        "decap",
        "--trust",
        p(&trust),
        "--state",
        p(&state),
        "--batch",
        "--at",
        &at1,
        "--in",
        p(&run1),
    ]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        out.contains("line 1: rejected: issuer-certificate-not-found"),
        "{}",
        text(&o)
    );
    assert!(
        out.contains("line 2: accepted"),
        "the AA answered by P2PCD: {}",
        text(&o)
    );
    // Without the state the third station's AA is unknown; with it, it is known.
    let o = v2x(&["decap", "--trust", p(&trust), "--batch", "--at", &at2, "--in", p(&run2)]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("rejected: issuer-certificate-not-found"),
        "{}",
        text(&o)
    );
    let o = v2x(&[
        "decap",
        "--trust",
        p(&trust),
        "--state",
        p(&state),
        "--batch",
        "--at",
        &at2,
        "--in",
        p(&run2),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}
