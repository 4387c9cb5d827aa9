//! `v2x sim`: run a simulation scenario and write its results folder.

use crate::progress::TermProgress;
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use v2x_sim::{Overrides, Scenario};

#[derive(clap::Args)]
pub struct Args {
    /// Scenario file (TOML); see scenarios/ for examples.
    pub scenario: PathBuf,
    /// Results folder (summary.json, CSV tables, SVG plots, report.html, resolved.toml).
    #[arg(long)]
    pub out: PathBuf,
    /// Base seed (replication r uses seed + r); overrides the scenario.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Independent replications, run in parallel; overrides the scenario.
    #[arg(long)]
    pub replications: Option<u32>,
    /// Simulated seconds; overrides the scenario (e.g. for quick tests).
    #[arg(long)]
    pub duration: Option<f64>,
    /// Threads evaluating the receivers of each transmission within one run (0: the
    /// cores shared among the runs); overrides `[engine] threads`. Results are identical
    /// for a seed whatever the count.
    #[arg(long)]
    pub threads: Option<u32>,
    /// Print only errors and warnings (no progress, no results table).
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut sc = Scenario::load(&args.scenario)?;
    sc.apply(&Overrides {
        duration_s: args.duration,
        seed: args.seed,
        replications: args.replications,
    })?;
    if let Some(threads) = args.threads {
        sc.engine.threads = threads;
        sc.validate()?;
    }
    // Everything that can fail before the run does: the results folder, every variant's
    // costs; and what a default decided that changes results is said now.
    super::out_dir::prepare(&args.out)?;
    for m in v2x_sim_crypto::resolve_variants(&sc)? {
        for note in &m.notes {
            eprintln!("warning: variant {}: {note}", m.name);
        }
    }
    for w in v2x_sim::scenario_warnings(&sc)? {
        eprintln!("warning: {w}");
    }
    // `[misbehaviour]`: insiders, online detection and the MA model of v2x-mbd.
    let misbehaviour = v2x_mbd::sim::SimMisbehaviour::of(&sc)?;
    for w in misbehaviour.iter().flat_map(|m| m.warnings(&sc)) {
        eprintln!("warning: {w}");
    }
    let factory = misbehaviour
        .as_ref()
        .map(|m| v2x_mbd::sim::watcher_factory(&sc, m))
        .transpose()?;
    // Variants in `mode = "real-crypto"` run every station's real security stack.
    let (results, watched) = v2x_sim_crypto::run_watched(&sc, &TermProgress::new(!args.quiet), factory.as_deref())?;
    v2x_sim::output::write_all(&results, &args.out)
        .with_context(|| format!("writing results to {}", args.out.display()))?;
    let report = match &misbehaviour {
        Some(m) => Some(super::sim_misbehaviour::write(&results, &watched, m, &args.out)?),
        None => None,
    };
    if !args.quiet {
        println!(
            "{}: {} variant(s) x {} replication(s), {:.1} s simulated, wall {:.2} s",
            sc.name,
            results.variants.len(),
            sc.replications,
            sc.duration_s,
            results.wall_s
        );
        // Means over replications, each with the half-width of its 95 % interval.
        let ci = |v: &v2x_sim::VariantResult, f: fn(&v2x_sim::RunMetrics) -> f64, digits: usize| {
            let (m, h) = v2x_sim::output::mean_ci(&v.runs.iter().map(f).collect::<Vec<_>>());
            if h.is_finite() {
                format!("{m:.digits$}±{h:.digits$}")
            } else {
                format!("{m:.digits$}")
            }
        };
        println!(
            "{:<22} {:>13} {:>13} {:>13} {:>11} {:>13} {:>12}",
            "variant", "PDR net", "PDR verified", "crypto loss", "E2E ms", "awareness", "rx/s (wall)"
        );
        for v in &results.variants {
            let wall: f64 = v.runs.iter().map(|r| r.wall_s).sum();
            println!(
                "{:<22} {:>13} {:>13} {:>13} {:>11} {:>13} {:>12.0}",
                v.name,
                ci(v, v2x_sim::RunMetrics::pdr_network, 3),
                ci(v, v2x_sim::RunMetrics::pdr_application, 3),
                ci(v, v2x_sim::RunMetrics::crypto_loss_ratio, 4),
                ci(v, |m| m.e2e_delay.mean_ms(), 1),
                ci(v, v2x_sim::RunMetrics::awareness, 3),
                v.pooled.receptions as f64 / wall.max(1e-9)
            );
        }
        for v in results.variants.iter().filter(|v| v.pooled.frames_refused_oversize > 0) {
            println!(
                "{}: {} of {} CAMs refused as oversize (larger than the access layer carries; never sent, not in the PDR)",
                v.name, v.pooled.cams_refused_oversize, v.pooled.cams_generated
            );
        }
        if sc.replications > 1 {
            println!(
                "(mean ± half-width of the 95 % interval over {} replications)",
                sc.replications
            );
        }
        if let Some(text) = report {
            print!("{text}");
        }
        println!("results in {}", args.out.display());
    }
    Ok(ExitCode::SUCCESS)
}
