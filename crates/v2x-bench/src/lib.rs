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
pub mod output;
pub mod papers;
pub mod pool;
pub mod progress;
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
    #[error("crypto error: {0}")]
    Crypto(String),
    #[error("the stack rejected a message it should accept: {0}")]
    Rejected(String),
    #[error("no samples were collected")]
    NoSamples,
    #[error("cannot write {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{0}")]
    Output(String),
}

impl From<openssl::error::ErrorStack> for BenchError {
    fn from(e: openssl::error::ErrorStack) -> Self {
        BenchError::Crypto(e.to_string())
    }
}

impl From<v2x_crypto::CryptoError> for BenchError {
    fn from(e: v2x_crypto::CryptoError) -> Self {
        BenchError::Crypto(e.to_string())
    }
}

/// The suites `--suite` selects from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Suite {
    /// ECDSA per curve, ECDH, ECIES, AES-CCM, HMAC, SHA.
    Raw,
    /// Full ENCAP/DECAP of the standard formats per curve, level, signer form, message, payload.
    Stack,
    /// The lightweight protocols through the Authenticator interface.
    Protocols,
    /// One core vs all cores, raw vs full stack (paper 002 Table 3.2).
    Scaling,
    /// Where ENCAP / DECAP time goes (headline configuration, interleaved trials).
    Breakdown,
    /// Backends side by side, per-signer tables, batch verification, repeat-signer DECAP
    /// and ENCAP, each paired with raw OpenSSL in one interleaved run per curve.
    Verify,
}

impl Suite {
    pub const ALL: [Suite; 6] = [
        Suite::Raw,
        Suite::Stack,
        Suite::Protocols,
        Suite::Scaling,
        Suite::Breakdown,
        Suite::Verify,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Suite::Raw => "raw",
            Suite::Stack => "stack",
            Suite::Protocols => "protocols",
            Suite::Scaling => "scaling",
            Suite::Breakdown => "breakdown",
            Suite::Verify => "verify",
        }
    }

    pub fn parse(s: &str) -> Option<Suite> {
        Suite::ALL.into_iter().find(|x| x.name().eq_ignore_ascii_case(s.trim()))
    }

    /// Parses a comma-separated list (`all` selects every suite).
    pub fn parse_list(s: &str) -> Result<Vec<Suite>, String> {
        let mut out = Vec::new();
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            if part.trim().eq_ignore_ascii_case("all") {
                out.extend(Suite::ALL);
                continue;
            }
            let suite = Suite::parse(part).ok_or_else(|| {
                format!(
                    "unknown suite `{}` (choose from raw, stack, protocols, scaling, breakdown, verify, all)",
                    part.trim()
                )
            })?;
            out.push(suite);
        }
        out.sort();
        out.dedup();
        if out.is_empty() {
            return Err("no suite selected".into());
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
    pub show_progress: bool,
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
            show_progress: false,
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
    let started = Instant::now();
    let plan = config.plan();
    let mut skipped = Vec::new();

    let mut tasks = Vec::new();
    if config.has(Suite::Raw) {
        tasks.extend(suites::raw::tasks());
    }
    if config.has(Suite::Stack) {
        match suites::stack::tasks(config.quick) {
            Ok(t) => tasks.extend(t),
            Err(why) => skipped.push(format!("stack: {why}")),
        }
    }
    if config.has(Suite::Protocols) {
        match suites::protocols::tasks(config.quick) {
            Ok(t) => tasks.extend(t),
            Err(why) => skipped.push(format!("protocols: {why}")),
        }
    }
    let scaling_tasks = if config.has(Suite::Scaling) {
        let mut s = suites::raw::scaling_tasks(if config.quick {
            &["p256"]
        } else {
            &["p256", "p384", "bp256"]
        });
        match suites::stack::scaling_tasks(config.quick) {
            Ok(t) => s.extend(t),
            Err(why) => skipped.push(format!("scaling (stack part): {why}")),
        }
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
    let bar = progress::Progress::new(
        (tasks.len() + scaling_tasks.len() + breakdown_steps + verify_steps + headline::STEPS) as u64,
        config.show_progress,
    );
    let mut measurements = Vec::with_capacity(tasks.len());
    for task in tasks {
        bar.step(&task.label.key());
        let key = task.label.key();
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
            Err(e @ (BenchError::Rejected(_) | BenchError::Setup(_))) => {
                skipped.push(format!("{key}: {e}"));
                continue;
            }
            Err(e) => return Err(annotate(&key, e)),
        };
        measurements.push(task.label.into_measurement(latency, prepared.packet_bytes));
    }

    if config.has(Suite::Breakdown) {
        for group in suites::stack::breakdown_groups(config.quick) {
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

    let mut scaling: Vec<ScalingRow> = Vec::new();
    for st in scaling_tasks {
        bar.step(&format!("scaling {}", st.label));
        let (one, all, speedup) = pool::one_vs_all(
            config.threads,
            config.scaling_trials(),
            config.scaling_trial(),
            &st.factory,
        )
        .map_err(|e| annotate(&st.key, e))?;
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

    let mut headline = headline::measure(config, &plan, &bar, &measurements);
    headline::add_verification(&mut headline, &verification);
    bar.finish();

    let data = papers::load().map_err(|e| BenchError::Setup(format!("shipped paper data: {e}")))?;
    let comparisons = compare::build(&data, &measurements, &scaling);
    Ok(BenchResult {
        tool: format!("v2x-bench {}", env!("CARGO_PKG_VERSION")),
        date: host::now_rfc3339(),
        command: config.command.clone(),
        host: host::info(),
        quick: config.quick,
        suites: config.suites.iter().map(|s| s.name().to_string()).collect(),
        threads: config.threads,
        headline,
        measurements,
        scaling,
        verification,
        comparisons,
        skipped,
        duration_s: started.elapsed().as_secs_f64(),
    })
}

fn annotate(key: &str, e: BenchError) -> BenchError {
    match e {
        BenchError::Rejected(m) => BenchError::Rejected(format!("{key}: {m}")),
        BenchError::Setup(m) => BenchError::Setup(format!("{key}: {m}")),
        other => other,
    }
}
