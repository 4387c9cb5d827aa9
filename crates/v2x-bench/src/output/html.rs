//! A self-contained HTML report: headline, plots (inline SVG), measurements, scaling and
//! paper comparisons. No external resources.

use super::markdown::{headline_rows, num};
use super::svg::Plots;
use crate::result::BenchResult;
use std::fmt::Write as _;

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

fn strip_xml_prolog(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

fn table(out: &mut String, head: &[&str], rows: impl Iterator<Item = Vec<String>>) {
    out.push_str("<table><thead><tr>");
    for h in head {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            let _ = write!(out, "<td>{}</td>", escape(&c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>\n");
}

pub fn report(r: &BenchResult, plots: &Plots) -> String {
    let mut s = String::new();
    s.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>v2x bench report</title>\n<style>\
         body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0;font-size:13px}\
         td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#eee}\
         .missed{color:#b00;font-weight:bold}.met{color:#070}</style></head><body>\n",
    );
    let _ = writeln!(s, "<h1>v2x bench report</h1>");
    let _ = writeln!(
        s,
        "<p>{} — {} ({} cores, {}), {} — <code>{}</code> — suites: {}{}</p>",
        escape(&r.tool),
        escape(&r.host.cpu),
        r.host.cores,
        escape(&r.host.openssl),
        escape(&r.date),
        escape(&r.command),
        escape(&r.suites.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")),
        if r.quick { " — quick mode" } else { "" }
    );
    let _ = writeln!(s, "<h2>Headline</h2><p>{}</p>", escape(&r.headline.method));
    s.push_str("<table><thead><tr><th>figure</th><th>value</th><th>target</th></tr></thead><tbody>");
    for (a, b, c) in headline_rows(&r.headline) {
        let class = if c.starts_with("MISSED") {
            "missed"
        } else if c.starts_with("met") {
            "met"
        } else {
            ""
        };
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td class=\"{class}\">{}</td></tr>",
            escape(&a),
            escape(&b),
            escape(&c)
        );
    }
    s.push_str("</tbody></table>\n");
    for n in &r.headline.notes {
        let _ = writeln!(s, "<p>{}</p>", escape(n));
    }
    let _ = writeln!(s, "<h2>Plots</h2>");
    for svg in [&plots.ops_per_sec, &plots.latency_per_curve, &plots.overhead] {
        let _ = writeln!(s, "<div>{}</div>", strip_xml_prolog(svg));
    }
    let _ = writeln!(
        s,
        "<h2>Measurements</h2><p>Latency in µs; ops/s on one core = 1e6 / mean.</p>"
    );
    table(
        &mut s,
        &[
            "suite",
            "protocol",
            "operation",
            "variant",
            "bytes",
            "mean",
            "95% CI",
            "median",
            "p99",
            "ops/s",
            "ops/s all cores",
        ],
        r.measurements.iter().map(|m| {
            let l = &m.latency;
            vec![
                m.suite.to_string(),
                m.protocol.to_string(),
                m.operation.to_string(),
                m.variant.to_string(),
                m.packet_bytes.map(|b| b.to_string()).unwrap_or_default(),
                num(l.mean_us),
                format!("{}–{}", num(l.ci95_low_us), num(l.ci95_high_us)),
                num(l.median_us),
                num(l.p99_us),
                num(m.ops_per_sec),
                m.ops_per_sec_all_cores.map(num).unwrap_or_default(),
            ]
        }),
    );
    if !r.scaling.is_empty() {
        let _ = writeln!(s, "<h2>One core vs all cores</h2>");
        table(
            &mut s,
            &[
                "kind",
                "operation",
                "threads",
                "ops/s one core",
                "ops/s all cores",
                "speed-up",
            ],
            r.scaling.iter().map(|x| {
                vec![
                    x.kind.to_string(),
                    x.label.clone(),
                    x.all_cores.threads.to_string(),
                    num(x.one_core.ops_per_sec),
                    num(x.all_cores.ops_per_sec),
                    num(x.speedup),
                ]
            }),
        );
    }
    let _ = writeln!(s, "<h2>Papers vs this machine</h2>");
    for t in &r.comparisons {
        let _ = writeln!(s, "<h3>Paper {} — {}</h3>", escape(&t.paper), escape(&t.citation));
        table(
            &mut s,
            &[
                "source",
                "hardware",
                "procedure",
                "scheme",
                "paper",
                "ours",
                "ratio",
                "note",
            ],
            t.rows.iter().map(|row| {
                vec![
                    row.source.clone(),
                    row.hardware.clone(),
                    row.procedure.clone(),
                    row.scheme.clone().unwrap_or_default(),
                    format!("{} {}", num(row.paper_value), row.unit),
                    row.ours
                        .map(|v| format!("{} {}", num(v), row.unit))
                        .unwrap_or_else(|| "—".into()),
                    row.ratio
                        .map(|v| format!("{}x ({})", num(v), row.ratio_meaning))
                        .unwrap_or_else(|| "—".into()),
                    row.note.clone(),
                ]
            }),
        );
    }
    if !r.skipped.is_empty() {
        let _ = writeln!(s, "<h2>Not measured</h2><ul>");
        for k in &r.skipped {
            let _ = writeln!(s, "<li>{}</li>", escape(k));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</body></html>\n");
    s
}
