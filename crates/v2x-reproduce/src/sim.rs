//! Simulation results: the scenario files of `scenarios/papers/` (shipped inside the
//! binary, with the trace files they read, so `v2x reproduce` runs from any directory)
//! against the `sim` entries of `papers.json`.
//!
//! A scenario serves the entries of one papers.json scenario name, under a set-up label.
//! Its rows are judged only when the set-up is comparable with the paper's: a scenario
//! with a [`Calibration`] is comparable when its calibration target agrees with the paper
//! under the rule (and that target's row is then fitted, not independent, where the
//! scenario was tuned to it).

use crate::report::{statement_of, Basis, Evidence, Label, Row};
use crate::rule::Estimate;
use crate::ReproduceError;
use std::path::Path;
use v2x_bench::papers::{Axis, PaperValue, SimMatch, SimStatistic};
use v2x_sim::metrics::RunMetrics;
use v2x_sim::scenario::MobilityConfig;
use v2x_sim::{Overrides, Scenario, SimResults};

/// Simulated seconds per run with `--quick` (warm-up included), one replication.
pub const QUICK_DURATION_S: f64 = 3.0;

/// A distance bin enters a curve's maximum only with at least this many verified CAMs in
/// every replication (the far bins of a curve are otherwise a handful of packets).
pub const MIN_BIN_SAMPLES: u64 = 30;

/// The calibration of a set-up to one published value (the channel's no-security PDR).
#[derive(Debug, Clone, Copy)]
pub struct Calibration {
    pub variant: &'static str,
    pub statistic: SimStatistic,
    /// The scenario was tuned to meet it (its row is then fitted); false: the set-up as
    /// stated, checked against the same target.
    pub tuned: bool,
    /// What was tuned, and to what (shown with every row of the set-up).
    pub how: &'static str,
}

/// A reproduction scenario shipped inside the binary.
pub struct Shipped {
    pub paper: &'static str,
    pub file: &'static str,
    pub text: &'static str,
    /// Light enough for `--quick` (seconds in a debug build).
    pub in_quick: bool,
    /// The papers.json scenario name whose entries it answers (None: its own name).
    pub serves: Option<&'static str>,
    /// The set-up label of its rows ("" when the paper has one set-up).
    pub setup: &'static str,
    pub calibration: Option<Calibration>,
    /// Statistics whose mechanism here is not the paper's: their rows are shown, not
    /// judged (statistic, why).
    pub not_comparable: &'static [(SimStatistic, &'static str)],
    /// The whole set-up is not the paper's (why), e.g. a sample of the recorded trace.
    pub setup_not_comparable: Option<&'static str>,
    /// Files the scenario reads: path relative to `scenarios/papers/`, and the bytes.
    pub data: &'static [(&'static str, &'static [u8])],
    /// It runs the recorded NGSIM I-80 sample, which `--ngsim-i80 FILE` replaces with the
    /// full trace (then the set-up is the paper's).
    pub recorded_trace: bool,
}

/// Points `sc` at the full NGSIM I-80 trajectory table in NGSIM's published CSV layout
/// (`Vehicle_ID`, `Frame_ID`, `Local_X`, `Local_Y`; feet; 0.1-s frames).
pub fn use_full_trace(sc: &mut Scenario, path: &Path) {
    if let MobilityConfig::Ngsim {
        path: p,
        id_column,
        time_column,
        x_column,
        y_column,
        time_unit_s,
        length_unit_m,
        ..
    } = &mut sc.mobility
    {
        *p = path.to_path_buf();
        *id_column = "Vehicle_ID".into();
        *time_column = "Frame_ID".into();
        *x_column = "Local_X".into();
        *y_column = "Local_Y".into();
        *time_unit_s = 0.1;
        *length_unit_m = 0.3048;
    }
}

/// One scenario as run, with its results.
#[derive(Debug, Clone)]
pub struct ScenarioRun {
    pub paper: String,
    pub file: String,
    pub setup: String,
    pub results: SimResults,
}

