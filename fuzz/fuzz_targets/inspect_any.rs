//! Fuzz the `v2x inspect` entry point (format detection, every decoder, pcap, hex input):
//! never panics; a decoded tree renders with its byte spans.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::inspect::{decode_input, inspect_any};

fuzz_target!(|raw: &[u8]| {
    let bytes = decode_input(raw);
    if let Ok(i) = inspect_any(&bytes) {
        let _ = i.tree.render_text_with_hex(&bytes);
    }
});
