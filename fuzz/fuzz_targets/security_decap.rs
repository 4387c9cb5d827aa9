//! SN-DECAP (strict and signature-only), certificate preparation, CRL (both formats),
//! trust-list (ECTL, root-CA CTL) verification and the ETSI CAM/DENM SSP payload checks on
//! arbitrary bytes: must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use v2x_security::{Certificate, DecapMode, SecurityEntity, SspRule, TaiTime, TrustStore};

fuzz_target!(|data: &[u8]| {
    let now = TaiTime::from_time32(700_000_000);
    let mut strict = SecurityEntity::new(TrustStore::new());
    let _ = strict.decap_at(data, now);
    let mut lab = SecurityEntity::new(TrustStore::new());
    lab.set_decap_mode(DecapMode::SignatureOnly);
    let _ = lab.decap_at(data, now);
    if let Ok(c) = Certificate::from_bytes(data) {
        let _ = c.verify_signature(None);
        let _ = v2x_security::trust_list::verify_trust_list(data, &c);
    }
    let _ = v2x_security::crl::verify_crl(data, &TrustStore::new());
    let _ = v2x_security::trust_list::verify_rca_ctl(data, &TrustStore::new());
    let _ = SspRule::EtsiCam.check(Some(&[1, 0xff, 0xfc]), data);
    let _ = SspRule::EtsiDenm.check(Some(&[1, 0xff, 0xff, 0xff]), data);
});
