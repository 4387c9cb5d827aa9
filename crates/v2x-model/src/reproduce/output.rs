//! The results folder of `v2x reproduce`: report.json (machine-readable), report.csv (one
//! line per published value), report.md (the tables per paper) and report.html, with the
//! paper 003 model folder (`003/`) and each scenario's simulator folder (`sim/<file>/`).

use super::{Report, Row, Support, Verdict};
use crate::output::{io, write, OutputError};
use std::fmt::Write as _;
use std::path::Path;
use v2x_bench::metric::Metric;
use v2x_report::html::{Cell, Page};

/// Writes the whole folder; returns the files written (relative to `dir`).
pub fn write_all(report: &mut Report, dir: &Path) -> Result<Vec<String>, OutputError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut files = Vec::new();
    if let Some(model) = &report.model {
        let sub = dir.join("003");
        for f in crate::output::write_all(model, &sub)? {
            if f.ends_with(".svg") {
                report.figures.push(super::Figure {
                    paper: "003".into(),
                    file: format!("003/{f}"),
                    caption: format!("paper 003 model: {f}"),
                });
            }
            files.push(format!("003/{f}"));
        }
    }
    for run in &report.sim_runs {
        let stem = run.file.trim_end_matches(".toml");
        let sub = dir.join("sim").join(stem);
        v2x_sim::output::write_all(&run.results, &sub).map_err(|e| OutputError::Encode {
            path: sub.display().to_string(),
            message: e.to_string(),
        })?;
        files.push(format!("sim/{stem}/"));
        if let Ok(data) = v2x_bench::papers::load() {
            let entries: Vec<&v2x_bench::papers::PaperValue> = data
                .entries
                .iter()
                .filter(|e| e.sim.as_ref().is_some_and(|m| m.scenario == run.results.scenario.name))
                .collect();
            if let Some(svg) = super::figure::verification_latency_cdf(
                &format!("Paper {}: verification-latency CDF (Fig. 5a), paper vs ours", run.paper),
                &entries,
                &run.results,
            )? {
                let name = format!("paper{}_{stem}_verification_latency.svg", run.paper);
                write(dir, &name, &svg, &mut files)?;
                report.figures.push(super::Figure {
                    paper: run.paper.clone(),
                    file: name,
                    caption: format!(
                        "Paper {} Fig. 5(a) ({}): share of receivable packets verified within x ms of PHY reception, ours (staircase) with the paper's quoted values (markers)",
                        run.paper, run.file
                    ),
                });
            }
            for (metric, what) in [(Metric::Fraction, "fractions"), (Metric::DelayMs, "delays")] {
                let title = format!("Paper {}: {what}, paper vs ours", run.paper);
                if let Some(svg) = super::figure::comparison(&title, metric, &entries, &run.results)? {
                    let name = format!("paper{}_{stem}_{what}.svg", run.paper);
                    write(dir, &name, &svg, &mut files)?;
                    report.figures.push(super::Figure {
                        paper: run.paper.clone(),
                        file: name,
                        caption: format!(
                            "Paper {} Sec. 5 ({}): {what} — ours (filled, 95% CI over replications) beside the paper's (hollow)",
                            run.paper, run.file
                        ),
                    });
                }
            }
        }
    }
    if !report.relay.is_empty() {
        write(dir, "003-relay-chain.csv", &relay_csv(&report.relay)?, &mut files)?;
        for (set, svg) in super::figure::relay_chain(&report.relay)? {
            let name = format!("paper003_relay_chain_{set}.svg");
            write(dir, &name, &svg, &mut files)?;
            report.figures.push(super::Figure {
                paper: "003".into(),
                file: name,
                caption: format!(
                    "Paper 003 Sec. 3 with the {set} costs: delay until the vehicle k hops away has verified the message, closed form (dashed) and simulated relay chains (solid)"
                ),
            });
        }
    }
    let json = serde_json::to_string_pretty(&*report).map_err(|e| OutputError::Encode {
        path: "report.json".into(),
        message: e.to_string(),
    })?;
    write(dir, "report.json", &json, &mut files)?;
    write(dir, "report.csv", &csv(report)?, &mut files)?;
    write(dir, "report.md", &markdown(report), &mut files)?;
    write(dir, "report.html", &html(report, dir), &mut files)?;
    Ok(files)
}

fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-3) {
                format!("{x:.3e}")
            } else {
                format!("{}", (x * 1e4).round() / 1e4)
            }
        }
        _ => "—".into(),
    }
}

fn ours(r: &Row) -> String {
    match r.ours_ci95 {
        Some(ci) => format!("{} ± {}", num(r.ours), num(Some(ci))),
        None => num(r.ours),
    }
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Reproduced => "reproduced",
        Verdict::Differs => "differs",
        Verdict::NotCompared => "not compared",
    }
}

fn csv(report: &Report) -> Result<String, OutputError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| OutputError::Encode {
        path: "report.csv".into(),
        message: e.to_string(),
    };
    w.write_record([
        "paper",
        "source",
        "location",
        "item",
        "unit",
        "paper",
        "ours",
        "ours_ci95",
        "difference",
        "verdict",
        "reason",
    ])
    .map_err(err)?;
    for r in &report.rows {
        w.write_record([
            r.paper.as_str(),
            &r.source,
            &r.location,
            &r.item,
            &r.unit,
            &r.paper_value.to_string(),
            &r.ours.map_or(String::new(), |v| v.to_string()),
            &r.ours_ci95.map_or(String::new(), |v| v.to_string()),
            &r.difference,
            verdict(r.verdict),
            &r.reason,
        ])
        .map_err(err)?;
    }
    let bytes = w.into_inner().map_err(|e| OutputError::Encode {
        path: "report.csv".into(),
        message: e.to_string(),
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Per paper: how many values were reproduced, differ, or have no counterpart.
pub fn counts(report: &Report, paper: &str) -> (usize, usize, usize) {
    let rows: Vec<&Row> = report.rows_of(paper).collect();
    let n = |v| rows.iter().filter(|r| r.verdict == v).count();
    (n(Verdict::Reproduced), n(Verdict::Differs), n(Verdict::NotCompared))
}

/// The summary printed by the command and kept as report.md.
pub fn markdown(report: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# v2x reproduce{}\n",
        if report.quick { " (quick: indicative only)" } else { "" }
    );
    if let Some(h) = &report.host {
        let _ = writeln!(s, "Machine: {h}\n");
    }
    for p in &report.papers {
        let (ok, differ, none) = counts(report, p);
        let _ = writeln!(
            s,
            "## Paper {p}: {ok} reproduced, {differ} differ, {none} without a counterpart here\n"
        );
        let rows: Vec<&Row> = report
            .rows_of(p)
            .filter(|r| r.verdict != Verdict::NotCompared)
            .collect();
        if !rows.is_empty() {
            let _ = writeln!(s, "| source | item | unit | paper | ours | difference | reason |");
            let _ = writeln!(s, "|---|---|---|---:|---:|---|---|");
            for r in rows {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    r.source,
                    r.item.replace('|', "/"),
                    r.unit,
                    num(Some(r.paper_value)),
                    ours(r),
                    r.difference,
                    if r.reason.is_empty() { "—" } else { &r.reason }.replace('|', "/")
                );
            }
            s.push('\n');
        }
        let findings: Vec<_> = report.findings.iter().filter(|f| &f.paper == p).collect();
        if !findings.is_empty() {
            let _ = writeln!(s, "Conclusions:\n");
            for f in findings {
                let _ = writeln!(
                    s,
                    "- **{}** ({}): {} — {}",
                    f.verdict.name(),
                    f.source,
                    f.claim,
                    f.evidence
                );
            }
            s.push('\n');
        }
    }
    if !report.not_done.is_empty() {
        let _ = writeln!(s, "## Not reproduced\n");
        for n in &report.not_done {
            let _ = writeln!(s, "- {n}");
        }
    }
    s
}

