//! The self-contained report page of a run.

use super::text::{fmt_switch, ranges};
use crate::figures::Figure;
use crate::run::ModelResults;
use v2x_report::html::{Cell as HtmlCell, Page};

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
