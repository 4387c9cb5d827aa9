//! v2x-bench: honest per-operation latency and throughput of raw primitives, of the full
//! standard stack and of the lightweight protocols, on one core and on every core; writes
//! JSON, CSV, markdown, SVG plots, a processor profile and an HTML report, and compares
//! this machine with the papers' published figures.
//!
//! Entry point: [`run`] with a [`Config`], then [`output::write_all`].

pub mod compare;
pub mod headline;
pub mod host;
pub mod measure;
pub mod metric;
pub mod output;
pub mod papers;
pub mod pool;
pub mod result;
pub mod stats;
pub mod suites;
pub mod task;

use measure::Plan;
use result::{BenchResult, ScalingRow};
use std::time::{Duration, Instant};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum BenchError {
    #[error("benchmark set-up failed: {0}")]
    Setup(String),
    #[error("benchmark set-up failed: {what}: {source}")]
    SetupFailed {
        what: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error("OpenSSL: {0}")]
    Openssl(#[from] openssl::error::ErrorStack),
    #[error("crypto error: {0}")]
    Crypto(#[from] v2x_crypto::CryptoError),
    #[error("the stack rejected a message it should accept: {0}")]
    Rejected(String),
    #[error("protocol configuration not in this build: {0}")]
    ProtocolConfig(#[source] serde_json::Error),
    #[error("no samples were collected")]
    NoSamples,
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("shipped paper data (data/papers.json): {0}")]
    PaperData(#[source] serde_json::Error),
    #[error("JSON output: {0}")]
    Json(#[source] serde_json::Error),
    #[error("CSV output: {0}")]
    Csv(#[from] csv::Error),
    #[error("cannot write table {0}")]
    Table(#[from] v2x_report::table::TableError),
    #[error("plot: {0}")]
    Plot(String),
    #[error("the measured profile does not validate: {0}")]
    Profile(#[from] v2x_profile::ProfileError),
}

v2x_profile::named_enum! {
    /// The suites `--suite` selects from.
    pub enum Suite ("suite") {
        /// ECDSA per curve, ECDH, ECIES, AES-CCM, HMAC, SHA.
        Raw = "raw",
        /// Full ENCAP/DECAP of the standard formats per curve, level, signer form, message, payload.
        Stack = "stack",
        /// The lightweight protocols through the Authenticator interface.
        Protocols = "protocols",
        /// One core vs all cores, raw vs full stack (paper 002 Table 3.2).
        Scaling = "scaling",
        /// Where ENCAP / DECAP time goes (headline configuration, interleaved trials).
        Breakdown = "breakdown",
        /// Backends side by side, per-signer tables, batch verification, repeat-signer DECAP
        /// and ENCAP, each paired with raw OpenSSL in one interleaved run per curve.
        Verify = "verify",
        /// Misbehaviour detection: check evaluations per second per core, all checks on.
        Mbd = "mbd",
        /// Post-quantum schemes and the EXPERIMENTAL designs (ENCAP / DECAP through the
        /// Authenticator, bytes on air), each paired with its P-256 counterpart.
        Pq = "pq",
    }
}

/// A `--suite` list that names no suite or an unknown one.
#[derive(Debug, Error)]
pub enum SuiteListError {
    #[error("{0}, or all")]
    Unknown(#[from] v2x_profile::UnknownName),
    #[error("no suite selected")]
    Empty,
}

impl Suite {
    /// Parses a comma-separated list (`all` selects every suite); case-insensitive.
    pub fn parse_list(s: &str) -> Result<Vec<Suite>, SuiteListError> {
        let mut out = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let part = part.to_ascii_lowercase();
            if part == "all" {
                out.extend_from_slice(Suite::ALL);
                continue;
            }
            out.push(part.parse::<Suite>()?);
        }
        out.sort();
        out.dedup();
        if out.is_empty() {
            return Err(SuiteListError::Empty);
        }
        Ok(out)
    }
}

/// What to run and how.
#[derive(Debug, Clone)]
pub struct Config {
    pub suites: Vec<Suite>,
    pub quick: bool,
    /// Workers for "all cores" (default: available parallelism).
    pub threads: usize,
    /// Trials override (default: from the plan).
    pub trials: Option<usize>,
    /// The command line, recorded in the result and the profile.
    pub command: String,
    /// Curves of the verification suite (default: all four; `--quick`: P-256).
    pub verify_curves: Vec<v2x_crypto::Curve>,
}

impl Config {
    pub fn new(suites: Vec<Suite>, quick: bool) -> Config {
        Config {
            suites,
            quick,
            threads: pool::available_cores(),
            trials: None,
            command: "v2x bench".into(),
            verify_curves: if quick {
                vec![v2x_crypto::Curve::NistP256]
            } else {
                v2x_crypto::Curve::ALL.to_vec()
            },
        }
    }

    pub fn plan(&self) -> Plan {
        let mut p = if self.quick { Plan::quick() } else { Plan::full() };
        if let Some(t) = self.trials {
            p.trials = t.max(1);
        }
        p
    }

    /// Duration of one throughput trial in the scaling suite.
    pub fn scaling_trial(&self) -> Duration {
        if self.quick {
            Duration::from_millis(15)
        } else {
            Duration::from_millis(400)
        }
    }

    pub fn scaling_trials(&self) -> usize {
        self.trials.unwrap_or(if self.quick { 2 } else { 5 }).max(1)
    }

    fn has(&self, s: Suite) -> bool {
        self.suites.contains(&s)
    }
}

/// Runs the selected suites and the headline, and builds the comparison tables.
pub fn run(config: &Config) -> Result<BenchResult, BenchError> {
    run_with_progress(config, &v2x_report::Silent)
}

/// [`run`], reporting each step to `bar`.
pub fn run_with_progress(config: &Config, bar: &dyn v2x_report::Progress) -> Result<BenchResult, BenchError> {
    let started = Instant::now();
    let at_start = v2x_report::provenance::Provenance::now();
    let plan = config.plan();
    let mut skipped = Vec::new();

    let mut tasks = Vec::new();
    if config.has(Suite::Raw) {
        tasks.extend(suites::raw::tasks());
    }
    if config.has(Suite::Stack) {
        tasks.extend(suites::stack::tasks(config.quick));
    }
    if config.has(Suite::Protocols) {
        tasks.extend(suites::protocols::tasks(config.quick));
    }
    let scaling_tasks = if config.has(Suite::Scaling) {
        use v2x_profile::CurveId;
        let mut s = suites::raw::scaling_tasks(if config.quick {
            &[CurveId::P256]
        } else {
            &[CurveId::P256, CurveId::P384, CurveId::Bp256]
        });
        s.extend(suites::stack::scaling_tasks(config.quick));
        s
    } else {
        Vec::new()
    };

    let breakdown_steps = if config.has(Suite::Breakdown) { 2 } else { 0 };
    let verify_steps = if config.has(Suite::Verify) {
        config.verify_curves.len()
    } else {
        0
    };
    let mbd_steps = usize::from(config.has(Suite::Mbd));
    let pq_steps = if config.has(Suite::Pq) { suites::pq::steps() } else { 0 };
    bar.start(
        (tasks.len() + scaling_tasks.len() + breakdown_steps + verify_steps + mbd_steps + pq_steps + headline::STEPS)
            as u64,
    );
    let mut measurements = Vec::with_capacity(tasks.len());
    for task in tasks {
        bar.step(&task.label.key().to_string());
        let key = task.label.key().to_string();
        let prepared = match (task.setup)() {
            Ok(p) => p,
            Err(e) => {
                skipped.push(format!("{key}: {e}"));
                continue;
            }
        };
        let mut op = prepared.op;
        let latency = match measure::measure_capped(&plan, &mut *op, prepared.max_calls) {
            Ok(l) => l,
            // A protocol that fails mid-run is reported, the rest of the run goes on.
            Err(e @ (BenchError::Rejected(_) | BenchError::Setup(_) | BenchError::SetupFailed { .. })) => {
                skipped.push(format!("{key}: {e}"));
                continue;
            }
            Err(e) => return Err(annotate(&key, e)),
        };
        measurements.push(task.label.into_measurement(latency, prepared.packet_bytes));
    }

    if config.has(Suite::Breakdown) {
        for group in suites::breakdown::breakdown_groups(config.quick) {
            bar.step("breakdown");
            let mut labels = Vec::new();
            let mut ops = Vec::new();
            let mut sizes = Vec::new();
            for task in group {
                match (task.setup)() {
                    Ok(p) => {
                        labels.push(task.label);
                        ops.push(p.op);
                        sizes.push(p.packet_bytes);
                    }
                    Err(e) => skipped.push(format!("{}: {e}", task.label.key())),
                }
            }
            match measure::measure_interleaved(&plan, &mut ops) {
                Ok(stats) => {
                    for ((label, latency), size) in labels.into_iter().zip(stats).zip(sizes) {
                        measurements.push(label.into_measurement(latency, size));
                    }
                }
                Err(e) => skipped.push(format!("breakdown: {e}")),
            }
        }
    }

    let mut verification = Vec::new();
    if config.has(Suite::Verify) {
        for &curve in &config.verify_curves {
            bar.step(&format!("verify {curve}"));
            match suites::verify::run(&plan, config.quick, &[curve]) {
                Ok((m, r)) => {
                    measurements.extend(m);
                    verification.extend(r);
                }
                Err(e) => skipped.push(format!("verify {curve}: {e}")),
            }
        }
    }

    let mut misbehaviour_detection = Vec::new();
    if config.has(Suite::Mbd) {
        bar.step("misbehaviour detection");
        match suites::mbd::run(&plan, config.quick) {
            Ok(rows) => misbehaviour_detection = rows,
            Err(e) => skipped.push(format!("mbd: {e}")),
        }
    }
    let mut pq = None;
    if config.has(Suite::Pq) {
        match suites::pq::run(&plan, config.quick, bar, &mut skipped) {
            Ok((m, r)) => {
                measurements.extend(m);
                pq = Some(r);
            }
            Err(e) => skipped.push(format!("pq: {e}")),
        }
    }

    let mut scaling: Vec<ScalingRow> = Vec::new();
    for st in scaling_tasks {
        bar.step(&format!("scaling {}", st.label));
        let (one, all, speedup) = pool::one_vs_all(
            config.threads,
            config.scaling_trials(),
            config.scaling_trial(),
            &st.factory,
        )
        .map_err(|e| annotate(&st.key.to_string(), e))?;
        if let Some(m) = measurements.iter_mut().find(|m| m.key() == st.key) {
            m.ops_per_sec_all_cores = Some(all.ops_per_sec);
        }
        scaling.push(ScalingRow {
            kind: st.kind,
            key: st.key,
            label: st.label,
            one_core: one,
            all_cores: all,
            speedup,
        });
    }

    let mut headline = headline::measure(config, &plan, bar, &measurements);
    headline::add_verification(&mut headline, &verification);
    bar.finish();

    let data = papers::load().map_err(BenchError::PaperData)?;
    let comparisons = compare::build(&data, &measurements, &scaling);
    let mut sizes = if config.has(Suite::Stack) || config.has(Suite::Protocols) {
        suites::protocols::packet_sizes(&mut skipped)
    } else {
        Vec::new()
    };
    if config.has(Suite::Pq) {
        sizes.extend(suites::pq::packet_sizes(&mut skipped));
    }
    let at_end = v2x_report::provenance::Provenance::now();
    Ok(BenchResult {
        tool: format!("v2x-bench {}", env!("CARGO_PKG_VERSION")),
        commit: at_end.commit,
        date: host::now_rfc3339(),
        command: config.command.clone(),
        host: host::info(),
        load_average: format!(
            "{} at the start, {} at the end",
            at_start.load_average, at_end.load_average
        ),
        quick: config.quick,
        suites: config.suites.clone(),
        threads: config.threads,
        headline,
        measurements,
        scaling,
        verification,
        comparisons,
        sizes,
        misbehaviour_detection,
        pq,
        skipped,
        duration_s: started.elapsed().as_secs_f64(),
    })
}

fn annotate(key: &str, e: BenchError) -> BenchError {
    match e {
        BenchError::Rejected(m) => BenchError::Rejected(format!("{key}: {m}")),
        BenchError::Setup(m) => BenchError::Setup(format!("{key}: {m}")),
        BenchError::SetupFailed { what, source } => BenchError::SetupFailed {
            what: format!("{key}: {what}"),
            source,
        },
        other => other,
    }
}
