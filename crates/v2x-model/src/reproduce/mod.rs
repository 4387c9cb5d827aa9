//! `v2x reproduce`: the papers' tables and figures rebuilt beside their published values.
//!
//! One [`Report`]: a [`Row`] per published cell (the paper's value, ours, the difference and
//! a one-line reason where they differ) and a [`Finding`] per published conclusion (holds or
//! not, with the evidence). Sources:
//! - [`paper003`]: the multi-hop cost model (Tables 4-6, crossovers), computed;
//! - [`bench`](mod@bench): the benchmark tables of papers 000, 001, 002 and 004 (`v2x bench` measured on
//!   this machine, against `papers.json`);
//! - [`sim`]: the simulation results (paper 000 Sec. 5) from the scenario files of
//!   `scenarios/papers/`, against the `sim` entries of `papers.json`.

pub mod bench;
pub mod figure;
pub mod output;
pub mod paper003;
pub mod sim;
pub mod testbed;

use serde::Serialize;
use thiserror::Error;

/// Papers `--paper` selects from.
pub const PAPERS: [&str; 5] = ["000", "001", "002", "003", "004"];

#[derive(Debug, Error)]
pub enum ReproduceError {
    #[error("unknown paper `{0}` (valid: 000, 001, 002, 003, 004)")]
    UnknownPaper(String),
    #[error("paper 003 model: {0}")]
    Model(#[from] crate::ModelError),
    #[error("paper 003 relay chain: {0}")]
    Relay(#[from] crate::relay::RelayError),
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
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Papers to reproduce (a subset of [`PAPERS`]).
    pub papers: Vec<String>,
    /// Seconds instead of the full run: the benchmark's quick plan, simulations shortened
    /// to [`sim::QUICK_DURATION_S`] simulated seconds and one replication (indicative only).
    pub quick: bool,
    /// Where the live testbed runs paper 002 Table 4.2 (none: not run, said in the report).
    pub testbed: Option<testbed::TestbedPlace>,
}

impl Config {
    /// Checks the paper names; an empty list means every paper.
    pub fn new(papers: &[String], quick: bool) -> Result<Config, ReproduceError> {
        for p in papers {
            if !PAPERS.contains(&p.as_str()) {
                return Err(ReproduceError::UnknownPaper(p.clone()));
            }
        }
        let papers = if papers.is_empty() {
            PAPERS.iter().map(|p| p.to_string()).collect()
        } else {
            papers.to_vec()
        };
        Ok(Config {
            papers,
            quick,
            testbed: None,
        })
    }

    fn wants(&self, paper: &str) -> bool {
        self.papers.iter().any(|p| p == paper)
    }
}

/// How a reproduced value relates to the published one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Equal to the printed precision (or within the stated tolerance).
    Reproduced,
    /// Differs; `reason` says why (hardware, range, model...).
    Differs,
    /// Nothing here compares with it (reason given).
    NotCompared,
}

/// One published table cell or figure value beside ours.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub paper: String,
    /// Table or figure, e.g. `Table 4`, `Fig. 17`.
    pub source: String,
    /// Section (and page where the text has one) the value is printed in.
    pub location: String,
    /// What the value is (row and column of the table, procedure, variant).
    pub item: String,
    pub unit: String,
    pub paper_value: f64,
    pub ours: Option<f64>,
    /// Half-width of the 95% confidence interval of `ours` over replications, if any.
    pub ours_ci95: Option<f64>,
    /// Ours relative to the paper, in words with a number (e.g. `x4.2 faster`, `+0.05`).
    pub difference: String,
    pub verdict: Verdict,
    /// One line: why ours differs (empty when reproduced).
    pub reason: String,
}

/// A published conclusion (not only a number) and whether our results support it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub paper: String,
    pub source: String,
    /// The paper's claim, quoted or paraphrased.
    pub claim: String,
    pub verdict: Support,
    /// Our numbers for or against it.
    pub evidence: String,
}

/// Whether our results support a published conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Support {
    Holds,
    Contradicted,
    /// This run cannot decide (e.g. a loaded machine for a scaling claim).
    Inconclusive,
}

