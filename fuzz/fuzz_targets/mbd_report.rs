//! Fuzz the ETSI TS 103 759 misbehaviour-report decoders (v2x-mbd): `EtsiTs103759Data`, the
//! `EtsiTs103759Mbr` a secured report carries, and the CAM report (`AsrCam`) inside it.
//! Never panic; whatever decodes re-encodes to the same bytes (C-OER is canonical and the
//! decoders refuse trailing bytes).
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_mbd::report::asn::{decode_exact, AsrCam, EtsiTs103759Data, EtsiTs103759Mbr, MbrSec};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(d) = EtsiTs103759Data::decode(bytes) {
        assert_eq!(d.encode().expect("a decoded report re-encodes"), bytes, "report re-encoding differs");
        if let MbrSec::Plaintext(m) = &d.content {
            let _ = decode_exact::<AsrCam>(&m.report.content);
        }
    }
    if let Ok(m) = decode_exact::<EtsiTs103759Mbr>(bytes) {
        assert_eq!(rasn::coer::encode(&m).expect("re-encodes"), bytes, "Mbr re-encoding differs");
    }
    if let Ok(a) = decode_exact::<AsrCam>(bytes) {
        assert_eq!(rasn::coer::encode(&a).expect("re-encodes"), bytes, "AsrCam re-encoding differs");
    }
});
