//! `v2x overhead`: the security overhead in bytes of every protocol and message type,
//! field by field, measured on packets the implementations encode, next to the papers'
//! published figures.

use anyhow::Context;
use std::fmt::Write as _;
use std::process::ExitCode;
use v2x_protocols::overhead::{OverheadReport, OverheadRow};

#[derive(clap::Args)]
pub struct Args {
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Only rows of this protocol (e.g. hash-chain, tesla, 2flip, wang, ieee1609.2).
    #[arg(long)]
    protocol: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut report = v2x_protocols::overhead::try_report().context("building packets for the overhead report")?;
    if let Some(p) = &args.protocol {
        let mut known: Vec<&str> = Vec::new();
        for r in &report.rows {
            if !known.contains(&r.protocol.as_str()) {
                known.push(&r.protocol);
            }
        }
        let valid = known.join(", ");
        report.rows.retain(|r| r.protocol.eq_ignore_ascii_case(p));
        if report.rows.is_empty() {
            anyhow::bail!("no overhead rows for protocol {p:?}; the protocols are: {valid}");
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", table(&report));
    }
    Ok(ExitCode::SUCCESS)
}

fn fields(row: &OverheadRow) -> String {
    row.fields
        .iter()
        .map(|f| format!("{} {}", f.name, f.bytes))
        .collect::<Vec<_>>()
        .join(" + ")
}

fn papers(row: &OverheadRow) -> String {
    row.paper
        .iter()
        .map(|p| format!("{}: {} ({})", p.source, p.bytes, p.explanation))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A plain-text table: protocol, message, variant, total, field breakdown, paper figure.
pub fn table(report: &OverheadReport) -> String {
    let head = ["protocol", "message", "variant", "total", "fields", "paper"];
    let rows: Vec<[String; 6]> = report
        .rows
        .iter()
        .map(|r| {
            [
                r.protocol.clone(),
                r.message.clone(),
                r.variant.clone(),
                r.total_bytes.to_string(),
                fields(r),
                papers(r),
            ]
        })
        .collect();
    // Widths of the short columns; the last two are free-form.
    let mut w = [0usize; 4];
    for (i, h) in head.iter().take(4).enumerate() {
        w[i] = rows.iter().map(|r| r[i].len()).max().unwrap_or(0).max(h.len());
    }
    let mut out = String::new();
    let line = |cells: [&str; 6]| {
        format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}  {}  {}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            cells[5],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        )
    };
    out.push_str(&line(head));
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]]));
    }
    let _ = writeln!(
        out,
        "({} rows; bytes; total = packet minus payload unless the message name ends in -frame)",
        rows.len()
    );
    out
}
