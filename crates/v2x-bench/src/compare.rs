//! Comparison tables: each published value beside this machine's figure, with a ratio.

use crate::papers::{PaperData, PaperValue};
use crate::result::{Measurement, ScalingRow};
use serde::{Deserialize, Serialize};

/// All published values of one paper with this machine's counterparts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonTable {
    pub paper: String,
    pub citation: String,
    pub rows: Vec<ComparisonRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonRow {
    pub source: String,
    pub hardware: String,
    pub procedure: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    pub metric: String,
    pub unit: String,
    pub paper_value: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper_value_high: Option<f64>,
    /// This machine's figure in the same unit (medians of trials).
    pub ours: Option<f64>,
    /// The measurement it comes from.
    pub ours_key: Option<String>,
    /// See `ratio_meaning`.
    pub ratio: Option<f64>,
    pub ratio_meaning: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

fn unit_and_meaning(metric: &str) -> (&'static str, &'static str) {
    match metric {
        "latency_ms" => ("ms", "x faster here (paper time / our time)"),
        "ops_per_sec" => ("ops/s", "x faster here (our rate / paper rate), one core"),
        "ops_per_sec_all_cores" => ("ops/s", "x faster here (our all-core rate / paper rate)"),
        "overhead_bytes" => ("bytes", "our size / paper size"),
        "scaling_ratio" => ("x", "our speed-up / paper speed-up"),
        "time_ratio" => ("x", "our ratio / paper's lower bound"),
        _ => ("", ""),
    }
}

fn compare_one(e: &PaperValue, measurements: &[Measurement], scaling: &[ScalingRow]) -> ComparisonRow {
    let (unit, meaning) = unit_and_meaning(&e.metric);
    let m = e.matcher.as_ref().and_then(|mt| mt.find(measurements));
    let mut note = e.note.clone();
    let (ours, ratio) = match (e.metric.as_str(), m) {
        ("latency_ms", Some(m)) => {
            let ms = m.latency.median_us / 1000.0;
            (Some(ms), Some(e.value / ms))
        }
        ("ops_per_sec", Some(m)) => {
            let r = m.latency.ops_per_sec_robust();
            (Some(r), Some(r / e.value))
        }
        ("ops_per_sec_all_cores", Some(m)) => match m.ops_per_sec_all_cores {
            Some(r) => (Some(r), Some(r / e.value)),
            None => (None, None),
        },
        ("overhead_bytes", Some(m)) => match m.overhead_bytes {
            Some(b) => (Some(b as f64), Some(b as f64 / e.value)),
            None => (None, None),
        },
        ("scaling_ratio", Some(m)) => match scaling.iter().find(|s| s.key == m.key()) {
            Some(s) => (Some(s.speedup), Some(s.speedup / e.value)),
            None => (None, None),
        },
        ("time_ratio", Some(m)) => {
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
        metric: e.metric.clone(),
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

/// One table per paper, rows in the data file's order.
pub fn build(data: &PaperData, measurements: &[Measurement], scaling: &[ScalingRow]) -> Vec<ComparisonTable> {
    data.papers
        .iter()
        .map(|(paper, citation)| ComparisonTable {
            paper: paper.clone(),
            citation: citation.clone(),
            rows: data
                .entries
                .iter()
                .filter(|e| &e.paper == paper)
                .map(|e| compare_one(e, measurements, scaling))
                .collect(),
        })
        .collect()
}
