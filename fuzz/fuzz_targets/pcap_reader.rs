//! Fuzz the pcap reader and the Ethernet frame parser (`v2x inspect` reads captures from
//! anywhere): never panic; every record lies inside the input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_wire::pcap::{read_pcap, EthernetFrame};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(records) = read_pcap(bytes) {
        let total: usize = records.iter().map(|r| 16 + r.data.len()).sum();
        assert_eq!(24 + total, bytes.len(), "records cover the file exactly");
        for r in &records {
            let _ = EthernetFrame::parse(r.data);
        }
    }
    let _ = EthernetFrame::parse(bytes);
});
