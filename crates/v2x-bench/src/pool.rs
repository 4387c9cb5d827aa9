//! Throughput on one core and on all cores with a worker pool.
//!
//! Each worker builds its own state (keys, security entity, message pool) with the
//! factory before the clock starts, so nothing is shared and nothing is locked on the hot
//! path. All workers and the coordinator meet on a barrier; the coordinator opens ONE
//! window for everybody, closes it after the trial's duration, and the rate is the total
//! number of operations over that single window (until the last worker has stopped).
//! Summing each worker's rate over its own clock window would overstate throughput when
//! workers share a CPU: each one's window then covers only its own slices of time.

use crate::stats::{median, std_dev};
use crate::BenchError;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// One trial: `threads` workers run their op for about `duration`; returns the total
/// operations divided by ONE window that covers all of them: from the first operation any
/// worker started to the end of the last worker's last operation.
pub fn run_workers<F>(threads: usize, duration: Duration, factory: &F) -> Result<f64, BenchError>
where
    F: Fn() -> Result<WorkerOp, BenchError> + Sync,
{
    let threads = threads.max(1);
    // The coordinator takes part in the barrier so that it starts its timer only once
    // every worker is built and ready.
    let barrier = Barrier::new(threads + 1);
    let stop = AtomicBool::new(false);
    let results: Vec<Result<(u64, Instant, Instant), BenchError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (barrier, stop) = (&barrier, &stop);
                scope.spawn(move || -> Result<(u64, Instant, Instant), BenchError> {
                    // Build first, then wait: a failed factory must still reach the barrier.
                    let built = factory();
                    barrier.wait();
                    let mut op = built?;
                    let mut ops: u64 = 0;
                    let first = Instant::now();
                    loop {
                        for _ in 0..CHUNK {
                            black_box(op()?);
                        }
                        ops += CHUNK;
                        if stop.load(Ordering::Relaxed) {
                            return Ok((ops, first, Instant::now()));
                        }
                    }
                })
            })
            .collect();
        barrier.wait();
        std::thread::sleep(duration);
        stop.store(true, Ordering::Relaxed);
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(BenchError::Setup("a benchmark worker panicked".into())))
            })
            .collect()
    });
    let mut total = 0u64;
    let mut window: Option<(Instant, Instant)> = None;
    for r in results {
        let (ops, first, last) = r?;
        total += ops;
        window = Some(match window {
            None => (first, last),
            Some((a, b)) => (a.min(first), b.max(last)),
        });
    }
    let (first, last) = window.ok_or(BenchError::NoSamples)?;
    Ok(total as f64 / (last - first).as_secs_f64().max(1e-9))
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

    /// Two workers pinned to ONE CPU can do no more than one: with one shared window the
    /// all-cores / one-core ratio stays at ~1 (per-worker windows gave ~1.9). Pins itself
    /// with `taskset -c 0` by re-running this test binary. Other processes on a shared
    /// machine also run on CPU 0, so a measurement may be retried (at most three times);
    /// every attempt must stay far below the old 1.9 and one must be <= 1.05.
    #[test]
    fn pinned_to_one_cpu_all_cores_is_not_faster() {
        if std::env::var_os("V2X_POOL_PINNED_CHILD").is_some() {
            return; // the child runs `pinned_child` only
        }
        if std::process::Command::new("taskset").arg("-V").output().is_err() {
            eprintln!("taskset not found: skipping the pinned all-cores check");
            return;
        }
        let exe = std::env::current_exe().unwrap();
        let mut ratios = Vec::new();
        for _ in 0..3 {
            // `nice -n -20` (root only; otherwise it runs at normal priority) keeps other
            // processes on CPU 0 from taking different shares of the two kinds of trial.
            let out = std::process::Command::new("taskset")
                .args(["-c", "0", "nice", "-n", "-20"])
                .arg(&exe)
                .args([
                    "--exact",
                    "pool::tests::pinned_child",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env("V2X_POOL_PINNED_CHILD", "1")
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{text}");
            let ratio: f64 = text
                .split("pinned ratio ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|r| r.parse().ok())
                .unwrap_or_else(|| panic!("the child did not report: {text}"));
            assert!(ratio < 1.5, "two workers on one CPU measured {ratio:.3}x one worker");
            ratios.push(ratio);
            if ratio <= 1.05 {
                return;
            }
        }
        panic!("pinned all-cores / one-core stayed above 1.05 in every attempt: {ratios:?}");
    }

    /// Run by `pinned_to_one_cpu_all_cores_is_not_faster` under `taskset -c 0`.
    #[test]
    #[ignore = "run pinned by pinned_to_one_cpu_all_cores_is_not_faster"]
    fn pinned_child() {
        assert_eq!(available_cores(), 1, "taskset -c 0 leaves one CPU");
        let (_, _, ratio) = one_vs_all(2, 21, Duration::from_millis(25), &hashing).unwrap();
        println!("pinned ratio {ratio:.4}");
    }

    #[test]
    fn factory_errors_are_reported_not_deadlocked() {
        let failing = || -> Result<WorkerOp, BenchError> { Err(BenchError::Setup("no keys".into())) };
        assert!(run_workers(2, Duration::from_millis(1), &failing).is_err());
    }
}
