//! The headline ratios, measured together in the same run with interleaved trials so that
//! load from other processes hits numerator and denominator alike:
//!
//! - `decap_vs_raw_verify`: DECAP of a digest-signed P-256 CAM from a known signer vs a raw
//!   OpenSSL P-256 verify (one core);
//! - `encap_vs_raw_sign`: ENCAP of that CAM vs a raw OpenSSL P-256 sign (one core);
//! - `all_cores_vs_one_core`: DECAP throughput on every core vs one core (worker pool,
//!   one security entity per worker);
//! - the hash-chain protocol's verification rate, and its ratio to the raw P-256 verify.
//!
//! Each ratio is the median over trials of the per-trial rate ratio.

use crate::measure::{measure_paired, Plan};
use crate::result::{Headline, Measurement};
use crate::suites::raw::{ecdsa_curve, RawEcdsa};
use crate::suites::{protocols, stack};
use crate::{pool, BenchError, Config};

/// Progress steps the headline takes.
pub const STEPS: usize = 4;

fn raw_p256() -> Result<RawEcdsa, BenchError> {
    let c = ecdsa_curve(v2x_profile::CurveId::P256).ok_or_else(|| BenchError::Setup("no P-256".into()))?;
    RawEcdsa::new(c)
}

pub fn measure(config: &Config, plan: &Plan, bar: &dyn v2x_report::Progress, _measured: &[Measurement]) -> Headline {
    let mut h = Headline {
        threads: config.threads,
        method: "P-256, CAM profile, signer as certificate digest, receiver already knows the signer's \
                 certificate; one core unless stated; ratios of rates (raw median time / stack median time per \
                 trial), median over interleaved trials of the same run; all cores vs one core from \
                 interleaved throughput trials with one security entity per worker"
            .into(),
        ..Headline::default()
    };

    bar.step("headline: decap vs raw verify");
    let raw_verify = raw_p256().map(RawEcdsa::verify_op);
    match (raw_verify, Ok::<_, BenchError>(stack::headline_decap(config.quick))) {
        (Ok(mut raw), Ok(setup)) => match setup().and_then(|p| {
            let mut decap = p.op;
            measure_paired(plan, &mut *raw, &mut *decap)
        }) {
            Ok((r, d, ratio)) => {
                // ratio = mean(raw) / mean(decap) per trial = decap rate / raw rate.
                h.decap_vs_raw_verify = Some(ratio);
                h.raw_verify_us = Some(r.median_us);
                h.decap_us = Some(d.median_us);
            }
            Err(e) => h.notes.push(format!("decap_vs_raw_verify: {e}")),
        },
        (Err(e), _) => h.notes.push(format!("decap_vs_raw_verify: {e}")),
        (_, Err(why)) => h.notes.push(format!("decap_vs_raw_verify: {why}")),
    }

    bar.step("headline: encap vs raw sign");
    let raw_sign = raw_p256().map(RawEcdsa::sign_op);
    match (raw_sign, Ok::<_, BenchError>(stack::headline_encap())) {
        (Ok(mut raw), Ok(setup)) => match setup().and_then(|p| {
            let mut encap = p.op;
            measure_paired(plan, &mut *raw, &mut *encap)
        }) {
            Ok((r, e, ratio)) => {
                h.encap_vs_raw_sign = Some(ratio);
                h.raw_sign_us = Some(r.median_us);
                h.encap_us = Some(e.median_us);
            }
            Err(e) => h.notes.push(format!("encap_vs_raw_sign: {e}")),
        },
        (Err(e), _) => h.notes.push(format!("encap_vs_raw_sign: {e}")),
        (_, Err(why)) => h.notes.push(format!("encap_vs_raw_sign: {why}")),
    }

    bar.step("headline: all cores vs one core");
    match Ok::<_, BenchError>(stack::headline_decap_factory(config.quick)) {
        Ok(factory) => {
            match pool::one_vs_all(
                config.threads,
                config.scaling_trials(),
                config.scaling_trial(),
                &factory,
            ) {
                Ok((one, all, speedup)) => {
                    h.all_cores_vs_one_core = Some(speedup);
                    h.one_core_decap_per_sec = Some(one.ops_per_sec);
                    h.all_cores_decap_per_sec = Some(all.ops_per_sec);
                }
                Err(e) => h.notes.push(format!("all_cores_vs_one_core: {e}")),
            }
        }
        Err(why) => h.notes.push(format!("all_cores_vs_one_core: {why}")),
    }

    bar.step("headline: hash-chain verify");
    let raw_verify = raw_p256().map(RawEcdsa::verify_op);
    match (raw_verify, protocols::hash_chain_verify(config.quick)) {
        (Ok(mut raw), Ok(setup)) => match setup().and_then(|p| {
            let mut verify = p.op;
            measure_paired(plan, &mut *raw, &mut *verify)
        }) {
            Ok((_, v, ratio)) => {
                h.hash_chain_verify_per_sec = Some(v.ops_per_sec_robust());
                h.hash_chain_verify_vs_p256_verify = Some(ratio);
            }
            Err(e) => h.notes.push(format!("hash_chain_verify: {e}")),
        },
        (Err(e), _) => h.notes.push(format!("hash_chain_verify: {e}")),
        (_, Err(why)) => h.notes.push(format!("hash_chain_verify: {why}")),
    }
    h
}
