//! Wireshark as an independent decoder of TS 103 097 v1.2.1 secured GeoNetworking
//! packets: every payload type (unsecured, signed, encrypted, signed_external,
//! signed_and_encrypted) and every signer type (self, certificate digest, certificate,
//! certificate chain, digest with other algorithm), plus the non-standard curve
//! extension, written to a pcap and dissected by `tshark -V` with no malformed-packet
//! and no error or warning expert info.
//!
//! The packets are what `v2x pcap --format v1.2.1` writes: B's GeoNetworking emitter
//! (basic header with next header = secured packet, then the SecuredMessage whose
//! payload is the common header + SHB + BTP-B + application data) and B's pcap writer.
//!
//! Known Wireshark bug (tshark 4.0.x, packet-geonw.c), tolerated only in its exact form:
//! for protocol version 2 the dissector *labels* header type 129 "Encryption parameters"
//! and 130 "Recipient info" (the v1.2.1 values, which Vanetza and other implementations
//! use too), but its switch still *dissects* 129 as a recipient_info list and 130 as
//! encryption parameters (the v1.1.1 assignment). So every standard v1.2.1 encrypted or
//! signed_and_encrypted message is cut at the encryption_parameters field: Wireshark
//! reads our symmetric algorithm byte (aes_128_ccm = 0) as an empty recipient list and
//! then runs off the end. For those payload types the test requires everything before
//! that field to dissect cleanly and the failure to be exactly this misreading; if a
//! fixed Wireshark dissects them cleanly, the test passes the strict way.
//!
//! Not covered (Wireshark limitation, documented): AES-256-CCM. The GeoNetworking
//! dissector hard-codes aes_128_ccm's 16-byte wrapped key when it dissects recipient
//! info (its own "XXX SymmetricAlgorithm should be provided by preceding
//! EncryptionParameter" comment), so a 32-byte key of our AES-256 extension is
//! mis-split by it; our own decoder handles it (crates/v2x-wire/tests/v1_2_1_codec.rs).
//!
//! tshark must be installed; set V2X_SKIP_TSHARK=1 to skip where it cannot be.

use std::process::Command;
use v2x_crypto::Curve;
use v2x_security::time::TaiTime;
use v2x_security::v1_2_1::{SignerChoice, V1EncapRequest, V1Entity, V1Pki, V1Profile, V1Protection, V1TrustStore};
use v2x_wire::geonet::{self, GnAddress, LongPositionVector, NetworkPart};
use v2x_wire::pcap::{geonet_frame, PcapWriter};
use v2x_wire::v1_2_1::{GeographicRegion, HeaderField, SecuredMessage, SignerInfo, ThreeDLocation, TwoDLocation};

const START: u32 = 600_000_000;

fn tshark_available() -> bool {
    if Command::new("tshark")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
    {
        return true;
    }
    if std::env::var("V2X_SKIP_TSHARK").as_deref() == Ok("1") {
        eprintln!("tshark not installed; skipped because V2X_SKIP_TSHARK=1");
        return false;
    }
    panic!("tshark is not installed (apt-get install tshark), or set V2X_SKIP_TSHARK=1 to skip");
}

/// The network part a secured packet protects: common header, SHB, BTP-B to a port
/// without a facilities dissector (so the check is about the security layer only).
fn network_part(seq: u8) -> Vec<u8> {
    let pv = LongPositionVector {
        address: GnAddress::new(5, [2, 0, 0, 0, 0, seq]),
        timestamp: 123_456,
        latitude: 481_000_000,
        longitude: 115_000_000,
        accurate: true,
        speed: 1389,
        heading: 900,
    };
    static DATA: [u8; 40] = [0x42; 40];
    NetworkPart::shb(pv, 60_000, &DATA)
        .to_bytes()
        .expect("network part encodes")
}

struct Case {
    label: String,
    secured: Vec<u8>,
    /// Strings tshark must print for this packet (proof the fields were dissected).
    expect: Vec<&'static str>,
    encrypted: bool,
}

