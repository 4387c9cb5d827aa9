//! `v2x bench`: measure raw primitives, the full stack and the lightweight protocols on
//! this machine; write results, plots, paper comparisons and a processor profile.

use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use v2x_bench::{output, Config, Suite};
use v2x_crypto::{BackendId, Curve};

#[derive(clap::Args)]
pub struct Args {
    /// Suites to run, comma separated: raw, stack, protocols, scaling, breakdown, verify, mbd, pq
    /// (or all).
    #[arg(long, default_value = "all", value_parser = parse_suites)]
    suite: SuiteList,
    /// Few samples per operation: finishes in seconds (tests, demo); not for publishing.
    #[arg(long)]
    quick: bool,
    /// Results folder (JSON, CSV, markdown, SVG plots, profile.json, report.html).
    #[arg(long, default_value = "out/bench")]
    out: PathBuf,
    /// Also write the whole result (with its `headline` object) to this JSON file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Worker threads for "all cores" (default: every available core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Trials per operation (default 10, or 3 with --quick).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1000))]
    trials: Option<u16>,
    /// Crypto backend for the stack and protocols: auto (the fastest per curve and
    /// operation), aws-lc, openssl, rustcrypto or v2x (verification only; signing falls
    /// back to the fastest). The verify suite always measures every backend.
    #[arg(long, default_value = "auto", value_parser = parse_backend)]
    backend: BackendChoice,
    /// Curves of the verify suite, comma separated (p256, p384, bp256, bp384; default all
    /// four, or p256 with --quick).
    #[arg(long, value_parser = parse_curves)]
    verify_curves: Option<CurveList>,
    /// Show no progress (a bar on a terminal, otherwise a line every few seconds on stderr).
    #[arg(long)]
    no_progress: bool,
}

/// The parsed `--backend` (None: automatic).
#[derive(Clone, Debug)]
struct BackendChoice(Option<BackendId>);

fn parse_backend(s: &str) -> Result<BackendChoice, String> {
    if s.eq_ignore_ascii_case("auto") {
        return Ok(BackendChoice(None));
    }
    BackendId::from_name(s)
        .map(|b| BackendChoice(Some(b)))
        .map_err(|e| format!("{e}, or auto"))
}

/// The parsed `--verify-curves` list.
#[derive(Clone, Debug)]
struct CurveList(Vec<Curve>);

fn parse_curves(s: &str) -> Result<CurveList, String> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            Curve::from_short_name(p.trim())
                .ok_or_else(|| format!("unknown curve `{}` (choose from p256, p384, bp256, bp384)", p.trim()))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(CurveList)
}

/// The parsed `--suite` list.
#[derive(Clone, Debug)]
struct SuiteList(Vec<Suite>);

fn parse_suites(s: &str) -> Result<SuiteList, v2x_bench::SuiteListError> {
    Suite::parse_list(s).map(SuiteList)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut config = Config::new(args.suite.0, args.quick);
    if let Some(t) = args.threads {
        config.threads = usize::from(t);
    }
    config.trials = args.trials.map(usize::from);
    v2x_crypto::backend::set_default_backend(args.backend.0);
    if let Some(curves) = args.verify_curves {
        config.verify_curves = curves.0;
    }
    config.command = std::iter::once("v2x".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");

    super::out_dir::prepare(&args.out)?;
    let progress = crate::progress::TermProgress::new(!args.no_progress);
    let result = v2x_bench::run_with_progress(&config, &progress).context("benchmark failed")?;
    let files = output::write_all(&result, &args.out).context("writing the results folder")?;
    if let Some(path) = &args.json {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::write(path, output::to_json(&result)?).with_context(|| format!("writing {}", path.display()))?;
    }

    println!(
        "{} measurements in {:.1} s on {} ({} cores)",
        result.measurements.len(),
        result.duration_s,
        result.host.cpu,
        result.host.cores
    );
    println!(
        "headline ({}):",
        if result.quick {
            "quick mode: indicative only"
        } else {
            "full mode"
        }
    );
    for (figure, value, target) in output::markdown::headline_rows(&result.headline) {
        println!("  {figure:<55} {value:>10}  {target}");
    }
    for note in &result.headline.notes {
        println!("  note: {note}");
    }
    for s in &result.skipped {
        println!("not measured: {s}");
    }
    println!("wrote {} files to {}", files.len(), args.out.display());
    if let Some(path) = &args.json {
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
