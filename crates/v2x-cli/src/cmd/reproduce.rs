//! `v2x reproduce`: rebuild the papers' tables, figures and conclusions (model, benchmark,
//! simulations, live testbed) and write one report with the paper's value, ours with its
//! interval, the evidence class, the verdict of the one comparison rule and why.

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use v2x_reproduce::{output, Config};

#[derive(clap::Args)]
pub struct Args {
    /// Paper to reproduce (repeatable): 000, 001, 002, 003, 004. Default: all.
    #[arg(long)]
    pub paper: Vec<String>,
    /// Seconds to a minute, not the full run: quick benchmark plan, 3 s simulations with one
    /// replication, the lightest testbed runs. Indicative only (tests and a first look).
    #[arg(long)]
    pub quick: bool,
    /// Results folder: report.md, report.html, report.json, report.csv, 003/, sim/, testbed/.
    #[arg(long)]
    pub out: PathBuf,
    /// The full NGSIM I-80 trajectory table (NGSIM's CSV: Vehicle_ID, Frame_ID, Local_X,
    /// Local_Y in feet) for paper 004's recorded-trace scenario instead of the shipped sample.
    #[arg(long)]
    pub ngsim_i80: Option<PathBuf>,
    /// Do not draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let load_before = load_average();
    let mut config = Config::new(&args.paper, args.quick, args.out.clone())?;
    // The testbed runs start this executable as each station.
    config.station_exe =
        Some(std::env::current_exe().context("locating the v2x executable to start testbed stations")?);
    if let Some(path) = &args.ngsim_i80 {
        anyhow::ensure!(path.is_file(), "--ngsim-i80 {}: no such file", path.display());
        config.ngsim_i80 = Some(std::fs::canonicalize(path)?);
    }
    let progress = crate::progress::TermProgress::new(!args.no_progress);
    let mut r = v2x_reproduce::run(&config, &progress)?;
    r.report.run = vec![
        format!("command: {}", command_line(&args)),
        format!(
            "build: v2x {} ({} profile)",
            env!("CARGO_PKG_VERSION"),
            if cfg!(debug_assertions) { "debug" } else { "release" }
        ),
        format!("wall time: {:.0} s", started.elapsed().as_secs_f64()),
    ];
    // The testbed runs in real time: how busy the host was bears on their delays and losses.
    if let (Some(a), Some(b)) = (load_before, load_average()) {
        r.report.run.push(format!(
            "host load (1-minute load average, /proc/loadavg): {a} at the start, {b} at the end"
        ));
    }
    output::write_all(&mut r, &args.out).with_context(|| format!("writing {}", args.out.display()))?;
    for p in &r.report.papers {
        println!("{}", output::tally(p, &r.report.counts(p)));
    }
    for n in &r.report.not_done {
        println!("not reproduced: {n}");
    }
    println!("report in {}", args.out.join("report.html").display());
    Ok(ExitCode::SUCCESS)
}

/// The 1-minute load average, where the system tells it (Linux).
fn load_average() -> Option<String> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    s.split_whitespace().next().map(str::to_string)
}

/// The command as the report names it (the options that change the result).
fn command_line(args: &Args) -> String {
    let mut s = String::from("v2x reproduce");
    for p in &args.paper {
        s.push_str(&format!(" --paper {p}"));
    }
    if args.quick {
        s.push_str(" --quick");
    }
    if let Some(p) = &args.ngsim_i80 {
        s.push_str(&format!(" --ngsim-i80 {}", p.display()));
    }
    s.push_str(" --out DIR");
    s
}
