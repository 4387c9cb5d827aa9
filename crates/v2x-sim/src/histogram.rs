//! Streaming log-scale histogram of durations (no per-packet logs).

use serde::{Deserialize, Serialize};

/// Sub-buckets per octave (from the mantissa's top bits): relative resolution about 3%.
const SUB_BITS: u32 = 5;
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
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![0; BUCKETS],
            count: 0,
            sum_ns: 0.0,
            max_ns: 0,
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
    pub fn record(&mut self, ns: u64) {
        if let Some(c) = self.counts.get_mut(bucket(ns)) {
            *c += 1;
        }
        self.count += 1;
        self.sum_ns += ns as f64;
        self.max_ns = self.max_ns.max(ns);
    }

    pub fn merge(&mut self, o: &Histogram) {
        for (a, b) in self.counts.iter_mut().zip(&o.counts) {
            *a += b;
        }
        self.count += o.count;
        self.sum_ns += o.sum_ns;
        self.max_ns = self.max_ns.max(o.max_ns);
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
}
