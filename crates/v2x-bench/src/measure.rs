//! The timing harness: warm-up, batch sizing, repeated trials.
//!
//! An operation is a closure run again and again on prepared state. After a warm-up
//! (which also estimates its cost) the harness picks a batch size so that one timed batch
//! lasts at least [`Plan::min_batch`] (timer overhead, ~25 ns per `Instant::now`, is then
//! below 0.1%), and a number of batches per trial so that a trial lasts about
//! [`Plan::trial`]. Every trial has the same number of batches, so the mean over all
//! samples equals the mean of the trial means.

use crate::stats::LatencyStats;
use crate::BenchError;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long and how often to measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    pub warmup: Duration,
    pub trials: usize,
    /// Target duration of one trial.
    pub trial: Duration,
    /// Minimum duration of one timed batch.
    pub min_batch: Duration,
    /// Bounds on batches per trial.
    pub min_samples: usize,
    pub max_samples: usize,
}

impl Plan {
    /// The full measurement: about 1.1 s per operation.
    pub fn full() -> Plan {
        Plan {
            warmup: Duration::from_millis(100),
            trials: 10,
            trial: Duration::from_millis(100),
            min_batch: Duration::from_micros(40),
            min_samples: 20,
            max_samples: 2000,
        }
    }

    /// `--quick`: statistics stay meaningful in form, not in precision.
    pub fn quick() -> Plan {
        Plan {
            warmup: Duration::from_millis(2),
            trials: 3,
            trial: Duration::from_millis(3),
            min_batch: Duration::from_micros(20),
            min_samples: 5,
            max_samples: 200,
        }
    }
}

/// Sizing decided after the warm-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizing {
    pub batch: u64,
    pub samples: usize,
}

/// Runs `op` for the warm-up time (at least 3 calls) and sizes batches and trials.
pub fn warm_up<T>(plan: &Plan, op: &mut dyn FnMut() -> Result<T, BenchError>) -> Result<Sizing, BenchError> {
    let start = Instant::now();
    let mut calls: u64 = 0;
    while calls < 3 || start.elapsed() < plan.warmup {
        black_box(op()?);
        calls += 1;
    }
    let per_op = start.elapsed().as_secs_f64() / calls as f64;
    let per_op = per_op.max(1e-9);
    let batch = (plan.min_batch.as_secs_f64() / per_op).ceil().clamp(1.0, 1e7) as u64;
    let samples = (plan.trial.as_secs_f64() / (per_op * batch as f64)).round() as usize;
    Ok(Sizing {
        batch,
        samples: samples.clamp(plan.min_samples, plan.max_samples),
    })
}

/// Times one trial: `samples` batches of `batch` calls, per-call microseconds per batch.
pub fn run_trial<T>(sizing: Sizing, op: &mut dyn FnMut() -> Result<T, BenchError>) -> Result<Vec<f64>, BenchError> {
    let mut out = Vec::with_capacity(sizing.samples);
    for _ in 0..sizing.samples {
        let t0 = Instant::now();
        for _ in 0..sizing.batch {
            black_box(op()?);
        }
        let dt = t0.elapsed();
        out.push(dt.as_secs_f64() * 1e6 / sizing.batch as f64);
    }
    Ok(out)
}

/// Warm-up plus `plan.trials` trials of one operation.
pub fn measure<T>(plan: &Plan, mut op: impl FnMut() -> Result<T, BenchError>) -> Result<LatencyStats, BenchError> {
    let sizing = warm_up(plan, &mut op)?;
    let mut trials = Vec::with_capacity(plan.trials);
    for _ in 0..plan.trials.max(1) {
        trials.push(run_trial(sizing, &mut op)?);
    }
    LatencyStats::from_trials(&trials, sizing.batch).ok_or(BenchError::NoSamples)
}

/// Like [`measure`], but never calls `op` more than `cap` times (for operations that
/// consume a finite pool of inputs): the warm-up takes at most a quarter of the calls and
/// the trials shrink (fewer batches, then smaller batches) to fit the rest.
pub fn measure_capped<T>(
    plan: &Plan,
    mut op: impl FnMut() -> Result<T, BenchError>,
    cap: Option<u64>,
) -> Result<LatencyStats, BenchError> {
    let Some(cap) = cap else { return measure(plan, op) };
    let warm_calls = (cap / 4).max(3);
    let start = Instant::now();
    let mut calls: u64 = 0;
    while calls < warm_calls && (calls < 3 || start.elapsed() < plan.warmup) {
        black_box(op()?);
        calls += 1;
    }
    let per_op = (start.elapsed().as_secs_f64() / calls.max(1) as f64).max(1e-9);
    let budget = cap.saturating_sub(calls);
    let trials = plan.trials.max(1) as u64;
    let mut batch = ((plan.min_batch.as_secs_f64() / per_op).ceil() as u64).max(1);
    let mut samples = ((plan.trial.as_secs_f64() / (per_op * batch as f64)).round() as u64)
        .clamp(plan.min_samples as u64, plan.max_samples as u64);
    if trials * samples * batch > budget {
        samples = (budget / (trials * batch)).max(plan.min_samples.min(5) as u64);
        batch = (budget / (trials * samples)).max(1).min(batch);
    }
    if trials * samples * batch > budget {
        return Err(BenchError::Setup(format!(
            "input pool of {cap} calls is too small for {trials} trials"
        )));
    }
    let sizing = Sizing {
        batch,
        samples: samples as usize,
    };
    let mut out = Vec::with_capacity(plan.trials);
    for _ in 0..trials {
        out.push(run_trial(sizing, &mut op)?);
    }
    LatencyStats::from_trials(&out, sizing.batch).ok_or(BenchError::NoSamples)
}

