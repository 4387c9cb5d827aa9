//! The results of a simulation as tidy rows: one per variant x replication x metric, or x
//! distance bin for per-distance metrics, the unit in the metric's name. `v2x sim` writes
//! them as `results.csv` / `results.parquet`; sweeps add the run's parameters to each row;
//! the Python package returns them as a DataFrame. Per-replication rows, not pooled ones,
//! so that a confidence interval per bin can be computed.

use crate::{RunMetrics, SimResults};
use serde::{Deserialize, Serialize};

/// One row: a metric of a variant, or one distance bin's metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub variant: String,
    pub protocol: String,
    /// Metric name, its unit as a suffix (`_ms`, `_ratio`, `_count`).
    pub metric: String,
    /// Distance bin edges for per-distance rows (none for whole-run metrics).
    pub distance_from_m: Option<f64>,
    pub distance_to_m: Option<f64>,
    /// NaN (stored as null) when the run has nothing to measure it on.
    pub value: Option<f64>,
}

fn opt(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Whole-run metrics, in table order.
pub fn metrics(m: &RunMetrics) -> Vec<(&'static str, f64)> {
    let lost = m.crypto_lost_deadline + m.crypto_lost_key + m.crypto_lost_unknown_certificate;
    vec![
        ("pdr_network_ratio", m.pdr_network()),
        ("pdr_application_ratio", m.pdr_application()),
        ("crypto_loss_ratio", m.crypto_loss_ratio()),
        ("awareness_ratio", m.awareness()),
        ("weighted_awareness_ratio", m.weighted_awareness()),
        ("channel_busy_ratio", m.channel_busy_ratio()),
        ("query_success_ratio", m.query_success_rate()),
        ("e2e_delay_mean_ms", m.e2e_delay.mean_ms()),
        ("e2e_delay_p99_ms", m.e2e_delay.quantile_ms(0.99)),
        ("verification_latency_mean_ms", m.verification_latency.mean_ms()),
        ("verification_latency_p99_ms", m.verification_latency.quantile_ms(0.99)),
        ("mac_delay_mean_ms", m.mac_delay.mean_ms()),
        ("inter_arrival_mean_ms", m.inter_arrival.mean_ms()),
        ("cams_generated_count", m.cams_generated as f64),
        ("frames_sent_count", m.frames_sent as f64),
        ("mac_drops_count", (m.mac_queue_drops + m.mac_delay_drops) as f64),
        ("cams_refused_oversize_ratio", m.cams_refused_oversize_ratio()),
        ("frames_refused_oversize_count", m.frames_refused_oversize as f64),
        ("security_arrivals_count", m.security_arrivals as f64),
        ("crypto_lost_count", lost as f64),
        ("attacks_accepted_count", m.attacks_accepted as f64),
    ]
}

/// Tidy rows of every variant and replication of a simulation: (replication, row).
pub fn rows(results: &SimResults) -> Vec<(u32, Row)> {
    let bin_m = results.scenario.metrics.distance_bin_m;
    let mut rows = Vec::new();
    for v in &results.variants {
        for (rep, m) in v.runs.iter().enumerate() {
            let rep = rep as u32;
            let row = |metric: &str, from: Option<f64>, to: Option<f64>, value: f64| {
                let r = Row {
                    variant: v.name.clone(),
                    protocol: v.protocol.clone(),
                    metric: metric.into(),
                    distance_from_m: from,
                    distance_to_m: to,
                    value: opt(value),
                };
                (rep, r)
            };
            rows.push(row("nodes_count", None, None, v.nodes as f64));
            for (name, x) in metrics(m) {
                rows.push(row(name, None, None, x));
            }
            for (i, b) in m.bins.iter().enumerate() {
                let (from, to) = (Some(i as f64 * bin_m), Some((i + 1) as f64 * bin_m));
                let ratio = |a: u64| {
                    if b.attempts == 0 {
                        f64::NAN
                    } else {
                        a as f64 / b.attempts as f64
                    }
                };
                rows.push(row("bin_attempts_count", from, to, b.attempts as f64));
                rows.push(row("bin_pdr_network_ratio", from, to, ratio(b.received)));
                rows.push(row("bin_pdr_application_ratio", from, to, ratio(b.verified)));
                rows.push(row("bin_crypto_lost_ratio", from, to, ratio(b.crypto_lost)));
            }
        }
    }
    rows
}

/// The rows as CSV text (`replication` first; an empty cell for a missing value).
pub fn csv_text(results: &SimResults) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "replication",
        "variant",
        "protocol",
        "metric",
        "distance_from_m",
        "distance_to_m",
        "value",
    ])?;
    let cell = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    for (rep, r) in rows(results) {
        w.write_record([
            rep.to_string(),
            r.variant,
            r.protocol,
            r.metric,
            cell(r.distance_from_m),
            cell(r.distance_to_m),
            cell(r.value),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| csv::Error::from(e.into_error()))?;
    String::from_utf8(bytes).map_err(|e| csv::Error::from(std::io::Error::other(e)))
}
