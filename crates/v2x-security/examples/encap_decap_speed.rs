//! Compares raw OpenSSL P-256 sign/verify (through v2x-crypto) with SN-ENCAP of a CAM
//! and SN-DECAP of a digest-signed CAM from a known signer, in the same run, on one
//! core. Run with `cargo run --release -p v2x-security --example encap_decap_speed [N]`.
//!
//! This is a quick check for developers; the project's benchmark (`v2x bench`) is the
//! reference measurement.

use std::time::{Duration, Instant};
use v2x_crypto::{sha256, Curve};
use v2x_security::*;

fn rate(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64()
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let pki = InMemoryPki::builder()
        .curve(Curve::NistP256)
        .now(TaiTime::now())
        .psids(&[ItsAid::CAM])
        .build()
        .unwrap();
    let creds = pki.ticket().unwrap();
    let tk = creds.signing_key.clone();
    let mut sender = pki.sender(creds);
    let mut receiver = pki.receiver();
    let payload = [0x5au8; 60]; // a typical small CAM body
    let cert_key = creds_key_of(&sender);

    // The receiver learns the signer's certificate from one certificate-signed message.
    let base = TaiTime::now();
    let first = sender
        .encap(&EncapRequest::new(ProfileKind::Generic, &payload).at(base))
        .unwrap();
    assert!(first.signer_was_certificate);
    receiver.decap_at(&first.bytes, base).unwrap();
    // Digest-signed CAMs with distinct generation times (so none is a replay).
    let msgs: Vec<Vec<u8>> = (1..=n as u64)
        .map(|i| {
            sender
                .encap(&EncapRequest::cam(&payload).at(TaiTime(base.0 + i)))
                .unwrap()
        })
        .filter(|m| !m.signer_was_certificate)
        .map(|m| m.bytes)
        .collect();
    let verify_at = TaiTime(base.0 + n as u64);
    let digest = sha256(b"raw");
    let sig = tk.sign_digest(&digest).unwrap();

    // Operations alternate one by one (raw, stack, raw, stack, ...) so that both see
    // the same machine load; each is timed alone and the median per-operation time
    // is reported (robust against preemption on a shared machine), with the mean.
    let total = msgs.len();
    let mut t_sign = Vec::with_capacity(total);
    let mut t_encap = Vec::with_capacity(total);
    let mut t_verify = Vec::with_capacity(total);
    let mut t_decap = Vec::with_capacity(total);
    let pk = tk.public_key().clone();
    for m in &msgs {
        let t = Instant::now();
        std::hint::black_box(tk.sign_digest(&digest).unwrap());
        t_sign.push(t.elapsed());
        // SN-ENCAP CAM at the real clock: digest signer, certificate once per second.
        let t = Instant::now();
        std::hint::black_box(sender.encap(&EncapRequest::cam(&payload)).unwrap());
        t_encap.push(t.elapsed());
        let t = Instant::now();
        assert!(pk.verify_digest(&digest, &sig).unwrap());
        t_verify.push(t.elapsed());
        let t = Instant::now();
        std::hint::black_box(receiver.decap_at(m, verify_at).unwrap());
        t_decap.push(t.elapsed());
    }
    let (raw_sign, raw_sign_mean) = stats(&mut t_sign);
    let (encap, encap_mean) = stats(&mut t_encap);
    let (raw_verify, raw_verify_mean) = stats(&mut t_verify);
    let (decap, decap_mean) = stats(&mut t_decap);
    let key_check = {
        let t = Instant::now();
        for _ in 0..200 {
            assert!(cert_key.verify_digest(&digest, &sig).unwrap());
        }
        rate(200, t.elapsed())
    };

    println!("{total} alternating operations of each kind, one core; rate = 1 / median (1 / mean)");
    println!("raw P-256 sign              {raw_sign:>8.0} /s ({raw_sign_mean:.0})");
    println!(
        "encap CAM (digest signer)   {encap:>8.0} /s ({encap_mean:.0})   ratio {:.3} ({:.3})",
        encap / raw_sign,
        encap_mean / raw_sign_mean
    );
    println!("raw P-256 verify            {raw_verify:>8.0} /s ({raw_verify_mean:.0})");
    println!(
        "decap CAM (known signer)    {decap:>8.0} /s ({decap_mean:.0})   ratio {:.3} ({:.3})",
        decap / raw_verify,
        decap_mean / raw_verify_mean
    );
    println!("(raw verify with the certificate's cached key: {key_check:.0} /s)");
}

/// (1 / median, 1 / mean) in operations per second.
fn stats(d: &mut [Duration]) -> (f64, f64) {
    d.sort();
    let median = d.get(d.len() / 2).copied().unwrap_or_default();
    let mean = d.iter().sum::<Duration>().as_secs_f64() / d.len().max(1) as f64;
    (1.0 / median.as_secs_f64(), 1.0 / mean)
}

fn creds_key_of(e: &SecurityEntity) -> v2x_crypto::PublicKey {
    e.signing_certificate().unwrap().verification_key().clone()
}
