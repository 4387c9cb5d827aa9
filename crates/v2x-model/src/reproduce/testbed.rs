//! Test-bench results: paper 002 Table 4.2 (PRESERVE's receiver under attack) rebuilt by
//! the live testbed — real station processes exchanging real IEEE 1609.2 CAMs over UDP on
//! loopback — against the `testbed` entries of `papers.json`.
//!
//! Table 4.1's plan: 5 benign senders at 10 Hz, one receiver verifying, 2 or 4 attackers
//! of one case at 10–100 Hz each. One testbed run per (case, attackers, rate).

use super::{Finding, Report, ReproduceError, Row, Support, Verdict};
use std::path::{Path, PathBuf};
use v2x_bench::metric::Metric;
use v2x_bench::papers::{PaperData, PaperValue, TestbedMatch, TestbedStatistic};
use v2x_protocols::dot2::Dot2Config;
use v2x_protocols::ProtocolConfig;
use v2x_testbed::analysis::{CaseStats, Summary};
use v2x_testbed::orchestrator::{self, AttackerGroup, ReceiverOptions, Scenario};
use v2x_testbed::station::Attack;

/// Sending time of each run (the receiver lingers a second more).
pub const FULL_DURATION_S: f64 = 10.0;
pub const QUICK_DURATION_S: f64 = 2.0;

/// Where the testbed runs: the `v2x` executable that starts as each station, and the folder
/// that receives each run's PKI, logs and summary.
#[derive(Debug, Clone)]
pub struct TestbedPlace {
    pub station_exe: PathBuf,
    pub dir: PathBuf,
}

/// One run of the plan.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    case: Attack,
    attackers: u32,
    rate_hz: f64,
}

impl Run {
    fn of(m: &TestbedMatch) -> Result<Run, ReproduceError> {
        let case = Attack::ALL
            .into_iter()
            .find(|a| a.code() == m.case)
            .ok_or_else(|| ReproduceError::UnknownAttackCase(m.case.clone()))?;
        Ok(Run {
            case,
            attackers: m.attackers,
            rate_hz: m.attacker_rate_hz,
        })
    }

    fn name(&self) -> String {
        format!(
            "{}-{}x{}hz",
            self.case.code().to_lowercase(),
            self.attackers,
            self.rate_hz
        )
    }

    /// Table 4.1 with this run's attackers: IEEE 1609.2 CAMs (the PRESERVE kit's format),
    /// the receiver's default 2-thread verifier.
    fn scenario(&self, duration_s: f64) -> Scenario {
        Scenario {
            duration_s,
            receivers: 1,
            senders: 5,
            rate_hz: 10.0,
            protocol: ProtocolConfig::Ieee1609Dot2(Dot2Config::default()),
            pseudonym_change_s: 0.0,
            receiver: ReceiverOptions::default(),
            attackers: vec![AttackerGroup {
                case: self.case,
                count: self.attackers,
                rate_hz: self.rate_hz,
            }],
            flood_search: None,
            load_plan: None,
            medium: Default::default(),
            functional: Vec::new(),
            pki_service: None,
        }
    }
}

/// Runs the plan of paper 002 Table 4.2 (with `quick`, only its lightest and heaviest
/// A-SIG-01 rows, 2 s each) and adds a row per published value.
pub fn add(report: &mut Report, data: &PaperData, quick: bool, place: &TestbedPlace) -> Result<(), ReproduceError> {
    let entries: Vec<&PaperValue> = data.entries.iter().filter(|e| e.testbed.is_some()).collect();
    let mut runs: Vec<Run> = Vec::new();
    for e in &entries {
        let r = Run::of(e.testbed.as_ref().expect("filtered"))?;
        if !runs.contains(&r) {
            runs.push(r);
        }
    }
    if quick {
        let keep = |r: &Run| r.case == Attack::InvalidSignature && (r.rate_hz <= 10.0 || r.attackers == 4);
        let skipped = runs.iter().filter(|r| !keep(r)).count();
        runs.retain(keep);
        report.not_done.push(format!(
            "paper 002: {skipped} of the Table 4.2 testbed runs are not made with --quick; run without --quick"
        ));
    }
    let duration = if quick { QUICK_DURATION_S } else { FULL_DURATION_S };
    for run in runs {
        let out = place.dir.join(run.name());
        let summary = orchestrator::run(&run.scenario(duration), &out, &place.station_exe)
            .map_err(|source| ReproduceError::Testbed {
                run: run.name(),
                source: Box::new(source),
            })?
            .summary;
        for e in &entries {
            let m = e.testbed.as_ref().expect("filtered");
            if Run::of(m)? == run {
                report.rows.push(row(e, m, &summary, &out, quick));
            }
        }
        if run.case == Attack::InvalidSignature && run.attackers == 4 {
            report.findings.push(dos_finding(&summary, run));
        }
    }
    Ok(())
}

