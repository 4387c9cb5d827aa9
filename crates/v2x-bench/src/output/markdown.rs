//! Markdown tables: the run's results and the paper comparisons.

use crate::result::{BenchResult, Headline};
use std::fmt::Write as _;
use v2x_report::stats::Verdict;

/// A number with about four significant digits, without exponent.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else if a >= 10.0 {
        format!("{v:.2}")
    } else if a >= 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.4}")
    }
}

fn opt_num(v: Option<f64>) -> String {
    v.map(num).unwrap_or_else(|| "—".into())
}

/// The headline as a small table (also used by the HTML report).
pub fn headline_rows(h: &Headline) -> Vec<(String, String, String)> {
    // A target is met only when the whole 95 % interval clears it (issue 28: 2.121
    // [1.237–3.006] against 1.8 is not met).
    let target = |v: Option<f64>, name: &str, t: f64| match (v, h.ratio_ci95.get(name)) {
        (None, _) => "not measured".into(),
        (Some(_), Some([lo, hi])) => Verdict::at_least(*lo, *hi, t).text(t),
        (Some(_), None) => format!("not shown (no interval; target {t})"),
    };
    // "1.23 [1.20–1.26]": the ratio and its 95% bootstrap interval over paired trials.
    let with_ci = |v: Option<f64>, name: &str| match (v, h.ratio_ci95.get(name)) {
        (Some(x), Some([lo, hi])) => format!("{} [{}–{}]", num(x), num(*lo), num(*hi)),
        (v, _) => opt_num(v),
    };
    let mut rows = vec![
        (
            "DECAP / raw OpenSSL verify (rate ratio, 1 core)".into(),
            with_ci(h.decap_vs_raw_verify, "decap_vs_raw_verify"),
            target(h.decap_vs_raw_verify, "decap_vs_raw_verify", 0.9),
        ),
        (
            "ENCAP / raw OpenSSL sign (rate ratio, 1 core)".into(),
            with_ci(h.encap_vs_raw_sign, "encap_vs_raw_sign"),
            target(h.encap_vs_raw_sign, "encap_vs_raw_sign", 0.9),
        ),
        (
            format!("DECAP all cores ({}) / one core", h.threads),
            with_ci(h.all_cores_vs_one_core, "all_cores_vs_one_core"),
            target(
                h.all_cores_vs_one_core,
                "all_cores_vs_one_core",
                if h.threads >= 2 { 1.8 } else { 1.0 },
            ),
        ),
        (
            "hash-chain verifications/s (1 core)".into(),
            opt_num(h.hash_chain_verify_per_sec),
            String::new(),
        ),
        (
            "hash-chain verify / raw P-256 verify (rate ratio)".into(),
            with_ci(h.hash_chain_verify_vs_p256_verify, "hash_chain_verify_vs_p256_verify"),
            String::new(),
        ),
        (
            "raw P-256 verify (µs, median)".into(),
            opt_num(h.raw_verify_us),
            String::new(),
        ),
        ("DECAP (µs, median)".into(), opt_num(h.decap_us), String::new()),
        (
            "raw P-256 sign (µs, median)".into(),
            opt_num(h.raw_sign_us),
            String::new(),
        ),
        ("ENCAP (µs, median)".into(), opt_num(h.encap_us), String::new()),
    ];
    if h.repeat_signer_decap_vs_raw_verify.is_some() || h.first_seen_decap_vs_raw_verify.is_some() {
        rows.extend([
            (
                "verify suite: DECAP repeat signer (100 round-robin, precomputed) / raw verify".into(),
                with_ci(h.repeat_signer_decap_vs_raw_verify, "repeat_signer_decap_vs_raw_verify"),
                target(
                    h.repeat_signer_decap_vs_raw_verify,
                    "repeat_signer_decap_vs_raw_verify",
                    1.5,
                ),
            ),
            (
                "verify suite: DECAP first-seen signer (no table) / raw verify".into(),
                with_ci(h.first_seen_decap_vs_raw_verify, "first_seen_decap_vs_raw_verify"),
                target(h.first_seen_decap_vs_raw_verify, "first_seen_decap_vs_raw_verify", 1.0),
            ),
            (
                "verify suite: ENCAP / raw sign".into(),
                with_ci(h.verify_suite_encap_vs_raw_sign, "verify_suite_encap_vs_raw_sign"),
                target(h.verify_suite_encap_vs_raw_sign, "verify_suite_encap_vs_raw_sign", 1.2),
            ),
        ]);
    }
    rows
}