fn build_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for curve in Curve::ALL {
        let pki = V1Pki::generate(curve, START, 30).unwrap();
        let mut store = V1TrustStore::new();
        store.add_anchor(pki.root.certificate.clone());
        store.add_authority(pki.aa.certificate.clone());
        // Tickets with the region kinds Wireshark 4.0 dissects correctly. Left out: a
        // rectangle region (Wireshark reads one rectangle without the <var> length of
        // §4.2.20) and an identified region (its local_region IntX hits a field-type
        // assertion: "Dissector bug ... geonw.sec.local_region is not of type
        // FT_UINT40..."). Both are dissector bugs; our codec round-trips both.
        let a = TwoDLocation {
            latitude: 481_000_000,
            longitude: 115_000_000,
        };
        let b = TwoDLocation {
            latitude: 482_000_000,
            longitude: 116_000_000,
        };
        let (region, region_name) = match curve {
            Curve::NistP256 => (
                GeographicRegion::Circle {
                    center: a,
                    radius: 20_000,
                },
                "Region type: circle",
            ),
            Curve::NistP384 => (
                GeographicRegion::Polygon(vec![
                    a,
                    b,
                    TwoDLocation {
                        latitude: 480_000_000,
                        longitude: 116_000_000,
                    },
                ]),
                "Region type: polygon",
            ),
            Curve::BrainpoolP256r1 => (
                GeographicRegion::Circle {
                    center: b,
                    radius: 1_000,
                },
                "Region type: circle",
            ),
            Curve::BrainpoolP384r1 => (GeographicRegion::None, "Region type: none"),
        };
        let alice = pki.ticket(curve, START, 7, Some(region)).unwrap();
        let bob = pki.ticket(curve, START, 7, None).unwrap();
        let mut entity = V1Entity::new(
            Some(alice),
            vec![pki.root.certificate.clone(), pki.aa.certificate.clone()],
            store,
        );
        let now = TaiTime((u64::from(START) + 100) * 1_000_000);
        let recipients = [bob.certificate.clone()];
        let loc = ThreeDLocation {
            latitude: 481_000_000,
            longitude: 115_000_000,
            elevation: [0, 10],
        };
        let protections: &[(V1Protection, &'static str)] = &[
            (V1Protection::InsecureUnsecured, "Unsecured"),
            (V1Protection::Sign, "Signed"),
            (V1Protection::Encrypt, "Encrypted"),
            (V1Protection::SignExternal, "Signed external"),
            (V1Protection::SignAndEncrypt, "Signed and encrypted"),
        ];
        for (i, (protection, pt_name)) in protections.iter().enumerate() {
            for (signer, signer_name) in [
                (SignerChoice::Digest, "Certificate digest with ecdsap256"),
                (SignerChoice::Certificate, "Certificate"),
                (SignerChoice::Chain, "Certificate chain"),
            ] {
                if *protection == V1Protection::InsecureUnsecured && signer != SignerChoice::Digest {
                    continue;
                }
                let payload = network_part(i as u8);
                let mut req = V1EncapRequest::new(V1Profile::Generic { its_aid: 36 }, &payload, now);
                req.protection = *protection;
                req.signer = signer;
                req.recipients = &recipients;
                req.location = Some(loc);
                let secured = entity.encap(&req).unwrap();
                let mut expect = vec![*pt_name];
                if *protection != V1Protection::InsecureUnsecured {
                    expect.push(signer_name);
                    if signer != SignerChoice::Digest {
                        expect.push(region_name);
                    }
                }
                if signer == SignerChoice::Chain && *protection != V1Protection::InsecureUnsecured {
                    expect.push("Self signed"); // the root inside the chain
                }
                let encrypted = matches!(protection, V1Protection::Encrypt | V1Protection::SignAndEncrypt);
                cases.push(Case {
                    label: format!("{curve} {pt_name} / {signer:?}"),
                    secured,
                    expect,
                    encrypted,
                });
            }
        }
        // Signer types the entity never emits for messages: self and digest with other algorithm.
        let payload = network_part(9);
        let mut req = V1EncapRequest::new(V1Profile::Denm, &payload, now);
        req.location = Some(loc);
        let base = SecuredMessage::from_bytes(&entity.encap(&req).unwrap()).unwrap();
        for (si, name) in [
            (SignerInfo::SelfSigned, "Self signed"),
            (
                SignerInfo::CertificateDigestWithOtherAlgorithm {
                    algorithm: v2x_wire::v1_2_1::PublicKeyAlgorithm::ecdsa(v2x_security::v1_2_1::crypto::to_v1_curve(
                        curve,
                    )),
                    digest: [7; 8],
                },
                "Certificate digest with other algorithm",
            ),
        ] {
            let mut m = base.clone();
            m.header_fields[0] = HeaderField::SignerInfo(si);
            cases.push(Case {
                label: format!("{curve} signer {name}"),
                secured: m.to_bytes(),
                expect: vec!["Signed", name],
                encrypted: false,
            });
        }
        // A request_unrecognized_certificate exchange CAM.
        let mut m = base.clone();
        m.header_fields.insert(
            3,
            HeaderField::RequestUnrecognizedCertificate(vec![[1, 2, 3], [4, 5, 6]]),
        );
        cases.push(Case {
            label: format!("{curve} request_unrecognized_certificate"),
            secured: m.to_bytes(),
            expect: vec!["Request unrecognized certificate"],
            encrypted: false,
        });
    }
    cases
}

