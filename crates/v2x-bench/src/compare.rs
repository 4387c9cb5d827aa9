//! Comparison tables: each published value beside this machine's figure, with a ratio.

use crate::metric::Metric;
use crate::papers::{PaperData, PaperValue};
use crate::result::{ComparisonRow, ComparisonTable, Measurement, ScalingRow};

fn compare_one(e: &PaperValue, measurements: &[Measurement], scaling: &[ScalingRow]) -> ComparisonRow {
    let (unit, meaning) = e.metric.unit_and_meaning();
    let m = e.matcher.as_ref().and_then(|mt| mt.find(measurements));
    let mut note = e.note.clone();
    let (ours, ratio) = match (e.metric, m) {
        (Metric::LatencyMs, Some(m)) => {
            let ms = m.latency.median_us / 1000.0;
            (Some(ms), Some(e.value / ms))
        }
        (Metric::OpsPerSec, Some(m)) => {
            let r = m.latency.ops_per_sec_robust();
            (Some(r), Some(r / e.value))
        }
        (Metric::OpsPerSecAllCores, Some(m)) => match m.ops_per_sec_all_cores {
            Some(r) => (Some(r), Some(r / e.value)),
            None => (None, None),
        },
        (Metric::OverheadBytes, Some(m)) => match m.overhead_bytes {
            Some(b) => (Some(b as f64), Some(b as f64 / e.value)),
            None => (None, None),
        },
        (Metric::ScalingRatio, Some(m)) => match scaling.iter().find(|s| s.key == m.key()) {
            Some(s) => (Some(s.speedup), Some(s.speedup / e.value)),
            None => (None, None),
        },
        (Metric::TimeRatio, Some(m)) => {
            let den = e.denominator.as_ref().and_then(|d| d.find(measurements));
            match den {
                Some(d) => {
                    let r = m.latency.median_us / d.latency.median_us;
                    if !note.is_empty() {
                        note.push_str("; ");
                    }
                    note.push_str(&format!("denominator here: {}", d.key()));
                    (Some(r), Some(r / e.value))
                }
                None => (None, None),
            }
        }
        _ => (None, None),
    };
    ComparisonRow {
        source: e.source.clone(),
        hardware: e.hardware.clone(),
        procedure: e.procedure.clone(),
        scheme: e.scheme.clone(),
        metric: e.metric,
        unit: unit.into(),
        paper_value: e.value,
        paper_value_high: e.value_high,
        ours_key: if ours.is_some() { m.map(Measurement::key) } else { None },
        ours,
        ratio,
        ratio_meaning: meaning.into(),
        note,
    }
}

/// One table per paper, rows in the data file's order; simulation results (`sim`) are
/// `v2x reproduce`'s, not the benchmark's.
pub fn build(data: &PaperData, measurements: &[Measurement], scaling: &[ScalingRow]) -> Vec<ComparisonTable> {
    data.papers
        .iter()
        .map(|(paper, citation)| ComparisonTable {
            paper: paper.clone(),
            citation: citation.clone(),
            rows: data
                .entries
                .iter()
                // Simulated, test-bench and named values are `v2x reproduce`'s, not the
                // benchmark's.
                .filter(|e| &e.paper == paper && e.sim.is_none() && e.testbed.is_none() && e.id.is_none())
                .map(|e| compare_one(e, measurements, scaling))
                .collect(),
        })
        .collect()
}
