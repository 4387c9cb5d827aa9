//! Scenario files are user input: parsing and validating never panics, and whatever
//! parses round-trips through the resolved TOML.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(s) = v2x_sim::Scenario::parse(&text, "fuzz.toml") {
        assert!(v2x_sim::Scenario::parse(&s.to_toml(), "resolved.toml").is_ok());
    }
});
