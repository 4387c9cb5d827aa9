//! Paper 003 (Lo, Yang, Yeh): Tables 4-6 and the stated crossovers from `v2x-model`
//! (computed, not measured; every value exact), each cell with its evidence class:
//!
//! - by construction: cells that echo an input or a constant (propagation 250 m / c,
//!   Table 2's verification time 8.096 ms, the HMAC the paper counts as 0, the signing
//!   time 11.88676 ms taken from Table 4 itself);
//! - fitted: cells that the model reproduces only with a departure inferred from the
//!   printed value (the 3008-byte step 2 back-computed from 2.1876 ms; the decryption
//!   Table 6 leaves out);
//! - independent: the rest (the model's arithmetic on the inputs).
//!
//! Extensions (our questions, outside the paper's tally): the crossovers with today's
//! costs on 802.11p, and the closed form beside simulated relay chains (its "paper value"
//! column holds our closed form).

use super::Paper;
use crate::judge::{Criterion, Support};
use crate::report::{Basis, Evidence, Finding, Label, Row};
use crate::rule::{Estimate, Statement};
use crate::{Context, ReproduceError};
use v2x_model::paper003::Cell;
use v2x_model::run::{run as run_model, ModelResults, RunConfig};
use v2x_model::{Radio, RadioKind};

pub const PAPER: Paper = Paper {
    id: "003",
    citation: "Lo, Yang, Yeh, Performance Evaluation of Two Secure Communication Schemes on VANETs (2008)",
    scenarios: &[],
    not_done: &[],
    add,
};

/// Where the paper prints its tables (the text copy has no page numbers).
const LOCATION: &str = "Sec. 4 (performance evaluation), Tables 4-6";
const RELAY_LOCATION: &str = "Sec. 3 (multi-hop cost model) vs scenarios/papers/003-relay-chain.toml";

/// The model run `v2x reproduce` uses: the paper's inputs, and today's part with the
/// shipped reference costs on 802.11p at 6 Mbit/s, 250 m per hop.
pub fn model_run() -> Result<ModelResults, ReproduceError> {
    let radio = Radio::new(RadioKind::Dot11p, 6.0, 250.0).map_err(v2x_model::ModelError::from)?;
    Ok(run_model(&RunConfig {
        today_costs: Some(v2x_model::today::reference_costs().map_err(v2x_model::ModelError::from)?),
        radios: vec![radio],
        group_members: 3,
        hops: 10,
        measured: Vec::new(),
    })?)
}

fn add(ctx: &mut Context) -> Result<(), ReproduceError> {
    ctx.progress.step("paper 003: the multi-hop cost model");
    let results = model_run()?;
    for c in &results.paper.cells {
        if let Some(row) = cell_row(c) {
            ctx.report.rows.push(row);
        }
    }
    crossovers(ctx, &results);
    relay(ctx)?;
    ctx.model = Some(results);
    Ok(())
}

/// A model cell's evidence class (see the module's documentation).
pub fn cell_basis(c: &Cell) -> Basis {
    let step = |n: &str| c.row.starts_with(&format!("step {n}:"));
    if (c.as_printed - c.corrected).abs() > 1e-9 {
        return Basis::with(
            Evidence::Fitted,
            format!(
                "reproduced only with a departure inferred from the printed value; the paper's own inputs give {:.4}",
                c.corrected
            ),
        );
    }
    if c.table != "Table 4" {
        return Basis::independent();
    }
    match c.column.as_str() {
        "propagation (ms per hop)" => Basis::with(Evidence::ByConstruction, "a constant: 250 m / (3·10^8 m/s)"),
        "processing per hop (ms)" if step("3") => {
            Basis::with(Evidence::ByConstruction, "the HMAC the paper counts as 0")
        }
        "processing per hop (ms)" => Basis::with(
            Evidence::ByConstruction,
            "an input: Table 2's DSA verification time (8.096 ms)",
        ),
        "processing once (ms)" if step("1") || step("2") => Basis::with(
            Evidence::ByConstruction,
            "an input: the DSA signing time, taken from Table 4 itself (11.88676 ms; Table 2 rounds it)",
        ),
        "processing once (ms)" if step("3") => Basis::with(Evidence::ByConstruction, "the HMAC the paper counts as 0"),
        _ => Basis::independent(),
    }
}

fn cell_row(c: &Cell) -> Option<Row> {
    let printed: f64 = c.printed.trim().parse().ok()?;
    let decimals = c.printed.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    // The paper both rounds and truncates (Table 4 prints 0.75927 as 0.7592): a printed
    // digit either way.
    let statement = Statement::point(printed, 2.0 * 10f64.powi(-decimals), false);
    let label = Label {
        paper: "003".into(),
        source: c.table.clone(),
        location: LOCATION.into(),
        item: format!("{} — {}", c.row, c.column),
        unit: if c.column.contains("ms") { "ms" } else { "" }.into(),
        setup: String::new(),
    };
    let note = c.note.clone();
    Some(Row::compare(
        label,
        statement,
        Some(Estimate::exact(c.as_printed)),
        cell_basis(c),
        || note,
    ))
}

fn opt(n: Option<u32>) -> String {
    n.map_or("never".into(), |n| n.to_string())
}

