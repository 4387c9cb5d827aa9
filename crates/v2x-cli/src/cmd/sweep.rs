//! `v2x sweep`: run a parameter sweep (see crates/v2x-sweep and scenarios/sweeps/).

use crate::progress::TermProgress;
use std::path::PathBuf;
use std::process::ExitCode;
use v2x_sweep::Sweep;

#[derive(clap::Args)]
pub struct Args {
    /// Sweep spec (TOML): base scenario, `[axes]` by dotted key, replications or seeds.
    pub spec: PathBuf,
    /// Sweep folder: `runs/<id>/` per run, runs.csv, results.parquet and results.csv.
    #[arg(long, required_unless_present = "list")]
    pub out: Option<PathBuf>,
    /// Worker threads (cores) to use at most; 0 = all.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Run only this run id (repeatable); the table merges every finished run.
    #[arg(long = "run", value_name = "ID")]
    pub runs: Vec<String>,
    /// Print the runs (id, replication, seed, parameters) and exit.
    #[arg(long)]
    pub list: bool,
    /// Print only errors.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sweep = Sweep::load(&args.spec)?;
    if args.list {
        for r in &sweep.runs {
            println!(
                "{}  point {} replication {}  {}",
                r.id,
                r.point,
                r.replication,
                r.params_text()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(out) = args.out else {
        anyhow::bail!("--out is required");
    };
    super::out_dir::prepare(&out)?;
    let o = v2x_sweep::run(&sweep, &out, args.threads, &args.runs, &TermProgress::new(!args.quiet))?;
    if !args.quiet {
        println!(
            "{} run(s) done now, {} already finished, {} of {} not run yet; {} rows in {}",
            o.ran,
            o.reused,
            o.missing,
            sweep.runs.len(),
            o.rows,
            out.join("results.parquet").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
