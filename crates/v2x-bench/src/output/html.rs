//! A self-contained HTML report: headline, plots (inline SVG), measurements, scaling and
//! paper comparisons. No external resources; the page skeleton is `v2x_report::html`.

use super::markdown::{headline_rows, num};
use super::svg::Plots;
use crate::result::BenchResult;
use v2x_report::html::{Cell, Page};

pub fn report(r: &BenchResult, plots: &Plots) -> String {
    let mut page = Page::new("v2x bench report");
    page.h1("v2x bench report");
    page.p(&format!(
        "{} (commit {}) — {} ({} cores, {}), {}, load average {} — {} — suites: {}{}",
        r.tool,
        if r.commit.is_empty() { "unknown" } else { &r.commit },
        r.host.cpu,
        r.host.cores,
        r.host.openssl,
        r.date,
        if r.load_average.is_empty() {
            "unknown"
        } else {
            &r.load_average
        },
        r.command,
        r.suites.iter().map(|s| s.name()).collect::<Vec<_>>().join(", "),
        if r.quick { " — quick mode" } else { "" }
    ));
    page.h2("Headline").p(&r.headline.method).p(
        "Each ratio is given with its 95 % interval; a target is met only when the whole interval clears it, \
         missed when the whole interval falls short, and not shown when the interval includes it.",
    );
    page.table(
        &["figure", "value", "target"],
        headline_rows(&r.headline).into_iter().map(|(a, b, c)| {
            let target = if c.starts_with("MISSED") {
                Cell::with_class(c, "missed")
            } else if c.starts_with("met") {
                Cell::with_class(c, "met")
            } else if c.starts_with("not shown") {
                Cell::with_class(c, "open")
            } else {
                Cell::from(c)
            };
            vec![Cell::from(a), Cell::from(b), target]
        }),
    );
    for n in &r.headline.notes {
        page.p(n);
    }
    page.h2("Figures");
    for (i, f) in plots.all().iter().enumerate() {
        page.h3(&format!("Figure {}. {}", i + 1, f.title))
            .figure(&f.svg, &format!("{} Files: {}.svg, {}.png.", f.caption, f.stem, f.stem));
    }
    page.h2("Measurements").p(&format!(
        "Latency in µs; ops/s on one core = 1e6 / mean; median and p99: {}.",
        v2x_report::stats::PERCENTILE_DEFINITION
    ));
    page.table(
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
        page.h2("One core vs all cores");
        page.table(
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
    page.h2("Papers vs this machine");
    for t in &r.comparisons {
        page.h3(&format!("Paper {} — {}", t.paper, t.citation));
        page.table(
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
        page.h2("Not measured").list(&r.skipped);
    }
    page.finish()
}
