//! Simulation results: the scenario files of `scenarios/papers/` (shipped inside the
//! binary, so `v2x reproduce` runs from any directory) against the `sim` entries of
//! `papers.json`.

use super::{Finding, Report, ReproduceError, Row, Support, Verdict};
use v2x_bench::metric::Metric;
use v2x_bench::papers::{PaperData, PaperValue, SimStatistic};
use v2x_sim::metrics::RunMetrics;
use v2x_sim::{Overrides, Scenario, SimResults};

/// Simulated seconds per run with `--quick` (warm-up included; queries are counted when
/// their timeout ends before the run does), one replication.
pub const QUICK_DURATION_S: f64 = 3.0;

/// The reproduction scenarios: (paper, file name, text).
pub const SCENARIOS: [(&str, &str, &str); 1] = [(
    "000",
    "000-table6.toml",
    include_str!("../../../../scenarios/papers/000-table6.toml"),
)];

/// One scenario as run, with its results (for the figures and the results folder).
#[derive(Debug, Clone)]
pub struct ScenarioRun {
    pub paper: String,
    pub file: String,
    pub results: SimResults,
}

/// Loads a shipped scenario, shortened for `quick`.
pub fn scenario(file: &str, text: &str, quick: bool) -> Result<Scenario, ReproduceError> {
    let err = |source| ReproduceError::Scenario {
        name: file.into(),
        source,
    };
    let mut sc = Scenario::parse(text, file).map_err(err)?;
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

/// Runs `paper`'s scenarios and adds a row per published simulation value.
pub fn add(
    report: &mut Report,
    data: &PaperData,
    paper: &str,
    quick: bool,
    progress: &dyn v2x_report::Progress,
) -> Result<(), ReproduceError> {
    for (p, file, text) in SCENARIOS.iter().filter(|(p, _, _)| *p == paper) {
        let sc = scenario(file, text, quick)?;
        let results = v2x_sim::run(&sc, progress)?;
        for e in data.entries.iter().filter(|e| e.paper == *p) {
            let Some(m) = &e.sim else { continue };
            if m.scenario != sc.name {
                continue;
            }
            report.rows.push(row(e, &results, quick));
        }
        if *p == "000" {
            report.findings.extend(paper000_findings(&results));
        }
        report.sim_runs.push(ScenarioRun {
            paper: p.to_string(),
            file: file.to_string(),
            results,
        });
    }
    Ok(())
}

/// One statistic of one run.
pub fn statistic(r: &RunMetrics, s: SimStatistic) -> f64 {
    match s {
        SimStatistic::PdrApplication => r.pdr_application(),
        SimStatistic::PdrNetwork => r.pdr_network(),
        SimStatistic::E2eMeanMs => r.e2e_delay.mean_ms(),
        SimStatistic::InterArrivalMeanMs => r.inter_arrival.mean_ms(),
        SimStatistic::CryptoLossRatio => r.crypto_loss_ratio(),
        SimStatistic::WeightedAwareness => r.weighted_awareness(),
        SimStatistic::QuerySuccessRate => r.query_success_rate(),
        SimStatistic::QueryDelayMeanMs => r.query.delay.mean_ms(),
    }
}

/// Mean over replications and its 95% CI half-width (NaN half-width with one run).
pub fn value(results: &SimResults, variant: &str, s: SimStatistic) -> Option<(f64, f64)> {
    let v = results.variants.iter().find(|v| v.name == variant)?;
    let per_run: Vec<f64> = v.runs.iter().map(|r| statistic(r, s)).collect();
    let (mean, ci) = v2x_sim::output::mean_ci(&per_run);
    mean.is_finite().then_some((mean, ci))
}

/// The paper's value is a bound ("less than", "below"), not a reading.
fn is_upper_bound(e: &PaperValue) -> bool {
    e.note.contains("upper bound")
}

/// The paper quotes the largest value over distance ("up to").
fn is_maximum(e: &PaperValue) -> bool {
    e.note.contains("maximum over distance")
}

fn row(e: &PaperValue, results: &SimResults, quick: bool) -> Row {
    let m = e.sim.as_ref().expect("simulation entries only");
    let ours = value(results, &m.variant, m.statistic);
    let (difference, verdict, reason) = match ours {
        None => (
            "—".into(),
            Verdict::NotCompared,
            format!("variant `{}` produced no value for {}", m.variant, m.statistic),
        ),
        Some((v, _)) => {
            let (difference, close) = match e.metric {
                Metric::Fraction => (format!("{:+.3}", v - e.value), (v - e.value).abs() <= 0.05),
                _ => (
                    format!("x{:.2} (ours / paper)", v / e.value),
                    (v / e.value - 1.0).abs() <= 0.2,
                ),
            };
            let ok = if is_upper_bound(e) { v <= e.value } else { close };
            let reason = if ok {
                String::new()
            } else {
                why(e, m.statistic, v, quick)
            };
            (
                difference,
                if ok { Verdict::Reproduced } else { Verdict::Differs },
                reason,
            )
        }
    };
    Row {
        paper: e.paper.clone(),
        source: e.source.clone(),
        location: e.location.clone().unwrap_or_else(|| e.source.clone()),
        item: format!(
            "{} — {} [{} {}]",
            e.procedure,
            e.scheme.as_deref().unwrap_or(""),
            m.variant,
            m.statistic
        ),
        unit: e.metric.unit_and_meaning().0.into(),
        paper_value: e.value,
        ours: ours.map(|o| o.0),
        ours_ci95: ours.map(|o| o.1).filter(|c| c.is_finite()),
        difference,
        verdict,
        reason,
    }
}

/// A one-line reason for a simulated difference.
fn why(e: &PaperValue, s: SimStatistic, ours: f64, quick: bool) -> String {
    let mut r = match s {
        _ if is_maximum(e) && ours < e.value => {
            "the paper quotes the largest value over Tx-Rx distance; ours is the mean over every accepted CAM".to_string()
        }
        SimStatistic::PdrApplication | SimStatistic::PdrNetwork | SimStatistic::WeightedAwareness => {
            "channel: the paper does not state its path loss, fading or power; ours is the simulator's dual-slope Nakagami urban channel, which sets the no-security baseline".into()
        }
        SimStatistic::CryptoLossRatio => {
            "the queue load is the number of CAMs each receiver decodes, set by the (unstated) channel; ours decodes a different number per second".into()
        }
        SimStatistic::QuerySuccessRate | SimStatistic::QueryDelayMeanMs => {
            "query plan: the paper gives 10-20 % of vehicles per second and no RSU selection or MAC details; ours 15 %/s to the nearest RSU, replies on the same channel".into()
        }
        SimStatistic::E2eMeanMs | SimStatistic::InterArrivalMeanMs => {
            "queueing delay follows the number of CAMs decoded per second, set by the channel; the paper's is not stated".into()
        }
    };
    if quick {
        r.push_str(" (quick run: 3 s, one replication)");
    }
    r
}

fn paper000_findings(results: &SimResults) -> Vec<Finding> {
    let get = |v: &str, s| value(results, v, s).map(|x| x.0);
    let mut f = Vec::new();
    let (Some(pdr_x), Some(pdr_i7), Some(pdr_none)) = (
        get("ecdsa-xeon", SimStatistic::PdrApplication),
        get("ecdsa-i7", SimStatistic::PdrApplication),
        get("no-security", SimStatistic::PdrApplication),
    ) else {
        return f;
    };
    f.push(Finding {
        paper: "000".into(),
        source: "Fig. 17, Sec. 5.3".into(),
        claim: "medium speed security (Xeon, verify 3.01 ms) reduces the PDR within 300 m by about 30 % compared with fast speed security (0.48 vs 0.70)".into(),
        verdict: Support::of(pdr_i7 - pdr_x >= 0.1),
        evidence: format!(
            "PDR within 300 m: no security {pdr_none:.3}, Xeon {pdr_x:.3}, i7 {pdr_i7:.3} (i7 - Xeon = {:+.3})",
            pdr_i7 - pdr_x
        ),
    });
    if let (Some(clr_x), Some(clr_i7)) = (
        get("ecdsa-xeon", SimStatistic::CryptoLossRatio),
        get("ecdsa-i7", SimStatistic::CryptoLossRatio),
    ) {
        f.push(Finding {
            paper: "000".into(),
            source: "Fig. 18".into(),
            claim: "a fast processor keeps the cryptographic loss ratio below 0.01 while the Xeon loses about a third of the CAMs to the 100 ms deadline".into(),
            verdict: Support::of(clr_i7 < 0.01 && clr_x > 0.1),
            evidence: format!("CLR: Xeon {clr_x:.4}, i7 {clr_i7:.4}"),
        });
    }
    if let (Some(sx), Some(si7), Some(sn)) = (
        get("ecdsa-xeon", SimStatistic::QuerySuccessRate),
        get("ecdsa-i7", SimStatistic::QuerySuccessRate),
        get("no-security", SimStatistic::QuerySuccessRate),
    ) {
        f.push(Finding {
            paper: "000".into(),
            source: "Table 7".into(),
            claim:
                "security lowers the V2I query success rate (75 % -> 56-57 %) and the processor speed hardly changes it"
                    .into(),
            verdict: Support::of(sx < sn - 0.05 && si7 < sn - 0.05 && (sx - si7).abs() < 0.05),
            evidence: format!("success rate: no security {sn:.3}, Xeon {sx:.3}, i7 {si7:.3}"),
        });
    }
    if let (Some(ax), Some(ai7)) = (
        get("ecdsa-xeon", SimStatistic::WeightedAwareness),
        get("ecdsa-i7", SimStatistic::WeightedAwareness),
    ) {
        f.push(Finding {
            paper: "000".into(),
            source: "Fig. 19, Sec. 5.3".into(),
            claim: "the faster processor gives a markedly higher safety awareness (0.62 vs 0.40 within 300 m)".into(),
            verdict: Support::of(ai7 - ax >= 0.1),
            evidence: format!(
                "weighted awareness within 300 m: Xeon {ax:.3}, i7 {ai7:.3} (i7 - Xeon = {:+.3})",
                ai7 - ax
            ),
        });
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_simulated_paper_value_names_a_shipped_scenario_and_variant() {
        let scenarios: Vec<Scenario> = SCENARIOS
            .iter()
            .map(|(_, file, text)| scenario(file, text, false).unwrap())
            .collect();
        let data = v2x_bench::papers::load().unwrap();
        let mut n = 0;
        for e in &data.entries {
            let Some(m) = &e.sim else { continue };
            n += 1;
            let sc = scenarios
                .iter()
                .find(|s| s.name == m.scenario)
                .unwrap_or_else(|| panic!("no shipped scenario `{}`", m.scenario));
            assert!(
                sc.variants.iter().any(|v| v.name == m.variant),
                "scenario {} has no variant {}",
                m.scenario,
                m.variant
            );
        }
        assert_eq!(n, 20, "paper 000 Figs. 15-19 and Table 7");
    }

    #[test]
    fn the_table6_scenario_states_the_papers_parameters() {
        let (_, file, text) = SCENARIOS[0];
        let sc = scenario(file, text, false).unwrap();
        assert_eq!(sc.radio.cutoff_range_m, 500.0, "Table 6: transmission range 500 m");
        assert_eq!(sc.radio.data_rate_mbps, 6.0);
        assert_eq!(sc.cam.payload_bytes, 100);
        assert_eq!(sc.cam.rate_hz, 10.0);
        for v in sc.variants.iter().filter(|v| v.name.starts_with("ecdsa")) {
            assert_eq!(v.deadline_ms, 100.0, "{}", v.name);
        }
        let quick = scenario(file, text, true).unwrap();
        assert_eq!((quick.duration_s, quick.replications), (QUICK_DURATION_S, 1));
    }
}
