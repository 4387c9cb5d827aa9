//! Random and mutated bytes into the GeoNetworking/BTP parser, the CAM/DENM decoders, the
//! pcap reader and the `inspect` entry point: errors, never panics; valid packets round-trip.

use proptest::prelude::*;
use v2x_wire::facilities::{
    decode_cam, decode_denm, encode_cam, encode_denm, hazard_denm, passenger_car_cam, VehicleState,
};
use v2x_wire::geonet::{secured_packet, BasicHeader, GnAddress, GnPacket, LongPositionVector, NetworkPart};
use v2x_wire::inspect::{decode_input, inspect_any};
use v2x_wire::pcap::{geonet_frame, read_pcap, PcapWriter};

fn vehicle(lat: i32, lon: i32, speed: u16, heading: u16) -> VehicleState {
    VehicleState {
        station_id: 7,
        latitude: lat,
        longitude: lon,
        speed,
        heading,
        altitude_cm: 12_345,
    }
}

fn arb_pv() -> impl Strategy<Value = LongPositionVector> {
    (
        any::<[u8; 6]>(),
        0u8..32,
        any::<u32>(),
        -900_000_000i32..=900_000_000,
        -1_800_000_000i32..=1_800_000_000,
        any::<bool>(),
        -16384i16..=16383,
        0u16..=3600,
    )
        .prop_map(|(mid, st, ts, lat, lon, acc, speed, heading)| LongPositionVector {
            address: GnAddress::new(st, mid),
            timestamp: ts,
            latitude: lat,
            longitude: lon,
            accurate: acc,
            speed,
            heading,
        })
}

/// A valid unsecured SHB packet with a CAM or DENM.
fn valid_packet(pv: LongPositionVector, denm: bool) -> Vec<u8> {
    let v = vehicle(pv.latitude, pv.longitude, pv.speed.unsigned_abs(), pv.heading);
    let (port, app) = if denm {
        (2002, encode_denm(&hazard_denm(&v, 3, 600_000_000_000, 97, 1)).unwrap())
    } else {
        (2001, encode_cam(&passenger_car_cam(&v, 42, pv.accurate)).unwrap())
    };
    let mut out = BasicHeader::shb(false).to_bytes();
    out.extend(NetworkPart::shb(pv, port, &app).to_bytes().unwrap());
    out
}

fn mutate(mut bytes: Vec<u8>, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    for &(pos, val, op) in edits {
        if bytes.is_empty() {
            bytes.push(val);
            continue;
        }
        let i = pos % bytes.len();
        match op % 4 {
            0 => bytes[i] = val,
            1 => bytes[i] ^= 1 << (val % 8),
            2 => bytes.truncate(i),
            _ => bytes.insert(i, val),
        }
    }
    bytes
}

fn exercise(bytes: &[u8]) {
    if let Ok(p) = GnPacket::parse(bytes) {
        // Re-emission parses to the same packet (reserved bits are not kept).
        let out = p.to_bytes().unwrap();
        assert_eq!(GnPacket::parse(&out).unwrap(), p);
    }
    let _ = NetworkPart::parse(bytes);
    let _ = decode_cam(bytes);
    let _ = decode_denm(bytes);
    let _ = read_pcap(bytes);
    if let Ok(i) = inspect_any(bytes) {
        let _ = i.tree.render_text_with_hex(bytes);
        let _ = serde_json::to_string(&i);
    }
    let _ = inspect_any(&decode_input(bytes));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        exercise(&bytes);
    }

    #[test]
    fn random_bytes_after_a_gn_opening_never_panic(
        first in prop::sample::select(vec![0x01u8, 0x02, 0x11, 0x12]),
        rest in proptest::collection::vec(any::<u8>(), 0..300),
    ) {
        let mut bytes = vec![first];
        bytes.extend(rest);
        exercise(&bytes);
        // Secured packets with a 1609.2 / v1.2.1 opening too.
        bytes.insert(4.min(bytes.len()), 3);
        exercise(&bytes);
    }

    #[test]
    fn valid_packets_round_trip(pv in arb_pv(), denm in any::<bool>()) {
        let bytes = valid_packet(pv, denm);
        let parsed = GnPacket::parse(&bytes).unwrap();
        prop_assert_eq!(parsed.to_bytes().unwrap(), bytes.clone());
        match &parsed {
            GnPacket::Unsecured { network, .. } => {
                prop_assert_eq!(network.shb.source, pv);
                if denm {
                    prop_assert!(decode_denm(network.payload).is_ok());
                } else {
                    prop_assert!(decode_cam(network.payload).is_ok());
                }
            }
            GnPacket::Secured { .. } => prop_assert!(false, "expected unsecured"),
        }
        let inspected = inspect_any(&bytes).unwrap();
        prop_assert!(inspected.tree.find("BTP-B").is_some());
    }

    #[test]
    fn mutated_packets_never_panic(
        pv in arb_pv(),
        denm in any::<bool>(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let valid = valid_packet(pv, denm);
        exercise(&mutate(valid.clone(), &edits));
        // Inside a secured packet (1609.2 opening), an Ethernet frame and a pcap.
        exercise(&mutate(secured_packet(&valid), &edits));
        let frame = geonet_frame([2, 0, 0, 0, 0, 1], &valid);
        exercise(&mutate(frame.clone(), &edits));
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        w.write_frame(1_700_000_000_000_000, &frame).unwrap();
        exercise(&mutate(w.into_inner().unwrap(), &edits));
    }

    #[test]
    fn hex_text_input_never_panics(text in "[0-9a-fA-FxX :,\n]{0,200}") {
        exercise(text.as_bytes());
    }
}