/// The paper's crossovers on its own inputs (independent: the model's arithmetic), and
/// today's (extensions).
fn crossovers(ctx: &mut Context, results: &ModelResults) {
    for x in &results.paper.crossovers {
        let s = &x.statement;
        let crossing = x.corrected.crossing_n.map(Estimate::exact);
        let mut f = Finding::judged(
            "003",
            &s.figure,
            s.quote.clone(),
            Evidence::Independent,
            "the paper's inputs (Tables 2-3) throughout, its two departures removed",
            format!(
                "the node count where {} stops being cheaper than {}",
                x.first_label, x.then_label
            ),
            Criterion::Between(f64::from(s.first_better_through), f64::from(s.then_better_from)),
            crossing,
            format!(
                "with the printed tables: {} cheaper through n = {} (paper: {}), {} from n = {} (paper: {}), crossing at n = {}; with the paper's inputs throughout: through n = {}, crossing at n = {}",
                x.first_label,
                opt(x.as_printed.first_better_through),
                s.first_better_through,
                x.then_label,
                opt(x.as_printed.then_better_from),
                s.then_better_from,
                x.as_printed.crossing_n.map_or("none (parallel)".into(), |n| format!("{n:.2}")),
                opt(x.corrected.first_better_through),
                x.corrected.crossing_n.map_or("none".into(), |n| format!("{n:.2}")),
            ),
        );
        // A crossing outside the whole numbers where the claim switches is what is judged;
        // the model is exact, so the verdict is binary.
        f.verdict = Support::of_bool(x.holds_corrected);
        ctx.report.findings.push(f);
    }
    let Some(today) = &results.today else { return };
    for r in &today.radios {
        for x in &r.crossovers {
            let sw = &x.switch;
            let same_order = sw.first_better_through.is_some() && sw.then_better_from.is_some();
            let mut f = Finding::judged(
                "003",
                &format!("{} today", x.figure),
                format!(
                    "our question: does the paper's crossover {} -> {} still exist with {} costs on {} at {} Mbit/s?",
                    x.first, x.then, today.costs, r.radio.kind, r.radio.rate_mbps
                ),
                Evidence::Extension,
                format!(
                    "{} costs, {} at {} Mbit/s",
                    today.costs, r.radio.kind, r.radio.rate_mbps
                ),
                "whether the first combination is cheaper up to some n and the second after it",
                Criterion::AtLeast(2.0),
                sw.crossing_n.map(Estimate::exact),
                format!(
                    "{} cheaper through n = {}; {} cheaper from n = {}; crossing at n = {}",
                    x.first,
                    opt(sw.first_better_through),
                    x.then,
                    opt(sw.then_better_from),
                    sw.crossing_n.map_or("none (parallel)".into(), |n| format!("{n:.2}")),
                ),
            );
            f.verdict = Support::of_bool(same_order);
            ctx.report.findings.push(f);
        }
    }
}

/// The relay chains of [`v2x_model::relay::reproduce_setups`]: one extension row per chain
/// and hop count (our closed form as the reference, the simulation as ours), and whether
/// the delay grows linearly.
fn relay(ctx: &mut Context) -> Result<(), ReproduceError> {
    let quick = ctx.config.quick;
    ctx.progress.step("paper 003: relay chains");
    let paper = v2x_model::Paper003::load()?;
    let today = v2x_model::today::reference_costs().map_err(v2x_model::ModelError::from)?;
    for (setup, on_paper_costs) in v2x_model::relay::reproduce_setups(quick) {
        let set = if on_paper_costs { &paper.inputs } else { &today };
        let c = v2x_model::relay::compare(set, &setup)?;
        for r in &c.rows {
            let label = Label {
                paper: "003".into(),
                source: "Sec. 3 relay chain".into(),
                location: RELAY_LOCATION.into(),
                item: format!(
                    "{}, {} Mbit/s: {} hop(s), our closed form vs simulation ({} of {} messages verified)",
                    setup.label, setup.rate_mbps, r.hops, r.verified, r.generated
                ),
                unit: "ms".into(),
                setup: String::new(),
            };
            // The closed form is exact; the simulation is one run of a few messages.
            let statement = Statement::point(r.closed_form_ms, 0.001, true);
            let reason = r.reason.clone();
            ctx.report.rows.push(Row::compare(
                label,
                statement,
                r.simulated_ms.is_finite().then(|| Estimate::exact(r.simulated_ms)),
                Basis::with(
                    Evidence::Extension,
                    "our question: the reference is our closed form of the paper's model, not a value the paper prints",
                ),
                || reason,
            ));
        }
        let (slope, intercept, worst) = c.fit;
        let last = c.rows.last().map_or(f64::NAN, |r| r.simulated_ms);
        let per_hop = c.terms.transmission_ms + c.terms.propagation_ms + c.terms.verify_ms;
        ctx.report.findings.push(Finding::judged(
            "003",
            "Sec. 3 relay chain",
            format!(
                "our question: does a simulated chain's delay grow linearly with the hops, sign + k x (transmission + propagation + verification)? ({}, {} Mbit/s)",
                setup.label, setup.rate_mbps
            ),
            Evidence::Extension,
            format!("{}, {} Mbit/s", setup.label, setup.rate_mbps),
            "largest distance of a simulated point from the fitted line, as a share of the 10-hop delay (<= 1 %)",
            Criterion::AtMost(0.01),
            Some(Estimate::exact(worst / last)),
            format!(
                "simulated delay = {slope:.4} ms x k + {intercept:.4} ms (largest distance from the line {worst:.4} ms over 1-{} hops); closed form {per_hop:.4} ms x k + {:.4} ms{}",
                setup.hops,
                c.terms.sign_ms,
                if quick { "; quick run: 3 messages per chain" } else { "" }
            ),
        ));
        ctx.relay.push(c);
    }
    Ok(())
}
