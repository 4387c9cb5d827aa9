//! `report.html` of a testbed run and its figures: per receiver and case the outcome table
//! of `report.md`, the goodput of every case, and the distributions of end-to-end latency
//! (benign traffic) and verification time (every case), drawn as steps in the colours of
//! [`v2x_report::plot`].

use super::summary::{Latency, Summary};
use std::path::Path;
use v2x_report::html::{Cell, Page};
use v2x_report::plot::{steps, Dot, DotChart, Line, LineChart, Palette, Scale};

/// The traffic case of benign packets in `Summary::receivers`.
const BENIGN: &str = "benign";

/// A latency sample as CDF points (ms, fraction at or below), one per distinct value.
fn cdf(l: &Latency) -> Vec<(f64, f64)> {
    let n = l.samples_us.len() as f64;
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (i, &us) in l.samples_us.iter().enumerate() {
        let x = us as f64 / 1e3;
        let y = (i + 1) as f64 / n;
        match out.last_mut() {
            Some(last) if last.0 == x => last.1 = y,
            _ => out.push((x, y)),
        }
    }
    out
}

/// CDF lines of the selected latency, one per receiver and case with samples, each in its
/// colour of `palette` (the same in every figure of the page).
fn latency_chart(
    s: &Summary,
    palette: &Palette,
    title: &str,
    x_label: &str,
    benign_only: bool,
    pick: fn(&super::summary::CaseStats) -> &Latency,
) -> LineChart {
    let mut lines = Vec::new();
    for (rx, cases) in &s.receivers {
        for (case, c) in cases {
            let l = pick(c);
            if l.samples_us.is_empty() || (benign_only && case != BENIGN) {
                continue;
            }
            let cum = cdf(l);
            lines.push(Line {
                label: format!("{rx} {case} ({} packets)", l.count),
                colour: palette.index(&format!("{rx} {case}")),
                points: steps(cum[0].0, 0.0, &cum),
                ..Line::default()
            });
        }
    }
    let x_scale = Scale::for_values(lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)));
    LineChart {
        title: title.into(),
        x_label: x_label.into(),
        y_label: "fraction".into(),
        x_scale,
        y_scale: Scale::Linear,
        y_range: Some((0.0, 1.0)),
        lines,
        note: Some("empirical CDF of every packet logged".into()),
    }
}

/// The figures: (file name, SVG).
pub fn figures(s: &Summary) -> Result<Vec<(String, String)>, v2x_report::plot::PlotError> {
    let palette = Palette::default();
    let dots: Vec<Dot> = s
        .receivers
        .iter()
        .flat_map(|(rx, cases)| {
            cases.iter().map(move |(case, c)| Dot {
                label: format!("{rx} {case}"),
                group: if case == BENIGN {
                    0
                } else if case.starts_with("F-") {
                    2
                } else {
                    1
                },
                value: 100.0 * c.goodput,
                spread: None,
            })
        })
        .collect();
    let goodput = DotChart {
        title: "Accepted share of what was sent".into(),
        x_label: "accepted / sent (%)".into(),
        x_scale: Scale::Linear,
        dots,
        groups: vec![
            "benign traffic (goodput)".into(),
            "attack traffic (should be 0)".into(),
            "functional cases (paper 002 Table 2.17)".into(),
        ],
        note: None,
    };
    Ok(vec![
        ("goodput.svg".into(), goodput.render()?),
        (
            "e2e_latency_cdf.svg".into(),
            latency_chart(
                s,
                &palette,
                "End-to-end latency of benign CAMs",
                "generation to verified (ms)",
                true,
                |c| &c.e2e,
            )
            .render()?,
        ),
        (
            "verification_time_cdf.svg".into(),
            latency_chart(
                s,
                &palette,
                "Verification time per case",
                "verify start to end (ms)",
                false,
                |c| &c.verify,
            )
            .render()?,
        ),
    ])
}

/// A number cell (right-aligned).
fn num(x: String) -> Cell {
    Cell::with_class(x, "num")
}

