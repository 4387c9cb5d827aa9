//! Fuzz the ETSI TS 102 941 protocol-message decoders (EtsiTs102941Data with every content,
//! InnerEcRequest, SharedAtRequest, the nested spans): never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::ts102941::{decode, decode_inner_ec_request, decode_shared_at_request, nested_spans};

fuzz_target!(|bytes: &[u8]| {
    if decode(bytes).is_ok() {
        let _ = nested_spans(bytes);
    }
    let _ = decode_inner_ec_request(bytes);
    let _ = decode_shared_at_request(bytes);
});
