//! GeoNetworking/BTP framing and the CAM/DENM encodings checked against Wireshark's
//! dissectors (tshark), independently of the security stack: unsecured packets, and
//! 1609.2 SignedData built directly with rasn-its types around the same network part.
//! The signature in the signed packets is a fixed filler (the dissector does not verify
//! signatures); real signed traffic is checked by `v2x-cli/tests/tshark.rs`.
//!
//! tshark missing fails the test unless V2X_SKIP_TSHARK=1.

use rasn_its::ieee1609dot2::base_types::{
    EccP256CurvePoint, EcdsaP256Signature, HashAlgorithm, HashedId8, Opaque, Psid, Signature, Time64,
};
use rasn_its::ieee1609dot2::{
    HeaderInfo, Ieee1609Dot2Content, Ieee1609Dot2Data, SignedData, SignedDataPayload, SignerIdentifier, ToBeSignedData,
};
use std::process::Command;
use v2x_wire::facilities::{encode_cam, encode_denm, hazard_denm, passenger_car_cam, VehicleState};
use v2x_wire::geonet::{
    secured_packet, BasicHeader, GnAddress, LongPositionVector, NetworkPart, BTP_PORT_CAM, BTP_PORT_DENM,
};
use v2x_wire::pcap::{geonet_frame, PcapWriter};

fn tshark_available() -> bool {
    if Command::new("tshark").arg("--version").output().is_ok() {
        return true;
    }
    if std::env::var("V2X_SKIP_TSHARK").as_deref() == Ok("1") {
        eprintln!("tshark not installed; skipped because V2X_SKIP_TSHARK=1");
        return false;
    }
    panic!("tshark is not installed (apt-get install -y tshark), or set V2X_SKIP_TSHARK=1 to skip this test");
}

fn vehicle(i: u32) -> VehicleState {
    VehicleState {
        station_id: 1000 + i,
        latitude: 487_700_000 + i as i32 * 1000,
        longitude: 91_800_000 - i as i32 * 700,
        speed: 1389,
        heading: 900,
        altitude_cm: 25_000,
    }
}

fn position(i: u32) -> LongPositionVector {
    let v = vehicle(i);
    LongPositionVector {
        address: GnAddress::new(5, [0x02, 0, 0, 0, 0, i as u8]),
        timestamp: 700_000_000 + i * 100,
        latitude: v.latitude,
        longitude: v.longitude,
        accurate: true,
        speed: v.speed as i16,
        heading: v.heading,
    }
}

fn dummy_signed(psid: u32, unsecured: Vec<u8>) -> Vec<u8> {
    let inner = Ieee1609Dot2Data::builder()
        .content(Ieee1609Dot2Content::UnsecuredData(Opaque(unsecured.into())))
        .build();
    let payload = SignedDataPayload::builder().data(inner).build().unwrap();
    let header = HeaderInfo::builder()
        .psid(Psid(psid.into()))
        .generation_time(Time64(700_000_000_000_000))
        .build();
    let tbs = ToBeSignedData::builder().payload(payload).header_info(header).build();
    let sig = Signature::EcdsaNistP256(EcdsaP256Signature {
        r_sig: EccP256CurvePoint::XOnly([0x11; 32].into()),
        s_sig: [0x22; 32].into(),
    });
    let signed = SignedData::builder()
        .hash_id(HashAlgorithm::Sha256)
        .tbs_data(tbs)
        .signer(SignerIdentifier::Digest(HashedId8([0x33; 8].into())))
        .signature(sig)
        .build();
    let data = Ieee1609Dot2Data::builder()
        .content(Ieee1609Dot2Content::SignedData(Box::new(signed)))
        .build();
    rasn::coer::encode(&data).unwrap()
}

fn frames() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for i in 0..4u32 {
        let cam = encode_cam(&passenger_car_cam(&vehicle(i), 1000 + i as u16, i % 2 == 0)).unwrap();
        let denm = encode_denm(&hazard_denm(&vehicle(i), i as u16, 600_000_000_000, 3, 0)).unwrap();
        for (port, psid, app) in [(BTP_PORT_CAM, 36, cam), (BTP_PORT_DENM, 37, denm)] {
            let net = NetworkPart::shb(position(i), port, &app).to_bytes().unwrap();
            let gn = if i < 2 {
                let mut gn = BasicHeader::shb(false).to_bytes();
                gn.extend_from_slice(&net);
                gn
            } else {
                secured_packet(&dummy_signed(psid, net))
            };
            out.push(geonet_frame([0x02, 0, 0, 0, 0, i as u8], &gn));
        }
    }
    out
}

#[test]
fn wireshark_decodes_geonet_btp_cam_denm_and_1609dot2() {
    if !tshark_available() {
        return;
    }
    let path = std::env::temp_dir().join(format!("v2x-geonet-probe-{}.pcap", std::process::id()));
    let frames = frames();
    let mut w = PcapWriter::new(std::fs::File::create(&path).unwrap()).unwrap();
    for (i, f) in frames.iter().enumerate() {
        w.write_frame(1_763_769_600_000_000 + i as u64 * 100_000, f).unwrap();
    }
    w.into_inner().unwrap();

    let run = |args: &[&str]| {
        let out = Command::new("tshark").arg("-r").arg(&path).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "tshark {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let protocols = run(&["-T", "fields", "-e", "frame.protocols"]);
    let expert = run(&["-q", "-z", "expert"]);
    let detail = run(&["-V"]);
    if std::env::var("V2X_KEEP").is_err() {
        let _ = std::fs::remove_file(&path);
    }
    let stacks: Vec<&str> = protocols.lines().collect();
    assert_eq!(stacks.len(), frames.len(), "packet count");
    for (i, stack) in stacks.iter().enumerate() {
        let want = if i < 4 {
            "eth:ethertype:gnw:btpb:its"
        } else {
            "eth:ethertype:gnw:ieee1609dot2:btpb:its"
        };
        assert_eq!(*stack, want, "packet {i} protocol stack");
    }
    // Notes are allowed: Wireshark notes RHL < 5 whenever the basic header's next header is
    // not a common header, which every secured SHB packet triggers (SHB requires RHL = 1).
    for bad in ["Errors (", "Warns (", "Malformed"] {
        assert!(!expert.contains(bad), "expert info has {bad}:\n{expert}");
    }
    assert!(!detail.contains("Malformed"), "{detail}");
    assert_eq!(detail.matches("messageID: cam (2)").count(), 4);
    assert_eq!(detail.matches("messageID: denm (1)").count(), 4);
    assert_eq!(detail.matches("psid: psid-ca-basic-services (36)").count(), 2);
    assert_eq!(detail.matches("psid: psid-den-basic-services (37)").count(), 2);
}
