//! Paper 002 Table 3.2 on one backend per row: a full IEEE 1609.2 DECAP of a digest-signed
//! CAM against a raw P-256 verification of a digest, both through the same crypto backend
//! (the paper's VSSKit2 ran on OpenSSL 1.0.2a, as its raw rows did). Interleaved trials
//! (A, B, A, B, ...) so that load from other processes hits both alike; the ratio is the
//! median over trials of DECAP time / raw time, with its bootstrap interval.

use crate::bench::median_estimate;
use crate::rule::Estimate;
use crate::ReproduceError;
use std::hint::black_box;
use v2x_bench::measure::{measure_paired_trials, Plan};
use v2x_bench::BenchError;
use v2x_crypto::{backend, BackendId, Curve, PrivateKey};

/// The backends a row is measured on (both sign and verify P-256; the paper's was OpenSSL).
pub const BACKENDS: [BackendId; 2] = [BackendId::OpenSsl, BackendId::AwsLc];

/// One backend's row.
#[derive(Debug, Clone, PartialEq)]
pub struct StackVsRaw {
    pub backend: BackendId,
    /// DECAP time / raw verify time.
    pub ratio: Estimate,
    pub decap_us: f64,
    pub raw_verify_us: f64,
}

fn bench_err(e: BenchError) -> ReproduceError {
    ReproduceError::Bench(Box::new(e))
}

/// Measures every backend of [`BACKENDS`].
pub fn measure(quick: bool) -> Result<Vec<StackVsRaw>, ReproduceError> {
    let plan = if quick { Plan::quick() } else { Plan::full() };
    BACKENDS.iter().map(|&b| measure_one(b, &plan, quick)).collect()
}

fn measure_one(id: BackendId, plan: &Plan, quick: bool) -> Result<StackVsRaw, ReproduceError> {
    // The thread's backend for both: SN-DECAP's signature check selects it too.
    backend::with_backend(id, || {
        let key = PrivateKey::generate(Curve::NistP256).map_err(|e| BenchError::Setup(e.to_string()))?;
        let digest = v2x_crypto::sha256(&v2x_crypto::random_bytes(100));
        let sig = backend::backend(id)
            .sign_digest(&key, &digest)
            .map_err(|e| BenchError::Setup(e.to_string()))?;
        let public = key.public_key().clone();
        let raw = move || -> Result<(), BenchError> {
            let ok = backend::backend(id)
                .verify_digest(&public, &digest, &sig)
                .map_err(|e| BenchError::Setup(e.to_string()))?;
            if !ok {
                return Err(BenchError::Setup("valid signature rejected".into()));
            }
            black_box(ok);
            Ok(())
        };
        let mut decap = v2x_bench::suites::stack::headline_decap(quick)()?.op;
        let (d, r, ratios) = measure_paired_trials(plan, &mut *decap, raw)?;
        let ratio = median_estimate(&ratios).ok_or(BenchError::NoSamples)?;
        Ok(StackVsRaw {
            backend: id,
            ratio,
            decap_us: d.median_us,
            raw_verify_us: r.median_us,
        })
    })
    .map_err(bench_err)
}
