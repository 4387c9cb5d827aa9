//! The benchmark tables of papers 000 (Tables 4-5, Figs. 10-13), 001 (Tables 1, 3-11),
//! 002 (Table 3.2) and 004 (Sec. V-E): `v2x bench` on this machine against the `match`
//! entries of `papers.json`.
//!
//! A timing measured on another processor is shown, not judged (not comparable: the
//! papers' CubieBoard, Xeon, MK5 or Atom are not this machine); sizes (`hardware` = `any`)
//! and hardware-independent ratios are judged. Ours carries the bootstrap interval of the
//! median over the benchmark's trials; a size is exact.

use crate::report::{statement_of, Basis, Label, Row};
use crate::rule::Estimate;
use crate::ReproduceError;
use v2x_bench::metric::Metric;
use v2x_bench::papers::{PaperData, PaperValue};
use v2x_bench::result::{BenchResult, Measurement};
use v2x_bench::stats::{bootstrap_median_ci95, median};
use v2x_bench::{Config, Suite};

/// Measures every suite the comparisons use (the breakdown suite compares with nothing).
pub fn measure(quick: bool, progress: &dyn v2x_report::Progress) -> Result<BenchResult, ReproduceError> {
    let mut config = Config::new(vec![Suite::Raw, Suite::Stack, Suite::Protocols, Suite::Scaling], quick);
    config.command = "v2x reproduce".into();
    v2x_bench::run_with_progress(&config, progress).map_err(|e| ReproduceError::Bench(Box::new(e)))
}

/// The median of `trials` and its bootstrap interval.
pub fn median_estimate(trials: &[f64]) -> Option<Estimate> {
    let v: Vec<f64> = trials.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    let (lo, hi) = bootstrap_median_ci95(&v);
    Some(Estimate {
        value: median(&v),
        low: lo,
        high: hi,
    })
}

/// One operation's per-call time (µs): median of the trial means, with its interval.
pub fn latency_us(m: &Measurement) -> Option<Estimate> {
    median_estimate(&m.latency.trial_means_us)
}

/// Ours for one entry, from the measurements of `result`.
pub fn ours(e: &PaperValue, result: &BenchResult) -> Option<Estimate> {
    let m = e.matcher.as_ref()?.find(&result.measurements)?;
    let scaling = || result.scaling.iter().find(|s| s.key == m.key());
    match e.metric {
        Metric::LatencyMs => latency_us(m).map(|l| l.map(|us| us / 1e3)),
        Metric::OpsPerSec => latency_us(m).map(|l| l.map(|us| 1e6 / us)),
        Metric::OpsPerSecAllCores => median_estimate(&scaling()?.all_cores.trial_ops_per_sec),
        Metric::OverheadBytes => m.overhead_bytes.map(|b| Estimate::exact(b as f64)),
        Metric::ScalingRatio => {
            let s = scaling()?;
            let per_trial: Vec<f64> = s
                .all_cores
                .trial_ops_per_sec
                .iter()
                .zip(&s.one_core.trial_ops_per_sec)
                .map(|(a, o)| a / o)
                .collect();
            median_estimate(&per_trial)
        }
        Metric::TimeRatio => {
            let d = e.denominator.as_ref()?.find(&result.measurements)?;
            let (a, b) = (latency_us(m)?, latency_us(d)?);
            Some(Estimate {
                value: a.value / b.value,
                low: a.low / b.high,
                high: a.high / b.low,
            })
        }
        Metric::Fraction | Metric::DelayMs | Metric::DistanceM => None,
    }
}

/// Adds a row per `match` entry of `paper`.
pub fn add(rows: &mut Vec<Row>, data: &PaperData, result: &BenchResult, paper: &str) {
    let host = format!("{} ({} cores)", result.host.cpu, result.host.cores);
    for e in data.entries.iter().filter(|e| e.paper == paper && e.matcher.is_some()) {
        let hw = data
            .hardware
            .get(&e.hardware)
            .cloned()
            .unwrap_or_else(|| e.hardware.clone());
        rows.push(row(e, result, &hw, &host));
    }
}

fn row(e: &PaperValue, result: &BenchResult, paper_hw: &str, host: &str) -> Row {
    let ours = ours(e, result);
    let mut basis = Basis::of(e);
    if e.hardware != "any" {
        basis = basis.not_comparable(format!("hardware: paper {paper_hw}; here {host}"));
    }
    let label = Label {
        paper: e.paper.clone(),
        source: e.source.clone(),
        location: e.location.clone().unwrap_or_else(|| e.source.clone()),
        item: match &e.scheme {
            Some(s) => format!("{} — {} ({})", e.procedure, s, e.hardware),
            None => format!("{} ({})", e.procedure, e.hardware),
        },
        unit: e.metric.unit_and_meaning().0.into(),
        setup: String::new(),
    };
    let quick = result.quick;
    Row::compare(label, statement_of(e), ours, basis, || {
        let mut r = if ours_exists(e, result) {
            match e.metric {
                Metric::OverheadBytes => join(
                    &e.note,
                    "the encoding of this stack's real messages (field by field in `v2x overhead`)",
                ),
                _ => join(&e.note, "implementation and hardware differ"),
            }
        } else if e.note.is_empty() {
            "no equivalent measurement on this machine".into()
        } else {
            e.note.clone()
        };
        if quick {
            r.push_str("; quick run (few samples)");
        }
        r
    })
}

fn ours_exists(e: &PaperValue, result: &BenchResult) -> bool {
    e.matcher.as_ref().and_then(|m| m.find(&result.measurements)).is_some()
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.into()
    } else {
        format!("{a}; {b}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_estimate_brackets_the_median() {
        let e = median_estimate(&[10.0, 11.0, 9.0, 10.5, 9.5, f64::NAN]).unwrap();
        assert_eq!(e.value, 10.0);
        assert!(e.low <= 10.0 && e.high >= 10.0 && e.low >= 9.0 && e.high <= 11.0);
        assert!(median_estimate(&[]).is_none());
    }
}
