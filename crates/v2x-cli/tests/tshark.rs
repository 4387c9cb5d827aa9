//! Interoperability with Wireshark: `v2x pcap` writes a capture of secured CAMs and DENMs,
//! and `tshark` (an independent decoder) must take every packet through the
//! GeoNetworking, IEEE 1609.2, BTP-B and ITS (CAM/DENM) dissectors with no malformed
//! packet and no expert warning or error.
//!
//! tshark missing makes this test FAIL, unless V2X_SKIP_TSHARK=1 (CI installs tshark).
//! V2X_KEEP_PCAP=DIR keeps the capture and tshark's output there for a look.

use std::path::Path;
use std::process::Command;

const V2X: &str = env!("CARGO_BIN_EXE_v2x");

fn tshark_available() -> bool {
    if Command::new("tshark").arg("--version").output().is_ok() {
        return true;
    }
    if std::env::var("V2X_SKIP_TSHARK").as_deref() == Ok("1") {
        eprintln!("tshark is not installed; test skipped because V2X_SKIP_TSHARK=1");
        return false;
    }
    panic!(
        "tshark is not installed: install it (apt-get install -y tshark) or set V2X_SKIP_TSHARK=1 to skip \
         the Wireshark interoperability test"
    );
}

fn tshark(pcap: &Path, args: &[&str]) -> String {
    let out = Command::new("tshark")
        .arg("-r")
        .arg(pcap)
        .args(args)
        .output()
        .expect("run tshark");
    assert!(
        out.status.success(),
        "tshark {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A PKI made the way users make it: `v2x pki init --dir DIR`.
fn make_pki(dir: &Path) {
    let o = Command::new(V2X)
        .args(["pki", "init", "--dir"])
        .arg(dir)
        .output()
        .expect("run v2x pki init");
    assert!(
        o.status.success(),
        "v2x pki init failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn run_pcap(pki: &Path, out: &Path, extra: &[&str]) -> String {
    let o = Command::new(V2X)
        .args(["pcap", "--pki"])
        .arg(pki)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("run v2x pcap");
    assert!(
        o.status.success(),
        "v2x pcap failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn tshark_decodes_every_secured_packet_without_errors() {
    if !tshark_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pki = dir.path().join("pki");
    make_pki(&pki);
    let pcap = dir.path().join("v2x.pcap");
    // 3 stations at 10 Hz for ~1.3 s: each sends 13 messages, the 5th and 10th a DENM.
    let summary = run_pcap(
        &pki,
        &pcap,
        &["--count", "39", "--rate", "10", "--stations", "3", "--denm-every", "5"],
    );
    assert!(summary.contains("wrote 39 packets"), "{summary}");

    let stacks = tshark(&pcap, &["-T", "fields", "-e", "frame.protocols"]);
    let expert = tshark(&pcap, &["-q", "-z", "expert"]);
    let detail = tshark(&pcap, &["-V"]);
    if let Ok(keep) = std::env::var("V2X_KEEP_PCAP") {
        let keep = Path::new(&keep);
        std::fs::create_dir_all(keep).unwrap();
        std::fs::copy(&pcap, keep.join("v2x.pcap")).unwrap();
        std::fs::write(keep.join("tshark-V.txt"), &detail).unwrap();
        std::fs::write(keep.join("tshark-expert.txt"), &expert).unwrap();
    }

    let stacks: Vec<&str> = stacks.lines().collect();
    assert_eq!(stacks.len(), 39, "tshark saw {} packets", stacks.len());
    for (i, s) in stacks.iter().enumerate() {
        assert_eq!(
            *s,
            "eth:ethertype:gnw:ieee1609dot2:btpb:its",
            "packet {} protocol stack",
            i + 1
        );
    }
    // Wireshark notes (not warns) RHL < 5 whenever the basic header's next header is not
    // a common header; single-hop broadcast requires RHL = 1, so every secured SHB packet
    // gets that note. Anything at warning or error level fails the test.
    for bad in ["Errors (", "Warns (", "Malformed"] {
        assert!(!expert.contains(bad), "tshark expert info contains {bad}:\n{expert}");
    }
    assert!(!detail.contains("Malformed"), "malformed packet in:\n{detail}");

    // 2 DENMs per station, 11 CAMs per station.
    assert_eq!(detail.matches("messageID: denm (1)").count(), 6, "DENMs");
    assert_eq!(detail.matches("messageID: cam (2)").count(), 33, "CAMs");
    // The PSID of each message is the line after its headerInfo (certificates list PSIDs too).
    let lines: Vec<&str> = detail.lines().map(str::trim).collect();
    let header_psids: Vec<&str> = lines
        .windows(2)
        .filter(|w| w[0] == "headerInfo")
        .map(|w| w[1])
        .collect();
    assert_eq!(header_psids.len(), 39);
    assert_eq!(
        header_psids
            .iter()
            .filter(|l| **l == "psid: psid-ca-basic-services (36)")
            .count(),
        33
    );
    assert_eq!(
        header_psids
            .iter()
            .filter(|l| **l == "psid: psid-den-basic-services (37)")
            .count(),
        6
    );
    // Certificate once per second for CAMs (first CAM and again after 1 s per station),
    // always for DENMs; the other CAMs carry the digest.
    let digests = detail.matches("signer: digest (0)").count();
    let certificates = detail.matches("signer: certificate (1)").count();
    assert_eq!(digests + certificates, 39);
    assert_eq!(
        certificates,
        6 + 3 * 2,
        "signer certificates: 6 DENMs + 2 CAMs per station"
    );
    assert!(
        detail.contains("generationLocation"),
        "DENMs carry the generation location"
    );
    assert!(detail.contains("ecdsaNistP256Signature"));
}

#[test]
fn tshark_decodes_v1_2_1_secured_packets_without_errors() {
    if !tshark_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pki = dir.path().join("pki");
    make_pki(&pki);
    let pcap = dir.path().join("v121.pcap");
    let summary = run_pcap(
        &pki,
        &pcap,
        &[
            "--format",
            "v1.2.1",
            "--count",
            "30",
            "--rate",
            "10",
            "--stations",
            "2",
            "--denm-every",
            "5",
        ],
    );
    assert!(summary.contains("wrote 30 packets"), "{summary}");
    // The v1.2.1 credentials were created beside the PKI.
    assert!(pki.join("v1.2.1/root.cert").exists() && pki.join("v1.2.1/aa.cert").exists());

    let stacks = tshark(&pcap, &["-T", "fields", "-e", "frame.protocols"]);
    let expert = tshark(&pcap, &["-q", "-z", "expert"]);
    let detail = tshark(&pcap, &["-V"]);
    if let Ok(keep) = std::env::var("V2X_KEEP_PCAP") {
        let keep = Path::new(&keep);
        std::fs::create_dir_all(keep).unwrap();
        std::fs::copy(&pcap, keep.join("v121.pcap")).unwrap();
        std::fs::write(keep.join("v121-tshark-V.txt"), &detail).unwrap();
        std::fs::write(keep.join("v121-tshark-expert.txt"), &expert).unwrap();
    }
    let stacks: Vec<&str> = stacks.lines().collect();
    assert_eq!(stacks.len(), 30);
    for (i, s) in stacks.iter().enumerate() {
        // Wireshark decodes v1.2.1 security inside its GeoNetworking dissector.
        assert_eq!(*s, "eth:ethertype:gnw:btpb:its", "packet {} protocol stack", i + 1);
    }
    for bad in ["Errors (", "Warns (", "Malformed"] {
        assert!(!expert.contains(bad), "tshark expert info contains {bad}:\n{expert}");
    }
    assert!(!detail.contains("Malformed"), "malformed packet in:\n{detail}");
    assert_eq!(detail.matches("messageID: denm (1)").count(), 6, "DENMs");
    assert_eq!(detail.matches("messageID: cam (2)").count(), 24, "CAMs");
    // Signer: the certificate for the 6 DENMs and for 2 CAMs per station (at 0 s and 1 s),
    // the digest otherwise; each carried certificate names its AA by digest as well.
    assert_eq!(detail.matches("Signer info type: Certificate (2)").count(), 10);
    assert_eq!(
        detail
            .matches("Signer info type: Certificate digest with ecdsap256 (1)")
            .count(),
        20 + 10
    );
}

// Every v1.2.1 payload type, signer type and curve, built with the v1.2.1 entity
// directly, is checked against tshark in tests/tshark_v1_2_1.rs.