/// Loads a shipped scenario (its data files written under `inputs`), shortened for `quick`.
pub fn scenario(s: &Shipped, inputs: &Path, quick: bool) -> Result<Scenario, ReproduceError> {
    let err = |source| ReproduceError::Scenario {
        name: s.file.into(),
        source,
    };
    let mut sc = Scenario::parse(s.text, s.file).map_err(err)?;
    for (path, bytes) in s.data {
        let dest = inputs.join(path);
        if let Some(dir) = dest.parent() {
            std::fs::create_dir_all(dir).map_err(|source| ReproduceError::Io {
                path: dir.display().to_string(),
                source,
            })?;
        }
        std::fs::write(&dest, bytes).map_err(|source| ReproduceError::Io {
            path: dest.display().to_string(),
            source,
        })?;
    }
    sc.resolve_paths(inputs);
    if quick {
        sc.apply(&Overrides {
            duration_s: Some(QUICK_DURATION_S),
            seed: None,
            replications: Some(1),
        })
        .map_err(err)?;
    }
    Ok(sc)
}

/// One statistic of one run (`threshold_ms`: where a `verified_within_share` is read).
pub fn statistic(r: &RunMetrics, s: SimStatistic, threshold_ms: Option<f64>) -> f64 {
    let ratio = |a: u64, b: u64| if b == 0 { f64::NAN } else { a as f64 / b as f64 };
    match s {
        SimStatistic::VerifiedWithinShare => {
            let within = threshold_ms.and_then(|t| r.verification_latency.count_within((t * 1e6).round() as u64));
            match within {
                Some(w) => ratio(w, r.security_arrivals),
                None => f64::NAN,
            }
        }
        SimStatistic::PdrApplication => r.pdr_application(),
        SimStatistic::PdrNetwork => r.pdr_network(),
        SimStatistic::E2eMeanMs => r.e2e_delay.mean_ms(),
        SimStatistic::InterArrivalMeanMs => r.inter_arrival.mean_ms(),
        SimStatistic::CryptoLossRatio => r.crypto_loss_ratio(),
        // Paper 001 Eq. 3: verified / received. CAMs still queued when the run ends count
        // as not verified (one minus the loss ratio would count them as verified).
        SimStatistic::VerificationRatio => ratio(r.verification_latency.count, r.security_arrivals),
        SimStatistic::WeightedAwareness => r.weighted_awareness(),
        SimStatistic::QuerySuccessRate => r.query_success_rate(),
        SimStatistic::QueryDelayMeanMs => r.query.delay.mean_ms(),
        SimStatistic::MacDelayP99Ms => r.mac_delay.quantile_ms(0.99),
        SimStatistic::QueryRequestsReceivedShare => ratio(r.query.requests_received, r.query.requests_sent),
        SimStatistic::QueryRepliesReceivedShare => ratio(r.query.replies_received, r.query.requests_sent),
        SimStatistic::CertificateRedundancy => r.certificate_redundancy(),
    }
}

/// The statistic per distance bin of one run (NaN where it has no value); for the curves
/// the papers plot over Tx-Rx distance.
pub fn per_bin(r: &RunMetrics, s: SimStatistic) -> Vec<(f64, u64)> {
    r.bins
        .iter()
        .map(|b| {
            let ratio = |a: u64| {
                if b.attempts == 0 {
                    f64::NAN
                } else {
                    a as f64 / b.attempts as f64
                }
            };
            match s {
                SimStatistic::E2eMeanMs => (b.e2e_mean_ms(), b.verified),
                SimStatistic::InterArrivalMeanMs => (b.inter_arrival_mean_ms(), b.inter_arrivals),
                SimStatistic::PdrNetwork => (ratio(b.received), b.attempts),
                SimStatistic::PdrApplication => (ratio(b.verified), b.attempts),
                SimStatistic::CryptoLossRatio => (
                    if b.received == 0 {
                        f64::NAN
                    } else {
                        b.crypto_lost as f64 / b.received as f64
                    },
                    b.received,
                ),
                _ => (f64::NAN, 0),
            }
        })
        .collect()
}

/// Mean over replications of one variant's statistic, with its 95 % interval.
pub fn value(results: &SimResults, variant: &str, s: SimStatistic) -> Option<Estimate> {
    let v = results.variants.iter().find(|v| v.name == variant)?;
    Estimate::mean_of(&v.runs.iter().map(|r| statistic(r, s, None)).collect::<Vec<_>>())
}

