//! `v2x reproduce`: rebuild the papers' tables and figures (model, benchmark, simulations)
//! and write one report with the paper's value, ours, the difference and why.

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use v2x_model::reproduce::{self, output, Config, Support};

#[derive(clap::Args)]
pub struct Args {
    /// Paper to reproduce (repeatable): 000, 001, 002, 003, 004. Default: all.
    #[arg(long)]
    pub paper: Vec<String>,
    /// Seconds, not the full run: quick benchmark plan, 3 s simulations, one replication.
    /// Indicative only (for tests and a first look).
    #[arg(long)]
    pub quick: bool,
    /// Results folder: report.html, report.json, report.csv, report.md, 003/, sim/, testbed/.
    #[arg(long)]
    pub out: PathBuf,
    /// Do not draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut config = Config::new(&args.paper, args.quick)?;
    // Paper 002 Table 4.2 starts this executable as each testbed station.
    config.testbed = Some(reproduce::testbed::TestbedPlace {
        station_exe: std::env::current_exe().context("locating the v2x executable to start testbed stations")?,
        dir: args.out.join("testbed"),
    });
    let progress = crate::progress::TermProgress::new(!args.no_progress);
    let mut report = reproduce::run(&config, &progress)?;
    output::write_all(&mut report, &args.out).with_context(|| format!("writing {}", args.out.display()))?;
    for p in &report.papers {
        let (ok, differ, none) = output::counts(&report, p);
        let of = |v| {
            report
                .findings
                .iter()
                .filter(|f| &f.paper == p && f.verdict == v)
                .count()
        };
        println!(
            "paper {p}: {ok} values reproduced, {differ} differ (reason given), {none} without a counterpart; conclusions: {} hold, {} contradicted, {} inconclusive",
            of(Support::Holds),
            of(Support::Contradicted),
            of(Support::Inconclusive)
        );
    }
    for n in &report.not_done {
        println!("not reproduced: {n}");
    }
    println!("report in {}", args.out.join("report.html").display());
    Ok(ExitCode::SUCCESS)
}