/// The page: outcome and process tables, the figures, then `extra` (the load plan's and
/// flood search's Markdown tables) as preformatted text.
pub fn html(s: &Summary, extra: &str, figures: &[(String, String)]) -> String {
    let mut page = Page::new("v2x testbed");
    page.h1("Testbed run").p(&format!(
        "{} s of traffic. Loss accounting: sent = accepted + rejected + dropped + never read from the socket. \
         Latency {}, rounded to the µs.",
        s.duration_s,
        v2x_report::stats::PERCENTILE_DEFINITION
    ));
    attacks_accepted(&mut page, s);
    cases(&mut page, s);
    functional(&mut page, s);
    processes(&mut page, s);
    links(&mut page, s);
    for (i, (name, svg)) in figures.iter().enumerate() {
        let title = FIGURE_TITLES
            .iter()
            .find(|(n, _)| n == name)
            .map_or(name.as_str(), |(_, t)| t);
        let stem = name.trim_end_matches(".svg");
        page.h2(&format!("Figure {}. {title}", i + 1))
            .figure(svg, &format!("Files: {stem}.svg, {stem}.png."));
    }
    if !extra.is_empty() {
        page.h2("Load plan and flood search").pre(extra);
    }
    page.finish()
}

/// Attack packets accepted: a security failure, first on the page when there is one.
fn attacks_accepted(page: &mut Page, s: &Summary) {
    if s.attacks_accepted.is_empty() {
        return;
    }
    page.h2("ATTACK PACKETS ACCEPTED")
        .p("These attack packets passed the receiver's security layer (an A-SIG-05 packet accepted is an accepted replay).")
        .table(
            &["receiver", "case", "accepted", "sent"],
            s.attacks_accepted.iter().map(|a| {
                vec![
                    Cell::from(a.receiver.as_str()),
                    Cell::from(a.case.as_str()),
                    num(a.accepted.to_string()),
                    num(a.sent.to_string()),
                ]
            }),
        );
}

fn cases(page: &mut Page, s: &Summary) {
    page.h2("Per receiver and case").table(
        &[
            "receiver",
            "case",
            "sent",
            "accepted",
            "rejected",
            "dropped",
            "net lost",
            "goodput",
            "E2E p50 ms",
            "E2E p99 ms",
            "verify p50 µs",
            "reasons",
            "consistent",
        ],
        s.receivers.iter().flat_map(|(rx, cases)| {
            cases.iter().map(move |(case, c)| {
                let reasons: Vec<String> = c.reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                vec![
                    Cell::from(rx.as_str()),
                    Cell::from(case.as_str()),
                    num(c.sent.to_string()),
                    num(c.accepted.to_string()),
                    num(c.rejected.to_string()),
                    num(c.dropped.to_string()),
                    num(c.network_lost.to_string()),
                    num(format!("{:.2} %", 100.0 * c.goodput)),
                    num(format!("{:.2}", c.e2e.p50_us as f64 / 1e3)),
                    num(format!("{:.2}", c.e2e.p99_us as f64 / 1e3)),
                    num(c.verify.p50_us.to_string()),
                    Cell::from(reasons.join(", ")),
                    Cell::from(if c.consistent { "yes" } else { "NO" }),
                ]
            })
        }),
    );
}

fn functional(page: &mut Page, s: &Summary) {
    if !s.functional.is_empty() {
        page.h2("Functional cases (paper 002 Table 2.17)").table(
            &[
                "case", "name", "paper", "ours", "expected", "sent", "accepted", "rejected", "refused", "evidence",
            ],
            s.functional.iter().map(|v| {
                vec![
                    Cell::from(v.case.as_str()),
                    Cell::from(v.title.as_str()),
                    Cell::from(v.paper.as_str()),
                    Cell::from(if v.passed { "passed" } else { "FAILED" }),
                    Cell::from(v.expected.as_str()),
                    num(v.sent.to_string()),
                    num(v.accepted.to_string()),
                    num(v.rejected.to_string()),
                    num(v.refused.values().sum::<u64>().to_string()),
                    Cell::from(v.evidence.as_str()),
                ]
            }),
        );
    }
}

fn processes(page: &mut Page, s: &Summary) {
    page.h2("Processes").table(
        &["process", "CPU s", "CPU share", "peak RSS MiB"],
        s.processes.iter().map(|(p, u)| {
            vec![
                Cell::from(p.as_str()),
                num(format!("{:.2}", u.cpu_s)),
                num(format!("{:.1} %", 100.0 * u.cpu_share)),
                num(format!("{:.1}", u.max_rss_kib as f64 / 1024.0)),
            ]
        }),
    );
}