/// Mean over replications of `f(run of a, run of b)` for two variants run on the same
/// seeds (paired: common random numbers), with its 95 % interval.
pub fn paired(results: &SimResults, a: &str, b: &str, f: impl Fn(&RunMetrics, &RunMetrics) -> f64) -> Option<Estimate> {
    let va = results.variants.iter().find(|v| v.name == a)?;
    let vb = results.variants.iter().find(|v| v.name == b)?;
    let d: Vec<f64> = va.runs.iter().zip(&vb.runs).map(|(x, y)| f(x, y)).collect();
    Estimate::mean_of(&d)
}

/// The largest point of a variant's curve over distance, per replication, then its mean
/// and interval. The curve is read within the scenario's headline range (the distance the
/// paper's text reads its curves at, 300 m for paper 000), and only bins with
/// [`MIN_BIN_SAMPLES`] in every replication count.
fn max_over_distance(results: &SimResults, variant: &str, s: SimStatistic) -> Option<Estimate> {
    let v = results.variants.iter().find(|v| v.name == variant)?;
    let m = &results.scenario.metrics;
    let curves: Vec<Vec<(f64, u64)>> = v.runs.iter().map(|r| per_bin(r, s)).collect();
    let bins = curves.iter().map(Vec::len).min()?;
    let usable: Vec<usize> = (0..bins)
        .filter(|&k| (k + 1) as f64 * m.distance_bin_m <= m.headline_range_m + 1e-9)
        .filter(|&k| curves.iter().all(|c| c[k].1 >= MIN_BIN_SAMPLES && c[k].0.is_finite()))
        .collect();
    if usable.is_empty() {
        return None;
    }
    let maxima: Vec<f64> = curves
        .iter()
        .map(|c| usable.iter().map(|&k| c[k].0).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    Estimate::mean_of(&maxima)
}

/// The value a published entry compares with: its statistic, or its maximum over
/// distance or over variants where the paper quotes the top of a curve.
pub fn value_of(results: &SimResults, m: &SimMatch) -> Option<Estimate> {
    let one = |variant: &str| -> Option<Estimate> {
        let v = results.variants.iter().find(|v| v.name == variant)?;
        Estimate::mean_of(
            &v.runs
                .iter()
                .map(|r| statistic(r, m.statistic, m.threshold_ms))
                .collect::<Vec<_>>(),
        )
    };
    match m.maximum_over {
        None => one(&m.variant),
        Some(Axis::Distance) => max_over_distance(results, &m.variant, m.statistic),
        Some(Axis::Variants) => m
            .variants
            .iter()
            .filter_map(|v| one(v))
            .max_by(|a, b| a.value.total_cmp(&b.value)),
    }
}

/// The row of one published simulated value.
pub fn row(e: &PaperValue, run: &ScenarioRun, shipped: &Shipped, comparable: &Result<(), String>, quick: bool) -> Row {
    let m = e.sim.as_ref().expect("simulation entries only");
    let ours = value_of(&run.results, m);
    let mut basis = Basis::of(e);
    if let Some(c) = &shipped.calibration {
        if c.tuned && c.variant == m.variant && c.statistic == m.statistic {
            basis = Basis::with(
                Evidence::Fitted,
                format!("the set-up was calibrated to this value: {}", c.how),
            );
        }
    }
    if let Err(why) = comparable {
        basis = basis.not_comparable(why.clone());
    } else if let Some((_, why)) = shipped.not_comparable.iter().find(|(s, _)| *s == m.statistic) {
        basis = basis.not_comparable(*why);
    }
    let over = match m.maximum_over {
        Some(Axis::Distance) => format!(
            " (maximum over distance within {} m)",
            run.results.scenario.metrics.headline_range_m
        ),
        Some(Axis::Variants) => format!(" (maximum over {})", m.variants.join(", ")),
        None => String::new(),
    };
    let label = Label {
        paper: e.paper.clone(),
        source: e.source.clone(),
        location: e.location.clone().unwrap_or_else(|| e.source.clone()),
        item: format!(
            "{} — {} [{} {}{}]",
            e.procedure,
            e.scheme.as_deref().unwrap_or(""),
            m.variant,
            m.statistic,
            over
        ),
        unit: e.metric.unit_and_meaning().0.into(),
        setup: run.setup.clone(),
    };
    Row::compare(label, statement_of(e), ours, basis, || why(e, m.statistic, quick))
}

/// Whether a set-up is comparable: its calibration target agrees with the paper's value.
pub fn calibration_check(shipped: &Shipped, results: &SimResults, entries: &[&PaperValue]) -> Result<(), String> {
    if let Some(why) = shipped.setup_not_comparable {
        return Err(why.into());
    }
    let Some(c) = &shipped.calibration else {
        return Ok(());
    };
    let target = entries.iter().find(|e| {
        e.sim
            .as_ref()
            .is_some_and(|m| m.variant == c.variant && m.statistic == c.statistic)
    });
    let (Some(target), Some(ours)) = (target, value(results, c.variant, c.statistic)) else {
        return Err(format!(
            "no value for the calibration target {} {}",
            c.variant, c.statistic
        ));
    };
    if statement_of(target).agrees(&ours) {
        Ok(())
    } else {
        Err(format!(
            "channel not calibrated: the paper's {} {} is {}, ours {:.3} [{:.3}, {:.3}] ({})",
            c.variant, c.statistic, target.value, ours.value, ours.low, ours.high, c.how
        ))
    }
}

fn m_is_ecdsa(e: &PaperValue) -> bool {
    e.sim.as_ref().is_some_and(|m| m.variant.starts_with("ecdsa"))
}

/// A one-line reason for a simulated difference.
fn why(e: &PaperValue, s: SimStatistic, quick: bool) -> String {
    let mut r: String = match s {
        SimStatistic::VerificationRatio => {
            "verification rate: the profiles take Tables 5-6 (1609.2: 28.5 ms software, 6.12 ms HSM per BSM with its certificate; digest-signed BSMs cost the same here, the paper gives no other time); one module verifies at most 1/cost per second, which at ~1,000 BSMs/s bounds the ratio near 0.035 (software) and 0.16 (HSM)".into()
        }
        SimStatistic::PdrApplication | SimStatistic::PdrNetwork | SimStatistic::WeightedAwareness => {
            "channel: the paper states no path loss, fading or power; ours is the scenario's (see its file), which sets the no-security baseline".into()
        }
        SimStatistic::CryptoLossRatio => {
            "the queue load is the number of CAMs each receiver decodes per second, set by the channel".into()
        }
        SimStatistic::QuerySuccessRate
        | SimStatistic::QueryDelayMeanMs
        | SimStatistic::QueryRequestsReceivedShare
        | SimStatistic::QueryRepliesReceivedShare => {
            "query plan: the paper gives 10-20 % of vehicles per second and no RSU selection or MAC details; ours 15 %/s to the nearest RSU, replies on the same channel".into()
        }
        SimStatistic::CertificateRedundancy => {
            "set-up: the abstract states neither the traffic nor how redundancy is counted; ours counts, per reception, a certificate copy reaching a station that already held it, on the scenario's highway".into()
        }
        SimStatistic::MacDelayP99Ms => {
            "channel access: the simulator's EDCA and channel; the paper's NS-2 set-up (its channel for Sec. V is not stated) differs in carrier sense and queue details".into()
        }
        SimStatistic::VerifiedWithinShare if m_is_ecdsa(e) => {
            "hardware: ours verifies P-224 with the i7-4610m profile (paper 000's Haswell i7); the paper's Core 2 2.4 GHz and Pentium 3 costs are only drawn in its Fig. 4, so no profile reproduces them".into()
        }
        SimStatistic::VerifiedWithinShare => {
            "TESLA attached: a packet waits for the key in the sender's next beacon (100 ms later) and its MAC delay; the share depends on how many next beacons the channel delivers".into()
        }
        SimStatistic::E2eMeanMs | SimStatistic::InterArrivalMeanMs if e.paper == "001" => {
            "the paper's delays include the MK5's stack and capture latency (about 2 ms with no security, Figs. 11-13); the simulator has none".into()
        }
        SimStatistic::E2eMeanMs | SimStatistic::InterArrivalMeanMs => {
            "queueing delay follows the number of CAMs decoded per second, set by the channel".into()
        }
    };
    if quick {
        r.push_str(" (quick run: 3 s, one replication)");
    }
    r
}

/// CAMs per second reaching one station's verifier (per replication: mean and interval).
pub fn offered_per_s(run: &ScenarioRun, variant: &str) -> Option<Estimate> {
    let v = run.results.variants.iter().find(|v| v.name == variant)?;
    let sc = &run.results.scenario;
    let station_s = v.nodes as f64 * (sc.duration_s - sc.warmup_s);
    Estimate::mean_of(
        &v.runs
            .iter()
            .map(|m| m.security_arrivals as f64 / station_s)
            .collect::<Vec<_>>(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use v2x_sim::metrics::DistanceBin;

    #[test]
    fn verified_within_share_reads_the_exact_threshold_counts() {
        let mut r = RunMetrics {
            verification_latency: v2x_sim::histogram::Histogram::with_thresholds(&[100_000_000, 110_000_000]),
            security_arrivals: 10,
            ..Default::default()
        };
        for ms in [50u64, 100, 105, 110, 111] {
            r.verification_latency.record(ms * 1_000_000);
        }
        let s = SimStatistic::VerifiedWithinShare;
        assert_eq!(statistic(&r, s, Some(100.0)), 0.2);
        assert_eq!(statistic(&r, s, Some(110.0)), 0.4);
        assert!(statistic(&r, s, Some(120.0)).is_nan(), "not a threshold");
        assert!(statistic(&r, s, None).is_nan());
    }

    /// Paper 001 Eq. 3 counts verified packets; one still queued when the run ends is not
    /// verified (the old `1 - loss ratio` counted it as verified).
    #[test]
    fn the_verification_ratio_counts_queued_cams_as_not_verified() {
        let mut r = RunMetrics {
            security_arrivals: 100,
            crypto_lost_deadline: 90,
            ..Default::default()
        };
        for _ in 0..4 {
            r.verification_latency.record(1_000_000);
        }
        // 4 verified, 90 expired, 6 still queued.
        assert_eq!(statistic(&r, SimStatistic::VerificationRatio, None), 0.04);
        assert!((1.0 - r.crypto_loss_ratio() - 0.10).abs() < 1e-12, "the old reading");
    }

    fn run_with_bins(e2e_ms: &[f64]) -> RunMetrics {
        RunMetrics {
            bins: e2e_ms
                .iter()
                .map(|&ms| DistanceBin {
                    attempts: 100,
                    received: 80,
                    verified: 50,
                    e2e_ns: ms * 1e6 * 50.0,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_maximum_over_distance_is_the_top_of_each_replications_curve() {
        let sc = Scenario {
            replications: 2,
            ..Scenario::default()
        };
        let mk = |runs: Vec<RunMetrics>| SimResults {
            scenario: sc.clone(),
            warnings: Vec::new(),
            variants: vec![v2x_sim::VariantResult {
                name: "x".into(),
                protocol: String::new(),
                profile: String::new(),
                costs: Vec::new(),
                sizes: v2x_sim::security::SizesUse {
                    source: String::new(),
                    overhead_bytes: 0,
                    overhead_with_certificate_bytes: 0,
                    certificate: v2x_profile::CertificatePolicy::Never,
                    tesla_key_frame_bytes: None,
                    tesla_attached_key_bytes: None,
                    tesla_disclosure_delay_s: None,
                },
                settings: Vec::new(),
                notes: Vec::new(),
                nodes: 2,
                cutoff_range_m: 0.0,
                pooled: RunMetrics::default(),
                runs,
            }],
            wall_s: 0.0,
        };
        let results = mk(vec![
            run_with_bins(&[10.0, 80.0, 20.0]),
            run_with_bins(&[12.0, 90.0, 30.0]),
        ]);
        let m = SimMatch {
            scenario: String::new(),
            variant: "x".into(),
            statistic: SimStatistic::E2eMeanMs,
            threshold_ms: None,
            maximum_over: Some(Axis::Distance),
            variants: Vec::new(),
        };
        let e = value_of(&results, &m).unwrap();
        assert!((e.value - 85.0).abs() < 1e-9, "{e:?}");
        // A bin with too few CAMs does not make the maximum.
        let mut thin = run_with_bins(&[10.0, 500.0]);
        thin.bins[1].verified = 3;
        thin.bins[1].e2e_ns = 500.0 * 1e6 * 3.0;
        let results = mk(vec![thin.clone(), thin]);
        assert_eq!(value_of(&results, &m).unwrap().value, 10.0);
    }
}
