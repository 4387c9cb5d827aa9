//! Summary statistics of per-operation latencies collected in repeated trials.
//!
//! Samples are per-operation times in microseconds, each the mean of one timed batch
//! (see [`crate::measure`]). The mean and its 95% confidence interval come from the
//! trial means (Student t over trials, so slow drifts of a shared machine widen the
//! interval instead of hiding in thousands of correlated samples); quantiles come from
//! the pooled samples.

use serde::{Deserialize, Serialize};

/// Quantile levels written into profiles (the simulator samples service times from them).
pub const PROFILE_QUANTILES: [f64; 11] = [0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0];

/// Latency statistics of one operation, in microseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyStats {
    /// Mean over all samples (equal to the mean of the trial means: trials have equal sizes).
    pub mean_us: f64,
    pub median_us: f64,
    pub p99_us: f64,
    pub min_us: f64,
    pub max_us: f64,
    /// 95% confidence interval of the mean (Student t over the trial means).
    pub ci95_low_us: f64,
    pub ci95_high_us: f64,
    /// Median of the trial means: the robust figure on a noisy machine.
    pub median_of_trials_us: f64,
    /// Mean of each trial.
    pub trial_means_us: Vec<f64>,
    /// Operations per timed batch (1 for slow operations; more for fast ones so that timer
    /// overhead stays negligible — quantiles are then over batch means).
    pub batch: u64,
    pub samples: usize,
    /// `(q, latency_us)` at [`PROFILE_QUANTILES`].
    pub quantiles: Vec<(f64, f64)>,
}

impl LatencyStats {
    /// Summarises equal-sized trials of per-operation samples (microseconds). Returns
    /// `None` when there is no sample or a sample is not a finite positive number.
    pub fn from_trials(trials: &[Vec<f64>], batch: u64) -> Option<LatencyStats> {
        let mut all: Vec<f64> = trials.iter().flatten().copied().collect();
        if all.is_empty() || all.iter().any(|v| !v.is_finite() || *v < 0.0) {
            return None;
        }
        let trial_means: Vec<f64> = trials.iter().filter(|t| !t.is_empty()).map(|t| mean(t)).collect();
        all.sort_by(f64::total_cmp);
        let mean_us = mean(&trial_means);
        let (lo, hi) = confidence_interval_95(&trial_means);
        let mut sorted_means = trial_means.clone();
        sorted_means.sort_by(f64::total_cmp);
        Some(LatencyStats {
            mean_us,
            median_us: quantile_sorted(&all, 0.5),
            p99_us: quantile_sorted(&all, 0.99),
            min_us: all[0],
            max_us: all[all.len() - 1],
            ci95_low_us: lo,
            ci95_high_us: hi,
            median_of_trials_us: quantile_sorted(&sorted_means, 0.5),
            trial_means_us: trial_means,
            batch,
            samples: all.len(),
            quantiles: PROFILE_QUANTILES
                .iter()
                .map(|&q| (q, quantile_sorted(&all, q)))
                .collect(),
        })
    }

    /// Operations per second on one core, from the mean latency.
    pub fn ops_per_sec(&self) -> f64 {
        1e6 / self.mean_us
    }

    /// Operations per second from the median latency: robust to preemption by other
    /// processes on a shared machine (the figure the comparisons quote).
    pub fn ops_per_sec_robust(&self) -> f64 {
        1e6 / self.median_us
    }
}

pub use v2x_report::stats::{mean, quantile_sorted, std_dev, t_975};

/// Median of unsorted data.
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    quantile_sorted(&s, 0.5)
}

/// 95% percentile-bootstrap interval of the median of `v` (2,000 resamples, fixed seed
/// so that a result file is reproducible from its trials). Used for paired trial ratios.
pub fn bootstrap_median_ci95(v: &[f64]) -> (f64, f64) {
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut medians = Vec::with_capacity(2000);
    let mut resample = vec![0.0; v.len()];
    for _ in 0..2000 {
        for x in resample.iter_mut() {
            *x = v[(next() % v.len() as u64) as usize];
        }
        medians.push(median(&resample));
    }
    medians.sort_by(|a, b| a.total_cmp(b));
    (quantile_sorted(&medians, 0.025), quantile_sorted(&medians, 0.975))
}

/// 95% confidence interval of the mean of `v`; degenerate (the mean itself) for one value.
pub fn confidence_interval_95(v: &[f64]) -> (f64, f64) {
    let (m, half) = v2x_report::stats::mean_ci95(v);
    if v.len() < 2 {
        return (m, m);
    }
    // Latencies are positive: a noisy few-trial interval is cut at zero.
    ((m - half).max(0.0), m + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        let s = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile_sorted(&s, 0.0), 1.0);
        assert_eq!(quantile_sorted(&s, 0.5), 3.0);
        assert_eq!(quantile_sorted(&s, 1.0), 5.0);
        assert!((quantile_sorted(&s, 0.99) - 4.96).abs() < 1e-12);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), 2.5);
    }

    #[test]
    fn stats_are_consistent() {
        let trials = vec![
            vec![10.0, 11.0, 12.0, 30.0],
            vec![9.0, 10.0, 10.5, 11.0],
            vec![10.0, 10.0, 10.0, 14.0],
        ];
        let s = LatencyStats::from_trials(&trials, 1).unwrap();
        assert_eq!(s.samples, 12);
        assert!(s.min_us <= s.median_us && s.median_us <= s.p99_us && s.p99_us <= s.max_us);
        assert!(s.ci95_low_us <= s.mean_us && s.mean_us <= s.ci95_high_us);
        let pooled: f64 = trials.iter().flatten().sum::<f64>() / 12.0;
        assert!((s.mean_us - pooled).abs() < 1e-9);
        assert!((s.ops_per_sec() - 1e6 / s.mean_us).abs() < 1e-6);
        assert_eq!(s.quantiles.len(), PROFILE_QUANTILES.len());
        assert!(s.quantiles.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    #[test]
    fn confidence_interval_known_value() {
        // mean 11, sd 1, n 3: half width = 4.303 / sqrt(3)
        let (lo, hi) = confidence_interval_95(&[10.0, 11.0, 12.0]);
        assert!((hi - 11.0 - 4.303 / 3f64.sqrt()).abs() < 1e-9);
        assert!((11.0 - lo - 4.303 / 3f64.sqrt()).abs() < 1e-9);
        // Cut at zero, never negative.
        assert_eq!(confidence_interval_95(&[1.0, 2.0, 30.0]).0, 0.0);
        assert_eq!(confidence_interval_95(&[5.0]), (5.0, 5.0));
    }

    #[test]
    fn rejects_empty_and_nan() {
        assert!(LatencyStats::from_trials(&[], 1).is_none());
        assert!(LatencyStats::from_trials(&[vec![f64::NAN]], 1).is_none());
    }

    #[test]
    fn bootstrap_interval_brackets_the_median() {
        let v: Vec<f64> = (0..15).map(|i| 1.0 + 0.01 * i as f64).collect();
        let (lo, hi) = bootstrap_median_ci95(&v);
        let m = median(&v);
        assert!(lo <= m && m <= hi && lo >= 1.0 && hi <= 1.14, "{lo} {m} {hi}");
        assert_eq!(bootstrap_median_ci95(&[2.0, 2.0, 2.0]), (2.0, 2.0));
    }
}
