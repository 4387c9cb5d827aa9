//! Mobility traces (SUMO FCD XML/CSV, NGSIM CSV/Parquet) are untrusted files: the parsers
//! return errors, never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_sim::mobility::{fcd, ngsim};

fuzz_target!(|data: &[u8]| {
    let _ = fcd::parse_xml(data, "fuzz.xml");
    let _ = fcd::parse_csv(data, "fuzz.csv");
    let cols = ngsim::Columns { id: "vehicle_id", time: "frame_id", x: "local_x", y: "local_y" };
    let _ = ngsim::parse_csv(data, "fuzz.csv", &cols, 0.1, 1.0);
    let _ = ngsim::parse_parquet(data.to_vec(), "fuzz.parquet", &cols, 0.1, 1.0);
});
