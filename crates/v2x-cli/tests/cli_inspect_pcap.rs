//! End-to-end tests of `v2x inspect` and `v2x pcap`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use v2x_security::{EncapRequest, Pki, PkiConfig, SecurityEntity, TaiTime};
use v2x_wire::geonet::{GnPacket, NetworkPart};
use v2x_wire::ieee1609dot2 as d2;
use v2x_wire::pcap::{read_pcap, EthernetFrame};

mod common;
use common::lossy;

const V2X: &str = env!("CARGO_BIN_EXE_v2x");

fn v2x(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(V2X)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn v2x");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    } else {
        drop(child.stdin.take());
    }
    child.wait_with_output().unwrap()
}

fn pki(dir: &Path) -> Pki {
    Pki::init(&dir.join("pki"), PkiConfig::default(), "vehicle-1").expect("create PKI")
}

/// A signed CAM-profile message (the first one carries the full certificate).
fn signed_message(pki: &Pki) -> Vec<u8> {
    let mut e = pki.entity("vehicle-1").unwrap();
    e.encap(&EncapRequest::cam(b"hello inspect")).unwrap().bytes
}

#[test]
fn inspect_binary_hex_and_stdin_give_the_same_tree() {
    let dir = tempfile::tempdir().unwrap();
    let pki = pki(dir.path());
    let msg = signed_message(&pki);
    let bin = dir.path().join("msg.oer");
    std::fs::write(&bin, &msg).unwrap();
    let hexfile = dir.path().join("msg.hex");
    // Hex with whitespace, line breaks and a 0x prefix.
    let spaced: Vec<String> = msg.chunks(16).map(hex::encode).collect();
    std::fs::write(&hexfile, format!("0x{}\n", spaced.join("\n  "))).unwrap();

    let a = v2x(&["inspect", bin.to_str().unwrap()], None);
    assert!(a.status.success(), "{}", lossy(&a.stderr));
    let out = lossy(&a.stdout);
    for want in [
        "IEEE 1609.2 / TS 103 097 v2 secured data",
        "protocolVersion: 3",
        "content: signedData",
        "hashId: sha256",
        "psid: 36 (0x24, CA basic service (CAM))",
        "signer: certificate (1)",
        "sSig:",
        "unsecuredData: 13 bytes: 68656c6c6f20696e7370656374",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    // Generation time as RFC 3339 UTC.
    let gen = out
        .lines()
        .find(|l| l.trim_start().starts_with("generationTime:"))
        .expect("generationTime line");
    assert!(gen.contains('T') && gen.contains("Z ("), "{gen}");

    let b = v2x(&["inspect", hexfile.to_str().unwrap()], None);
    assert!(b.status.success(), "{}", lossy(&b.stderr));
    assert_eq!(lossy(&b.stdout), out, "hex input decodes like binary");

    let c = v2x(&["inspect", "-"], Some(&msg));
    assert!(c.status.success(), "{}", lossy(&c.stderr));
    assert_eq!(lossy(&c.stdout), out, "stdin decodes like a file");

    let d = v2x(&["inspect", "-", "--hex"], Some(hex::encode(&msg).as_bytes()));
    assert!(d.status.success());
    assert!(
        lossy(&d.stdout).contains("tbsData  [@"),
        "--hex shows byte ranges:\n{}",
        lossy(&d.stdout)
    );
}

#[test]
fn inspect_json_and_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let _pki = pki(dir.path());
    let cert = dir.path().join("pki/root/cert.oer");
    let o = v2x(&["inspect", cert.to_str().unwrap(), "--json"], None);
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&lossy(&o.stdout)).expect("valid JSON");
    assert_eq!(v["format"], "Ieee1609Dot2Certificate");
    assert_eq!(v["tree"]["label"], "Certificate");
    let s = lossy(&o.stdout);
    assert!(s.contains("\"issuer\"") && s.contains("self (sha256)"), "{s}");
    assert!(s.contains("validityPeriod") && s.contains("verifyKeyIndicator"), "{s}");
}

