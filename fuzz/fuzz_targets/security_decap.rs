//! SN-DECAP (strict and signature-only), certificate preparation, CRL and trust-list
//! verification on arbitrary bytes: must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use v2x_security::{Certificate, DecapMode, SecurityEntity, TaiTime, TrustStore};

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
});
