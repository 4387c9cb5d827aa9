//! `v2x testbed SCENARIO.toml --out DIR`: run station processes exchanging real secured
//! packets over loopback UDP and report delivery, latency, verification and CPU.

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Testbed scenario (TOML); see scenarios/testbed/*.toml.
    pub scenario: PathBuf,
    /// Results folder (pki/, stations/, logs/, summary.json, report.md).
    #[arg(long)]
    pub out: PathBuf,
    /// Print only errors.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sc = v2x_testbed::orchestrator::Scenario::load(&args.scenario)?;
    let exe = std::env::current_exe().context("locating the v2x executable to start stations")?;
    let outcome = v2x_testbed::orchestrator::run(&sc, &args.out, &exe)?;
    for n in &outcome.notices {
        eprintln!("{n}");
    }
    if !args.quiet {
        print!("{}", outcome.report());
        println!("results in {}", args.out.display());
    }
    Ok(ExitCode::SUCCESS)
}
