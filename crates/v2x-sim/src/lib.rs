//! v2x-sim: a fast packet-level discrete-event VANET simulator where measured security
//! costs meet the radio channel.
//!
//! - [`scenario`]: TOML scenario files (every parameter with a unit and a default);
//! - [`mobility`]: SUMO FCD (XML/CSV), NGSIM tables (CSV/Parquet), highway, Manhattan grid;
//! - [`channel`], [`phy`]: path loss, Nakagami fading, noise, 802.11p timing, error rates;
//! - [`air`]: the shared channel as one sans-I/O model (signals, [`reception`] at every
//!   receiver, channel sensing), behind which an [`access`] layer (EDCA broadcast) decides
//!   who transmits when; driven by the engine in simulated time and by the testbed's
//!   channel emulator in wall time;
//! - [`engine`]: the event loop, security processing, applications;
//! - [`security`], [`verifier`]: per-protocol sizes/schedules and the verification queue;
//! - [`metrics`], [`histogram`], [`output`]: streaming metrics and the results folder;
//! - [`tidy`]: the results as tidy per-replication rows (`results.csv` / `.parquet`).
//!
//! The simulator needs no real cryptography: service times come from processor profiles
//! ([`v2x_profile`]), either shipped paper profiles or `v2x bench` output. Variants in
//! `real-crypto` mode hand each station's security decisions to a [`StationCrypto`]
//! (implemented by the `v2x-sim-crypto` crate) through [`run_with`], which also takes the
//! real encoder of the experimental post-quantum designs' sizes ([`security::SizeEncoder`]).

pub mod access;
pub mod air;
pub mod channel;
pub mod engine;
pub mod error;
pub mod histogram;
pub mod keyed_rng;
pub mod metrics;
pub mod mobility;
pub mod node_id;
pub mod output;
pub mod parallel;
pub mod phy;
pub mod progress;
pub mod reception;
pub mod scenario;
pub mod security;
pub mod sidelink;
pub mod signer_tables;
pub mod spatial;
pub mod station_crypto;
pub mod tidy;
pub mod time;
pub mod verifier;

pub use error::{CostsError, MobilityError, ScenarioError, SimError};
pub use metrics::RunMetrics;
pub use scenario::{Overrides, Scenario};

use rayon::prelude::*;
use scenario::SecurityMode;
use security::SecurityModel;
pub use station_crypto::StationCrypto;

/// Builds the real security services of one run (variant model, seed, number of stations)
/// for variants in `real-crypto` mode.
pub type CryptoFactory<'f> = dyn Fn(&SecurityModel, u64, usize) -> Result<Box<dyn StationCrypto>, SimError> + Sync + 'f;

/// The runs of one variant.
#[derive(Debug, Clone)]
pub struct VariantResult {
    pub name: String,
    pub protocol: String,
    pub profile: String,
    /// The costs the variant used, with their profile keys and sources.
    pub costs: Vec<security::CostUse>,
    /// The packet sizes it used and where they come from.
    pub sizes: security::SizesUse,
    /// The parameters that change results, with who set them (scenario or default).
    pub settings: Vec<security::Setting>,
    pub notes: Vec<String>,
    pub nodes: usize,
    pub cutoff_range_m: f64,
    /// One entry per replication, in replication order.
    pub runs: Vec<RunMetrics>,
    /// All replications merged.
    pub pooled: RunMetrics,
}

/// Results of a whole scenario.
#[derive(Debug, Clone)]
pub struct SimResults {
    pub scenario: Scenario,
    /// What runs but probably not as meant ([`scenario_warnings`]).
    pub warnings: Vec<String>,
    pub variants: Vec<VariantResult>,
    pub wall_s: f64,
}

/// What in `sc` runs but probably not as meant (said before a run and in its report): a
/// duration longer than the mobility trace, whose last part would simulate an empty road.
pub fn scenario_warnings(sc: &Scenario) -> Result<Vec<String>, SimError> {
    use scenario::MobilityConfig;
    let mut out = Vec::new();
    if matches!(
        sc.mobility,
        MobilityConfig::SumoFcd { .. } | MobilityConfig::Ngsim { .. }
    ) {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(sc.seed);
        let m = mobility::Mobility::build(&sc.mobility, &mut rng)?;
        if let Some(end) = m.trace_end_s().filter(|end| sc.duration_s > *end) {
            out.push(format!(
                "duration_s = {} s runs past the end of the mobility trace ({end:.1} s): from then on no \
                 vehicle of the trace is on the road, so the last {:.1} s simulate an empty road; set \
                 duration_s to at most {end:.1} (or --duration)",
                sc.duration_s,
                sc.duration_s - end
            ));
        }
    }
    Ok(out)
}

