//! Side-by-side speed of every backend and verification strategy, per curve: interleaved
//! trials, per-call medians, ratios against raw OpenSSL in the same trial.
//!
//! `cargo run --release -p v2x-crypto --example verify_speed [trials]`
//! (`v2x bench --suite backends` measures the same inside the benchmark.)

use std::hint::black_box;
use std::time::Instant;
use v2x_crypto::backend::backend;
use v2x_crypto::*;

type Op<'a> = Box<dyn FnMut() + 'a>;

fn per_call_us(f: &mut Op<'_>) -> f64 {
    let t = Instant::now();
    let mut n = 0u32;
    while t.elapsed().as_micros() < 20_000 {
        f();
        n += 1;
    }
    t.elapsed().as_secs_f64() * 1e6 / n as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn run(title: &str, trials: usize, mut ops: Vec<(String, Op<'_>)>) {
    let mut times = vec![Vec::new(); ops.len()];
    for _ in 0..trials {
        for (i, (_, f)) in ops.iter_mut().enumerate() {
            times[i].push(per_call_us(f));
        }
    }
    println!("== {title}");
    for (i, (name, _)) in ops.iter().enumerate() {
        let ratios: Vec<f64> = times[0].iter().zip(&times[i]).map(|(b, x)| b / x).collect();
        println!(
            "{name:<34} {:>9.2} us  {:>6.3}x first (trial ratios {:.3}..{:.3})",
            median(times[i].clone()),
            median(ratios.clone()),
            ratios.iter().cloned().fold(f64::MAX, f64::min),
            ratios.iter().cloned().fold(0.0, f64::max)
        );
    }
}

fn main() {
    let trials: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(9);
    for curve in Curve::ALL {
        let keys: Vec<PrivateKey> = (0..100).map(|_| PrivateKey::generate(curve).unwrap()).collect();
        let digest = hash(curve.hash_alg(), b"speed");
        let d = digest.as_ref();
        let sigs: Vec<Signature> = keys.iter().map(|k| k.sign_digest(d).unwrap()).collect();
        let csigs: Vec<Signature> = keys.iter().map(|k| k.sign_digest_compressed_r(d).unwrap()).collect();
        let t0 = Instant::now();
        let tables: Vec<SignerTable> = keys
            .iter()
            .map(|k| SignerTable::build(k.public_key(), DEFAULT_WINDOW))
            .collect();
        let build_us = t0.elapsed().as_secs_f64() * 1e6 / 100.0;
        println!(
            "{curve}: table build {build_us:.0} us per signer (w={DEFAULT_WINDOW}, {} KB)",
            tables[0].memory_bytes() / 1024
        );
        let mut ops: Vec<(String, Op<'_>)> = Vec::new();
        let mut i = 0usize;
        for id in BackendId::ALL
            .into_iter()
            .filter(|b| b.supports(curve, CryptoOp::Verify))
        {
            // OpenSSL first: every ratio is against it.
            let b = backend(id);
            let (keys, sigs) = (&keys, &sigs);
            let mut j = 0usize;
            let op: Op<'_> = Box::new(move || {
                j = (j + 1) % 100;
                assert!(b.verify_digest(keys[j].public_key(), d, &sigs[j]).unwrap());
            });
            if id == BackendId::OpenSsl {
                ops.insert(0, (format!("verify {id}"), op));
            } else {
                ops.push((format!("verify {id}"), op));
            }
        }
        let (tables_r, sigs_r, csigs_r) = (&tables, &sigs, &csigs);
        ops.push((
            "verify table, 100 signers".into(),
            Box::new(move || {
                i = (i + 1) % 100;
                assert!(tables_r[i].verify_digest(d, &sigs_r[i]).unwrap());
            }),
        ));
        let mut k = 0usize;
        ops.push((
            "verify table, 1 signer".into(),
            Box::new(move || {
                k = (k + 1) % 100;
                assert!(tables_r[0].verify_digest(d, &sigs_r[0]).unwrap());
            }),
        ));
        let mut m = 0usize;
        let keys_r = &keys;
        ops.push((
            "verify v2x, compressed R".into(),
            Box::new(move || {
                m = (m + 1) % 100;
                assert!(keys_r[m].public_key().verify_digest_vartime(d, &csigs_r[m]).unwrap());
            }),
        ));
        for batch in [8usize, 32] {
            let mut start = 0usize;
            ops.push((
                format!("batch {batch}, compressed R, no table"),
                Box::new(move || {
                    let items: Vec<BatchItem<'_>> = (0..batch)
                        .map(|x| {
                            let j = (start + x) % 100;
                            BatchItem {
                                key: keys_r[j].public_key(),
                                table: None,
                                digest: d,
                                sig: &csigs_r[j],
                            }
                        })
                        .collect();
                    start = (start + batch) % 100;
                    let ok = batch_verify(&items).unwrap();
                    assert!(ok.iter().all(|x| *x));
                    // per-signature time: divide by the batch below
                    black_box(ok);
                }),
            ));
        }
        run(&format!("{curve} verify (batch rows: per batch)"), trials, ops);
        let mut sign_ops: Vec<(String, Op<'_>)> = Vec::new();
        for id in BackendId::ALL.into_iter().filter(|b| b.supports(curve, CryptoOp::Sign)) {
            let b = backend(id);
            let key = &keys[0];
            let op: Op<'_> = Box::new(move || {
                black_box(b.sign_digest(key, d).unwrap());
            });
            if id == BackendId::OpenSsl {
                sign_ops.insert(0, (format!("sign {id}"), op));
            } else {
                sign_ops.push((format!("sign {id}"), op));
            }
        }
        let key = &keys[0];
        sign_ops.push((
            "sign compressed R (fastest + R)".into(),
            Box::new(move || {
                black_box(key.sign_digest_compressed_r(d).unwrap());
            }),
        ));
        run(&format!("{curve} sign"), trials, sign_ops);
    }
}
