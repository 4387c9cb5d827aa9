//! Fuzz what the EA and AA do with a request (TS 102 941 enrolment, authorization, validation):
//! the input as a whole request and, encrypted to the authority, as the plaintext behind the
//! envelope (so the decoders and checks after decryption see it), and as the content an AA of
//! the same process hands its EA (no envelope). Never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use v2x_security::ts102941::aa::{AaPolicy, AuthorizationAuthority};
use v2x_security::ts102941::authorities::Authorities;
use v2x_security::ts102941::ea::{EaPolicy, EnrolmentAuthority};
use v2x_security::ts102941::envelope::encrypt_to;
use v2x_security::TaiTime;

struct World {
    ea: EnrolmentAuthority,
    aa: AuthorizationAuthority,
}

fn world() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| {
        let a = Authorities::create(v2x_crypto::Curve::NistP256, TaiTime::now()).expect("authorities");
        World {
            ea: a.enrolment_authority(EaPolicy::default()),
            aa: a.authorization_authority(AaPolicy::default()),
        }
    })
}

fuzz_target!(|bytes: &[u8]| {
    let w = world();
    let now = TaiTime::now();
    let _ = w.ea.open_enrolment(bytes, now);
    let _ = w.ea.open_validation(bytes, now);
    let _ = w.aa.open_authorization(bytes, now);
    let _ = w.ea.open_validation_in_process(bytes, w.aa.certificate(), now);
    if let (Ok(to_ea), Ok(to_aa)) = (encrypt_to(bytes, w.ea.certificate()), encrypt_to(bytes, w.aa.certificate())) {
        let _ = w.ea.open_enrolment(&to_ea.bytes, now);
        let _ = w.ea.open_validation(&to_ea.bytes, now);
        if let Ok(a) = w.aa.open_authorization(&to_aa.bytes, now) {
            let _ = w.aa.validation_request(&a, now);
            let _ = w.aa.validation_content(&a);
        }
    }
});
