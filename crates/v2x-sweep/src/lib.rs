//! v2x-sweep: parameter sweeps over simulation scenarios, shared by `v2x sweep` and the
//! Python package.
//!
//! - [`spec`]: the sweep spec (base scenario, axes by dotted key, replications or seeds)
//!   expanded into [`Run`]s with stable ids;
//! - [`record`]: one run's tidy rows (per variant: metrics and distance bins);
//! - [`store`]: the output folder, one sub-folder per run, resumable;
//! - [`table`]: the merged table, `results.parquet` and `results.csv`.
//!
//! A run is one point of the axes and one replication (seed). Runs are independent, so a
//! sweep can be run whole, one run at a time (`--run ID`, a Dask task) or resumed; the
//! table is always rebuilt from the finished run folders, so every path gives the same table.

pub mod error;
pub mod record;
pub mod spec;
pub mod store;
pub mod table;

pub use error::SweepError;
pub use record::{Record, Row};
pub use spec::{Run, Sweep, SweepSpec};

use rayon::prelude::*;
use std::path::Path;

/// What a call to [`run`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Runs simulated now.
    pub ran: usize,
    /// Runs skipped because their folder already held a finished record.
    pub reused: usize,
    /// Runs of the sweep still not done (when only some were asked for).
    pub missing: usize,
    /// Rows in the merged table.
    pub rows: usize,
}

/// Runs the sweep's runs (all of them, or only `only`) that are not finished yet in `out`,
/// with at most `threads` worker threads (0: all cores), then rebuilds the merged table.
pub fn run(
    sweep: &Sweep,
    out: &Path,
    threads: usize,
    only: &[String],
    progress: &dyn v2x_report::Progress,
) -> Result<Outcome, SweepError> {
    store::prepare(sweep, out)?;
    let selected: Vec<&Run> = if only.is_empty() {
        sweep.runs.iter().collect()
    } else {
        only.iter().map(|id| sweep.run_by_id(id)).collect::<Result<_, _>>()?
    };
    let todo: Vec<&Run> = selected.iter().copied().filter(|r| !store::is_done(out, r)).collect();
    let reused = selected.len() - todo.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SweepError::Output {
            path: out.display().to_string(),
            message: format!("cannot start {threads} threads: {e}"),
        })?;
    // One step per variant of each run (what a run's simulation counts), so that the
    // whole sweep's progress moves with every run's simulated time.
    let steps: usize = todo
        .iter()
        .map(|r| {
            sweep
                .scenario(r)
                .map_or(1, |sc| sc.variants.len() * sc.replications as usize)
        })
        .sum();
    progress.start(steps as u64);
    // Each finished run is stored at once: an error in another run loses nothing.
    let results: Vec<Result<(), SweepError>> = pool.install(|| {
        todo.par_iter()
            .map(|r| {
                let part = v2x_report::Part {
                    whole: progress,
                    prefix: format!("{} ", r.id),
                };
                let (res, rec) = record::execute_with(sweep, r, &part)?;
                store::save(out, &rec, Some(&res))?;
                Ok(())
            })
            .collect()
    });
    progress.finish();
    let first_error = results.into_iter().find_map(Result::err);
    let (rows, missing) = merge(sweep, out)?;
    if let Some(e) = first_error {
        return Err(e);
    }
    Ok(Outcome {
        ran: todo.len(),
        reused,
        missing,
        rows,
    })
}

/// Rebuilds `results.parquet` and `results.csv` from the finished runs (in run order);
/// returns the row count and the number of runs not finished.
pub fn merge(sweep: &Sweep, out: &Path) -> Result<(usize, usize), SweepError> {
    let mut records = Vec::new();
    let mut missing = 0;
    for r in &sweep.runs {
        match store::load(out, r)? {
            Some(rec) => records.push(rec),
            None => missing += 1,
        }
    }
    let t = table::build(&records, &sweep.axis_keys());
    table::write(&t, out)?;
    Ok((records.iter().map(|r| r.rows.len()).sum(), missing))
}
