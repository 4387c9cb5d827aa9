//! Streaming log-scale histogram of durations (no per-packet logs): relative error under
//! 0.8% (0.8 ms at 100 ms), and exact counts at or below chosen thresholds (the
//! scenario's deadlines), so that "within 100 ms" is read exactly, not from a bucket.

use serde::{Deserialize, Serialize};

/// Sub-buckets per octave (from the mantissa's top bits): relative resolution 1/128.
const SUB_BITS: u32 = 7;
const SUB: usize = 1 << SUB_BITS;
/// Octaves above 1 µs (up to about 1000 s), plus an underflow bucket.
const OCTAVES: usize = 30;
const BUCKETS: usize = 1 + OCTAVES * SUB;
const MIN_NS: f64 = 1_000.0;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    counts: Vec<u64>,
    pub count: u64,
    pub sum_ns: f64,
    pub max_ns: u64,
    /// `(threshold ns, samples at or below it)`, exact, ascending.
    #[serde(default)]
    pub within: Vec<(u64, u64)>,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![0; BUCKETS],
            count: 0,
            sum_ns: 0.0,
            max_ns: 0,
            within: Vec::new(),
        }
    }
}

/// Bucket from the exponent and top mantissa bits of the value in µs (no logarithm).
fn bucket(ns: u64) -> usize {
    let v = ns as f64 / MIN_NS;
    if v < 1.0 {
        return 0;
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as usize - 1023;
    let sub = ((bits >> (52 - SUB_BITS)) as usize) & (SUB - 1);
    (1 + exp * SUB + sub).min(BUCKETS - 1)
}

/// Upper edge of bucket `i` in ns.
fn upper_edge(i: usize) -> f64 {
    if i == 0 {
        MIN_NS
    } else {
        let (exp, sub) = ((i - 1) / SUB, (i - 1) % SUB);
        MIN_NS * 2f64.powi(exp as i32) * (1.0 + (sub + 1) as f64 / SUB as f64)
    }
}

impl Histogram {
    /// An empty histogram that also counts samples at or below each threshold exactly.
    pub fn with_thresholds(thresholds_ns: &[u64]) -> Histogram {
        let mut t = thresholds_ns.to_vec();
        t.sort_unstable();
        t.dedup();
        Histogram {
            within: t.into_iter().map(|t| (t, 0)).collect(),
            ..Histogram::default()
        }
    }

    /// Exact number of samples at or below `threshold_ns`, when it is a threshold.
    pub fn count_within(&self, threshold_ns: u64) -> Option<u64> {
        self.within.iter().find(|w| w.0 == threshold_ns).map(|w| w.1)
    }

    pub fn record(&mut self, ns: u64) {
        for w in self.within.iter_mut().filter(|w| ns <= w.0) {
            w.1 += 1;
        }
        if let Some(c) = self.counts.get_mut(bucket(ns)) {
            *c += 1;
        }
        self.count += 1;
        self.sum_ns += ns as f64;
        self.max_ns = self.max_ns.max(ns);
    }

    pub fn merge(&mut self, o: &Histogram) {
        let was_empty = self.count == 0;
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        self.count += o.count;
        self.sum_ns += o.sum_ns;
        self.max_ns = self.max_ns.max(o.max_ns);
        for &(t, c) in &o.within {
            match self.within.binary_search_by_key(&t, |w| w.0) {
                Ok(i) => self.within[i].1 += c,
                // A threshold only the other had: exact only if this one was empty.
                Err(i) if was_empty => self.within.insert(i, (t, c)),
                Err(_) => {}
            }
        }
    }

    pub fn mean_ms(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.sum_ns / self.count as f64 / 1e6
        }
    }

    /// Quantile in ms (bucket upper edge, capped at the maximum seen).
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.count == 0 {
            return f64::NAN;
        }
        let target = (q.clamp(0.0, 1.0) * self.count as f64).ceil().max(1.0) as u64;
        let mut acc = 0;
        for (i, c) in self.counts.iter().enumerate() {
            acc += c;
            if acc >= target {
                return upper_edge(i).min(self.max_ns as f64) / 1e6;
            }
        }
        self.max_ns as f64 / 1e6
    }

    /// `(x_ms, count at or below x)` for every non-empty bucket.
    pub fn cumulative(&self) -> Vec<(f64, u64)> {
        let mut acc = 0;
        let mut out = Vec::new();
        for (i, c) in self.counts.iter().enumerate() {
            if *c > 0 {
                acc += c;
                out.push((upper_edge(i).min(self.max_ns as f64) / 1e6, acc));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_within_resolution() {
        let mut h = Histogram::default();
        for ms in 1..=1000u64 {
            h.record(ms * 1_000_000);
        }
        assert!((h.mean_ms() - 500.5).abs() < 1e-9);
        let med = h.quantile_ms(0.5);
        assert!((med - 500.0).abs() / 500.0 < 0.05, "{med}");
        assert_eq!(h.quantile_ms(1.0), 1000.0);
        let c = h.cumulative();
        assert_eq!(c.last().map(|x| x.1), Some(1000));
        let mut g = Histogram::default();
        g.merge(&h);
        assert_eq!(g, h);
    }

    /// Near 100 ms the buckets are 0.8 ms wide, but threshold counts are exact.
    #[test]
    fn threshold_counts_are_exact() {
        let mut h = Histogram::with_thresholds(&[100_000_000, 50_000_000]);
        for us in 99_000..=101_000u64 {
            h.record(us * 1_000);
        }
        // 99.000 ms ..= 100.000 ms: 1001 samples.
        assert_eq!(h.count_within(100_000_000), Some(1001));
        assert_eq!(h.count_within(50_000_000), Some(0));
        assert_eq!(h.count_within(1), None);
        let q = h.quantile_ms(0.5);
        assert!((q - 100.0).abs() / 100.0 < 1.0 / 128.0, "{q}");
        // Merging into an empty (pooled) histogram keeps the exact counts and adds them.
        let mut pooled = Histogram::default();
        pooled.merge(&h);
        pooled.merge(&h);
        assert_eq!(pooled.count_within(100_000_000), Some(2002));
    }
}