/// Paper 002's conclusion on the DoS case: more and faster attackers make the receiver's
/// performance slump (Table 4.2: 72.66 % of benign CAMs lost under 4 x 100 Hz A-SIG-01).
fn dos_finding(summary: &Summary, run: Run) -> Finding {
    let code = run.case.code();
    let loss = statistic(summary, code, TestbedStatistic::PacketLoss).unwrap_or(f64::NAN);
    let e2e = statistic(summary, code, TestbedStatistic::E2eMeanMs).unwrap_or(f64::NAN);
    let attack_rate = f64::from(run.attackers) * run.rate_hz;
    Finding {
        paper: "002".into(),
        source: "Table 4.2, Sec. 4.2".into(),
        claim: format!(
            "{} attackers sending invalid signatures at {} Hz each drive the receiver into a drastic slump: 72.66 % of benign CAMs lost, 59 ms delay",
            run.attackers, run.rate_hz
        ),
        // The slump is a property of the receiver: a verifier that keeps up loses nothing.
        verdict: Support::of(loss >= 0.2),
        evidence: format!(
            "live testbed, 5 senders at 10 Hz + {attack_rate:.0} invalid CAMs/s, 2 verifier threads on this machine: benign loss {:.1} %, mean E2E delay {e2e:.1} ms. The receiver here verifies faster than the flood arrives; PRESERVE's Atom D510 with one busy core and its 802.11p driver buffers did not",
            loss * 100.0
        ),
    }
}

/// The benign and attack statistics at the (only) receiver.
fn cases<'a>(summary: &'a Summary, attack: &str) -> Option<(&'a CaseStats, Option<&'a CaseStats>)> {
    let rx = summary.receivers.values().next()?;
    Some((rx.get("benign")?, rx.get(attack)))
}

/// One statistic of a run.
pub fn statistic(summary: &Summary, attack: &str, s: TestbedStatistic) -> Option<f64> {
    let (benign, attack) = cases(summary, attack)?;
    let received = |c: &CaseStats| c.sent.saturating_sub(c.network_lost) as f64;
    match s {
        TestbedStatistic::PacketDeliveryRatio => {
            let all = received(benign) + attack.map_or(0.0, received);
            (all > 0.0).then(|| received(benign) / all)
        }
        TestbedStatistic::E2eMeanMs => (benign.e2e.count > 0).then(|| benign.e2e.mean_us / 1e3),
        TestbedStatistic::PacketLoss => (benign.sent > 0).then(|| 1.0 - benign.accepted as f64 / benign.sent as f64),
    }
}

fn row(e: &PaperValue, m: &TestbedMatch, summary: &Summary, out: &Path, quick: bool) -> Row {
    let ours = statistic(summary, &m.case, m.statistic);
    let (difference, verdict, reason) = match ours {
        None => (
            "—".into(),
            Verdict::NotCompared,
            format!("the run in {} produced no value for {}", out.display(), m.statistic),
        ),
        Some(v) => {
            let (difference, close) = match e.metric {
                // Loss and delivery ratios: within 2 points (the paper prints percentages).
                Metric::Fraction => (format!("{:+.4}", v - e.value), (v - e.value).abs() <= 0.02),
                _ => (
                    format!("x{:.2} (ours / paper)", v / e.value),
                    (v / e.value - 1.0).abs() <= 0.2,
                ),
            };
            let reason = if close { String::new() } else { why(m.statistic, quick) };
            (
                difference,
                if close { Verdict::Reproduced } else { Verdict::Differs },
                reason,
            )
        }
    };
    Row {
        paper: e.paper.clone(),
        source: e.source.clone(),
        location: e.location.clone().unwrap_or_else(|| e.source.clone()),
        item: format!(
            "{} — {} [testbed {} x{} at {} Hz, {}]",
            e.procedure,
            e.scheme.as_deref().unwrap_or(""),
            m.case,
            m.attackers,
            m.attacker_rate_hz,
            m.statistic
        ),
        unit: e.metric.unit_and_meaning().0.into(),
        paper_value: e.value,
        ours,
        ours_ci95: None,
        difference,
        verdict,
        reason,
    }
}

/// A one-line reason for a test-bench difference.
fn why(s: TestbedStatistic, quick: bool) -> String {
    let mut r = match s {
        TestbedStatistic::PacketDeliveryRatio => {
            "the share of benign packets follows from the rates sent; a difference means packets of one kind were lost before the receiver read them".to_string()
        }
        TestbedStatistic::E2eMeanMs => {
            "PRESERVE's delay includes its 802.11p radios, driver buffers and an Atom D510 verifying; ours is UDP on loopback to a receiver verifying on this machine's cores".into()
        }
        TestbedStatistic::PacketLoss => {
            "PRESERVE lost benign CAMs in its 802.11p driver buffers and a saturated single-core verifier (Sec. 4.1.3); on loopback with a 2-thread verifier on this CPU nothing overflows".into()
        }
    };
    if quick {
        r.push_str(" (quick run: 2 s)");
    }
    r
}
