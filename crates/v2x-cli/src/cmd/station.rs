//! `v2x station --config FILE`: one ITS station process of the live testbed (started by
//! `v2x testbed`; see docs/testbed.md).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Station configuration (TOML) written by the orchestrator.
    #[arg(long)]
    pub config: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cfg = v2x_testbed::station::StationConfig::load(&args.config)?;
    v2x_testbed::station::run(&cfg)?;
    Ok(ExitCode::SUCCESS)
}
