//! Fuzz the experimental post-quantum codecs and SN-DECAP (`v2x_wire::experimental_pq`,
//! `v2x_security::pq`): never panic; a decoded structure re-encodes to the same bytes; the
//! receiver rejects (never accepts) bytes its PKI did not sign.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use v2x_security::pq::{PqDesign, PqPki, PqReceiver};
use v2x_security::time::TaiTime;
use v2x_wire::experimental_pq::{PqCertificate, PqSecuredMessage};

fn now() -> TaiTime {
    TaiTime::parse_rfc3339("2026-11-21T12:00:00Z").expect("time")
}

fn pki() -> &'static PqPki {
    static PKI: OnceLock<PqPki> = OnceLock::new();
    PKI.get_or_init(|| PqPki::new(PqDesign::Composite(v2x_crypto::pq::PqAlgorithm::FnDsa512), now()).expect("PKI"))
}

fuzz_target!(|bytes: &[u8]| {
    if let Ok(m) = PqSecuredMessage::decode(bytes) {
        assert_eq!(m.encode().expect("re-encodes"), bytes, "message encoding is canonical");
    }
    if let Ok((c, _)) = PqCertificate::decode(bytes) {
        assert_eq!(c.encode().expect("re-encodes"), bytes, "certificate encoding is canonical");
    }
    let mut rx: PqReceiver = pki().receiver();
    assert!(rx.decap_at(bytes, now()).is_err(), "fuzz input accepted");
});
