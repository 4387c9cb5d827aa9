//! Fuzz every packet parser of the lightweight protocols (v2x-protocols): never panic.
//! The first byte selects the parser so one target covers them all.
#![no_main]
use libfuzzer_sys::fuzz_target;
use v2x_protocols::Curve;
use v2x_protocols::cert::{decode_signature, CompactCertificate};
use v2x_protocols::session::crypto::{EncryptionAlg, SessionCert, SignatureAlg};
use v2x_protocols::session::wire;
use v2x_protocols::tesla::{Bootstrap, KeyDisclosure, TeslaConfig};
use v2x_protocols::{hash_chain, none, tesla, two_flip};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else { return };
    match selector % 8 {
        0 => {
            let _ = none::parse(bytes, true);
            let _ = none::parse(bytes, false);
        }
        1 => {
            let _ = hash_chain::parse(bytes, Curve::NistP256);
            let _ = hash_chain::parse(bytes, Curve::NistP384);
        }
        2 => {
            if let Ok(list) = hash_chain::decode_revocation_list(bytes) {
                assert_eq!(hash_chain::encode_revocation_list(&list), bytes, "revocation list re-encodes");
            }
        }
        3 => {
            for config in [
                TeslaConfig::paper004(KeyDisclosure::Separate),
                TeslaConfig::paper004(KeyDisclosure::Attached),
                TeslaConfig::paper001(),
                TeslaConfig { bootstrap: Bootstrap::Compact, ..TeslaConfig::paper004(KeyDisclosure::Separate) },
                TeslaConfig { bootstrap: Bootstrap::Compact, ..TeslaConfig::paper001() },
            ] {
                let _ = tesla::parse(&config.format(), bytes);
                let _ = tesla::parse_commitment_body_exact(&config.format(), bytes);
            }
        }
        4 => {
            let _ = two_flip::parse(bytes);
        }
        5 => {
            let _ = CompactCertificate::decode(Curve::NistP256, bytes);
            let _ = decode_signature(Curve::NistP256, bytes);
        }
        6 => {
            for wang in [false, true] {
                let _ = wire::Hello::parse(bytes, wang);
                let _ = wire::Reply::parse(bytes, wang);
                let mut r = v2x_wire::cursor::Reader::new(bytes);
                if wire::read_confirm_header(&mut r).is_ok() {
                    let _ = wire::ConfirmBody::read(&mut r, bytes, wang);
                }
            }
            let _ = wire::GroupKey::parse(bytes);
            let _ = wire::DataHeader::parse(bytes);
            let _ = wire::KeyTransport::parse(bytes);
        }
        _ => {
            for sig in [SignatureAlg::Ecdsa, SignatureAlg::Rsa, SignatureAlg::Dsa] {
                for enc in [EncryptionAlg::Ecies, EncryptionAlg::Rsa] {
                    let _ = SessionCert::decode(sig, enc, bytes);
                }
            }
        }
    }
});
