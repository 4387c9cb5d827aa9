//! Throughput on one core and on all cores with a worker pool.
//!
//! Each worker builds its own state (keys, security entity, message pool) with the
//! factory before the clock starts, so nothing is shared and nothing is locked on the hot
//! path; workers start together on a barrier, run for a fixed time and count operations.

use crate::stats::{median, std_dev};
use crate::BenchError;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Operations a worker runs between two looks at the clock.
const CHUNK: u64 = 16;

/// An operation with its own state, built by a factory inside its worker thread.
pub type WorkerOp = Box<dyn FnMut() -> Result<(), BenchError>>;

/// Throughput of one operation on `threads` workers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    pub threads: usize,
    /// Aggregate operations per second of each trial.
    pub trial_ops_per_sec: Vec<f64>,
    /// Median over trials.
    pub ops_per_sec: f64,
    pub std_dev: f64,
}

/// One trial: `threads` workers each run their op for `duration`; returns the sum of the
/// workers' rates.
pub fn run_workers<F>(threads: usize, duration: Duration, factory: &F) -> Result<f64, BenchError>
where
    F: Fn() -> Result<WorkerOp, BenchError> + Sync,
{
    let threads = threads.max(1);
    let barrier = Barrier::new(threads);
    let results: Vec<Result<f64, BenchError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let barrier = &barrier;
                scope.spawn(move || -> Result<f64, BenchError> {
                    // Build first, then wait: a failed factory must still reach the barrier.
                    let built = factory();
                    barrier.wait();
                    let mut op = built?;
                    let start = Instant::now();
                    let mut ops: u64 = 0;
                    loop {
                        for _ in 0..CHUNK {
                            black_box(op()?);
                        }
                        ops += CHUNK;
                        let elapsed = start.elapsed();
                        if elapsed >= duration {
                            return Ok(ops as f64 / elapsed.as_secs_f64());
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(BenchError::Setup("a benchmark worker panicked".into())))
            })
            .collect()
    });
    let mut total = 0.0;
    for r in results {
        total += r?;
    }
    Ok(total)
}

/// Interleaved trials of one worker and of `threads` workers; returns both throughputs
/// and the median over trials of their ratio.
pub fn one_vs_all<F>(
    threads: usize,
    trials: usize,
    duration: Duration,
    factory: &F,
) -> Result<(Throughput, Throughput, f64), BenchError>
where
    F: Fn() -> Result<WorkerOp, BenchError> + Sync,
{
    // Warm-up: one short run on every worker (page faults, lazy initialisation).
    run_workers(threads, duration / 4, factory)?;
    let (mut one, mut all) = (Vec::new(), Vec::new());
    for _ in 0..trials.max(1) {
        one.push(run_workers(1, duration, factory)?);
        all.push(run_workers(threads, duration, factory)?);
    }
    let ratios: Vec<f64> = all.iter().zip(&one).map(|(a, o)| a / o).collect();
    let summary = |threads: usize, v: Vec<f64>| Throughput {
        threads,
        ops_per_sec: median(&v),
        std_dev: std_dev(&v),
        trial_ops_per_sec: v,
    };
    Ok((summary(1, one), summary(threads.max(1), all), median(&ratios)))
}

/// Number of cores the benchmark uses for "all cores".
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hashing() -> Result<WorkerOp, BenchError> {
        let data = vec![1u8; 128];
        Ok(Box::new(move || {
            black_box(v2x_crypto::sha256(&data));
            Ok(())
        }))
    }

    #[test]
    fn counts_operations_on_every_worker() {
        let (one, all, ratio) = one_vs_all(2, 2, Duration::from_millis(5), &hashing).unwrap();
        assert_eq!(one.threads, 1);
        assert_eq!(all.threads, 2);
        assert_eq!(all.trial_ops_per_sec.len(), 2);
        assert!(one.ops_per_sec > 0.0 && all.ops_per_sec > 0.0 && ratio > 0.0);
    }

    #[test]
    fn factory_errors_are_reported_not_deadlocked() {
        let failing = || -> Result<WorkerOp, BenchError> { Err(BenchError::Setup("no keys".into())) };
        assert!(run_workers(2, Duration::from_millis(1), &failing).is_err());
    }
}
