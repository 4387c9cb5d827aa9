//! The results folder: resolved configuration, `summary.json`, CSV tables (each with a typed
//! `.parquet` beside it; `results.csv` holds the tidy per-replication rows of [`crate::tidy`]),
//! SVG plots and a self-contained `report.html`.

use crate::error::SimError;
use crate::histogram::Histogram;
use crate::metrics::RunMetrics;
use crate::{SimResults, VariantResult};
use plotters::prelude::*;
use serde_json::{json, Value};
use std::path::Path;
use v2x_report::html::{Cell, Page};

/// Mean over replications and the half-width of its 95% confidence interval (Student t,
/// the same table as the bench); runs without a value (NaN) are left out.
pub fn mean_ci(values: &[f64]) -> (f64, f64) {
    let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    v2x_report::stats::mean_ci95(&v)
}

fn num(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

fn stat(runs: &[RunMetrics], f: impl Fn(&RunMetrics) -> f64) -> Value {
    let vals: Vec<f64> = runs.iter().map(f).collect();
    let (m, ci) = mean_ci(&vals);
    json!({ "mean": num(m), "ci95": num(ci) })
}

/// Headline metrics of one variant.
pub fn variant_summary(v: &VariantResult) -> Value {
    let p = &v.pooled;
    let sim_s: f64 = v.runs.iter().map(|r| r.wall_s).sum();
    json!({
        "name": v.name,
        "protocol": v.protocol,
        "profile": v.profile,
        "notes": v.notes,
        "security": { "costs": v.costs, "sizes": v.sizes },
        "nodes": v.nodes,
        "cutoff_range_m": num(v.cutoff_range_m),
        "replications": v.runs.len(),
        "pdr_network": stat(&v.runs, RunMetrics::pdr_network),
        "pdr_application": stat(&v.runs, RunMetrics::pdr_application),
        "crypto_loss_ratio": stat(&v.runs, RunMetrics::crypto_loss_ratio),
        "awareness": stat(&v.runs, RunMetrics::awareness),
        "awareness_heard": stat(&v.runs, RunMetrics::awareness_heard_ratio),
        "weighted_awareness": stat(&v.runs, RunMetrics::weighted_awareness),
        "channel_busy_ratio": stat(&v.runs, RunMetrics::channel_busy_ratio),
        "e2e_delay_ms": { "mean": num(p.e2e_delay.mean_ms()), "median": num(p.e2e_delay.quantile_ms(0.5)), "p99": num(p.e2e_delay.quantile_ms(0.99)) },
        "inter_arrival_ms": { "mean": num(p.inter_arrival.mean_ms()), "p99": num(p.inter_arrival.quantile_ms(0.99)) },
        "mac_delay_ms": { "mean": num(p.mac_delay.mean_ms()), "p99": num(p.mac_delay.quantile_ms(0.99)) },
        "verification_latency_ms": { "mean": num(p.verification_latency.mean_ms()), "p99": num(p.verification_latency.quantile_ms(0.99)) },
        // Exact counts of verified CAMs within each deadline of the scenario.
        "verified_within_deadline": p.verification_latency.within.iter().zip(&p.e2e_delay.within).map(|(&(t, by_rx), &(_, by_gen))| json!({
            "deadline_ms": t as f64 / 1e6,
            "verified": p.verification_latency.count,
            "within_after_reception": by_rx,
            "within_after_generation": by_gen,
        })).collect::<Vec<_>>(),
        "crypto_losses": { "deadline": p.crypto_lost_deadline, "tesla_key_missing": p.crypto_lost_key, "unknown_certificate": p.crypto_lost_unknown_certificate },
        "cams_generated": p.cams_generated,
        "frames_sent": p.frames_sent,
        "key_frames_sent": p.key_frames_sent,
        "mac_drops": p.mac_queue_drops + p.mac_delay_drops,
        "query": {
            "requests_sent": p.query.requests_sent,
            "requests_received": p.query.requests_received,
            "replies_received": p.query.replies_received,
            "success_rate": stat(&v.runs, RunMetrics::query_success_rate),
            "delay_ms_mean": num(p.query.delay.mean_ms()),
        },
        "attacks": { "frames_sent": p.attack_frames_sent, "accepted": p.attacks_accepted, "expired_in_queue": p.attack_jobs_expired, "rejected": p.rejected },
        "performance": {
            "events": p.events,
            "signals": p.signals,
            "receptions": p.receptions,
            "run_wall_s": sim_s,
            "receptions_per_wall_s": num(p.receptions as f64 / sim_s),
            "signals_per_wall_s": num(p.signals as f64 / sim_s),
        },
    })
}

pub fn summary(r: &SimResults) -> Value {
    json!({
        "scenario": r.scenario.name,
        "description": r.scenario.description,
        "duration_s": r.scenario.duration_s,
        "warmup_s": r.scenario.warmup_s,
        "seed": r.scenario.seed,
        "replications": r.scenario.replications,
        "wall_s": r.wall_s,
        "variants": r.variants.iter().map(variant_summary).collect::<Vec<_>>(),
    })
}

/// A CSV table in memory, with its header.
fn table(header: &[&str]) -> csv::Writer<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing to memory cannot fail; a failure would surface again at `finish`.
    let _ = w.write_record(header);
    w
}

