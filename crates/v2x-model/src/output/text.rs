//! The terminal summary of a run.

use crate::run::ModelResults;
use crate::today::RadioResult;
use std::fmt::Write as _;

/// `15.9505 n + 103.9319`.
pub fn fmt_line(a: f64, b: f64) -> String {
    let sign = if b < 0.0 { '-' } else { '+' };
    format!("{a:.4} n {sign} {:.4}", b.abs())
}

/// `lines cross at n = 7.32: A cheaper through n = 7, B from n = 8`.
pub(super) fn fmt_switch(s: &crate::crossover::Switch, first: &str, then: &str) -> String {
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

pub(super) fn ranges(r: &[crate::crossover::BestRange]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_format_with_their_sign() {
        assert_eq!(fmt_line(29.54224, 8.59454), "29.5422 n + 8.5945");
        assert_eq!(fmt_line(1.0, -0.5), "1.0000 n - 0.5000");
    }
}
