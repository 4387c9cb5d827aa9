//! Fuzz the GeoNetworking/BTP parser and the CAM/DENM decoders: never panic; an accepted
//! packet re-emits to bytes that parse to the same packet (reserved bits are not kept).
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::facilities::{decode_cam, decode_denm};
use v2x_wire::geonet::{GnPacket, NetworkPart};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(p) = GnPacket::parse(bytes) {
        let out = p.to_bytes().expect("a parsed packet re-emits");
        assert_eq!(
            GnPacket::parse(&out).as_ref(),
            Ok(&p),
            "re-emitted packet parses differently"
        );
        assert!(out.len() <= bytes.len(), "re-emitted packet is longer than its input");
        if let GnPacket::Unsecured { network, .. } = &p {
            let _ = decode_cam(network.payload);
            let _ = decode_denm(network.payload);
        }
    }
    let _ = NetworkPart::parse(bytes);
});
