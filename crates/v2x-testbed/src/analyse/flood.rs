//! Flood resilience (`[flood_search]` of a scenario): what each probe run showed, and the
//! highest flood rate at which benign loss stays below the bound (1 % by default), once
//! with every receiver defence off and once with the scenario's defences. The probes are
//! run by [`crate::run::probes`]; results go to `summary.json` (`flood_search`) and the
//! report.

use super::summary::Summary;
use serde::Serialize;
use std::collections::BTreeMap;

/// One probe run.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Probe {
    /// Rate per attacker, Hz.
    pub rate_hz: f64,
    /// All attackers together, packets/s (as configured).
    pub flood_rate_hz: f64,
    /// Flood packets the attackers really sent (a loaded machine may send fewer), per
    /// second of sending time.
    pub flood_sent_per_s: f64,
    pub benign_sent: u64,
    pub benign_accepted: u64,
    pub benign_loss: f64,
    /// Why benign packets were lost, with counts.
    pub benign_reasons: BTreeMap<String, u64>,
    pub kept_up: bool,
}

/// The outcome of one bisection.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Threshold {
    /// Defences on (option names); empty = undefended.
    pub defences: Vec<String>,
    /// Highest probed rate per attacker that kept benign loss within the bound (none: even
    /// `min_rate_hz` did not).
    pub max_rate_hz: Option<f64>,
    /// The same, all attackers together.
    pub max_flood_rate_hz: Option<f64>,
    /// Lowest probed rate per attacker that did not (none: even `max_rate_hz` kept up, so
    /// the threshold is above the range).
    pub failing_rate_hz: Option<f64>,
    pub probes: Vec<Probe>,
}

/// `summary.json`'s `flood_search`.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct FloodResult {
    pub case: String,
    pub attackers: u32,
    pub max_benign_loss: f64,
    pub probe_duration_s: f64,
    pub without_defences: Threshold,
    pub with_defences: Threshold,
}

/// Benign loss over every receiver of a probe run.
pub fn probe_of(summary: &Summary, case: &str, rate_hz: f64, attackers: u32, max_loss: f64) -> Probe {
    let mut p = Probe {
        rate_hz,
        flood_rate_hz: rate_hz * f64::from(attackers),
        ..Probe::default()
    };
    // Every receiver gets a copy of each flood packet: count them at one.
    if let Some(c) = summary.receivers.values().find_map(|cases| cases.get(case)) {
        if summary.duration_s > 0.0 {
            p.flood_sent_per_s = c.sent as f64 / summary.duration_s;
        }
    }
    for c in summary.receivers.values().filter_map(|cases| cases.get("benign")) {
        p.benign_sent += c.sent;
        p.benign_accepted += c.accepted;
        for (r, n) in &c.reasons {
            *p.benign_reasons.entry(r.clone()).or_default() += n;
        }
        if c.network_lost > 0 {
            *p.benign_reasons.entry("network-lost".into()).or_default() += c.network_lost;
        }
    }
    p.benign_loss = if p.benign_sent > 0 {
        1.0 - p.benign_accepted as f64 / p.benign_sent as f64
    } else {
        1.0
    };
    p.kept_up = p.benign_sent > 0 && p.benign_loss <= max_loss;
    p
}

/// The threshold the probes show.
pub fn threshold(defences: Vec<String>, attackers: u32, probes: Vec<Probe>) -> Threshold {
    let max_rate_hz = probes.iter().filter(|p| p.kept_up).map(|p| p.rate_hz).reduce(f64::max);
    let failing_rate_hz = probes.iter().filter(|p| !p.kept_up).map(|p| p.rate_hz).reduce(f64::min);
    Threshold {
        defences,
        max_rate_hz,
        max_flood_rate_hz: max_rate_hz.map(|r| r * f64::from(attackers)),
        failing_rate_hz,
        probes,
    }
}

/// The result as a Markdown section.
pub fn table(r: &FloodResult) -> String {
    let mut out = format!(
        "\n## Flood threshold: {} x {} at the rate below, benign loss <= {:.1} % ({} s per probe)\n\n",
        r.attackers,
        r.case,
        100.0 * r.max_benign_loss,
        r.probe_duration_s
    );
    let bound = |t: &Threshold| match (t.max_flood_rate_hz, t.failing_rate_hz) {
        (Some(ok), Some(f)) => format!("{ok:.0} packets/s (fails at {:.0})", f * f64::from(r.attackers)),
        (Some(ok), None) => format!(">= {ok:.0} packets/s (the top of the range kept up)"),
        (None, Some(f)) => format!(
            "< {:.0} packets/s (the bottom of the range failed)",
            f * f64::from(r.attackers)
        ),
        (None, None) => "no probe".into(),
    };
    out.push_str("| receiver | defences | highest flood keeping benign loss within the bound |\n|---|---|---|\n");
    for (name, t) in [("undefended", &r.without_defences), ("defended", &r.with_defences)] {
        let d = if t.defences.is_empty() {
            "none".to_string()
        } else {
            t.defences.join(", ")
        };
        out.push_str(&format!("| {name} | {d} | {} |\n", bound(t)));
    }
    out.push_str("\n| receiver | flood packets/s set | flood packets/s sent | benign sent | benign accepted | benign loss | loss reasons |\n|---|---|---|---|---|---|---|\n");
    for (name, t) in [("undefended", &r.without_defences), ("defended", &r.with_defences)] {
        for p in &t.probes {
            let reasons: Vec<String> = p.benign_reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            out.push_str(&format!(
                "| {name} | {:.0} | {:.0} | {} | {} | {:.2} % | {} |\n",
                p.flood_rate_hz,
                p.flood_sent_per_s,
                p.benign_sent,
                p.benign_accepted,
                100.0 * p.benign_loss,
                reasons.join(", ")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_counts_benign_loss_over_every_receiver() {
        use crate::analyse::summary::CaseStats;
        let mut s = Summary::default();
        for (rx, acc) in [("rx0", 99), ("rx1", 100)] {
            let c = CaseStats {
                sent: 100,
                accepted: acc,
                dropped: 100 - acc,
                reasons: [("deadline-expired".to_string(), 100 - acc)].into(),
                ..CaseStats::default()
            };
            s.receivers.insert(rx.into(), [("benign".to_string(), c)].into());
        }
        let p = probe_of(&s, "A-SIG-04", 250.0, 4, 0.01);
        assert_eq!((p.benign_sent, p.benign_accepted, p.flood_rate_hz), (200, 199, 1000.0));
        assert!(p.kept_up && (p.benign_loss - 0.005).abs() < 1e-12);
        assert_eq!(p.benign_reasons["deadline-expired"], 1);
        assert!(!probe_of(&s, "A-SIG-04", 250.0, 4, 0.001).kept_up);
    }
}
