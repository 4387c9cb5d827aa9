//! Random and mutated inputs to the scenario and mobility parsers never panic.

use proptest::prelude::*;
use v2x_sim::mobility::{fcd, ngsim};
use v2x_sim::Scenario;

const VALID: &str = include_str!("../../../scenarios/demo-urban-grid.toml");

fn mutate(base: &[u8], edits: &[(usize, u8)]) -> Vec<u8> {
    let mut v = base.to_vec();
    for &(i, b) in edits {
        if v.is_empty() {
            break;
        }
        let k = i % v.len();
        v[k] = b;
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn scenario_parser_never_panics(s in "(\\PC|\\n|\\[|\\]|=|\"|kind|variant|radio|mobility){0,200}") {
        let _ = Scenario::parse(&s, "fuzz.toml");
    }

    #[test]
    fn mutated_scenarios_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let bytes = mutate(VALID.as_bytes(), &edits);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(s) = Scenario::parse(&text, "m.toml") {
            // Whatever parses also validates and round-trips.
            prop_assert!(s.validate().is_ok());
            prop_assert_eq!(Scenario::parse(&s.to_toml(), "r").ok(), Some(s));
        }
    }

    #[test]
    fn mobility_parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = fcd::parse_xml(&bytes, "x");
        let _ = fcd::parse_csv(&bytes, "c");
        let cols = ngsim::Columns { id: "vehicle_id", time: "frame_id", x: "local_x", y: "local_y" };
        let _ = ngsim::parse_csv(&bytes, "n", &cols, 0.1, 1.0);
        let _ = ngsim::parse_parquet(bytes.clone(), "p", &cols, 0.1, 1.0);
    }

    #[test]
    fn mutated_fcd_never_panics(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let xml = b"<fcd-export><timestep time=\"0.0\"><vehicle id=\"a\" x=\"1\" y=\"2\"/></timestep><timestep time=\"1.0\"><vehicle id=\"a\" x=\"3\" y=\"4\"/></timestep></fcd-export>";
        let _ = fcd::parse_xml(&mutate(xml, &edits), "x");
        let csv = b"timestep_time;vehicle_id;vehicle_x;vehicle_y\n0;a;1;2\n1;a;3;4\n";
        let _ = fcd::parse_csv(&mutate(csv, &edits), "c");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Corrupted copies of a real Parquet file give an error or a trace, never a panic.
    #[test]
    fn mutated_parquet_never_panics(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let original = include_bytes!("data/ngsim-i80-sample.parquet");
        let cols = ngsim::Columns { id: "vehicle_id", time: "frame_id", x: "local_x", y: "local_y" };
        let _ = ngsim::parse_parquet(mutate(original, &edits), "p", &cols, 0.1, 1.0);
    }
}
