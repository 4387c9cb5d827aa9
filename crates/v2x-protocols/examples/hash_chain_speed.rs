//! Hash-chain protocol sign and verify rates on one core, next to raw ECDSA P-256 in the
//! same run (paper 001 Tables 3-4 and 10-11 give the MK5 figures). A quick look only:
//! `v2x bench` is the measurement of record.
//!
//! ```text
//! cargo run --release -p v2x-protocols --example hash_chain_speed [seconds-per-measurement]
//! ```

use std::time::{Duration, Instant};
use v2x_crypto::{sha256, Curve, PrivateKey};
use v2x_protocols::hash_chain::{HashChainConfig, HashChainDeployment};
use v2x_protocols::Role;
use v2x_protocols::{data_packet, Authenticator, StationId, Timestamp};

/// Runs `op` in batches until `budget` has passed; returns operations per second.
fn rate(budget: Duration, mut op: impl FnMut(u64)) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for _ in 0..64 {
            op(n);
            n += 1;
        }
    }
    n as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let budget = Duration::from_secs_f64(secs);
    let config = HashChainConfig {
        rng_seed: Some(1),
        ..HashChainConfig::default()
    };
    let mut dep = HashChainDeployment::new(&config).expect("deployment");
    let mut tx = dep.station(StationId(1), Role::Vehicle).expect("sender");
    let mut rx = dep.station(StationId(2), Role::Vehicle).expect("receiver");
    let now = Timestamp::from_millis(1_000_000);

    println!("payload  hash-chain sign/s  hash-chain verify/s");
    let mut verify_rates = Vec::new();
    for len in [39usize, 100, 300] {
        let payload = vec![0x42u8; len];
        let sign = rate(budget, |_| {
            let out = tx.encap(&payload, now).expect("encap");
            std::hint::black_box(out);
        });
        // Distinct packets so the replay cache does not short-cut verification.
        let packets: Vec<Vec<u8>> = (0..20_000u32)
            .map(|i| {
                let mut p = payload.clone();
                p[..4].copy_from_slice(&i.to_be_bytes());
                data_packet(&tx.encap(&p, now).expect("encap"))
                    .expect("data")
                    .bytes
                    .clone()
            })
            .collect();
        let mut accepted = 0u64;
        let verify = rate(budget, |n| {
            let i = (n as usize) % packets.len();
            if i == 0 && n > 0 {
                // Fresh receiver state each pass over the packets (replay cache).
                rx = dep.station(StationId(2 + n as u32), Role::Vehicle).expect("receiver");
            }
            if rx.decap(&packets[i], now).outcome.is_accepted() {
                accepted += 1;
            }
        });
        assert!(accepted > 0, "packets must verify");
        verify_rates.push(verify);
        println!("{len:>7}  {sign:>18.0}  {verify:>19.0}");
    }

    let key = PrivateKey::generate(Curve::NistP256).expect("key");
    let digest = sha256(b"bsm");
    let sig = key.sign_digest(&digest).expect("sign");
    let ecdsa_sign = rate(budget, |_| {
        std::hint::black_box(key.sign_digest(&digest).expect("sign"));
    });
    let ecdsa_verify = rate(budget, |_| {
        assert!(key.public_key().verify_digest(&digest, &sig).expect("verify"));
    });
    println!("ECDSA P-256 (v2x-crypto / OpenSSL): sign {ecdsa_sign:.0}/s, verify {ecdsa_verify:.0}/s");
    println!(
        "hash-chain verify / ECDSA P-256 verify (39-byte BSM): {:.0}x",
        verify_rates.first().copied().unwrap_or(0.0) / ecdsa_verify
    );
    println!("paper 001 (Cohda MK5, software, BSM): sign 27,776/s, verify 25,000/s (Tables 4, 11);");
    println!("  IEEE 1609.2 ECDSA verify 35/s software, 163/s hardware (Table 6) -> ratio ~714x / ~153x");
}
