//! `v2x model`: paper 003's multi-hop security cost model — Tables 4-6 and the crossovers
//! reproduced from the paper's inputs, then the same model with this machine's costs on
//! today's radios.

use anyhow::{bail, Context};
use std::path::PathBuf;
use std::process::ExitCode;
use v2x_model::run::{run as run_model, RunConfig};
use v2x_model::{output, CostSet, Radio, RadioKind};

/// Papers with an analytical model.
const PAPERS: [&str; 1] = ["003"];

#[derive(clap::Args)]
pub struct Args {
    /// Paper whose model to run (only 003 has one).
    #[arg(long, default_value = "003")]
    pub paper: String,
    /// Cost set for today's part (TOML, or JSON by extension; see
    /// scenarios/papers/003-costs-example.toml). Default: the shipped measurement of the
    /// project's reference machine.
    #[arg(long, conflicts_with = "measure")]
    pub costs: Option<PathBuf>,
    /// Time the primitives on this machine for today's part (about a minute).
    #[arg(long)]
    pub measure: bool,
    /// With --measure: the benchmark's quick plan (seconds, imprecise; for tests).
    #[arg(long, requires = "measure")]
    pub quick: bool,
    /// Today's radio: 802.11p (10 MHz, with channel access and framing), c-v2x (1-ms
    /// subframes at --rate), ideal (bits / rate, as the paper).
    #[arg(long, default_value = "802.11p")]
    pub radio: String,
    /// Today's rate in Mbit/s (default: 6, 12 and 27, the 802.11p rates at 10 MHz the
    /// profiles use; c-v2x needs one).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Distance per hop in metres for today's part (the paper's is 250).
    #[arg(long, default_value_t = 250.0)]
    pub hop_distance: f64,
    /// Quote costs at this many hops (n = hops + 1 nodes on the route).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub hops: u32,
    /// Members a group leader keys (group variants).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub group_members: u32,
    /// Results folder: inputs.toml, costs.toml, summary.json, CSV, SVG figures, report.html.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Do not draw a progress bar while measuring.
    #[arg(long)]
    pub no_progress: bool,
    /// Also run a relay chain of --hops hops in the simulator with today's costs of this
    /// signature algorithm (e.g. ecdsa-p256) on each 802.11p rate, and print the closed
    /// form beside the simulation per hop count.
    #[arg(long, value_name = "SIGNATURE")]
    pub relay_chain: Option<String>,
}

fn radios(args: &Args) -> anyhow::Result<Vec<Radio>> {
    let kind: RadioKind = args.radio.parse()?;
    let rates = match (args.rate, kind) {
        (Some(r), _) => vec![r],
        (None, RadioKind::Cv2x) => bail!(
            "--radio c-v2x needs --rate: the sidelink rate of your MCS and subchannels in Mbit/s (see docs/models.md)"
        ),
        (None, _) => vec![6.0, 12.0, 27.0],
    };
    rates
        .into_iter()
        .map(|r| Radio::new(kind, r, args.hop_distance).map_err(anyhow::Error::from))
        .collect()
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !PAPERS.contains(&args.paper.as_str()) {
        bail!(
            "no analytical model for paper `{}` (valid: {})",
            args.paper,
            PAPERS.join(", ")
        );
    }
    let radios = radios(&args)?;
    let (costs, measured) = if args.measure {
        let progress = crate::progress::TermProgress::new(!args.no_progress);
        let m = v2x_model::measure::measure_costs(args.quick, &progress).context("measuring this machine")?;
        (m.set, m.ops)
    } else if let Some(path) = &args.costs {
        (CostSet::load(path)?, Vec::new())
    } else {
        (v2x_model::today::reference_costs()?, Vec::new())
    };
    if args.relay_chain.is_some() && (args.radio.parse::<RadioKind>()? != RadioKind::Dot11p || args.hops > 1000) {
        bail!("--relay-chain simulates 802.11p (--radio 802.11p) over at most 1000 hops");
    }
    let chain_costs = args.relay_chain.as_ref().map(|_| costs.clone());
    let results = run_model(&RunConfig {
        today_costs: Some(costs),
        radios: radios.clone(),
        group_members: args.group_members,
        hops: args.hops,
        measured,
    })?;
    if let Some(dir) = &args.out {
        output::write_all(&results, dir).with_context(|| format!("writing results to {}", dir.display()))?;
    }
    if args.json {
        println!("{}", output::summary_json(&results)?);
    } else {
        print!("{}", output::text(&results));
        if let Some(dir) = &args.out {
            println!("\nresults in {}", dir.display());
        }
    }
    if let (Some(signature), Some(costs)) = (&args.relay_chain, chain_costs) {
        for radio in &radios {
            let setup = v2x_model::relay::ChainSetup {
                label: format!("{signature} {} Mbit/s", radio.rate_mbps),
                signature: signature.clone(),
                rate_mbps: radio.rate_mbps,
                hop_distance_m: radio.hop_distance_m,
                hops: args.hops,
                messages: 10,
                interval_s: 0.5137,
                cam_rate_hz: 0.0,
                seed: 1,
            };
            let c = v2x_model::relay::compare(&costs, &setup)?;
            print!("\n{}", v2x_model::relay::text(&c));
        }
    }
    Ok(ExitCode::SUCCESS)
}
