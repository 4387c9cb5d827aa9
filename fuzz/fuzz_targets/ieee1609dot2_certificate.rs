//! Fuzz the IEEE 1609.2 certificate decoder: never panics; the toBeSigned span re-decodes; a decoded certificate round-trips.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::ieee1609dot2::{decode_exact, encode, parse_certificate, ToBeSignedCertificate};

fuzz_target!(|bytes: &[u8]| {
    if let Ok((cert, spans)) = parse_certificate(bytes) {
        let tbs = decode_exact::<ToBeSignedCertificate>(&bytes[spans.to_be_signed]);
        assert_eq!(tbs.ok().as_ref(), Some(&cert.to_be_signed));
        // Round trip: the certificate re-encodes and decodes to the same value.
        let again = encode(&cert).expect("a decoded certificate re-encodes");
        assert_eq!(
            parse_certificate(&again).ok().map(|c| c.0).as_ref(),
            Some(&cert),
            "certificate re-encoding decodes differently"
        );
    }
});