fn html(report: &Report, dir: &Path) -> String {
    let mut page = Page::new("v2x reproduce: the papers beside this machine");
    page.h1("The papers' tables and figures, reproduced");
    if report.quick {
        page.p("Quick run: few benchmark samples, 3 s simulations with one replication. Indicative only.");
    }
    if let Some(h) = &report.host {
        page.p(&format!("Machine: {h}"));
    }
    for p in &report.papers {
        let (ok, differ, none) = counts(report, p);
        page.h2(&format!(
            "Paper {p}: {ok} reproduced, {differ} differ, {none} without a counterpart"
        ));
        let findings: Vec<_> = report.findings.iter().filter(|f| &f.paper == p).collect();
        if !findings.is_empty() {
            page.h3("Conclusions");
            page.table(
                &["source", "claim", "verdict", "evidence"],
                findings.iter().map(|f| {
                    vec![
                        Cell::from(f.source.as_str()),
                        Cell::from(f.claim.as_str()),
                        match f.verdict {
                            Support::Holds => Cell::with_class("holds", "met"),
                            Support::Contradicted => Cell::with_class("contradicted", "missed"),
                            Support::Inconclusive => Cell::from("inconclusive"),
                        },
                        Cell::from(f.evidence.as_str()),
                    ]
                }),
            );
        }
        page.h3("Values");
        page.table(
            &[
                "source",
                "location",
                "item",
                "unit",
                "paper",
                "ours",
                "difference",
                "verdict",
                "reason",
            ],
            report.rows_of(p).map(|r| {
                vec![
                    Cell::from(r.source.as_str()),
                    Cell::from(r.location.as_str()),
                    Cell::from(r.item.as_str()),
                    Cell::from(r.unit.as_str()),
                    Cell::with_class(num(Some(r.paper_value)), "num"),
                    Cell::with_class(ours(r), "num"),
                    Cell::from(r.difference.as_str()),
                    match r.verdict {
                        Verdict::Reproduced => Cell::with_class("reproduced", "met"),
                        Verdict::Differs => Cell::with_class("differs", "missed"),
                        Verdict::NotCompared => Cell::from("not compared"),
                    },
                    Cell::from(r.reason.as_str()),
                ]
            }),
        );
        for f in report.figures.iter().filter(|f| &f.paper == p) {
            if let Ok(svg) = std::fs::read_to_string(dir.join(&f.file)) {
                page.h3(&f.caption);
                page.svg(&svg);
            }
        }
    }
    if !report.not_done.is_empty() {
        page.h2("Not reproduced");
        page.list(&report.not_done);
    }
    page.finish()
}

/// One line per chain and hop count: both sides and the split of their difference.
fn relay_csv(chains: &[crate::relay::ChainComparison]) -> Result<String, OutputError> {
    let enc = |e: csv::Error| OutputError::Encode {
        path: "003-relay-chain.csv".into(),
        message: e.to_string(),
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "chain",
        "costs",
        "rate_mbps",
        "bytes",
        "sign_ms",
        "verify_ms",
        "cam_rate_hz",
        "hops",
        "closed_form_ms",
        "simulated_ms",
        "simulated_max_ms",
        "verified",
        "generated",
        "difference_ms",
        "air_time_part_ms",
        "aifs_part_ms",
        "queueing_part_ms",
        "access_part_ms",
    ])
    .map_err(enc)?;
    for c in chains {
        let t = &c.terms;
        for r in &c.rows {
            w.write_record([
                c.setup.label.clone(),
                c.costs.clone(),
                c.setup.rate_mbps.to_string(),
                t.bytes.to_string(),
                format!("{:.6}", t.sign_ms),
                format!("{:.6}", t.verify_ms),
                c.setup.cam_rate_hz.to_string(),
                r.hops.to_string(),
                format!("{:.6}", r.closed_form_ms),
                format!("{:.6}", r.simulated_ms),
                format!("{:.6}", r.simulated_max_ms),
                r.verified.to_string(),
                r.generated.to_string(),
                format!("{:.6}", r.difference_ms),
                format!("{:.6}", r.air_time_part_ms),
                format!("{:.6}", r.aifs_part_ms),
                format!("{:.6}", r.queueing_part_ms),
                format!("{:.6}", r.access_part_ms),
            ])
            .map_err(enc)?;
        }
    }
    let bytes = w.into_inner().map_err(|e| OutputError::Encode {
        path: "003-relay-chain.csv".into(),
        message: e.to_string(),
    })?;
    String::from_utf8(bytes).map_err(|e| OutputError::Encode {
        path: "003-relay-chain.csv".into(),
        message: e.to_string(),
    })
}
