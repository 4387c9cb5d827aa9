//! v2x-reproduce: `v2x reproduce`, every paper's tables, figures and conclusions rebuilt
//! beside their published values (`crates/v2x-bench/data/papers.json` and paper 003's
//! `v2x-model` data).
//!
//! One [`Report`]: a [`Row`] per published value (ours with its 95 % interval, the
//! [evidence class](report::Evidence), the verdict of the one comparison rule of [`rule`])
//! and a [`Finding`] per published conclusion, judged on intervals ([`judge`]). Where ours
//! comes from:
//!
//! - [`bench`](mod@bench): `v2x bench` on this machine (papers 000, 001, 002, 004), and
//!   [`stack_vs_raw`] (paper 002's full stack against raw verification on one backend);
//! - [`sim`]: the scenario files of `scenarios/papers/` run with `v2x sim`;
//! - [`testbed`]: live testbed runs (paper 002), with today's receiver and with PRESERVE's
//!   emulated, beside the single-server queue prediction of [`queue`];
//! - paper 003's model (`v2x-model`), with the relay chains as extensions.
//!
//! [`papers`] lists the papers: one module each with what it runs and which conclusions it
//! judges. Adding a paper is adding its values to papers.json, its scenarios to
//! `scenarios/papers/`, and a module to [`papers::ALL`]. [`output`] writes the results
//! folder, whose report.md is docs/reproduce.md.

pub mod bench;
mod context;
pub mod figure;
pub mod judge;
pub mod number;
pub mod output;
pub mod papers;
pub mod queue;
pub mod report;
pub mod rule;
pub mod sim;
pub mod stack_vs_raw;
pub mod testbed;

pub use context::Context;
pub use judge::Support;
pub use report::{Evidence, Finding, Report, Row, Verdict};

use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ReproduceError {
    #[error("unknown paper `{0}` (valid: {valid})", valid = papers::ids().join(", "))]
    UnknownPaper(String),
    #[error("paper 003 model: {0}")]
    Model(#[from] v2x_model::ModelError),
    #[error("paper 003 relay chain: {0}")]
    Relay(#[from] v2x_model::relay::RelayError),
    #[error("benchmark: {0}")]
    Bench(#[from] Box<v2x_bench::BenchError>),
    #[error("paper data (papers.json): {0}")]
    PaperData(#[source] serde_json::Error),
    #[error("simulation: {0}")]
    Sim(#[from] v2x_sim::SimError),
    #[error("testbed run {run}: {source}")]
    Testbed {
        run: String,
        #[source]
        source: Box<v2x_testbed::orchestrator::TestbedError>,
    },
    #[error("papers.json names an unknown attack case `{0}`")]
    UnknownAttackCase(String),
    #[error("scenario {name}: {source}")]
    Scenario {
        name: String,
        #[source]
        source: v2x_sim::ScenarioError,
    },
    #[error("overhead report: {0}")]
    Overhead(#[from] v2x_protocols::overhead::OverheadError),
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Papers to reproduce (ids of [`papers::ALL`]).
    pub papers: Vec<String>,
    /// Seconds instead of the full run: the benchmark's quick plan, simulations shortened
    /// to [`sim::QUICK_DURATION_S`] and one replication, the lightest testbed runs (2 s);
    /// indicative only.
    pub quick: bool,
    /// The results folder (testbed runs, the trace files the scenarios read).
    pub dir: PathBuf,
    /// The `v2x` executable that starts as each testbed station (none: the testbed runs
    /// are not made, and the report says so).
    pub station_exe: Option<PathBuf>,
    /// The full NGSIM I-80 trajectory table (NGSIM's published CSV layout: `Vehicle_ID`,
    /// `Frame_ID`, `Local_X`, `Local_Y` in feet, 0.1-s frames) instead of the shipped
    /// sample, for paper 004's recorded-trace scenario.
    pub ngsim_i80: Option<PathBuf>,
}

impl Config {
    /// Checks the paper names; an empty list means every paper.
    pub fn new(papers: &[String], quick: bool, dir: PathBuf) -> Result<Config, ReproduceError> {
        let known = papers::ids();
        if let Some(p) = papers.iter().find(|p| !known.contains(&p.as_str())) {
            return Err(ReproduceError::UnknownPaper(p.clone()));
        }
        let papers = if papers.is_empty() {
            known.iter().map(|p| p.to_string()).collect()
        } else {
            // In the registry's order, once each.
            known
                .iter()
                .filter(|k| papers.iter().any(|p| p == *k))
                .map(|k| k.to_string())
                .collect()
        };
        Ok(Config {
            papers,
            quick,
            dir,
            station_exe: None,
            ngsim_i80: None,
        })
    }

    pub fn wants(&self, paper: &str) -> bool {
        self.papers.iter().any(|p| p == paper)
    }
}

/// A finished reproduction: the report and what the results folder needs besides it.
pub struct Reproduction {
    pub report: Report,
    /// Each simulated scenario with its results (for its folder and figures).
    pub sims: Vec<sim::ScenarioRun>,
    /// Paper 003's model run (its own folder and figures).
    pub model: Option<v2x_model::run::ModelResults>,
    /// Paper 003's closed form beside the simulated relay chains.
    pub relay: Vec<v2x_model::relay::ChainComparison>,
}

/// Runs every selected paper's reproduction.
pub fn run(config: &Config, progress: &dyn v2x_report::Progress) -> Result<Reproduction, ReproduceError> {
    let mut ctx = Context::new(config, progress)?;
    for paper in papers::ALL.iter().filter(|p| config.wants(p.id)) {
        (paper.add)(&mut ctx)?;
        ctx.report.not_done.extend(paper.not_done.iter().map(|s| s.to_string()));
    }
    Ok(ctx.finish())
}
