//! How long decoding takes on the receive path (release build, one core):
//! `cargo run --release -p v2x-wire --example decode_speed`
//!
//! Messages: a ~200-byte CAM-like signed message with a digest signer (the common case), the
//! same with the full P-256 authorization-ticket certificate as signer, and a certificate.

use std::hint::black_box;
use std::time::Instant;

use v2x_wire::ieee1609dot2::*;
use v2x_wire::ItsAid;

const AT_HEX: &str = "8003008034556d34931e5e5c318300000000001a56170084223860010380012481040301fffc80012581050401ffffff80018d810201000080826804fcef8c89168b7e4ffc0615ef7d64a02cb92456cb6d00baabb71d0adcc690808082b3d838f7d8851b97177a2d314ee6f1c7aadd7273619a4868ad8b0e34443a0e4180806c8e98b60ee6ccbc1d69e0e910c9230cdbbaf013061ca9bf97844bceda4dd0357900bddda50788111db4e833e8850924a2150a5afb5186c1e78908ee5c30af6d";

/// One benchmark row: name, input size in bytes, the operation.
type Row<'a> = (&'a str, usize, Box<dyn FnMut() + 'a>);

fn cam(signer: SignerIdentifier) -> Vec<u8> {
    let header = header_info_basic(ItsAid::CAM.into(), time64_from_unix_micros(1_700_000_000_000_000));
    let tbs = to_be_signed_data(unsecured(vec![0x5A; 100]), header).expect("payload");
    let sig = Signature::EcdsaNistP256(EcdsaP256Signature {
        r_sig: EccP256CurvePoint::XOnly([0x11; 32].into()),
        s_sig: [0x22; 32].into(),
    });
    encode(&signed(HashAlgorithm::Sha256, tbs, signer, sig)).expect("encode")
}

/// Median of `rounds` timings of `iters` calls, in microseconds per call.
fn time_us(iters: u32, rounds: usize, mut f: impl FnMut()) -> f64 {
    let mut per_call: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..iters {
                f();
            }
            t.elapsed().as_secs_f64() * 1e6 / f64::from(iters)
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[rounds / 2]
}

fn main() {
    let at = hex::decode(AT_HEX).expect("hex");
    let (at_cert, _) = parse_certificate(&at).expect("AT certificate");
    let digest_msg = cam(SignerIdentifier::Digest(hashed_id8_from([1; 8])));
    let cert_msg = cam(SignerIdentifier::Certificate(SequenceOfCertificate(vec![at_cert])));
    let (digest_data, _) = parse_data(&digest_msg).expect("decodes");
    let tbs = signed_data(&digest_data).expect("signed").tbs_data.clone();

    let rows: [Row; 7] = [
        (
            "rasn::coer::decode (no guard, no spans), digest signer",
            digest_msg.len(),
            Box::new(|| {
                drop(black_box(v2x_wire::rasn::coer::decode::<Ieee1609Dot2Data>(black_box(
                    &digest_msg,
                ))))
            }),
        ),
        (
            "parse_data, digest signer",
            digest_msg.len(),
            Box::new(|| drop(black_box(parse_data(black_box(&digest_msg))))),
        ),
        (
            "decode_exact::<Ieee1609Dot2Data>, digest signer",
            digest_msg.len(),
            Box::new(|| drop(black_box(decode_exact::<Ieee1609Dot2Data>(black_box(&digest_msg))))),
        ),
        (
            "parse_data, certificate signer",
            cert_msg.len(),
            Box::new(|| drop(black_box(parse_data(black_box(&cert_msg))))),
        ),
        (
            "parse_certificate (AT)",
            at.len(),
            Box::new(|| drop(black_box(parse_certificate(black_box(&at))))),
        ),
        (
            "encode(ToBeSignedData)",
            0,
            Box::new(|| drop(black_box(encode(black_box(&tbs))))),
        ),
        (
            "encode(Ieee1609Dot2Data), digest signer",
            0,
            Box::new(|| drop(black_box(encode(black_box(&digest_data))))),
        ),
    ];
    println!("{:<50} {:>6} {:>10}", "operation", "bytes", "us/op");
    for (name, len, mut f) in rows {
        let us = time_us(20_000, 9, &mut f);
        println!("{name:<50} {len:>6} {us:>10.3}");
    }
}
