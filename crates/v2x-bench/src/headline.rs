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
//! Each ratio is the median over trials of the per-trial rate ratio, with a 95%
//! percentile-bootstrap interval over those trials (`ratio_ci95`).

use crate::measure::{measure_paired_trials, Plan};
use crate::result::{Headline, Measurement, PairedRatio};
use crate::stats::{bootstrap_median_ci95, median};
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
            measure_paired_trials(plan, &mut *raw, &mut *decap)
        }) {
            Ok((r, d, ratios)) => {
                // ratio = median(raw) / median(decap) per trial = decap rate / raw rate.
                h.decap_vs_raw_verify = Some(median(&ratios));
                h.ratio_ci95.insert("decap_vs_raw_verify".into(), ci(&ratios));
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
            measure_paired_trials(plan, &mut *raw, &mut *encap)
        }) {
            Ok((r, e, ratios)) => {
                h.encap_vs_raw_sign = Some(median(&ratios));
                h.ratio_ci95.insert("encap_vs_raw_sign".into(), ci(&ratios));
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
                    let per_trial: Vec<f64> = all
                        .trial_ops_per_sec
                        .iter()
                        .zip(&one.trial_ops_per_sec)
                        .map(|(a, o)| a / o)
                        .collect();
                    h.ratio_ci95.insert("all_cores_vs_one_core".into(), ci(&per_trial));
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
            measure_paired_trials(plan, &mut *raw, &mut *verify)
        }) {
            Ok((_, v, ratios)) => {
                h.hash_chain_verify_per_sec = Some(v.ops_per_sec_robust());
                h.hash_chain_verify_vs_p256_verify = Some(median(&ratios));
                h.ratio_ci95
                    .insert("hash_chain_verify_vs_p256_verify".into(), ci(&ratios));
            }
            Err(e) => h.notes.push(format!("hash_chain_verify: {e}")),
        },
        (Err(e), _) => h.notes.push(format!("hash_chain_verify: {e}")),
        (_, Err(why)) => h.notes.push(format!("hash_chain_verify: {why}")),
    }
    h
}

fn ci(ratios: &[f64]) -> [f64; 2] {
    let (lo, hi) = bootstrap_median_ci95(ratios);
    [lo, hi]
}

/// The P-256 must-show ratios of the verification suite, copied into the headline.
pub fn add_verification(h: &mut Headline, rows: &[PairedRatio]) {
    let find = |variant: &str| {
        rows.iter()
            .find(|r| r.key.to_string() == format!("ieee1609.2/{variant}"))
            .map(|r| (r.ratio, r.ci95))
    };
    let fields: [(&str, &str, &mut Option<f64>); 3] = [
        (
            "decap/p256/cam/sign/digest/100/repeat100-precomputed",
            "repeat_signer_decap_vs_raw_verify",
            &mut h.repeat_signer_decap_vs_raw_verify,
        ),
        (
            "decap/p256/cam/sign/digest/100/repeat100-plain",
            "first_seen_decap_vs_raw_verify",
            &mut h.first_seen_decap_vs_raw_verify,
        ),
        (
            "encap/p256/cam/sign/digest/100/fastest",
            "verify_suite_encap_vs_raw_sign",
            &mut h.verify_suite_encap_vs_raw_sign,
        ),
    ];
    for (variant, name, field) in fields {
        if let Some((ratio, interval)) = find(variant) {
            *field = Some(ratio);
            h.ratio_ci95.insert(name.into(), interval);
        }
    }
}
