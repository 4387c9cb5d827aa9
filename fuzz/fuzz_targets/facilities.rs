//! Fuzz the facilities-layer decoders (ETSI CAM and DENM in UPER): never panic; a decoded
//! message re-encodes, and its encoding decodes to the same message.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::facilities::{decode_cam, decode_denm, encode_cam, encode_denm, peek_header};

fuzz_target!(|bytes: &[u8]| {
    let _ = peek_header(bytes);
    if let Ok(cam) = decode_cam(bytes) {
        let again = encode_cam(&cam).expect("a decoded CAM re-encodes");
        assert_eq!(decode_cam(&again).ok().as_ref(), Some(&cam), "CAM re-encoding decodes differently");
    }
    if let Ok(denm) = decode_denm(bytes) {
        let again = encode_denm(&denm).expect("a decoded DENM re-encodes");
        assert_eq!(decode_denm(&again).ok().as_ref(), Some(&denm), "DENM re-encoding decodes differently");
    }
});
