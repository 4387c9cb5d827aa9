//! Per-call cost of the P-256 primitives a TS 102 941 authorization uses (best of 300
//! batches of 10 calls, wall clock: run it on a quiet machine). Also the alternatives that
//! were measured against ours: RustCrypto's and aws-lc's reading of a compressed point,
//! OpenSSL's DRBG.
//!
//! `cargo run --release -p v2x-crypto --example pki_primitives`

use std::hint::black_box;
use std::time::Instant;
use v2x_crypto::*;

fn t(name: &str, mut f: impl FnMut()) {
    for _ in 0..50 {
        f();
    }
    let mut best = f64::MAX;
    for _ in 0..300 {
        let s = Instant::now();
        for _ in 0..10 {
            f();
        }
        best = best.min(s.elapsed().as_secs_f64() * 1e6 / 10.0);
    }
    println!("{name:40} {best:8.2} µs");
}

fn main() {
    let c = Curve::NistP256;
    let k = PrivateKey::generate(c).unwrap();
    let pk = k.public_key();
    let comp = pk.to_sec1(true);
    let unc = pk.to_sec1(false);
    t("from_sec1 compressed", || {
        black_box(PublicKey::from_sec1(c, black_box(&comp)).unwrap());
    });
    t("from_sec1 uncompressed", || {
        black_box(PublicKey::from_sec1(c, black_box(&unc)).unwrap());
    });
    t("p256 decompress", || {
        black_box(p256::PublicKey::from_sec1_bytes(black_box(&comp)).unwrap());
    });
    let d = sha256(b"x");
    let sig = k.sign_digest(&d).unwrap();
    t("sign", || {
        black_box(k.sign_digest(black_box(&d)).unwrap());
    });
    t("verify (warm key)", || {
        black_box(pk.verify_digest(&d, &sig).unwrap());
    });
    t("from_sec1 compressed + verify", || {
        let p = PublicKey::from_sec1(c, &comp).unwrap();
        black_box(p.verify_digest(&d, &sig).unwrap());
    });
    let k2 = PrivateKey::generate(c).unwrap();
    let pk2 = k2.public_key();
    t("ecdh (warm keys)", || {
        black_box(ecdh_x(&k, pk2).unwrap());
    });
    let w = ecies_wrap(pk, &[7u8; 16], b"").unwrap();
    t("ecies wrap", || {
        black_box(ecies_wrap(pk, &[7u8; 16], b"").unwrap());
    });
    t("ecies unwrap", || {
        black_box(ecies_unwrap(&k, &w, b"").unwrap());
    });
    t("aws-lc parse compressed", || {
        black_box(
            aws_lc_rs::signature::ParsedPublicKey::new(
                &aws_lc_rs::signature::ECDSA_P256_SHA256_FIXED,
                black_box(&comp[..]),
            )
            .unwrap(),
        );
    });
    t("aws-lc parse uncompressed", || {
        black_box(
            aws_lc_rs::signature::ParsedPublicKey::new(
                &aws_lc_rs::signature::ECDSA_P256_SHA256_FIXED,
                black_box(&unc[..]),
            )
            .unwrap(),
        );
    });
    t("random_bytes(16) aws-lc", || {
        black_box(random_bytes(16));
    });
    t("openssl rand 16", || {
        let mut b = [0u8; 16];
        openssl::rand::rand_bytes(&mut b).unwrap();
        black_box(b);
    });
    t("PrivateKey::generate", || {
        black_box(PrivateKey::generate(c).unwrap());
    });
}
