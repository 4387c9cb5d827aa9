//! What the closed-loop runs of `[misbehaviour]` add up to: per run and attacker, the
//! latency of each step (first lying CAM → first detection → report at the MA → revocation
//! decision → CRL installed at the receiver → first attacker CAM dropped, end to end, and
//! first lie → CRL installed: the loop without the wait for the attacker's next CAM),
//! per receiver; their distribution over the runs (median and 95th percentile with 95 %
//! intervals from a bootstrap over runs: a run's samples go together); whether every
//! attacker was revoked and dropped by every receiver; and the false reports against
//! benign stations, counted, never hidden.

use crate::misbehaviour_log::RunRecord;
use crate::scenario::misbehaviour::MisbehaviourConfig;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::fmt::Write as _;

/// The steps of the loop, in order, with their names in the report.
pub const STEPS: [&str; 7] = [
    "first lie -> detection",
    "detection -> report at MA",
    "report -> revocation decision",
    "decision -> CRL at receiver",
    "CRL -> first CAM dropped",
    "end to end (first lie -> dropped)",
    "first lie -> CRL at receiver",
];

/// One attacker as one receiver saw it in one run: each step's latency, ms (`None` when
/// the step did not happen).
#[derive(Debug, Clone, Serialize)]
pub struct Timeline {
    pub run: u32,
    pub attacker: String,
    pub receiver: String,
    pub steps_ms: [Option<f64>; 7],
    /// The reason SN-DECAP named for the first dropped CAM.
    pub drop_reason: Option<String>,
    /// The attacker's CAMs this receiver accepted after installing the CRL (must be 0).
    pub accepted_after_revocation: u64,
}

/// One step's distribution over the runs.
#[derive(Debug, Clone, Serialize)]
pub struct StepStats {
    pub step: String,
    pub samples: usize,
    pub median_ms: Option<f64>,
    pub median_ci_ms: Option<[f64; 2]>,
    pub p95_ms: Option<f64>,
    pub p95_ci_ms: Option<[f64; 2]>,
}

/// The closed loop's result.
#[derive(Debug, Clone, Serialize)]
pub struct ClosedLoop {
    pub attack: String,
    pub detector: String,
    pub min_reporters: u32,
    pub runs: u32,
    pub receivers: u32,
    pub benign_senders: u32,
    pub attackers: u32,
    pub rate_hz: f64,
    /// Insiders that sent at least one lying CAM, over all runs (of `attackers × runs`): an
    /// attack that fires by chance (a sudden stop) may not lie in a short run.
    pub attackers_lying: u32,
    /// Attackers revoked, over all runs.
    pub attackers_revoked: u32,
    /// (attacker, receiver) pairs in which the receiver dropped the attacker's CAMs as
    /// `revoked-certificate` after the CRL (of `attackers × receivers × runs`).
    pub drops_by_revocation: u32,
    /// Attacker CAMs accepted after a receiver installed the CRL revoking it.
    pub accepted_after_revocation: u64,
    /// Benign stations' CAMs the detectors flagged.
    pub benign_cams_flagged: u64,
    pub benign_cams_accepted: u64,
    /// Reports about benign stations the MA accepted (false reports).
    pub false_reports: u32,
    /// Benign stations revoked (false revocations).
    pub benign_revoked: u32,
    /// Reports the MA refused, by reason.
    pub reports_refused: Vec<(String, u32)>,
    pub steps: Vec<StepStats>,
    pub timelines: Vec<Timeline>,
}

fn ms(from_us: Option<u64>, to_us: Option<u64>) -> Option<f64> {
    Some((to_us? as f64 - from_us? as f64) / 1000.0)
}

