//! What a run shows: the terminal summary ([`text`]) and the results folder (resolved
//! inputs, summary.json, CSV tables, SVG figures, report.html: [`write_all`], [`html`]).

mod html;
mod text;

pub use html::html;
pub use text::{fmt_line, text};

use crate::figures::{self, Figure, FigureError};
use crate::paper003::{Reading, FIGURE_NODES};
use crate::run::ModelResults;
use serde::Serialize;
use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum OutputError {
    #[error("cannot write {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("writing {path}: {message}")]
    Encode { path: String, message: String },
    #[error(transparent)]
    Figure(#[from] FigureError),
}

/// Maps an I/O error on `path` to [`OutputError::Io`].
pub(crate) fn io(path: &Path) -> impl Fn(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Writes `dir/name` and records `name` in `files`.
pub(crate) fn write(dir: &Path, name: &str, contents: &str, files: &mut Vec<String>) -> Result<(), OutputError> {
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