/// The verification suite's table: every row beside its raw OpenSSL reference.
pub fn verification_table(r: &BenchResult) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| row | median µs | /s (1e6/median) | /s (per CPU-s) | × raw OpenSSL [95% CI] | note |\n|---|---:|---:|---:|---|---|"
    );
    for v in &r.verification {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} [{}–{}] | {} |",
            v.key,
            num(v.median_us),
            num(v.rate_wall_per_sec),
            opt_num(v.rate_cpu_per_sec),
            num(v.ratio),
            num(v.ci95[0]),
            num(v.ci95[1]),
            v.note
        );
    }
    s
}

pub fn results(r: &BenchResult) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# v2x bench results\n");
    let _ = writeln!(
        s,
        "{} on {} ({} cores, {}), {}; `{}`; suites: {}; {}.\n",
        r.tool,
        r.host.cpu,
        r.host.cores,
        r.host.openssl,
        r.date,
        r.command,
        r.suites.iter().map(|s| s.name()).collect::<Vec<_>>().join(", "),
        if r.quick {
            "quick mode (few samples: shapes, not precise figures)"
        } else {
            "full mode"
        }
    );
    let _ = writeln!(s, "## Headline\n\n{}\n", r.headline.method);
    let _ = writeln!(s, "| figure | value | target |\n|---|---:|---|");
    for (a, b, c) in headline_rows(&r.headline) {
        let _ = writeln!(s, "| {a} | {b} | {c} |");
    }
    for n in &r.headline.notes {
        let _ = writeln!(s, "\n- {n}");
    }
    let _ = writeln!(
        s,
        "\n## Measurements\n\nLatency in µs per operation (mean with 95% CI over trials; median and p99 over \
         batches, {}); ops/s on one core = 1e6 / mean; all cores where the scaling suite measured it.\n",
        v2x_report::stats::PERCENTILE_DEFINITION
    );
    for &suite in crate::Suite::ALL {
        let rows: Vec<_> = r.measurements.iter().filter(|m| m.suite == suite).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(s, "### {suite}\n");
        let _ = writeln!(
            s,
            "| protocol | operation | variant | bytes (overhead) | mean | 95% CI | median | p99 | ops/s 1 core | ops/s all cores |"
        );
        let _ = writeln!(s, "|---|---|---|---:|---:|---|---:|---:|---:|---:|");
        for m in rows {
            let l = &m.latency;
            let bytes = match (m.packet_bytes, m.overhead_bytes) {
                (Some(p), Some(o)) => format!("{p} ({o})"),
                (Some(p), None) => p.to_string(),
                _ => "—".into(),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {}–{} | {} | {} | {} | {} |",
                m.protocol,
                m.operation,
                m.variant,
                bytes,
                num(l.mean_us),
                num(l.ci95_low_us),
                num(l.ci95_high_us),
                num(l.median_us),
                num(l.p99_us),
                num(m.ops_per_sec),
                opt_num(m.ops_per_sec_all_cores)
            );
        }
        let _ = writeln!(s);
    }
    if !r.verification.is_empty() {
        let _ = writeln!(
            s,
            "## Verification: backends, strategies, repeat signers (paired with raw OpenSSL)\n\n\
             Each row ran in the same interleaved trials as raw OpenSSL verify (verify and DECAP rows) or \
             sign (sign and ENCAP rows) on its curve; the ratio is the median over trials of the per-trial \
             rate ratio, with a 95% bootstrap interval. Rates: 1e6 / median µs (wall clock, as elsewhere) and \
             calls per second of thread CPU time (as `openssl speed` counts).\n"
        );
        s.push_str(&verification_table(r));
        let _ = writeln!(s);
    }
    if !r.misbehaviour_detection.is_empty() {
        let _ = writeln!(
            s,
            "## Misbehaviour detection: check evaluations per second, one core\n\n\
             One operation is a fresh detector's pass over the workload ({}); both detectors ran in the \
             same interleaved trials. Median over trials with a 95% bootstrap interval; the target is met \
             only when the interval's lower end clears it.\n",
            r.misbehaviour_detection[0].workload
        );
        let _ = writeln!(
            s,
            "| detector | evaluations/pass | evaluations/s (median) | 95% interval | messages/s | target | met |"
        );
        let _ = writeln!(s, "|---|---:|---:|---|---:|---:|---|");
        for m in &r.misbehaviour_detection {
            let _ = writeln!(
                s,
                "| {} | {} | {} | [{}, {}] | {} | {} | {} |",
                m.detector,
                m.evaluations_per_pass,
                num(m.evaluations_per_sec),
                num(m.ci95_low_per_sec),
                num(m.ci95_high_per_sec),
                num(m.messages_per_sec),
                num(m.target_per_sec),
                if m.target_met { "yes" } else { "no" }
            );
        }
        let _ = writeln!(s);
    }
    if let Some(pq) = &r.pq {
        let _ = writeln!(s, "## Post-quantum schemes and designs (paired with P-256)\n");
        s.push_str(&crate::suites::pq::markdown(pq));
        let _ = writeln!(s);
    }
    if !r.scaling.is_empty() {
        let _ = writeln!(s, "## One core vs all cores (paper 002 Table 3.2 method)\n");
        let _ = writeln!(
            s,
            "| kind | operation | threads | ops/s one core | ops/s all cores | speed-up |"
        );
        let _ = writeln!(s, "|---|---|---:|---:|---:|---:|");
        for row in &r.scaling {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                row.kind,
                row.label,
                row.all_cores.threads,
                num(row.one_core.ops_per_sec),
                num(row.all_cores.ops_per_sec),
                num(row.speedup)
            );
        }
        let _ = writeln!(s);
    }
    if !r.skipped.is_empty() {
        let _ = writeln!(s, "## Not measured\n");
        for k in &r.skipped {
            let _ = writeln!(s, "- {k}");
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(
        s,
        "Paper comparisons: see comparison.md. Run time {:.1} s.",
        r.duration_s
    );
    s
}

pub fn comparison(r: &BenchResult) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Papers vs this machine\n");
    let _ = writeln!(
        s,
        "This machine: {} ({} cores, {}), {}. Paper values are transcribed from the papers \
         (crates/v2x-bench/data/papers.json names the table or figure of each); ours are medians (latency) and 1e6 / median latency (one-core rates), robust to preemption on a shared machine. \
         \"—\" means this toolkit has no equivalent measurement (or the suite was not run).\n",
        r.host.cpu, r.host.cores, r.host.openssl, r.date
    );
    for t in &r.comparisons {
        let _ = writeln!(s, "## Paper {} — {}\n", t.paper, t.citation);
        let _ = writeln!(
            s,
            "| source | hardware | procedure | scheme | paper | ours | ratio | ratio means | note |"
        );
        let _ = writeln!(s, "|---|---|---|---|---:|---:|---:|---|---|");
        for row in &t.rows {
            let paper = match row.paper_value_high {
                Some(h) => format!("{}–{} {}", num(row.paper_value), num(h), row.unit),
                None => format!("{} {}", num(row.paper_value), row.unit),
            };
            let ours = row
                .ours
                .map(|v| format!("{} {}", num(v), row.unit))
                .unwrap_or_else(|| "—".into());
            let ratio = row.ratio.map(|v| format!("{}x", num(v))).unwrap_or_else(|| "—".into());
            let note = match &row.ours_key {
                Some(k) if row.note.is_empty() => format!("ours: {k}"),
                Some(k) => format!("ours: {k}; {}", row.note),
                None => row.note.clone(),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                row.source,
                row.hardware,
                row.procedure,
                row.scheme.as_deref().unwrap_or(""),
                paper,
                ours,
                ratio,
                if row.ratio.is_some() {
                    row.ratio_meaning.as_str()
                } else {
                    ""
                },
                note.replace('|', "/")
            );
        }
        let _ = writeln!(s);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 28: "met" was written for 2.121 [1.237–3.006] against a target of 1.8.
    #[test]
    fn a_target_is_met_only_when_its_interval_clears_it() {
        let mut h = Headline {
            threads: 2,
            all_cores_vs_one_core: Some(2.121),
            decap_vs_raw_verify: Some(0.97),
            encap_vs_raw_sign: Some(0.5),
            ..Headline::default()
        };
        h.ratio_ci95.insert("all_cores_vs_one_core".into(), [1.237, 3.006]);
        h.ratio_ci95.insert("decap_vs_raw_verify".into(), [0.95, 0.99]);
        h.ratio_ci95.insert("encap_vs_raw_sign".into(), [0.45, 0.55]);
        let rows = headline_rows(&h);
        let verdict = |prefix: &str| rows.iter().find(|r| r.0.starts_with(prefix)).unwrap().2.clone();
        assert_eq!(verdict("DECAP all cores"), "not shown (95 % CI includes 1.8)");
        assert_eq!(
            rows.iter().find(|r| r.0.starts_with("DECAP all cores")).unwrap().1,
            "2.121 [1.237–3.006]"
        );
        assert!(verdict("DECAP / raw").starts_with("met"));
        assert!(verdict("ENCAP / raw").starts_with("MISSED"));
    }
}