fn row<const N: usize>(w: &mut csv::Writer<Vec<u8>>, fields: [String; N]) -> Result<(), SimError> {
    w.write_record(fields).map_err(SimError::Csv)
}

fn finish(w: csv::Writer<Vec<u8>>) -> Result<String, SimError> {
    let bytes = w.into_inner().map_err(|e| SimError::Csv(e.into_error().into()))?;
    String::from_utf8(bytes).map_err(|e| SimError::Csv(csv::Error::from(std::io::Error::other(e))))
}

/// Writes a CSV table and the typed Parquet file beside it (for pandas).
fn write_table(dir: &Path, name: &str, csv_text: &str) -> Result<(), SimError> {
    Ok(v2x_report::table::write_csv_and_parquet(dir, name, csv_text)?)
}

fn write(dir: &Path, name: &str, text: &str) -> Result<(), SimError> {
    let p = dir.join(name);
    std::fs::write(&p, text).map_err(|e| SimError::Output {
        path: p.display().to_string(),
        source: e,
    })
}

fn f(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

/// Writes every output file into `dir` (created if needed).
pub fn write_all(r: &SimResults, dir: &Path) -> Result<(), SimError> {
    std::fs::create_dir_all(dir).map_err(|e| SimError::Output {
        path: dir.display().to_string(),
        source: e,
    })?;
    write(dir, "resolved.toml", &r.scenario.to_toml())?;
    write(
        dir,
        "resolved.json",
        &serde_json::to_string_pretty(&r.scenario).unwrap_or_default(),
    )?;
    let sum = summary(r);
    write(
        dir,
        "summary.json",
        &serde_json::to_string_pretty(&sum).unwrap_or_default(),
    )?;

    write_table(dir, "results.csv", &crate::tidy::csv_text(r).map_err(SimError::Csv)?)?;

    let bin = r.scenario.metrics.distance_bin_m;
    let mut pdr = table(&[
        "variant",
        "distance_from_m",
        "distance_to_m",
        "attempts",
        "received",
        "verified",
        "crypto_lost",
        "pdr_network",
        "pdr_application",
    ]);
    for v in &r.variants {
        for (i, b) in v.pooled.bins.iter().enumerate() {
            let ratio = |a: u64| {
                if b.attempts == 0 {
                    f64::NAN
                } else {
                    a as f64 / b.attempts as f64
                }
            };
            row(
                &mut pdr,
                [
                    v.name.clone(),
                    (i as f64 * bin).to_string(),
                    ((i + 1) as f64 * bin).to_string(),
                    b.attempts.to_string(),
                    b.received.to_string(),
                    b.verified.to_string(),
                    b.crypto_lost.to_string(),
                    f(ratio(b.received)),
                    f(ratio(b.verified)),
                ],
            )?;
        }
    }
    write_table(dir, "pdr_vs_distance.csv", &finish(pdr)?)?;

    let mut dist = table(&["variant", "metric", "value_ms", "count_at_or_below", "cdf", "ccdf"]);
    for v in &r.variants {
        for (metric, h) in histograms(&v.pooled) {
            for (x, c) in h.cumulative() {
                let cdf = c as f64 / h.count as f64;
                row(
                    &mut dist,
                    [
                        v.name.clone(),
                        metric.to_string(),
                        f(x),
                        c.to_string(),
                        f(cdf),
                        f(1.0 - cdf),
                    ],
                )?;
            }
        }
    }
    write_table(dir, "delay_distributions.csv", &finish(dist)?)?;

    let mut rows = table(&[
        "variant",
        "replication",
        "pdr_network",
        "pdr_application",
        "crypto_loss_ratio",
        "awareness",
        "weighted_awareness",
        "channel_busy_ratio",
        "e2e_delay_ms_mean",
        "query_success_rate",
        "receptions",
        "wall_s",
    ]);
    for v in &r.variants {
        for (k, m) in v.runs.iter().enumerate() {
            row(
                &mut rows,
                [
                    v.name.clone(),
                    k.to_string(),
                    f(m.pdr_network()),
                    f(m.pdr_application()),
                    f(m.crypto_loss_ratio()),
                    f(m.awareness()),
                    f(m.weighted_awareness()),
                    f(m.channel_busy_ratio()),
                    f(m.e2e_delay.mean_ms()),
                    f(m.query_success_rate()),
                    m.receptions.to_string(),
                    f(m.wall_s),
                ],
            )?;
        }
    }
    write_table(dir, "runs.csv", &finish(rows)?)?;

    if r.scenario.metrics.per_pair_counts {
        let mut pairs = table(&[
            "variant",
            "sender",
            "receiver",
            "sent",
            "received_mean",
            "verified_mean",
        ]);
        for v in &r.variants {
            let reps = v.runs.len().max(1) as f64;
            for ((s, d), c) in &v.pooled.per_pair {
                let sent = v.pooled.per_node_sent.get(s).copied().unwrap_or(0) as f64 / reps;
                row(
                    &mut pairs,
                    [
                        v.name.clone(),
                        s.to_string(),
                        d.to_string(),
                        f(sent),
                        f(c.received as f64 / reps),
                        f(c.verified as f64 / reps),
                    ],
                )?;
            }
        }
        write_table(dir, "per_pair_counts.csv", &finish(pairs)?)?;
    }

    let plots = plots(r);
    for (name, svg) in &plots {
        write(dir, name, svg)?;
    }
    write(dir, "report.html", &report_html(r, &sum, &plots))?;
    Ok(())
}

fn histograms(m: &RunMetrics) -> [(&'static str, &Histogram); 5] {
    [
        ("e2e_delay", &m.e2e_delay),
        ("mac_delay", &m.mac_delay),
        ("verification_latency", &m.verification_latency),
        ("inter_arrival", &m.inter_arrival),
        ("query_delay", &m.query.delay),
    ]
}

type Series = (String, Vec<(f64, f64)>);

fn line_chart(title: &str, x_desc: &str, y_desc: &str, series: &[Series], log_y: bool) -> String {
    let mut svg = String::new();
    let xmax = series.iter().flat_map(|s| s.1.iter().map(|p| p.0)).fold(1e-3, f64::max) * 1.05;
    {
        let root = SVGBackend::with_string(&mut svg, (760, 440)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(56);
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart;
                let _ = chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).draw();
                for (i, (name, pts)) in series.iter().enumerate() {
                    let color = Palette99::pick(i).to_rgba();
                    let pts: Vec<(f64, f64)> = pts
                        .iter()
                        .copied()
                        .filter(|p| p.1.is_finite() && (!log_y || p.1 > 0.0))
                        .collect();
                    if let Ok(a) = chart.draw_series(LineSeries::new(pts, color.stroke_width(2))) {
                        a.label(name.as_str())
                            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
                    }
                }
                let _ = chart
                    .configure_series_labels()
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .position(SeriesLabelPosition::UpperRight)
                    .draw();
            }};
        }
        if log_y {
            if let Ok(c) = builder.build_cartesian_2d(0f64..xmax, (1e-5f64..1.0f64).log_scale()) {
                draw!(c);
            }
        } else if let Ok(c) = builder.build_cartesian_2d(0f64..xmax, 0f64..1.05f64) {
            draw!(c);
        }
        let _ = root.present();
    }
    svg
}

