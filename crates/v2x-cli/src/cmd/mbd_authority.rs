//! `v2x mbd-authority --config FILE`: the misbehaviour authority of the testbed's
//! `[misbehaviour]` closed loop, as its own process (started by `v2x testbed`; see
//! docs/misbehaviour-detection.md).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Authority configuration (TOML) written by the orchestrator.
    #[arg(long)]
    pub config: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cfg = v2x_testbed::run::authority::AuthorityConfig::load(&args.config)?;
    v2x_testbed::run::authority::run(&cfg)?;
    Ok(ExitCode::SUCCESS)
}