/// Resolves every variant of `sc` against its profile (the costs, sizes and settings a
/// run uses); what [`run_with`] does first, for callers that want the errors and notes
/// before anything runs.
pub fn resolve_variants(sc: &Scenario) -> Result<Vec<SecurityModel>, SimError> {
    resolve_variants_with(sc, None)
}

/// [`resolve_variants`], with the real encoder of the experimental designs' sizes.
pub fn resolve_variants_with(
    sc: &Scenario,
    encoder: Option<&dyn security::SizeEncoder>,
) -> Result<Vec<SecurityModel>, SimError> {
    sc.variants
        .iter()
        .map(|v| SecurityModel::resolve_with(v, sc, encoder))
        .collect()
}

/// A model that watches one run through the observer's calls and says what it found
/// (`v2x-mbd`'s insiders and misbehaviour authority, [`Scenario::misbehaviour`]).
pub trait Watcher: engine::trace::Observer {
    /// What it found, for `summary.json`; `end_ns`, the run's end.
    fn finish(self: Box<Self>, end_ns: u64) -> serde_json::Value;
}

/// Builds the watcher of one run (variant model, seed).
pub type WatcherFactory<'f> = dyn Fn(&SecurityModel, u64) -> Result<Box<dyn Watcher>, SimError> + Sync + 'f;

/// Runs one replication of one variant (seed = scenario seed + replication), in
/// real-crypto mode with the services `crypto` builds; `meter` follows its simulated time.
pub fn run_once(
    sc: &Scenario,
    model: &SecurityModel,
    replication: u32,
    crypto: Option<&CryptoFactory>,
    meter: Option<std::sync::Arc<v2x_report::RunMeter>>,
) -> Result<(RunMetrics, usize, f64), SimError> {
    run_once_watched(sc, model, replication, crypto, meter, None).map(|(m, _, n, c)| (m, n, c))
}

/// [`run_once`], with the model `watcher` builds watching the run (what it found second).
pub fn run_once_watched(
    sc: &Scenario,
    model: &SecurityModel,
    replication: u32,
    crypto: Option<&CryptoFactory>,
    meter: Option<std::sync::Arc<v2x_report::RunMeter>>,
    watcher: Option<&WatcherFactory>,
) -> Result<(RunMetrics, Option<serde_json::Value>, usize, f64), SimError> {
    let seed = sc.seed.wrapping_add(u64::from(replication));
    if sc.access.kind.is_sidelink() {
        return sidelink::run::run(sc, model, seed).map(|(m, n, c)| (m, None, n, c));
    }
    let runs = sc.variants.len() * sc.replications as usize;
    let threads = sc.engine.threads_per_run(runs);
    let Some(watcher) = watcher else {
        let sim = prepare(engine::Sim::new(sc, model, seed)?, model, seed, threads, crypto, meter)?;
        let (nodes, cutoff) = (sim.node_count(), sim.cutoff_m());
        return Ok((sim.run(), None, nodes, cutoff));
    };
    let watch = watcher(model, seed)?;
    let sim = engine::Sim::with_observer(sc, model, seed, |nodes| (engine::Sim::collector(sc, nodes), watch))?;
    let sim = prepare(sim, model, seed, threads, crypto, meter)?;
    let (nodes, cutoff) = (sim.node_count(), sim.cutoff_m());
    let started = std::time::Instant::now();
    let (collector, watch) = sim.run_with_observer();
    let metrics = collector.finish(started.elapsed().as_secs_f64());
    Ok((metrics, Some(watch.finish(time::ns(sc.duration_s))), nodes, cutoff))
}

/// A run's threads, real security services and progress meter.
fn prepare<'a, O: engine::trace::Observer>(
    mut sim: engine::Sim<'a, O>,
    model: &SecurityModel,
    seed: u64,
    threads: usize,
    crypto: Option<&CryptoFactory>,
    meter: Option<std::sync::Arc<v2x_report::RunMeter>>,
) -> Result<engine::Sim<'a, O>, SimError> {
    sim = sim.with_threads(threads)?;
    if model.mode == SecurityMode::RealCrypto {
        let make = crypto.ok_or_else(|| SimError::Costs {
            variant: model.name.clone(),
            source: CostsError::Missing(
                "mode = \"real-crypto\" needs the real security stack: run it with `v2x sim` (crate v2x-sim-crypto)"
                    .into(),
            ),
        })?;
        let stations = sim.node_count();
        sim = sim.with_station_crypto(make(model, seed, stations)?);
    }
    if let Some(m) = meter {
        sim = sim.with_meter(m);
    }
    Ok(sim)
}