fn plots(r: &SimResults) -> Vec<(String, String)> {
    let bin = r.scenario.metrics.distance_bin_m;
    let mut pdr: Vec<Series> = Vec::new();
    for v in &r.variants {
        let pts = |sel: fn(&crate::metrics::DistanceBin) -> u64| -> Vec<(f64, f64)> {
            v.pooled
                .bins
                .iter()
                .enumerate()
                .filter(|(_, b)| b.attempts > 0)
                .map(|(i, b)| ((i as f64 + 0.5) * bin, sel(b) as f64 / b.attempts as f64))
                .collect()
        };
        pdr.push((format!("{} network", v.name), pts(|b| b.received)));
        pdr.push((format!("{} verified", v.name), pts(|b| b.verified)));
    }
    let dist = |sel: fn(&RunMetrics) -> &Histogram, ccdf: bool, norm_by_received: bool| -> Vec<Series> {
        r.variants
            .iter()
            .map(|v| {
                let h = sel(&v.pooled);
                let total = if norm_by_received {
                    v.pooled.security_arrivals.max(1) as f64
                } else {
                    h.count.max(1) as f64
                };
                let mut pts = vec![(0.0, if ccdf { 1.0 } else { 0.0 })];
                for (x, c) in h.cumulative() {
                    let cdf = c as f64 / total;
                    pts.push((x, if ccdf { 1.0 - cdf } else { cdf }));
                }
                (v.name.clone(), pts)
            })
            .collect()
    };
    vec![
        (
            "pdr_vs_distance.svg".into(),
            line_chart("Packet delivery ratio vs distance", "distance (m)", "PDR", &pdr, false),
        ),
        (
            "mac_delay_ccdf.svg".into(),
            line_chart(
                "MAC delay CCDF",
                "MAC delay (ms)",
                "P(delay > x)",
                &dist(|m| &m.mac_delay, true, false),
                true,
            ),
        ),
        (
            "verification_latency_cdf.svg".into(),
            line_chart(
                "Verification latency CDF (share of CAMs received by the radio)",
                "latency from reception to verified (ms)",
                "fraction",
                &dist(|m| &m.verification_latency, false, true),
                false,
            ),
        ),
        (
            "e2e_delay_cdf.svg".into(),
            line_chart(
                "End-to-end delay CDF",
                "delay (ms)",
                "fraction",
                &dist(|m| &m.e2e_delay, false, false),
                false,
            ),
        ),
        (
            "inter_arrival_cdf.svg".into(),
            line_chart(
                "Inter-arrival time CDF",
                "inter-arrival (ms)",
                "fraction",
                &dist(|m| &m.inter_arrival, false, false),
                false,
            ),
        ),
    ]
}