/// Measures several operations with interleaved trials (A, B, C, A, B, C, ...).
pub fn measure_interleaved(plan: &Plan, ops: &mut [crate::pool::WorkerOp]) -> Result<Vec<LatencyStats>, BenchError> {
    let mut sizings = Vec::with_capacity(ops.len());
    for op in ops.iter_mut() {
        sizings.push(warm_up(plan, &mut **op)?);
    }
    let mut trials: Vec<Vec<Vec<f64>>> = vec![Vec::new(); ops.len()];
    for _ in 0..plan.trials.max(1) {
        for ((op, sizing), t) in ops.iter_mut().zip(&sizings).zip(trials.iter_mut()) {
            t.push(run_trial(*sizing, &mut **op)?);
        }
    }
    trials
        .iter()
        .zip(&sizings)
        .map(|(t, s)| LatencyStats::from_trials(t, s.batch).ok_or(BenchError::NoSamples))
        .collect()
}

/// Measures two operations with interleaved trials (A, B, A, B, ...), so that load from
/// other processes on a shared machine hits both alike; returns both statistics and the
/// median over trials of `median(A) / median(B)` (medians inside a trial discard the
/// batches another process preempted).
pub fn measure_paired<T, U>(
    plan: &Plan,
    a: impl FnMut() -> Result<T, BenchError>,
    b: impl FnMut() -> Result<U, BenchError>,
) -> Result<(LatencyStats, LatencyStats, f64), BenchError> {
    let (la, lb, ratios) = measure_paired_trials(plan, a, b)?;
    Ok((la, lb, crate::stats::median(&ratios)))
}

/// [`measure_paired`] with every trial's ratio (for an interval on the median).
pub fn measure_paired_trials<T, U>(
    plan: &Plan,
    mut a: impl FnMut() -> Result<T, BenchError>,
    mut b: impl FnMut() -> Result<U, BenchError>,
) -> Result<(LatencyStats, LatencyStats, Vec<f64>), BenchError> {
    let sa = warm_up(plan, &mut a)?;
    let sb = warm_up(plan, &mut b)?;
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..plan.trials.max(1) {
        ta.push(run_trial(sa, &mut a)?);
        tb.push(run_trial(sb, &mut b)?);
    }
    let ratios: Vec<f64> = ta
        .iter()
        .zip(&tb)
        .map(|(x, y)| crate::stats::median(x) / crate::stats::median(y))
        .collect();
    let la = LatencyStats::from_trials(&ta, sa.batch).ok_or(BenchError::NoSamples)?;
    let lb = LatencyStats::from_trials(&tb, sb.batch).ok_or(BenchError::NoSamples)?;
    Ok((la, lb, ratios))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_batches_for_fast_ops() {
        let plan = Plan::quick();
        let mut x = 0u64;
        let mut op = || -> Result<u64, BenchError> {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            Ok(x)
        };
        let s = warm_up(&plan, &mut op).unwrap();
        assert!(s.batch > 1, "a nanosecond operation needs batching");
        assert!(s.samples >= plan.min_samples && s.samples <= plan.max_samples);
        let stats = measure(&plan, op).unwrap();
        assert_eq!(stats.trial_means_us.len(), plan.trials);
        assert_eq!(
            stats.samples % plan.trials,
            0,
            "every trial has the same number of batches"
        );
    }

    #[test]
    fn capped_measurement_stays_within_its_pool() {
        let plan = Plan::quick();
        let mut calls = 0u64;
        let stats = measure_capped(
            &plan,
            || -> Result<(), BenchError> {
                calls += 1;
                if calls > 500 {
                    return Err(BenchError::Setup("pool exhausted".into()));
                }
                Ok(())
            },
            Some(500),
        )
        .unwrap();
        assert_eq!(stats.trial_means_us.len(), plan.trials);
    }

    #[test]
    fn errors_propagate() {
        let plan = Plan::quick();
        let r = measure(&plan, || -> Result<(), BenchError> {
            Err(BenchError::Setup("boom".into()))
        });
        assert!(matches!(r, Err(BenchError::Setup(_))));
    }

    #[test]
    fn paired_ratio_of_equal_ops_is_near_one() {
        let plan = Plan::quick();
        let work = || -> Result<[u8; 32], BenchError> { Ok(v2x_crypto::sha256(&[7u8; 256])) };
        let (a, b, r) = measure_paired(&plan, work, work).unwrap();
        assert!(a.mean_us > 0.0 && b.mean_us > 0.0);
        assert!(r > 0.0 && r.is_finite());
    }
}
