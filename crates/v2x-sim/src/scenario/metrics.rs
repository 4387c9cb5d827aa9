//! `[metrics]`: what is collected and how (distance bins, headline range, awareness,
//! per-pair counts).

use super::check::pos;
use crate::error::ScenarioError;
use serde::{Deserialize, Serialize};

/// Metric collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsConfig {
    pub distance_bin_m: f64,
    pub max_distance_m: f64,
    /// Headline PDR and crypto-loss figures count receivers within this distance.
    pub headline_range_m: f64,
    pub awareness_radius_m: f64,
    /// A neighbour counts as known when heard from within this window.
    pub awareness_window_ms: f64,
    pub awareness_sample_interval_s: f64,
    /// Position error at which a neighbour's weight in the weighted awareness drops to 0.
    pub awareness_max_error_m: f64,
    /// Record per-pair received counts (memory grows with pairs).
    pub per_pair_counts: bool,
    /// Delays (ms) at which the numbers of CAMs verified (after reception and after
    /// generation) are counted exactly, besides the variants' deadlines (e.g. paper 004's
    /// "verified within 100 ms / 110 ms"); elsewhere the histograms' 0.8 % buckets apply.
    pub latency_thresholds_ms: Vec<f64>,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            distance_bin_m: 25.0,
            max_distance_m: 500.0,
            headline_range_m: 300.0,
            awareness_radius_m: 300.0,
            awareness_window_ms: 1000.0,
            awareness_sample_interval_s: 0.5,
            awareness_max_error_m: 10.0,
            per_pair_counts: false,
            latency_thresholds_ms: Vec::new(),
        }
    }
}

impl MetricsConfig {
    /// Checks value ranges; the error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let mt = self;
        pos("metrics.distance_bin_m", mt.distance_bin_m)?;
        pos("metrics.max_distance_m", mt.max_distance_m)?;
        if mt.max_distance_m / mt.distance_bin_m > 10_000.0 {
            return Err(ScenarioError::invalid("metrics.distance_bin_m", "at most 10000 bins"));
        }
        pos("metrics.headline_range_m", mt.headline_range_m)?;
        pos("metrics.awareness_radius_m", mt.awareness_radius_m)?;
        pos("metrics.awareness_window_ms", mt.awareness_window_ms)?;
        pos("metrics.awareness_sample_interval_s", mt.awareness_sample_interval_s)?;
        pos("metrics.awareness_max_error_m", mt.awareness_max_error_m)?;
        for t in &mt.latency_thresholds_ms {
            pos("metrics.latency_thresholds_ms", *t)?;
        }
        Ok(())
    }
}