fn report_html(r: &SimResults, sum: &Value, plots: &[(String, String)]) -> String {
    let sc = &r.scenario;
    let mut page = Page::new(&format!("v2x sim: {}", sc.name));
    page.h1(&format!("Simulation: {}", sc.name))
        .p(&sc.description)
        .p(&format!(
            "{} s simulated ({} s warm-up), {} replication(s), seed {}, wall time {:.2} s.",
            sc.duration_s, sc.warmup_s, sc.replications, sc.seed, r.wall_s
        ));
    let g = |v: &Value, path: &[&str]| -> Cell {
        let mut cur = v;
        for k in path {
            cur = &cur[*k];
        }
        Cell::with_class(cur.as_f64().map_or("-".into(), |x| format!("{x:.3}")), "num")
    };
    let text = |v: &Value, k: &str| Cell::from(v[k].as_str().unwrap_or(""));
    page.h2("Headline metrics").table(
        &[
            "variant",
            "protocol",
            "profile",
            "PDR network",
            "PDR verified",
            "crypto loss",
            "E2E mean (ms)",
            "inter-arrival mean (ms)",
            "awareness",
            "weighted awareness",
            "CBR",
            "query success",
        ],
        sum["variants"].as_array().into_iter().flatten().map(|v| {
            vec![
                text(v, "name"),
                text(v, "protocol"),
                text(v, "profile"),
                g(v, &["pdr_network", "mean"]),
                g(v, &["pdr_application", "mean"]),
                g(v, &["crypto_loss_ratio", "mean"]),
                g(v, &["e2e_delay_ms", "mean"]),
                g(v, &["inter_arrival_ms", "mean"]),
                g(v, &["awareness", "mean"]),
                g(v, &["weighted_awareness", "mean"]),
                g(v, &["channel_busy_ratio", "mean"]),
                g(v, &["query", "success_rate", "mean"]),
            ]
        }),
    );
    page.p(
        "PDR and crypto loss count receivers within the headline range; awareness is the share of neighbours \
         within the awareness radius verified within the window; weighted awareness weighs each by its position error.",
    );
    page.h2("Security costs and sizes used").table(
        &["variant", "role", "cost", "mean (µs)", "source"],
        r.variants.iter().flat_map(|v| {
            v.costs.iter().map(|c| {
                vec![
                    Cell::from(v.name.as_str()),
                    Cell::from(c.role),
                    Cell::from(c.key.clone().unwrap_or_default()),
                    Cell::with_class(format!("{:.2}", c.mean_us), "num"),
                    Cell::from(c.source.as_str()),
                ]
            })
        }),
    );
    page.table(
        &["variant", "overhead (B)", "with certificate (B)", "sizes from"],
        r.variants.iter().map(|v| {
            vec![
                Cell::from(v.name.as_str()),
                Cell::with_class(v.sizes.overhead_bytes.to_string(), "num"),
                Cell::with_class(v.sizes.overhead_with_certificate_bytes.to_string(), "num"),
                Cell::from(v.sizes.source.as_str()),
            ]
        }),
    );
    for (name, svg) in plots {
        page.h2(name).svg(svg);
    }
    page.h2("Resolved configuration").pre(&sc.to_toml());
    page.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_interval_uses_student_t() {
        let (m, ci) = mean_ci(&[1.0, 2.0, 3.0]);
        assert_eq!(m, 2.0);
        assert!((ci - 4.303 * (1.0f64 / 3.0).sqrt()).abs() < 1e-9);
        assert!(mean_ci(&[]).0.is_nan());
        assert!(mean_ci(&[5.0]).1.is_nan());
    }
}
