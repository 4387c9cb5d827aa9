//! Fuzz the IEEE 1609.2 secured-data decoder: never panics; accepted input re-encodes to a
//! value that decodes the same, and the signed spans lie inside the input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::ieee1609dot2::{decode_exact, encode, parse_data, Ieee1609Dot2Data, ToBeSignedData};

fuzz_target!(|bytes: &[u8]| {
    let _ = decode_exact::<Ieee1609Dot2Data>(bytes);
    if let Ok((data, spans)) = parse_data(bytes) {
        if let Ok(again) = encode(&data) {
            assert_eq!(parse_data(&again).map(|d| d.0).ok(), Some(data));
        }
        if let Some(s) = spans {
            assert!(s.tbs_data.end <= bytes.len());
            assert!(decode_exact::<ToBeSignedData>(&bytes[s.tbs_data]).is_ok());
        }
    }
});
