//! TS 103 097 v1.2.1 SecuredMessage decoder: no panics; accepted input re-encodes exactly.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::v1_2_1::SecuredMessage;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = SecuredMessage::from_bytes(data) {
        assert_eq!(m.to_bytes(), data);
        let _ = m.to_be_signed();
    }
    let _ = v2x_wire::inspect::v1_2_1_tree(data);
});
