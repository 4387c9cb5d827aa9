//! One finished run as tidy rows ([`v2x_sim::tidy`]): per variant, the headline metrics and
//! the per-distance bins of this replication alone (so that a CI per bin can be computed
//! across runs).

use crate::error::SweepError;
use crate::spec::{Run, Sweep};
use serde::{Deserialize, Serialize};
pub use v2x_sim::tidy::{rows, Row};
use v2x_sim::SimResults;

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

fn param_json(v: &toml::Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
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
    execute_with(sweep, run, &v2x_report::Silent)
}

/// [`execute`], reporting each variant's simulated time to `progress` (as a part of the
/// whole sweep: see [`v2x_report::Part`]).
pub fn execute_with(
    sweep: &Sweep,
    run: &Run,
    progress: &dyn v2x_report::Progress,
) -> Result<(SimResults, Record), SweepError> {
    let sc = sweep.scenario(run)?;
    let results = v2x_sim_crypto::run(&sc, progress).map_err(|e| SweepError::Sim {
        run: run.id.clone(),
        params: run.params_text(),
        source: Box::new(e),
    })?;
    let rec = record(run, &results);
    Ok((results, rec))
}