#[test]
fn inspect_garbage_fails_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("text", b"this is not a message\n".to_vec()),
        ("binary", vec![0x03, 0x81, 0x00, 0x40, 0xff]),
        ("empty", Vec::new()),
        ("gn", vec![0x12, 0x00, 0x05, 0x01, 0x03, 0x81]),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let o = v2x(&["inspect", path.to_str().unwrap()], None);
        assert_eq!(o.status.code(), Some(2), "{name}: exit status");
        let err = lossy(&o.stderr);
        assert!(err.contains("not a recognised format"), "{name}: {err}");
    }
    let o = v2x(&["inspect", "-"], Some(b"0x03 0x81 0x00"));
    assert_eq!(o.status.code(), Some(2));
    assert!(lossy(&o.stderr).contains("tried IEEE 1609.2"), "{}", lossy(&o.stderr));
    let o = v2x(&["inspect", "/nonexistent/file"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(lossy(&o.stderr).contains("reading /nonexistent/file"));
}

#[test]
fn pcap_packets_verify_and_inspect() {
    let dir = tempfile::tempdir().unwrap();
    let pki = pki(dir.path());
    let out = dir.path().join("cap.pcap");
    let o = v2x(
        &[
            "pcap",
            "--pki",
            dir.path().join("pki").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--count",
            "24",
            "--stations",
            "2",
            "--rate",
            "10",
            "--denm-every",
            "6",
        ],
        None,
    );
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let summary = lossy(&o.stdout);
    // Per station: 12 messages, DENMs at 6 and 12; CAM certificates at 0 s and 1 s.
    assert!(summary.contains("wrote 24 packets from 2 station(s)"), "{summary}");
    assert!(
        summary.contains("4 CAMs with the signer certificate, 16 CAMs with its digest, 4 DENMs"),
        "{summary}"
    );
    // A second station was enrolled in the PKI.
    assert!(pki.stations().contains(&"pcap-1".to_string()));

    // Every packet: broadcast Ethernet, GeoNetworking secured SHB whose 1609.2 payload is the
    // network part, and SN-DECAP (strict, with the PKI as trust anchor) accepts it.
    let bytes = std::fs::read(&out).unwrap();
    let records = read_pcap(&bytes).unwrap();
    assert_eq!(records.len(), 24);
    let mut receiver = SecurityEntity::new(pki.trust_store().unwrap());
    let mut last = 0;
    for (i, r) in records.iter().enumerate() {
        assert!(r.unix_micros >= last, "timestamps increase");
        last = r.unix_micros;
        let eth = EthernetFrame::parse(r.data).unwrap();
        assert_eq!(eth.destination, [0xff; 6]);
        assert_eq!(eth.ethertype, 0x8947);
        let secured = match GnPacket::parse(eth.payload).unwrap() {
            GnPacket::Secured { basic, secured } => {
                assert_eq!(basic.version, 1);
                assert_eq!(basic.remaining_hop_limit, 1);
                secured
            }
            other => panic!("packet {i} not secured: {other:?}"),
        };
        let (data, _) = d2::parse_data(secured).unwrap();
        let signed = d2::signed_data(&data).expect("signed");
        let inner = d2::signed_unsecured_payload(signed).expect("payload");
        let net = NetworkPart::parse(inner).unwrap();
        assert!(matches!(net.btp.destination_port, 2001 | 2002));
        let t = TaiTime(d2::header_info(signed).generation_time.as_ref().unwrap().0);
        let accepted = receiver
            .decap_at(secured, t)
            .unwrap_or_else(|e| panic!("packet {i} rejected: {e:?}"));
        assert_eq!(accepted.payload, inner);
    }

    let o = v2x(&["inspect", out.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let s = lossy(&o.stdout);
    assert!(s.starts_with("pcap capture"), "{s}");
    assert_eq!(
        s.lines().filter(|l| l.trim() == "CAM (EN 302 637-2)").count(),
        20,
        "{s}"
    );
    assert_eq!(s.matches("DENM (EN 302 637-3)").count(), 4);
    assert_eq!(s.matches("Secured Packet (IEEE 1609.2 / TS 103 097 v2)").count(), 24);
    assert_eq!(s.matches("Destination Port: 2001 (CAM)").count(), 20);
}

#[test]
fn pcap_rejects_bad_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let _pki = pki(dir.path());
    let pki_dir = dir.path().join("pki");
    let out = dir.path().join("x.pcap");
    for (extra, want) in [
        (vec!["--count", "0"], "--count must be"),
        (vec!["--rate", "0"], "--rate must be"),
        (vec!["--rate", "0.001"], "--rate must be"),
        (vec!["--rate", "NaN"], "--rate must be"),
        (vec!["--count", "2000000"], "--count must be"),
        (vec!["--stations", "0"], "--stations must be"),
    ] {
        let mut args = vec![
            "pcap",
            "--pki",
            pki_dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = v2x(&args, None);
        assert_eq!(o.status.code(), Some(2));
        assert!(lossy(&o.stderr).contains(want), "{}", lossy(&o.stderr));
    }
    let o = v2x(
        &[
            "pcap",
            "--pki",
            dir.path().join("missing").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(lossy(&o.stderr).contains("opening PKI"), "{}", lossy(&o.stderr));
}

#[test]
fn inspect_encrypted_data_shows_recipients_and_ciphertext() {
    let dir = tempfile::tempdir().unwrap();
    let pki = pki(dir.path());
    let ticket = pki.tickets("vehicle-1").unwrap().remove(0);
    let mut e = pki.entity("vehicle-1").unwrap();
    let req =
        EncapRequest::cam(b"secret").encrypted_to(v2x_security::Recipient::Certificate(ticket.certificate.clone()));
    let msg = e.encap(&req).unwrap().bytes;
    let o = v2x(&["inspect", "-"], Some(&msg));
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let s = lossy(&o.stdout);
    for want in [
        "content: encryptedData",
        "recipients: 1",
        "certRecipInfo",
        "recipientId:",
        "encKey: eciesNistP256",
        "ciphertext: aes128ccm",
        "nonce:",
        "ccmCiphertext:",
    ] {
        assert!(s.contains(want), "missing {want:?} in:\n{s}");
    }
    let id = hex::encode(ticket.certificate.hashed_id8().0);
    assert!(
        s.contains(&format!("recipientId: {id}")),
        "recipient is the ticket's HashedId8 {id}:\n{s}"
    );
}

#[test]
fn inspect_v1_2_1_message_bare_and_in_geonetworking() {
    use v2x_security::v1_2_1::{V1EncapRequest, V1Entity, V1Pki, V1Profile, V1TrustStore};
    use v2x_wire::geonet::{secured_packet, GnAddress, LongPositionVector, BTP_PORT_CAM};

    let now = TaiTime::now();
    let start = (now.0 / 1_000_000) as u32 - 3600;
    let v1 = V1Pki::generate(v2x_crypto::Curve::NistP256, start, 30).unwrap();
    let ticket = v1.ticket(v2x_crypto::Curve::NistP256, start, 7, None).unwrap();
    let mut e = V1Entity::new(Some(ticket), vec![v1.aa.certificate.clone()], V1TrustStore::new());
    let pv = LongPositionVector {
        address: GnAddress::new(5, [2, 0, 0, 0, 0, 9]),
        timestamp: 1,
        latitude: 487_000_000,
        longitude: 91_000_000,
        accurate: true,
        speed: 100,
        heading: 900,
    };
    let net = NetworkPart::shb(pv, BTP_PORT_CAM, b"opaque cam").to_bytes().unwrap();
    let msg = e.encap(&V1EncapRequest::new(V1Profile::Cam, &net, now)).unwrap();

    let o = v2x(&["inspect", "-", "--json"], Some(&msg));
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&lossy(&o.stdout)).unwrap();
    assert_eq!(v["format"], "V1_2_1");

    let o = v2x(&["inspect", "-"], Some(hex::encode(secured_packet(&msg)).as_bytes()));
    assert!(o.status.success(), "{}", lossy(&o.stderr));
    let s = lossy(&o.stdout);
    assert!(s.starts_with("GeoNetworking packet"), "{s}");
    assert!(s.contains("Secured Packet (TS 103 097 v1.2.1)"), "{s}");
    assert!(s.contains("Destination Port: 2001 (CAM)"), "{s}");
    assert!(s.contains("bytes: 6f70617175652063616d"), "the opaque payload:\n{s}");
}
