//! The misbehaviour-detection suite: check evaluations per second on one core with every
//! check on — v2x-mbd's full detector (CaTCh plausibility and consistency checks, the
//! Kalman filter, receiver evidence, sender-level fusion) — beside the CaTCh set VeReMi
//! NextGen's reference system runs (threshold fusion), in the same interleaved trials, on a
//! dense synthetic highway (every sender at 10 Hz around one receiver).

use crate::measure::{measure_interleaved, Plan};
use crate::pool::WorkerOp;
use crate::result::MbdRow;
use crate::stats::{bootstrap_median_ci95, median};
use crate::BenchError;
use std::hint::black_box;
use v2x_mbd::checks::Family;
use v2x_mbd::detector::{Detector, DetectorConfig};
use v2x_mbd::Observation;

/// The target: check evaluations per second per core, all checks on.
pub const TARGET_PER_SEC: f64 = 1_000_000.0;

/// Measures both detectors over the workload; one operation is a fresh detector's pass
/// over the whole log (its state grows as on a receiver).
pub fn run(plan: &Plan, quick: bool) -> Result<Vec<MbdRow>, BenchError> {
    let (vehicles, seconds) = if quick { (50, 2.0) } else { (200, 5.0) };
    let log = v2x_mbd::workload::highway(vehicles, seconds, 1);
    let observations: Vec<Observation> = log.iter().map(Observation::from_message).collect();
    let workload = format!(
        "synthetic highway: {vehicles} senders at 10 Hz over {seconds} s around one receiver, {} messages",
        observations.len()
    );
    let detectors = [
        (
            "full: all checks, evidence, sender-level fusion",
            DetectorConfig::full(Family::Catch),
        ),
        (
            "NextGen's CaTCh set, threshold fusion",
            DetectorConfig::catch_reference(),
        ),
    ];
    let mut ops: Vec<WorkerOp> = Vec::new();
    let mut evaluations = Vec::new();
    for (_, config) in &detectors {
        let mut d = Detector::new(config.clone());
        for o in &observations {
            d.observe(o);
        }
        evaluations.push(d.evaluations);
        let (config, observations) = (config.clone(), observations.clone());
        ops.push(Box::new(move || {
            let mut d = Detector::new(config.clone());
            for o in &observations {
                black_box(d.observe(black_box(o)));
            }
            black_box(d.evaluations);
            Ok(())
        }));
    }
    let stats = measure_interleaved(plan, &mut ops)?;
    Ok(detectors
        .iter()
        .zip(stats)
        .zip(evaluations)
        .map(|(((name, _), s), evals)| {
            // Per trial: evaluations per second of that trial's mean pass time.
            let rates: Vec<f64> = s.trial_means_us.iter().map(|us| evals as f64 / (us * 1e-6)).collect();
            let (lo, hi) = bootstrap_median_ci95(&rates);
            MbdRow {
                detector: (*name).to_string(),
                workload: workload.clone(),
                messages: observations.len(),
                evaluations_per_pass: evals,
                evaluations_per_sec: median(&rates),
                ci95_low_per_sec: lo,
                ci95_high_per_sec: hi,
                messages_per_sec: observations.len() as f64 * median(&rates) / evals as f64,
                trials: rates.len(),
                target_per_sec: TARGET_PER_SEC,
                target_met: lo >= TARGET_PER_SEC,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_detectors_are_measured_and_the_full_one_evaluates_more() {
        let rows = run(&Plan::quick(), true).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(rows[0].evaluations_per_pass > rows[1].evaluations_per_pass);
        for r in &rows {
            assert_eq!(r.messages, 1000);
            assert!(r.ci95_low_per_sec <= r.evaluations_per_sec && r.evaluations_per_sec <= r.ci95_high_per_sec);
            assert_eq!(r.target_met, r.ci95_low_per_sec >= TARGET_PER_SEC);
        }
    }
}
