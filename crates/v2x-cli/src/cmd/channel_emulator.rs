//! `v2x channel-emulator --config FILE`: the live testbed's channel emulator process
//! (started by `v2x testbed` for `[medium] kind = "emulator"`; see docs/testbed.md).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Emulator configuration (TOML) written by the orchestrator.
    #[arg(long)]
    pub config: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cfg = v2x_testbed::emulator::EmulatorConfig::load(&args.config)?;
    v2x_testbed::emulator::run(&cfg)?;
    Ok(ExitCode::SUCCESS)
}
