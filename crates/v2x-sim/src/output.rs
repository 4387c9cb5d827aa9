//! The results folder: resolved configuration, `summary.json`, CSV tables, SVG plots and a
//! self-contained `report.html`.

use crate::error::SimError;
use crate::histogram::Histogram;
use crate::metrics::RunMetrics;
use crate::{SimResults, VariantResult};
use plotters::prelude::*;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// Two-sided 95% Student t quantile for `df` degrees of freedom.
fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    T.get(df.wrapping_sub(1)).copied().unwrap_or(1.96)
}

/// Mean over replications and the half-width of its 95% confidence interval.
pub fn mean_ci(values: &[f64]) -> (f64, f64) {
    let v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, t95(v.len() - 1) * (var / n).sqrt())
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

fn write(dir: &Path, name: &str, text: &str) -> Result<(), SimError> {
    let p = dir.join(name);
    std::fs::write(&p, text).map_err(|e| SimError::Output {
        path: p.display().to_string(),
        message: e.to_string(),
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
        message: e.to_string(),
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

    let bin = r.scenario.metrics.distance_bin_m;
    let mut pdr = String::from(
        "variant,distance_from_m,distance_to_m,attempts,received,verified,crypto_lost,pdr_network,pdr_application\n",
    );
    for v in &r.variants {
        for (i, b) in v.pooled.bins.iter().enumerate() {
            let ratio = |a: u64| {
                if b.attempts == 0 {
                    f64::NAN
                } else {
                    a as f64 / b.attempts as f64
                }
            };
            let _ = writeln!(
                pdr,
                "{},{},{},{},{},{},{},{},{}",
                v.name,
                i as f64 * bin,
                (i + 1) as f64 * bin,
                b.attempts,
                b.received,
                b.verified,
                b.crypto_lost,
                f(ratio(b.received)),
                f(ratio(b.verified))
            );
        }
    }
    write(dir, "pdr_vs_distance.csv", &pdr)?;

    let mut dist = String::from("variant,metric,value_ms,count_at_or_below,cdf,ccdf\n");
    for v in &r.variants {
        for (metric, h) in histograms(&v.pooled) {
            for (x, c) in h.cumulative() {
                let cdf = c as f64 / h.count as f64;
                let _ = writeln!(dist, "{},{},{},{},{},{}", v.name, metric, f(x), c, f(cdf), f(1.0 - cdf));
            }
        }
    }
    write(dir, "delay_distributions.csv", &dist)?;

    let mut rows = String::from("variant,replication,pdr_network,pdr_application,crypto_loss_ratio,awareness,weighted_awareness,channel_busy_ratio,e2e_delay_ms_mean,query_success_rate,receptions,wall_s\n");
    for v in &r.variants {
        for (k, m) in v.runs.iter().enumerate() {
            let _ = writeln!(
                rows,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
                v.name,
                k,
                f(m.pdr_network()),
                f(m.pdr_application()),
                f(m.crypto_loss_ratio()),
                f(m.awareness()),
                f(m.weighted_awareness()),
                f(m.channel_busy_ratio()),
                f(m.e2e_delay.mean_ms()),
                f(m.query_success_rate()),
                m.receptions,
                f(m.wall_s)
            );
        }
    }
    write(dir, "runs.csv", &rows)?;

    if r.scenario.metrics.per_pair_counts {
        let mut pairs = String::from("variant,sender,receiver,sent,received_mean,verified_mean\n");
        for v in &r.variants {
            let reps = v.runs.len().max(1) as f64;
            for ((s, d), c) in &v.pooled.per_pair {
                let sent = v.pooled.per_node_sent.get(s).copied().unwrap_or(0) as f64 / reps;
                let _ = writeln!(
                    pairs,
                    "{},{},{},{},{},{}",
                    v.name,
                    s,
                    d,
                    f(sent),
                    f(c.received as f64 / reps),
                    f(c.verified as f64 / reps)
                );
            }
        }
        write(dir, "per_pair_counts.csv", &pairs)?;
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

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn report_html(r: &SimResults, sum: &Value, plots: &[(String, String)]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>v2x sim: {}</title><style>body{{font-family:sans-serif;max-width:1100px;margin:auto}}table{{border-collapse:collapse}}td,th{{border:1px solid #aaa;padding:3px 8px;text-align:right}}th{{background:#eee}}</style></head><body>",
        esc(&r.scenario.name)
    );
    let _ = write!(
        h,
        "<h1>Simulation: {}</h1><p>{}</p><p>{} s simulated ({} s warm-up), {} replication(s), seed {}, wall time {:.2} s.</p>",
        esc(&r.scenario.name),
        esc(&r.scenario.description),
        r.scenario.duration_s,
        r.scenario.warmup_s,
        r.scenario.replications,
        r.scenario.seed,
        r.wall_s
    );
    h.push_str("<h2>Headline metrics</h2><table><tr><th>variant</th><th>protocol</th><th>profile</th><th>PDR network</th><th>PDR verified</th><th>crypto loss</th><th>E2E mean (ms)</th><th>inter-arrival mean (ms)</th><th>awareness</th><th>weighted awareness</th><th>CBR</th><th>query success</th></tr>");
    let g = |v: &Value, path: &[&str]| -> String {
        let mut cur = v;
        for k in path {
            cur = &cur[*k];
        }
        cur.as_f64().map_or("-".into(), |x| format!("{x:.3}"))
    };
    if let Some(vs) = sum["variants"].as_array() {
        for v in vs {
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(v["name"].as_str().unwrap_or("")),
                esc(v["protocol"].as_str().unwrap_or("")),
                esc(v["profile"].as_str().unwrap_or("")),
                g(v, &["pdr_network", "mean"]),
                g(v, &["pdr_application", "mean"]),
                g(v, &["crypto_loss_ratio", "mean"]),
                g(v, &["e2e_delay_ms", "mean"]),
                g(v, &["inter_arrival_ms", "mean"]),
                g(v, &["awareness", "mean"]),
                g(v, &["weighted_awareness", "mean"]),
                g(v, &["channel_busy_ratio", "mean"]),
                g(v, &["query", "success_rate", "mean"]),
            );
        }
    }
    h.push_str("</table><p>PDR and crypto loss count receivers within the headline range; awareness is the share of neighbours within the awareness radius verified within the window; weighted awareness weighs each by its position error.</p>");
    for (name, svg) in plots {
        let _ = write!(
            h,
            "<h2>{}</h2>{}",
            esc(name),
            svg.trim_start_matches(|c| c != '<')
                .replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "")
        );
    }
    let _ = write!(
        h,
        "<h2>Resolved configuration</h2><pre>{}</pre></body></html>",
        esc(&r.scenario.to_toml())
    );
    h
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
