//! The runs that follow a scenario's own: one per cell of its `[load_plan]`, and the
//! probes of its `[flood_search]` (a geometric bisection over the attackers' rate, once
//! with every defence off and once with the scenario's). Each is a full testbed run, made
//! by the caller's `run` (the orchestrator's keeps each probe's summary and report under
//! `out`); what they add up to is in [`crate::analyse::load_plan`] and
//! [`crate::analyse::flood`].

use crate::analyse::flood::{self, FloodResult, Probe};
use crate::analyse::load_plan::{self, LoadCell};
use crate::analyse::summary::Summary;
use crate::scenario::{AttackerGroup, FloodSearch, LoadPlan, Scenario};
use std::path::Path;

/// One benign run per cell of the plan (the scenario's receiver and protocol, no attackers).
pub fn load_plan<E>(
    scenario: &Scenario,
    plan: &LoadPlan,
    out: &Path,
    mut run: impl FnMut(&Scenario, &Path) -> Result<Summary, E>,
) -> Result<Vec<LoadCell>, E> {
    let mut cells = Vec::new();
    for &senders in &plan.senders {
        for &rate_hz in &plan.rates_hz {
            let cell = Scenario {
                duration_s: plan.duration_s.unwrap_or(scenario.duration_s),
                receivers: 1,
                senders,
                rate_hz,
                attackers: Vec::new(),
                functional: Vec::new(),
                flood_search: None,
                load_plan: None,
                ..scenario.clone()
            };
            let s = run(&cell, &out.join(format!("{senders}x{rate_hz}hz")))?;
            cells.push(load_plan::cell_of(&s, senders, rate_hz));
        }
    }
    Ok(cells)
}

/// Bisects the flood rate without and with the receiver's defences; each probe is a run
/// of the scenario's benign traffic and `search.attackers` attackers of `search.case`
/// (the scenario's own attackers are left out).
pub fn flood_search<E>(
    scenario: &Scenario,
    search: &FloodSearch,
    out: &Path,
    mut run: impl FnMut(&Scenario, &Path) -> Result<Summary, E>,
) -> Result<FloodResult, E> {
    let duration_s = search.duration_s.unwrap_or(scenario.duration_s);
    let mut result = FloodResult {
        case: search.case.code().into(),
        attackers: search.attackers,
        max_benign_loss: search.max_benign_loss,
        probe_duration_s: duration_s,
        ..FloodResult::default()
    };
    for defended in [false, true] {
        let receiver = if defended {
            scenario.receiver.clone()
        } else {
            scenario.receiver.undefended()
        };
        let label = if defended { "defended" } else { "undefended" };
        let probes = bisect(search.min_rate_hz, search.max_rate_hz, search.steps, |rate| {
            let probe = Scenario {
                duration_s,
                receiver: receiver.clone(),
                attackers: vec![AttackerGroup {
                    case: search.case,
                    count: search.attackers,
                    rate_hz: rate,
                    source_addresses: 1,
                    start_s: 0.0,
                }],
                functional: Vec::new(),
                flood_search: None,
                load_plan: None,
                ..scenario.clone()
            };
            let s = run(&probe, &out.join(label).join(format!("{rate:.0}hz")))?;
            let p = flood::probe_of(&s, search.case.code(), rate, search.attackers, search.max_benign_loss);
            tracing::info!(label, rate, loss = p.benign_loss, "flood probe");
            Ok(p)
        })?;
        let t = flood::threshold(receiver.defences(), search.attackers, probes);
        if defended {
            result.with_defences = t;
        } else {
            result.without_defences = t;
        }
    }
    Ok(result)
}

/// Bisection (geometric: flood rates span decades) of the highest rate in `[min, max]`
/// for which `probe` keeps up. Probes `max` first, then `min`, then `steps` midpoints.
/// Returns the probes in order; [`flood::threshold`] reads the answer from them.
pub fn bisect<E>(
    min: f64,
    max: f64,
    steps: u32,
    mut probe: impl FnMut(f64) -> Result<Probe, E>,
) -> Result<Vec<Probe>, E> {
    let mut probes = Vec::new();
    let top = probe(max)?;
    let top_ok = top.kept_up;
    probes.push(top);
    if top_ok {
        return Ok(probes);
    }
    let bottom = probe(min)?;
    let bottom_ok = bottom.kept_up;
    probes.push(bottom);
    if !bottom_ok {
        return Ok(probes);
    }
    let (mut lo, mut hi) = (min, max);
    for _ in 0..steps {
        let mid = (lo * hi).sqrt();
        let p = probe(mid)?;
        if p.kept_up {
            lo = mid;
        } else {
            hi = mid;
        }
        probes.push(p);
    }
    Ok(probes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::flood::{table, threshold};

    fn fake(threshold: f64) -> impl FnMut(f64) -> Result<Probe, ()> {
        move |rate| {
            Ok(Probe {
                rate_hz: rate,
                kept_up: rate <= threshold,
                ..Probe::default()
            })
        }
    }

    #[test]
    fn bisection_brackets_the_threshold() {
        let probes = bisect(10.0, 10_000.0, 8, fake(700.0)).unwrap();
        assert_eq!(probes.len(), 10);
        let t = threshold(vec![], 4, probes);
        let (ok, fail) = (t.max_rate_hz.unwrap(), t.failing_rate_hz.unwrap());
        assert!(ok <= 700.0 && fail > 700.0, "{ok} {fail}");
        // 8 geometric steps over three decades: within a factor 1.03.
        assert!(fail / ok < 1.03, "{ok} {fail}");
        assert_eq!(t.max_flood_rate_hz, Some(4.0 * ok));
    }

    #[test]
    fn bisection_reports_a_threshold_outside_the_range() {
        let t = threshold(vec![], 1, bisect(10.0, 100.0, 5, fake(1e9)).unwrap());
        assert_eq!(
            (t.max_rate_hz, t.failing_rate_hz, t.probes.len()),
            (Some(100.0), None, 1)
        );
        let t = threshold(vec![], 1, bisect(10.0, 100.0, 5, fake(1.0)).unwrap());
        assert_eq!(
            (t.max_rate_hz, t.failing_rate_hz, t.probes.len()),
            (None, Some(10.0), 2)
        );
        assert!(table(&FloodResult {
            attackers: 1,
            without_defences: t,
            ..FloodResult::default()
        })
        .contains("< 10 packets/s"));
    }
}