/// The timelines and counts of `runs`.
pub fn analyse(cfg: &MisbehaviourConfig, scenario: (u32, u32, f64), runs: &[RunRecord]) -> ClosedLoop {
    let (receivers, senders, rate_hz) = scenario;
    let mut out = ClosedLoop {
        attack: cfg.attack.clone(),
        detector: cfg.detector.clone(),
        min_reporters: cfg.min_reporters,
        runs: cfg.runs,
        receivers,
        benign_senders: senders,
        attackers: cfg.attackers,
        rate_hz,
        attackers_lying: 0,
        attackers_revoked: 0,
        drops_by_revocation: 0,
        accepted_after_revocation: 0,
        benign_cams_flagged: 0,
        benign_cams_accepted: 0,
        false_reports: 0,
        benign_revoked: 0,
        reports_refused: Vec::new(),
        steps: Vec::new(),
        timelines: Vec::new(),
    };
    let mut refused: std::collections::BTreeMap<String, u32> = Default::default();
    for run in runs {
        let benign: Vec<&str> = run
            .vehicles
            .iter()
            .filter(|v| !v.attacker)
            .map(|v| v.certificate.as_str())
            .collect();
        for rep in &run.reports {
            match rep.subject.as_deref() {
                Some(s) if benign.contains(&s) => out.false_reports += 1,
                Some(_) => {}
                None => *refused.entry(rep.outcome.clone()).or_default() += 1,
            }
        }
        out.benign_revoked += run
            .revocations
            .iter()
            .filter(|r| benign.contains(&r.subject.as_str()))
            .count() as u32;
        for rx in &run.receivers {
            for b in &benign {
                if let Some(v) = rx.senders.get(*b) {
                    out.benign_cams_flagged += v.flagged;
                    out.benign_cams_accepted += v.accepted;
                }
            }
        }
        for a in run.vehicles.iter().filter(|v| v.attacker) {
            let revocation = run.revocations.iter().find(|r| r.subject == a.certificate);
            out.attackers_lying += u32::from(a.first_lie_us.is_some());
            out.attackers_revoked += u32::from(revocation.is_some());
            let decided = revocation.map(|r| r.decided_us);
            let decision_ms = revocation.and_then(|r| ms(Some(r.report_received_us), Some(r.decided_us)));
            for rx in &run.receivers {
                let view = rx.senders.get(&a.certificate).cloned().unwrap_or_default();
                let at_ma = run
                    .reports
                    .iter()
                    .find(|r| {
                        r.subject.as_deref() == Some(&a.certificate) && r.reporter.as_deref() == Some(&rx.certificate)
                    })
                    .map(|r| r.received_us);
                let crl = decided.and_then(|d| rx.crls_installed.iter().map(|c| c.0).find(|&t| t >= d));
                let dropped = view.first_revoked_drop_us;
                out.drops_by_revocation += u32::from(dropped.is_some() && crl.is_some());
                out.accepted_after_revocation += view.accepted_after_revocation;
                out.timelines.push(Timeline {
                    run: run.run,
                    attacker: a.name.clone(),
                    receiver: rx.name.clone(),
                    steps_ms: [
                        ms(a.first_lie_us, view.first_flagged_us),
                        ms(view.first_flagged_us, at_ma),
                        decision_ms,
                        ms(decided, crl),
                        ms(crl, dropped),
                        ms(a.first_lie_us, dropped),
                        ms(a.first_lie_us, crl),
                    ],
                    drop_reason: dropped.map(|_| v2x_security::RejectReason::RevokedCertificate.code().to_string()),
                    accepted_after_revocation: view.accepted_after_revocation,
                });
            }
        }
    }
    out.reports_refused = refused.into_iter().collect();
    out.steps = (0..STEPS.len())
        .map(|i| step_stats(i, &out.timelines, cfg.runs))
        .collect();
    out
}

/// Nearest-rank percentile of sorted `v`.
fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

