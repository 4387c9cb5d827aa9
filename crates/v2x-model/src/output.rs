//! What a run shows: the terminal summary and the results folder (resolved inputs,
//! summary.json, CSV tables, SVG figures, report.html).

use crate::figures::{self, Figure, FigureError};
use crate::paper003::{Reading, FIGURE_NODES};
use crate::run::ModelResults;
use crate::today::RadioResult;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use thiserror::Error;
use v2x_report::html::{Cell as HtmlCell, Page};

#[derive(Debug, Error)]
pub enum OutputError {
    #[error("cannot write {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("writing {path}: {message}")]
    Encode { path: String, message: String },
    #[error(transparent)]
    Figure(#[from] FigureError),
}

/// `15.9505 n + 103.9319`.
pub fn fmt_line(a: f64, b: f64) -> String {
    let sign = if b < 0.0 { '-' } else { '+' };
    format!("{a:.4} n {sign} {:.4}", b.abs())
}

/// `lines cross at n = 7.32: A cheaper through n = 7, B from n = 8`.
fn fmt_switch(s: &crate::crossover::Switch, first: &str, then: &str) -> String {
    let crossing = s
        .crossing_n
        .map_or("parallel lines".into(), |n| format!("lines cross at n = {n:.2}"));
    let verdict = match (s.first_better_through, s.then_better_from) {
        (Some(k), Some(m)) => format!("{first} cheaper through n = {k}, {then} from n = {m}"),
        (Some(_), None) => format!("{first} cheaper at every n"),
        (None, Some(_)) => format!("{then} cheaper at every n"),
        (None, None) => "neither cheaper throughout".into(),
    };
    format!("{crossing}: {verdict}")
}

fn ranges(r: &[crate::crossover::BestRange]) -> String {
    if r.is_empty() {
        return "none".into();
    }
    r.iter()
        .map(|b| {
            if b.from_n == b.to_n {
                format!("n = {}: {}", b.from_n, b.best)
            } else {
                format!("n = {}-{}: {}", b.from_n, b.to_n, b.best)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The terminal summary: Tables 4-6 (paper, model, difference), the crossovers (the
/// paper's and today's).
pub fn text(r: &ModelResults) -> String {
    let mut o = String::new();
    let p = &r.paper;
    let _ = writeln!(
        o,
        "Paper 003 (Lo, Yang, Yeh): multi-hop security cost from Tables 2-3, {}",
        p.radio
    );
    let _ = writeln!(
        o,
        "model = the paper's arithmetic with its two departures (as printed); corrected = its inputs throughout\n"
    );
    let _ = writeln!(
        o,
        "{:<8} {:<46} {:<26} {:>10} {:>11} {:>9} {:>11}",
        "table", "row", "column", "paper", "model", "diff", "corrected"
    );
    for c in &p.cells {
        let diff = c.as_printed - c.printed.parse::<f64>().unwrap_or(f64::NAN);
        let row: String = c.row.chars().take(46).collect();
        let _ = writeln!(
            o,
            "{:<8} {:<46} {:<26} {:>10} {:>11.5} {:>+9.4} {:>11.5} {}",
            c.table,
            row,
            c.column,
            c.printed,
            c.as_printed,
            diff,
            c.corrected,
            if c.reproduced { "ok" } else { "DIFFERS" }
        );
    }
    let _ = writeln!(
        o,
        "\n{} of {} printed cells reproduced to their printed precision.",
        p.reproduced,
        p.cells.len()
    );
    for c in p.cells.iter().filter(|c| !c.reproduced) {
        let _ = writeln!(o, "  {} {} {}: {}", c.table, c.row, c.column, c.note);
    }
    let _ = writeln!(o, "\nWhere the printed numbers depart from the paper's own inputs:");
    for d in &p.deviations {
        let _ = writeln!(o, "  - {}: {}", d.id, d.explanation);
    }
    let _ = writeln!(o, "\nCrossovers the paper states (n = nodes on the route):");
    for c in &p.crossovers {
        let st = &c.statement;
        let _ = writeln!(
            o,
            "  {} {} cheaper through n = {}, {} from n = {}:",
            st.figure, c.first_label, st.first_better_through, c.then_label, st.then_better_from
        );
        let verdict = |h: bool| if h { "holds" } else { "DOES NOT HOLD" };
        let _ = writeln!(
            o,
            "    as printed: {} -> {}",
            fmt_switch(&c.as_printed, &c.first_label, &c.then_label),
            verdict(c.holds_as_printed)
        );
        let _ = writeln!(
            o,
            "    corrected:  {} -> {}",
            fmt_switch(&c.corrected, &c.first_label, &c.then_label),
            verdict(c.holds_corrected)
        );
    }
    let _ = writeln!(o, "\nCheapest pairwise combination:");
    for b in &p.best {
        let _ = writeln!(
            o,
            "  {:<12} {:<11} {}",
            b.scheme.name(),
            b.reading.name(),
            ranges(&b.ranges)
        );
    }
    let _ = writeln!(
        o,
        "\nMessage-size sweeps (Figs. 3-5, corrected): cost at {} hops relative to the 1024-B message",
        r.hops
    );
    for (figure, _, _) in crate::run::sweep_combinations() {
        let rows: Vec<_> = p.sweep.iter().filter(|s| s.figure == figure).collect();
        let mut labels: Vec<&str> = rows.iter().map(|s| s.label.as_str()).collect();
        labels.dedup();
        for l in labels {
            let v: Vec<String> = rows
                .iter()
                .filter(|s| s.label == l)
                .map(|s| format!("{} B {:.2}", s.message_bytes, s.relative_to_1024))
                .collect();
            let _ = writeln!(o, "  {figure} {l:<12} {}", v.join(", "));
        }
    }
    if let Some(t) = &r.today {
        let _ = writeln!(
            o,
            "\nToday: cost set `{}`{}",
            t.costs,
            t.measured_on.as_ref().map_or(String::new(), |m| format!(" ({m})"))
        );
        for rr in &t.radios {
            today_text(&mut o, rr, r.hops);
        }
    } else {
        let _ = writeln!(o, "\nToday: no cost set (give --costs FILE or --measure).");
    }
    o
}

fn today_text(o: &mut String, rr: &RadioResult, hops: u32) {
    let _ = writeln!(o, "  {}:", rr.radio);
    for b in &rr.best {
        let _ = writeln!(
            o,
            "    cheapest {} {}: {}",
            b.scheme.name(),
            b.topology.name(),
            ranges(&b.all)
        );
        let _ = writeln!(o, "      with >= 112-bit algorithms: {}", ranges(&b.modern));
    }
    for c in &rr.crossovers {
        let _ = writeln!(
            o,
            "    {} {} today as {} vs {}: {}",
            c.figure,
            c.paper,
            c.first,
            c.then,
            fmt_switch(&c.switch, &c.first, &c.then)
        );
    }
    let mut cheapest: Vec<_> = rr
        .evaluations
        .iter()
        .filter(|e| e.combination.topology == crate::scheme::Topology::Pairwise)
        .collect();
    cheapest.sort_by(|a, b| {
        a.line
            .at(f64::from(hops + 1))
            .total_cmp(&b.line.at(f64::from(hops + 1)))
    });
    let v: Vec<String> = cheapest
        .iter()
        .take(3)
        .map(|e| {
            format!(
                "{} {} {:.3} ms",
                e.combination.scheme,
                e.label,
                e.line.at(f64::from(hops + 1))
            )
        })
        .collect();
    let _ = writeln!(o, "    cheapest pairwise sessions at {hops} hops: {}", v.join("; "));
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn write(dir: &Path, name: &str, contents: &str, files: &mut Vec<String>) -> Result<(), OutputError> {
    let path = dir.join(name);
    std::fs::write(&path, contents).map_err(io(&path))?;
    files.push(name.into());
    Ok(())
}

fn csv_of<T: Serialize>(rows: &[T], path: &Path) -> Result<String, OutputError> {
    let enc = |e: csv::Error| OutputError::Encode {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).map_err(enc)?;
    }
    let bytes = w.into_inner().map_err(|e| OutputError::Encode {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[derive(Serialize)]
struct CellCsv<'a> {
    table: &'a str,
    row: &'a str,
    column: &'a str,
    paper: &'a str,
    model: f64,
    difference: f64,
    corrected: f64,
    reproduced: bool,
    note: &'a str,
}

#[derive(Serialize)]
struct LineCsv<'a> {
    part: &'a str,
    radio: String,
    scheme: &'a str,
    topology: &'a str,
    combination: &'a str,
    label: &'a str,
    reading: &'a str,
    a_ms_per_node: f64,
    b_ms: f64,
    cost_at_hops_ms: f64,
}

#[derive(Serialize)]
struct StepCsv<'a> {
    part: &'a str,
    radio: String,
    scheme: &'a str,
    topology: &'a str,
    combination: &'a str,
    reading: &'a str,
    step: usize,
    message: &'a str,
    bytes: u64,
    fields: String,
    transmission_ms_per_hop: f64,
    propagation_ms_per_hop: f64,
    processing_ms_per_hop: f64,
    processing_ms_once: f64,
}

#[derive(Serialize)]
struct CrossoverCsv<'a> {
    part: &'a str,
    radio: String,
    figure: &'a str,
    first: &'a str,
    then: &'a str,
    reading: &'a str,
    crossing_n: Option<f64>,
    first_cheaper_through_n: Option<u32>,
    then_cheaper_from_n: Option<u32>,
    paper_first_through_n: Option<u32>,
    paper_then_from_n: Option<u32>,
    holds: Option<bool>,
}

/// The resolved inputs of a run (inputs.toml).
#[derive(Serialize)]
struct Inputs<'a> {
    paper: &'a str,
    hops: u32,
    group_members: u32,
    sweep_message_bytes: &'a [u64],
    figure_nodes: [u32; 2],
    paper_radio: crate::radio::Radio,
    paper_costs: &'a crate::costs::CostSet,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    today_radios: Vec<crate::radio::Radio>,
    #[serde(skip_serializing_if = "Option::is_none")]
    today_costs: Option<&'a crate::costs::CostSet>,
}

fn step_rows<'a>(
    out: &mut Vec<StepCsv<'a>>,
    part: &'a str,
    radio: String,
    reading: &'a str,
    e: &'a crate::model::Evaluation,
) {
    for s in &e.steps {
        out.push(StepCsv {
            part,
            radio: radio.clone(),
            scheme: e.combination.scheme.name(),
            topology: e.combination.topology.name(),
            combination: &e.label,
            reading,
            step: s.step,
            message: &s.label,
            bytes: s.bytes,
            fields: s
                .fields
                .iter()
                .map(|(f, b)| format!("{f} {b}"))
                .collect::<Vec<_>>()
                .join(" + "),
            transmission_ms_per_hop: s.transmission_ms,
            propagation_ms_per_hop: s.propagation_ms,
            processing_ms_per_hop: s.processing_per_hop_ms,
            processing_ms_once: s.processing_fixed_ms,
        });
    }
}

/// Writes the results folder; returns the file names written.
pub fn write_all(r: &ModelResults, dir: &Path) -> Result<Vec<String>, OutputError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut files = Vec::new();
    let p = &r.paper;
    let paper = crate::paper003::Paper003::load().map_err(|e| OutputError::Encode {
        path: "paper data".into(),
        message: e.to_string(),
    })?;

    let inputs = Inputs {
        paper: r.paper_id,
        hops: r.hops,
        group_members: r.group_members,
        sweep_message_bytes: &crate::paper003::SWEEP_MESSAGE_BYTES,
        figure_nodes: [FIGURE_NODES.0, FIGURE_NODES.1],
        paper_radio: p.radio,
        paper_costs: &r.paper_inputs,
        today_radios: r
            .today
            .as_ref()
            .map_or(Vec::new(), |t| t.radios.iter().map(|x| x.radio).collect()),
        today_costs: r.today_costs.as_ref(),
    };
    let toml_err = |e: toml::ser::Error| OutputError::Encode {
        path: "inputs.toml".into(),
        message: e.to_string(),
    };
    write(
        dir,
        "inputs.toml",
        &toml::to_string_pretty(&inputs).map_err(toml_err)?,
        &mut files,
    )?;
    if let Some(set) = &r.today_costs {
        let header = format!(
            "# Cost set `{}` as used by this run; reload with `v2x model --costs costs.toml`.\n",
            set.name
        );
        write(dir, "costs.toml", &format!("{header}{}", set.to_toml()), &mut files)?;
    }

    let cells: Vec<CellCsv> = p
        .cells
        .iter()
        .map(|c| CellCsv {
            table: &c.table,
            row: &c.row,
            column: &c.column,
            paper: &c.printed,
            model: c.as_printed,
            difference: c.as_printed - c.printed.parse::<f64>().unwrap_or(f64::NAN),
            corrected: c.corrected,
            reproduced: c.reproduced,
            note: &c.note,
        })
        .collect();
    write(dir, "tables.csv", &csv_of(&cells, &dir.join("tables.csv"))?, &mut files)?;

    let today_lines = r.today_lines();
    let mut lines: Vec<LineCsv> = p
        .lines
        .iter()
        .map(|l| LineCsv {
            part: "paper",
            radio: p.radio.to_string(),
            scheme: l.scheme.name(),
            topology: l.topology.name(),
            combination: &l.combination,
            label: &l.label,
            reading: l.reading.map_or("", Reading::name),
            a_ms_per_node: l.a,
            b_ms: l.b,
            cost_at_hops_ms: l.cost_at_hops_ms,
        })
        .collect();
    lines.extend(today_lines.iter().map(|(radio, l)| LineCsv {
        part: "today",
        radio: radio.to_string(),
        scheme: l.scheme.name(),
        topology: l.topology.name(),
        combination: &l.combination,
        label: &l.label,
        reading: "",
        a_ms_per_node: l.a,
        b_ms: l.b,
        cost_at_hops_ms: l.cost_at_hops_ms,
    }));
    write(dir, "lines.csv", &csv_of(&lines, &dir.join("lines.csv"))?, &mut files)?;

    // Per-step terms: the paper's pairwise combinations in both readings, and today's.
    let mut paper_evals = Vec::new();
    for scheme in crate::scheme::Scheme::ALL {
        for reading in Reading::ALL {
            for e in paper
                .evaluate_all(*scheme, crate::scheme::Topology::Pairwise, *reading)
                .map_err(|e| OutputError::Encode {
                    path: "steps.csv".into(),
                    message: e.to_string(),
                })?
            {
                paper_evals.push((reading.name(), e));
            }
        }
    }
    let mut steps = Vec::new();
    for (reading, e) in &paper_evals {
        step_rows(&mut steps, "paper", p.radio.to_string(), reading, e);
    }
    if let Some(t) = &r.today {
        for rr in &t.radios {
            for e in &rr.evaluations {
                step_rows(&mut steps, "today", rr.radio.to_string(), "", e);
            }
        }
    }
    write(dir, "steps.csv", &csv_of(&steps, &dir.join("steps.csv"))?, &mut files)?;

    let mut crossovers = Vec::new();
    for c in &p.crossovers {
        for (reading, s, holds) in [
            ("as-printed", &c.as_printed, c.holds_as_printed),
            ("corrected", &c.corrected, c.holds_corrected),
        ] {
            crossovers.push(CrossoverCsv {
                part: "paper",
                radio: p.radio.to_string(),
                figure: &c.statement.figure,
                first: &c.first_label,
                then: &c.then_label,
                reading,
                crossing_n: s.crossing_n,
                first_cheaper_through_n: s.first_better_through,
                then_cheaper_from_n: s.then_better_from,
                paper_first_through_n: Some(c.statement.first_better_through),
                paper_then_from_n: Some(c.statement.then_better_from),
                holds: Some(holds),
            });
        }
    }
    if let Some(t) = &r.today {
        for rr in &t.radios {
            for c in &rr.crossovers {
                crossovers.push(CrossoverCsv {
                    part: "today",
                    radio: rr.radio.to_string(),
                    figure: &c.figure,
                    first: &c.first,
                    then: &c.then,
                    reading: "",
                    crossing_n: c.switch.crossing_n,
                    first_cheaper_through_n: c.switch.first_better_through,
                    then_cheaper_from_n: c.switch.then_better_from,
                    paper_first_through_n: None,
                    paper_then_from_n: None,
                    holds: None,
                });
            }
        }
    }
    write(
        dir,
        "crossovers.csv",
        &csv_of(&crossovers, &dir.join("crossovers.csv"))?,
        &mut files,
    )?;
    write(dir, "sweep.csv", &csv_of(&p.sweep, &dir.join("sweep.csv"))?, &mut files)?;
    if !r.measured.is_empty() {
        write(
            dir,
            "measurements.csv",
            &csv_of(&r.measured, &dir.join("measurements.csv"))?,
            &mut files,
        )?;
    }

    let mut figs: Vec<Figure> = figures::paper_figures(&paper)?;
    if let (Some(t), Some(set)) = (&r.today, &r.today_costs) {
        for rr in &t.radios {
            figs.extend(figures::today_figures(set, rr));
        }
    }
    let mut svgs = Vec::new();
    for f in &figs {
        let svg = figures::render(f)?;
        write(dir, &format!("{}.svg", f.name), &svg, &mut files)?;
        svgs.push((f, svg));
    }

    let mut all_files = files.clone();
    all_files.extend(["summary.json".to_string(), "report.html".to_string()]);
    let json = summary_json_with(r, &all_files)?;
    write(dir, "summary.json", &json, &mut files)?;
    write(dir, "report.html", &html(r, &svgs), &mut files)?;
    Ok(files)
}

/// summary.json: everything the run computed except per-step detail (steps.csv).
pub fn summary_json(r: &ModelResults) -> Result<String, OutputError> {
    summary_json_with(r, &[])
}

fn summary_json_with(r: &ModelResults, files: &[String]) -> Result<String, OutputError> {
    let enc = |e: serde_json::Error| OutputError::Encode {
        path: "summary.json".into(),
        message: e.to_string(),
    };
    let mut summary = serde_json::to_value(r).map_err(enc)?;
    if let Some(t) = summary.get_mut("today").and_then(|t| t.get_mut("radios")) {
        for radio in t.as_array_mut().into_iter().flatten() {
            for e in radio
                .get_mut("evaluations")
                .and_then(|e| e.as_array_mut())
                .into_iter()
                .flatten()
            {
                if let Some(o) = e.as_object_mut() {
                    o.remove("steps");
                }
            }
        }
    }
    if !files.is_empty() {
        summary["files"] = serde_json::json!(files);
    }
    serde_json::to_string_pretty(&summary).map_err(enc)
}

fn num(v: f64, decimals: usize) -> HtmlCell {
    HtmlCell::with_class(format!("{v:.decimals$}"), "num")
}

/// A self-contained report page.
pub fn html(r: &ModelResults, svgs: &[(&Figure, String)]) -> String {
    let p = &r.paper;
    let mut page = Page::new("v2x model: paper 003 multi-hop security cost");
    page.h1("Paper 003: multi-hop security cost of two session-key schemes");
    page.p(&format!(
        "Lo, Yang, Yeh: Raya & Hubaux and Wang et al. The security cost of a session over n nodes \
         (n - 1 hops) is the sum over its steps of transmission + propagation per hop, a signature \
         verification at every hop, and the sender's and destination's cryptography once: a n + b ms. \
         Inputs: Tables 2-3, {}. 'model' follows the paper's arithmetic including its two departures \
         from its own inputs; 'corrected' follows the inputs throughout.",
        p.radio
    ));
    page.h2("Tables 4-6: paper vs model");
    page.table(
        &[
            "table",
            "row",
            "column",
            "paper",
            "model",
            "difference",
            "corrected",
            "reproduced",
            "note",
        ],
        p.cells.iter().map(|c| {
            vec![
                HtmlCell::from(c.table.as_str()),
                c.row.as_str().into(),
                c.column.as_str().into(),
                HtmlCell::with_class(c.printed.clone(), "num"),
                num(c.as_printed, 4),
                num(c.as_printed - c.printed.parse::<f64>().unwrap_or(f64::NAN), 4),
                num(c.corrected, 4),
                if c.reproduced {
                    HtmlCell::with_class("yes", "met")
                } else {
                    HtmlCell::with_class("no", "missed")
                },
                c.note.as_str().into(),
            ]
        }),
    );
    page.p(&format!(
        "{} of {} printed cells reproduced to their printed precision (the paper rounds some values and truncates others).",
        p.reproduced,
        p.cells.len()
    ));
    page.h3("Where the printed numbers depart from the paper's inputs");
    page.list(p.deviations.iter().map(|d| format!("{}: {}", d.id, d.explanation)));
    page.h2("Crossovers");
    page.table(
        &["figure", "statement", "as printed", "holds", "corrected", "holds"],
        p.crossovers.iter().map(|c| {
            let st = &c.statement;
            vec![
                HtmlCell::from(st.figure.as_str()),
                format!(
                    "{} cheaper through n = {}, {} from n = {}",
                    c.first_label, st.first_better_through, c.then_label, st.then_better_from
                )
                .into(),
                fmt_switch(&c.as_printed, &c.first_label, &c.then_label).into(),
                (if c.holds_as_printed { "yes" } else { "no" }).into(),
                fmt_switch(&c.corrected, &c.first_label, &c.then_label).into(),
                if c.holds_corrected {
                    HtmlCell::with_class("yes", "met")
                } else {
                    HtmlCell::with_class("no", "missed")
                },
            ]
        }),
    );
    page.table(
        &["scheme", "reading", "cheapest pairwise combination"],
        p.best.iter().map(|b| {
            vec![
                HtmlCell::from(b.scheme.name()),
                b.reading.name().into(),
                ranges(&b.ranges).into(),
            ]
        }),
    );
    page.h2("Figures 1-5");
    for (f, svg) in svgs.iter().filter(|(f, _)| f.name.starts_with("fig")) {
        page.p(&f.caption);
        page.svg(svg);
    }
    page.h3("Message-size sweeps");
    page.table(
        &[
            "figure",
            "combination",
            "message (B)",
            "a (ms/node)",
            "b (ms)",
            "cost vs 1024 B",
        ],
        p.sweep.iter().map(|s| {
            vec![
                HtmlCell::from(s.figure.as_str()),
                s.label.as_str().into(),
                HtmlCell::with_class(s.message_bytes.to_string(), "num"),
                num(s.a, 4),
                num(s.b, 4),
                num(s.relative_to_1024, 3),
            ]
        }),
    );
    if let (Some(t), Some(set)) = (&r.today, &r.today_costs) {
        page.h2("Today");
        page.p(&format!(
            "Cost set `{}`: {}{}. Pairwise and group ({} members); costs quoted at {} hops.",
            set.name,
            set.source,
            t.measured_on
                .as_ref()
                .map_or(String::new(), |m| format!("; measured on {m}")),
            t.group_members,
            r.hops
        ));
        page.table(
            &[
                "algorithm",
                "sign (µs)",
                "verify (µs)",
                "signature (B)",
                "certificate (B)",
            ],
            set.signatures.iter().map(|(n, s)| {
                vec![
                    HtmlCell::from(format!("{n} ({})", s.label)),
                    num(s.sign.us, 1),
                    num(s.verify.us, 1),
                    HtmlCell::with_class(s.signature_bytes.to_string(), "num"),
                    HtmlCell::with_class(s.certificate_bytes.to_string(), "num"),
                ]
            }),
        );
        page.table(
            &[
                "cipher",
                "kind",
                "encrypt (µs)",
                "decrypt (µs)",
                "at bytes",
                "ciphertext of 1024 B",
            ],
            set.ciphers.iter().map(|(n, c)| {
                vec![
                    HtmlCell::from(format!("{n} ({})", c.label)),
                    format!("{:?}", c.kind).to_lowercase().into(),
                    num(c.encrypt.us, 1),
                    num(c.decrypt.us, 1),
                    HtmlCell::with_class(c.encrypt.bytes.map_or("any".into(), |b| b.to_string()), "num"),
                    HtmlCell::with_class(c.ciphertext_bytes(1024).to_string(), "num"),
                ]
            }),
        );
        for rr in &t.radios {
            page.h3(&rr.radio.to_string());
            page.table(
                &["scheme", "topology", "cheapest (all)", "cheapest (>= 112-bit)"],
                rr.best.iter().map(|b| {
                    vec![
                        HtmlCell::from(b.scheme.name()),
                        b.topology.name().into(),
                        ranges(&b.all).into(),
                        ranges(&b.modern).into(),
                    ]
                }),
            );
            page.table(
                &["paper's statement", "today's algorithms", "crossover today"],
                rr.crossovers.iter().map(|c| {
                    vec![
                        HtmlCell::from(format!("{} {}", c.figure, c.paper)),
                        format!("{} vs {}", c.first, c.then).into(),
                        fmt_switch(&c.switch, &c.first, &c.then).into(),
                    ]
                }),
            );
            let prefix = "today-";
            let suffix = format!("-{}mbps", rr.radio.rate_mbps);
            for (f, svg) in svgs
                .iter()
                .filter(|(f, _)| f.name.starts_with(prefix) && f.name.ends_with(&suffix))
            {
                page.p(&f.caption);
                page.svg(svg);
            }
        }
    }
    if !r.measured.is_empty() {
        page.h3("Measurements behind the cost set");
        page.table(
            &[
                "algorithm",
                "operation",
                "bytes",
                "median (µs)",
                "mean (µs)",
                "95% CI (µs)",
                "trials",
            ],
            r.measured.iter().map(|m| {
                vec![
                    HtmlCell::from(m.algorithm.as_str()),
                    m.operation.as_str().into(),
                    HtmlCell::with_class(m.bytes.to_string(), "num"),
                    num(m.median_us, 2),
                    num(m.mean_us, 2),
                    format!("{:.2}-{:.2}", m.ci95_low_us, m.ci95_high_us).into(),
                    HtmlCell::with_class(m.trials.to_string(), "num"),
                ]
            }),
        );
    }
    page.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_format_with_their_sign() {
        assert_eq!(fmt_line(29.54224, 8.59454), "29.5422 n + 8.5945");
        assert_eq!(fmt_line(1.0, -0.5), "1.0000 n - 0.5000");
    }
}