/// Runs every variant and replication, in parallel, reporting each finished run to
/// `progress`. Variants in `real-crypto` mode need [`run_with`].
pub fn run(sc: &Scenario, progress: &dyn v2x_report::Progress) -> Result<SimResults, SimError> {
    run_with(sc, progress, None, None)
}

/// [`run`], with the factory of the real security services of `real-crypto` variants and
/// the real encoder of the experimental designs' sizes.
pub fn run_with(
    sc: &Scenario,
    progress: &dyn v2x_report::Progress,
    crypto: Option<&CryptoFactory>,
    encoder: Option<&dyn security::SizeEncoder>,
) -> Result<SimResults, SimError> {
    run_watched(sc, progress, crypto, encoder, None).map(|(r, _)| r)
}

/// [`run_with`], with the model `watcher` builds watching every run: what it found, per
/// variant and replication, comes second. A scenario with `[misbehaviour]` needs one (its
/// model lives in `v2x-mbd`): without it the table is refused, not ignored.
pub fn run_watched(
    sc: &Scenario,
    progress: &dyn v2x_report::Progress,
    crypto: Option<&CryptoFactory>,
    encoder: Option<&dyn security::SizeEncoder>,
    watcher: Option<&WatcherFactory>,
) -> Result<(SimResults, Vec<Vec<serde_json::Value>>), SimError> {
    if sc.misbehaviour.is_some() && watcher.is_none() {
        return Err(ScenarioError::invalid(
            "misbehaviour",
            "the misbehaviour model runs in `v2x sim` (crate v2x-mbd), not in this caller",
        )
        .into());
    }
    let started = std::time::Instant::now();
    let models = resolve_variants_with(sc, encoder)?;
    let warnings = scenario_warnings(sc)?;
    let jobs: Vec<(usize, u32)> = (0..models.len())
        .flat_map(|v| (0..sc.replications).map(move |r| (v, r)))
        .collect();
    progress.start(jobs.len() as u64);
    type Outcome = Result<(usize, u32, RunMetrics, Option<serde_json::Value>, usize, f64), SimError>;
    let outcomes: Vec<Outcome> = jobs
        .par_iter()
        .map(|&(v, r)| {
            let meter = progress.run_meter(&format!("{} #{r}", models[v].name), sc.duration_s);
            let out = run_once_watched(sc, &models[v], r, crypto, meter.clone(), watcher)
                .map(|(m, w, n, c)| (v, r, m, w, n, c));
            if let Some(m) = meter {
                m.done();
            }
            progress.step(&models[v].name);
            out
        })
        .collect();
    progress.finish();
    let mut variants: Vec<VariantResult> = models
        .iter()
        .map(|m| VariantResult {
            name: m.name.clone(),
            protocol: m.kind.to_string(),
            profile: m.profile_name.clone(),
            costs: m.costs.clone(),
            sizes: m.sizes.clone(),
            settings: m.settings.clone(),
            notes: {
                let mut notes = m.notes.clone();
                if sc.access.kind == scenario::AccessKind::LteV2xMode4 {
                    notes.push(
                        "LTE-V2X Mode 4: packet sizes from the security model, verification as on 802.11p; the sender's own signing time is not simulated on the sidelink (a CAM reaches the MAC when generated)"
                            .into(),
                    );
                } else if sc.access.kind == scenario::AccessKind::NrV2xMode2 {
                    notes.push(
                        "NR-V2X Mode 2: packet sizes from the security model, verification as on 802.11p; the sender's own signing time is not simulated on the sidelink (a CAM reaches the MAC when generated)"
                            .into(),
                    );
                }
                notes
            },
            nodes: 0,
            cutoff_range_m: 0.0,
            runs: Vec::new(),
            pooled: RunMetrics::default(),
        })
        .collect();
    // par_iter().collect() keeps job order, so runs stay in replication order.
    let mut watched: Vec<Vec<serde_json::Value>> = vec![Vec::new(); models.len()];
    for o in outcomes {
        let (v, _r, m, w, n, c) = o?;
        watched[v].extend(w);
        let vr = &mut variants[v];
        vr.nodes = n;
        vr.cutoff_range_m = c;
        vr.pooled.merge(&m);
        vr.runs.push(m);
    }
    // The scenario as run: each deadline as resolved (a default written out), so that
    // resolved.toml shows it and runs again to the same results.
    let mut scenario = sc.clone();
    for (v, m) in scenario.variants.iter_mut().zip(&models) {
        v.deadline_ms = Some(m.deadline_ms);
    }
    Ok((
        SimResults {
            scenario,
            warnings,
            variants,
            wall_s: started.elapsed().as_secs_f64(),
        },
        watched,
    ))
}