/// Step `i`'s median and 95th percentile over every sample, with 95 % intervals from
/// 1000 bootstrap resamples of the runs that have samples (seeded; none from one run).
fn step_stats(i: usize, timelines: &[Timeline], runs: u32) -> StepStats {
    // The decision happens once per attacker and run: one sample each, not per receiver.
    let per_run: Vec<Vec<f64>> = (0..runs)
        .map(|r| {
            let mut seen = std::collections::BTreeSet::new();
            timelines
                .iter()
                .filter(|t| t.run == r && (i != 2 || seen.insert(t.attacker.clone())))
                .filter_map(|t| t.steps_ms[i])
                .collect()
        })
        .filter(|v: &Vec<f64>| !v.is_empty())
        .collect();
    let all = sorted(per_run.concat());
    let runs = per_run.len();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut medians, mut p95s) = (Vec::new(), Vec::new());
    if runs >= 2 {
        for _ in 0..1000 {
            let sample: Vec<f64> = (0..runs)
                .flat_map(|_| per_run[rng.gen_range(0..runs)].iter().copied())
                .collect();
            let s = sorted(sample);
            if let (Some(m), Some(p)) = (percentile(&s, 0.5), percentile(&s, 0.95)) {
                medians.push(m);
                p95s.push(p);
            }
        }
    }
    let interval = |v: Vec<f64>| -> Option<[f64; 2]> {
        let s = sorted(v);
        Some([percentile(&s, 0.025)?, percentile(&s, 0.975)?])
    };
    StepStats {
        step: STEPS[i].to_string(),
        samples: all.len(),
        median_ms: percentile(&all, 0.5),
        median_ci_ms: interval(medians),
        p95_ms: percentile(&all, 0.95),
        p95_ci_ms: interval(p95s),
    }
}

fn cell(v: Option<f64>, ci: Option<[f64; 2]>) -> String {
    match (v, ci) {
        (Some(v), Some([lo, hi])) => format!("{v:.1} [{lo:.1}, {hi:.1}]"),
        (Some(v), None) => format!("{v:.1} (one run with samples: no interval)"),
        _ => "—".into(),
    }
}

/// The report's section (markdown).
pub fn table(c: &ClosedLoop) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "\n## Misbehaviour closed loop\n");
    let _ = writeln!(
        s,
        "attack `{}`, {} insider(s), {} benign sender(s) at {} Hz, {} receiver(s), detector `{}`, MA revokes at {} reporter(s), {} run(s)\n",
        c.attack, c.attackers, c.benign_senders, c.rate_hz, c.receivers, c.detector, c.min_reporters, c.runs
    );
    let total = c.attackers * c.runs;
    let _ = writeln!(
        s,
        "- insiders that lied: {} of {total}; revoked: {}",
        c.attackers_lying, c.attackers_revoked
    );
    let _ = writeln!(
        s,
        "- (attacker, receiver) pairs dropping the attacker as `revoked-certificate` after the CRL: {} of {}",
        c.drops_by_revocation,
        total * c.receivers
    );
    let _ = writeln!(
        s,
        "- attacker CAMs accepted after the CRL: {}",
        c.accepted_after_revocation
    );
    let _ = writeln!(
        s,
        "- false reports (accepted by the MA) against benign stations: {}; benign stations revoked: {}; benign CAMs flagged: {} of {} accepted",
        c.false_reports, c.benign_revoked, c.benign_cams_flagged, c.benign_cams_accepted
    );
    if !c.reports_refused.is_empty() {
        let r: Vec<String> = c.reports_refused.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(s, "- reports refused by the MA: {}", r.join(", "));
    }
    let _ = writeln!(
        s,
        "\n| step | samples | median, ms [95 % CI over runs] | p95, ms [95 % CI over runs] |\n|---|---:|---|---|"
    );
    for st in &c.steps {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            st.step,
            st.samples,
            cell(st.median_ms, st.median_ci_ms),
            cell(st.p95_ms, st.p95_ci_ms)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let v = sorted(vec![5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!(percentile(&v, 0.5), Some(3.0));
        assert_eq!(percentile(&v, 0.95), Some(5.0));
        assert_eq!(percentile(&v, 0.0), Some(1.0));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