fn links(page: &mut Page, s: &Summary) {
    if !s.links.is_empty() {
        page.h2("Per link through the channel emulator").p(
            "PDR = read from the receiver's socket / sent. Channel losses by reason (from the emulator's \
             frames.csv) are separate from what the security layer refused (security lost = received - accepted).",
        );
        page.table(
            &[
                "sender",
                "receiver",
                "case",
                "distance m",
                "sent",
                "received",
                "PDR",
                "accepted",
                "security lost",
                "channel lost",
                "refused oversize",
                "below sensitivity",
                "preamble missed",
                "collision",
                "chunk error",
            ],
            s.links.iter().map(|l| {
                let c = &l.channel;
                vec![
                    Cell::from(l.sender.as_str()),
                    Cell::from(l.receiver.as_str()),
                    Cell::from(l.case.code()),
                    num(format!("{:.0}", l.distance_m)),
                    num(l.sent.to_string()),
                    num(l.received.to_string()),
                    num(format!("{:.3}", l.pdr)),
                    num(l.accepted.to_string()),
                    num(l.security_lost.to_string()),
                    num(c.lost().to_string()),
                    num(c.refused_oversize.to_string()),
                    num(c.below_sensitivity.to_string()),
                    num(c.preamble_missed.to_string()),
                    num(c.collision.to_string()),
                    num(c.chunk_error.to_string()),
                ]
            }),
        );
    }
}

/// What each figure shows, as the page's headings say it.
const FIGURE_TITLES: [(&str, &str); 3] = [
    (
        "goodput.svg",
        "Share of the packets sent that were accepted, per receiver and case",
    ),
    ("e2e_latency_cdf.svg", "End-to-end latency of benign CAMs (CDF)"),
    (
        "verification_time_cdf.svg",
        "Verification time per receiver and case (CDF)",
    ),
];

/// Writes the figures (SVG and PNG) and `report.html` into `out`.
pub fn write(s: &Summary, extra: &str, out: &Path) -> std::io::Result<()> {
    let figures = figures(s).map_err(std::io::Error::other)?;
    for (name, svg) in &figures {
        v2x_report::plot::write_figure(out, name.trim_end_matches(".svg"), svg)?;
    }
    std::fs::write(out.join("report.html"), html(s, extra, &figures))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::summary::CaseStats;

    fn latency(samples: Vec<u64>) -> Latency {
        Latency {
            count: samples.len(),
            samples_us: samples,
            ..Latency::default()
        }
    }

    #[test]
    fn the_cdf_has_one_point_per_distinct_value() {
        let l = latency(vec![1000, 1000, 2000, 4000]);
        assert_eq!(cdf(&l), vec![(1.0, 0.5), (2.0, 0.75), (4.0, 1.0)]);
    }

    #[test]
    fn the_page_has_every_case_and_figure() {
        let mut s = Summary {
            duration_s: 3.0,
            ..Summary::default()
        };
        let benign = CaseStats {
            sent: 4,
            accepted: 4,
            goodput: 1.0,
            e2e: latency(vec![300, 400, 900, 1500]),
            verify: latency(vec![50, 60, 60, 70]),
            consistent: true,
            ..CaseStats::default()
        };
        let attack = CaseStats {
            sent: 2,
            rejected: 2,
            verify: latency(vec![55, 65]),
            consistent: true,
            ..CaseStats::default()
        };
        s.receivers.insert(
            "rx0".into(),
            [("benign".to_string(), benign), ("A-SIG-01".to_string(), attack)].into(),
        );
        let figs = figures(&s).unwrap();
        let names: Vec<&str> = figs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["goodput.svg", "e2e_latency_cdf.svg", "verification_time_cdf.svg"]
        );
        // E2E: benign only; verification: both cases.
        assert!(figs[1].1.contains("rx0 benign (4 packets)") && !figs[1].1.contains("A-SIG-01"));
        assert!(figs[2].1.contains("rx0 A-SIG-01 (2 packets)"));
        let page = html(&s, "| load plan |", &figs);
        assert!(page.contains("A-SIG-01") && page.contains("<svg") && page.contains("| load plan |"));
        // Headings say what a figure shows; a series keeps its colour in both CDFs.
        assert!(page.contains("Figure 2. End-to-end latency of benign CAMs") && !page.contains("<h2>goodput.svg"));
        let colour_of = |svg: &str, label: &str| {
            let at = svg.find(label).unwrap();
            let before = &svg[..at];
            let stroke = before.rfind("stroke=\"#").unwrap();
            before[stroke + 8..stroke + 15].to_string()
        };
        assert_eq!(colour_of(&figs[1].1, "rx0 benign"), colour_of(&figs[2].1, "rx0 benign"));
    }
}