impl Support {
    pub fn of(holds: bool) -> Support {
        if holds {
            Support::Holds
        } else {
            Support::Contradicted
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Support::Holds => "holds",
            Support::Contradicted => "CONTRADICTED",
            Support::Inconclusive => "inconclusive",
        }
    }
}

/// A figure drawn by the run (file name in the output folder).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    pub paper: String,
    pub file: String,
    pub caption: String,
}

/// Everything `v2x reproduce` writes.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub quick: bool,
    pub papers: Vec<String>,
    /// This machine's processor, as the benchmark saw it.
    pub host: Option<String>,
    pub rows: Vec<Row>,
    pub findings: Vec<Finding>,
    pub figures: Vec<Figure>,
    /// What was not reproduced and why.
    pub not_done: Vec<String>,
    #[serde(skip)]
    pub sim_runs: Vec<sim::ScenarioRun>,
    /// Paper 003's closed form beside the simulated relay chains.
    pub relay: Vec<crate::relay::ChainComparison>,
    /// Paper 003's model run (its own results folder and figures).
    #[serde(skip)]
    pub model: Option<crate::run::ModelResults>,
}

impl Report {
    /// Rows of one paper.
    pub fn rows_of<'a>(&'a self, paper: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| r.paper == paper)
    }
}

/// Runs every selected paper's reproduction.
pub fn run(config: &Config, progress: &dyn v2x_report::Progress) -> Result<Report, ReproduceError> {
    let mut report = Report {
        quick: config.quick,
        papers: config.papers.clone(),
        host: None,
        rows: Vec::new(),
        findings: Vec::new(),
        figures: Vec::new(),
        not_done: Vec::new(),
        sim_runs: Vec::new(),
        relay: Vec::new(),
        model: None,
    };
    let data = v2x_bench::papers::load().map_err(ReproduceError::PaperData)?;
    if config.wants("003") {
        report.model = Some(paper003::add(&mut report)?);
        paper003::add_relay(&mut report, config.quick)?;
    }
    let bench_papers: Vec<&str> = ["000", "001", "002", "004"]
        .into_iter()
        .filter(|p| config.wants(p))
        .collect();
    if !bench_papers.is_empty() {
        let result = bench::measure(config.quick, progress)?;
        report.host = Some(format!("{} ({} cores)", result.host.cpu, result.host.cores));
        bench::add(&mut report, &result, &bench_papers);
    }
    for p in &bench_papers {
        sim::add(&mut report, &data, p, config.quick, progress)?;
    }
    if config.wants("002") {
        match &config.testbed {
            Some(place) => testbed::add(&mut report, &data, config.quick, place)?,
            None => report.not_done.push(
                "paper 002: Table 4.2 (the live testbed under attack) needs the v2x executable to start stations; run `v2x reproduce`".into(),
            ),
        }
    }
    report.not_done.extend(not_done(config));
    Ok(report)
}

/// The published results this command does not rebuild yet, each with why.
fn not_done(config: &Config) -> Vec<String> {
    let mut v = Vec::new();
    if config.wants("001") {
        v.push("paper 001: Figs. 11-14 and 16 (E2E delay of two parked vehicles; the simulator's E2E delay is in the results folder but the figures' values are not in papers.json) and Fig. 15 at densities other than 10 and 100 (the text quotes no other value)".into());
    }
    if config.wants("002") {
        v.push("paper 002: Sec. 4.1 (latency and loss of 1-15 senders at 1-100 Hz over 802.11p radios: Figs. 4.3-4.4 are images without printed values), and Table 4.2's A-CER-03 and A-SIG-03 rows at 50-100 Hz (not in the paper)".into());
    }
    if config.wants("004") {
        v.push("paper 004: the recorded NGSIM I-80 trace (a synthetic highway at its density stands in); Fig. 5 per CPU (the Core 2 and Pentium 3 verification times are only drawn in Fig. 4, so ECDSA runs on the i7-4610m profile and the Pentium 3 curve has no counterpart) and Fig. 5(b) (Lankershim: no printed value); the NS-2 per-pair cross-validation runs against ns-3 outside this command (scripts/crossval/paper004_pairs.py, docs/crossval.md: minutes of ns-3)".into());
    }
    v
}
