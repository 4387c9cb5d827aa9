//! One finished run as tidy rows: per variant, the headline metrics and the per-distance
//! bins of this replication alone (so that a CI per bin can be computed across runs).

use crate::error::SweepError;
use crate::spec::{Run, Sweep};
use serde::{Deserialize, Serialize};
use v2x_sim::{RunMetrics, SimResults};

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

/// A finished run: what it was and what it measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub id: String,
    pub point: usize,
    pub replication: u32,
    pub seed: u64,
    /// Axis key -> value (JSON scalars), in axis order.
    pub params: Vec<(String, serde_json::Value)>,
    pub rows: Vec<Row>,
    /// Wall time of the simulation (not part of the table: it differs run to run).
    pub wall_s: f64,
}

fn opt(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Whole-run metrics, in table order.
fn metrics(m: &RunMetrics) -> Vec<(&'static str, f64)> {
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
        ("security_arrivals_count", m.security_arrivals as f64),
        ("crypto_lost_count", lost as f64),
        ("attacks_accepted_count", m.attacks_accepted as f64),
    ]
}

fn param_json(v: &toml::Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
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

/// Turns one run's results (one replication) into its record.
pub fn record(run: &Run, results: &SimResults) -> Record {
    Record {
        id: run.id.clone(),
        point: run.point,
        replication: run.replication,
        seed: run.seed,
        params: run.params.iter().map(|(k, v)| (k.clone(), param_json(v))).collect(),
        rows: rows(results).into_iter().map(|(_, r)| r).collect(),
        wall_s: results.wall_s,
    }
}

/// Simulates one run (on the current rayon pool) as `v2x sim` does (real-crypto variants
/// included) and returns its results and record.
pub fn execute(sweep: &Sweep, run: &Run) -> Result<(SimResults, Record), SweepError> {
    let sc = sweep.scenario(run)?;
    let results = v2x_sim_crypto::run(&sc, &v2x_report::Silent).map_err(|e| SweepError::Sim {
        run: run.id.clone(),
        params: run.params_text(),
        source: Box::new(e),
    })?;
    let rec = record(run, &results);
    Ok((results, rec))
}
