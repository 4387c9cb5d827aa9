//! TS 103 097 v1.2.1 Certificate decoder: no panics; accepted input re-encodes exactly.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::v1_2_1::Certificate;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = Certificate::from_bytes(data) {
        assert_eq!(c.to_bytes(), data);
        let _ = c.canonical_bytes();
    }
});
