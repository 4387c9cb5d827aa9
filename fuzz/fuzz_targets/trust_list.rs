//! Fuzz the ETSI TS 102 941 trust-list decoders (signed file and bare body): never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::trust_list::{parse_trust_list, parse_trust_list_body};

fuzz_target!(|bytes: &[u8]| {
    let _ = parse_trust_list(bytes);
    let _ = parse_trust_list_body(bytes);
});
