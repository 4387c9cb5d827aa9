//! Fuzz SN-DECAP of every lightweight protocol station (v2x-protocols): whatever the
//! bytes, `decap` returns a typed outcome and never panics. The first byte picks the
//! receiving station; stations are built once and keep their state between inputs.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::{Mutex, OnceLock};
use v2x_protocols::session::{Protection, Scheme, SessionConfig};
use v2x_protocols::tesla::{KeyDisclosure, TeslaConfig};
use v2x_protocols::{build_pair, Authenticator, ProtocolConfig, Timestamp};

fn stations() -> &'static Mutex<Vec<Box<dyn Authenticator>>> {
    static STATIONS: OnceLock<Mutex<Vec<Box<dyn Authenticator>>>> = OnceLock::new();
    STATIONS.get_or_init(|| {
        let configs = [
            ProtocolConfig::None(Default::default()),
            ProtocolConfig::HashChain(Default::default()),
            ProtocolConfig::Tesla(TeslaConfig::paper004(KeyDisclosure::Separate)),
            ProtocolConfig::Tesla(TeslaConfig::paper001()),
            ProtocolConfig::TwoFlip(Default::default()),
            ProtocolConfig::Session(SessionConfig::default()),
            ProtocolConfig::Session(SessionConfig { scheme: Scheme::Wang, protection: Protection::EncryptSignedMac, ..Default::default() }),
            ProtocolConfig::Ieee1609Dot2(Default::default()),
            ProtocolConfig::ExperimentalPq(v2x_protocols::experimental_pq::ExperimentalPqConfig::new(
                v2x_security::pq::PqDesign::PartiallyHybrid,
            )),
        ];
        Mutex::new(configs.iter().filter_map(|c| build_pair(c).ok().map(|(_, rx)| rx)).collect())
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    let mut all = stations().lock().unwrap_or_else(|e| e.into_inner());
    let n = all.len();
    if n == 0 {
        return;
    }
    let rx = &mut all[usize::from(selector) % n];
    let d = rx.decap(bytes, Timestamp(5_000_000));
    let _ = (d.outcome, d.released, d.send);
    let _ = rx.poll(Timestamp(6_000_000));
});
