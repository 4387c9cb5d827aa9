//! Fuzz the ETSI TS 102 941 trust-list decoders (signed file and bare body): never panic; a decoded list round-trips.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::ieee1609dot2::encode;
use v2x_wire::trust_list::{decode_etsi_ts102941_data, parse_trust_list, parse_trust_list_body};

fuzz_target!(|bytes: &[u8]| {
    let _ = parse_trust_list(bytes);
    let _ = parse_trust_list_body(bytes);
    // Round trip: a decoded EtsiTs102941Data re-encodes and decodes to the same value.
    if let Ok(data) = decode_etsi_ts102941_data(bytes) {
        let again = encode(&data).expect("a decoded EtsiTs102941Data re-encodes");
        assert_eq!(
            decode_etsi_ts102941_data(&again).ok().as_ref(),
            Some(&data),
            "EtsiTs102941Data re-encoding decodes differently"
        );
    }
});