const BAD: [&str; 4] = [
    "Malformed",
    "Expert Info (Error",
    "Expert Info (Warning",
    "Exception occurred",
];

/// The part of a frame's dissection before Wireshark's misreading of header type 129,
/// if the frame shows exactly that misreading: the field is labelled "Encryption
/// parameters (129)" but dissected as a recipient list whose length is our aes_128_ccm
/// byte (0). What follows is garbage to Wireshark (usually "Malformed", sometimes
/// random nonce bytes that happen to parse as unknown header fields).
fn known_encryption_parameters_bug(frame: &str) -> Option<&str> {
    let at = frame.find("Header field type: Encryption parameters (129)")?;
    let misread = frame[at..].lines().take(4).any(|l| l.contains("Var length value: 0"));
    misread.then_some(&frame[..at])
}

fn frames(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("Frame ") {
            out.push(String::new());
        }
        if let Some(last) = out.last_mut() {
            last.push_str(line);
            last.push('\n');
        }
    }
    out
}

#[test]
fn tshark_dissects_every_v1_2_1_payload_and_signer_type_without_errors() {
    if !tshark_available() {
        return;
    }
    let cases = build_cases();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1_2_1.pcap");
    let mut w = PcapWriter::new(std::fs::File::create(&path).unwrap()).unwrap();
    for (i, c) in cases.iter().enumerate() {
        // Our own decoder accepts every packet first.
        SecuredMessage::from_bytes(&c.secured).unwrap_or_else(|e| panic!("{}: {e}", c.label));
        let gn = geonet::secured_packet(&c.secured);
        w.write_frame(
            1_700_000_000_000_000 + i as u64 * 100_000,
            &geonet_frame([2, 0, 0, 0, 0, 1], &gn),
        )
        .unwrap();
    }
    w.into_inner().unwrap();
    if let Ok(keep) = std::env::var("V2X_KEEP_PCAP") {
        std::fs::copy(&path, keep).unwrap();
    }
    let out = Command::new("tshark")
        .arg("-r")
        .arg(&path)
        .arg("-V")
        .output()
        .expect("run tshark");
    assert!(
        out.status.success(),
        "tshark failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let frames = frames(&text);
    assert_eq!(frames.len(), cases.len(), "tshark saw a different number of frames");
    let mut strict = 0;
    let mut known_bug = 0;
    for (c, f) in cases.iter().zip(&frames) {
        assert!(
            f.contains("GeoNetworking"),
            "{}: not dissected as GeoNetworking\n{f}",
            c.label
        );
        assert!(
            f.contains("Secured Packet") && f.contains("Version: 2"),
            "{}: no v1.2.1 secured packet\n{f}",
            c.label
        );
        let bug = if c.encrypted {
            known_encryption_parameters_bug(f)
        } else {
            None
        };
        match bug {
            Some(prefix) => {
                // Everything before the misread field must be clean and complete; the
                // payload type (first expectation) comes after it and is not checked.
                assert!(
                    BAD.iter().all(|b| !prefix.contains(b)),
                    "{}: error before encryption_parameters\n{f}",
                    c.label
                );
                for e in c.expect.iter().skip(1) {
                    assert!(prefix.contains(e), "{}: tshark output lacks {e:?}\n{f}", c.label);
                }
                known_bug += 1;
            }
            None => {
                for b in BAD.iter().chain(&["Header field type: Unknown"]) {
                    assert!(!f.contains(b), "{}: tshark reports {b:?}\n{f}", c.label);
                }
                for e in &c.expect {
                    assert!(f.contains(e), "{}: tshark output lacks {e:?}\n{f}", c.label);
                }
                strict += 1;
            }
        }
    }
    eprintln!(
        "tshark: {strict} packets dissected cleanly, {known_bug} cut by the known encryption_parameters (129) bug"
    );
    assert!(strict > 0);
}

// The capture `v2x pcap --format v1.2.1` writes is checked against tshark in tests/tshark.rs.
