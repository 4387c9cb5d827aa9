//! The results folder: resolved configuration, `summary.json`, CSV tables (each with a typed
//! `.parquet` beside it; `results.csv` holds the tidy per-replication rows of [`crate::tidy`]),
//! SVG plots and a self-contained `report.html`.

use crate::error::SimError;
use crate::histogram::Histogram;
use crate::metrics::RunMetrics;
use crate::{SimResults, VariantResult};
use serde_json::{json, Value};
use std::path::Path;
use v2x_report::html::{Cell, Page};
use v2x_report::plot::{steps, Line, LineChart, Scale};
use v2x_report::stats::with_interval;

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

/// The fate of the CAMs the radio decoded within `range_m` of their sender, in one run:
/// shares verified, lost to security processing (deadline, TESLA key, unknown
/// certificate) and neither (still queued when the run ended, or rejected). Counted from
/// the distance bins that lie wholly within the range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecodedFate {
    pub verified: f64,
    pub crypto_lost: f64,
    pub neither: f64,
}

pub fn decoded_fate(m: &RunMetrics, bin_m: f64, range_m: f64) -> DecodedFate {
    let (mut received, mut verified, mut lost) = (0u64, 0u64, 0u64);
    for (k, b) in m.bins.iter().enumerate() {
        if (k + 1) as f64 * bin_m <= range_m + 1e-9 {
            received += b.received;
            verified += b.verified;
            lost += b.crypto_lost;
        }
    }
    if received == 0 {
        return DecodedFate {
            verified: f64::NAN,
            crypto_lost: f64::NAN,
            neither: f64::NAN,
        };
    }
    let (v, l) = (verified as f64 / received as f64, lost as f64 / received as f64);
    DecodedFate {
        verified: v,
        crypto_lost: l,
        neither: (1.0 - v - l).max(0.0),
    }
}

/// Headline metrics of one variant; `bin_m` and `range_m` are the scenario's distance bin
/// and headline range.
pub fn variant_summary(v: &VariantResult, bin_m: f64, range_m: f64) -> Value {
    let p = &v.pooled;
    let fate = |f: fn(&DecodedFate) -> f64| stat(&v.runs, |m| f(&decoded_fate(m, bin_m, range_m)));
    let sim_s: f64 = v.runs.iter().map(|r| r.wall_s).sum();
    json!({
        "name": v.name,
        "protocol": v.protocol,
        "profile": v.profile,
        "notes": v.notes,
        "security": { "costs": v.costs, "sizes": v.sizes, "settings": v.settings },
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
        "e2e_delay_ms": { "mean": num(p.e2e_delay.mean_ms()), "median": num(p.e2e_delay.quantile_ms(0.5)), "p99": num(p.e2e_delay.quantile_ms(0.99)), "over_replications": stat(&v.runs, |m| m.e2e_delay.mean_ms()) },
        "inter_arrival_ms": { "mean": num(p.inter_arrival.mean_ms()), "p99": num(p.inter_arrival.quantile_ms(0.99)), "over_replications": stat(&v.runs, |m| m.inter_arrival.mean_ms()) },
        // PDR network x share verified = PDR verified: where the CAMs decoded within the
        // headline range went (crypto_loss_ratio counts every distance).
        "decoded_within_headline_range": {
            "range_m": range_m,
            "verified": fate(|f| f.verified),
            "crypto_lost": fate(|f| f.crypto_lost),
            "neither": fate(|f| f.neither),
        },
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
        // Certificate copies received by stations that already held them (NDSS 2024's
        // "redundant" certificates, counted per reception), and P2PCD requests sent.
        "certificates": {
            "sent": p.certificates_sent,
            "share_of_cams": stat(&v.runs, RunMetrics::certificate_share),
            "received": p.certificates_received,
            "redundant": p.certificates_redundant,
            "redundancy": stat(&v.runs, RunMetrics::certificate_redundancy),
            "p2pcd_requests_sent": p.p2pcd_requests_sent,
        },
        "cams_generated": p.cams_generated,
        "frames_sent": p.frames_sent,
        "key_frames_sent": p.key_frames_sent,
        "mac_drops": p.mac_queue_drops + p.mac_delay_drops,
        // Larger than the access layer carries: refused, never sent (not in the PDR).
        "refused_oversize": {
            "frames": p.frames_refused_oversize,
            "cams": p.cams_refused_oversize,
            "cam_ratio": stat(&v.runs, RunMetrics::cams_refused_oversize_ratio),
        },
        "query": {
            "requests_sent": p.query.requests_sent,
            "requests_received": p.query.requests_received,
            "replies_received": p.query.replies_received,
            "success_rate": stat(&v.runs, RunMetrics::query_success_rate),
            "delay_ms_mean": num(p.query.delay.mean_ms()),
        },
        "relay": relay_summary(p),
        "sidelink": sidelink_summary(&v.runs, p),
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

/// The sidelink's scheduler and channel (null on 802.11p).
fn sidelink_summary(runs: &[RunMetrics], p: &RunMetrics) -> Value {
    let Some(s) = &p.sidelink else {
        return Value::Null;
    };
    let lost = |f: fn(&crate::metrics::LossBin) -> u64| s.losses.iter().map(f).sum::<u64>();
    let mut v = json!({
        "cbr": stat(runs, |r| r.sidelink.as_ref().map_or(f64::NAN, crate::metrics::SidelinkStats::cbr)),
        "transmissions": s.transmissions,
        "mean_subchannels": num(s.subchannels_used as f64 / s.transmissions as f64),
        "selections": { "new": s.selections_new, "counter": s.selections_counter, "size": s.selections_size, "kept": s.kept, "threshold_steps": s.threshold_steps },
        "one_shots": s.one_shots,
        "superseded": s.superseded,
        "oversize": s.oversize,
        "losses": { "half_duplex": lost(|b| b.half_duplex), "sensing": lost(|b| b.sensing), "propagation": lost(|b| b.propagation), "collision": lost(|b| b.collision) },
    });
    // NR-V2X's re-evaluations (absent where none ran: Mode 4's summary is unchanged).
    if s.reevaluations > 0 {
        v["re_evaluation"] = json!({ "runs": s.reevaluations, "moves": s.reevaluation_moves });
    }
    v
}

/// The multi-hop forwarding statistics, per hop count (null when no message was relayed).
fn relay_summary(p: &RunMetrics) -> Value {
    let r = &p.relay;
    if r.generated == 0 {
        return Value::Null;
    }
    json!({
        "generated": r.generated,
        "lost_deadline": r.lost_deadline,
        "duplicates": r.duplicates,
        "hops": r.hops.iter().enumerate().map(|(k, h)| json!({
            "hops": k + 1,
            "verified": h.e2e.count,
            "e2e_ms": { "mean": num(h.e2e.mean_ms()), "p99": num(h.e2e.quantile_ms(0.99)) },
            "per_hop_ms": { "mean": num(h.per_hop.mean_ms()), "p99": num(h.per_hop.quantile_ms(0.99)) },
            "at_receiver_ms": { "mean": num(h.at_receiver.mean_ms()), "p99": num(h.at_receiver.quantile_ms(0.99)) },
        })).collect::<Vec<_>>(),
    })
}

pub fn summary(r: &SimResults) -> Value {
    let (bin, range) = (r.scenario.metrics.distance_bin_m, r.scenario.metrics.headline_range_m);
    json!({
        "provenance": v2x_report::provenance::Provenance::now(),
        "warnings": r.warnings,
        "scenario": r.scenario.name,
        "description": r.scenario.description,
        "duration_s": r.scenario.duration_s,
        "warmup_s": r.scenario.warmup_s,
        "seed": r.scenario.seed,
        "replications": r.scenario.replications,
        "wall_s": r.wall_s,
        "variants": r.variants.iter().map(|v| variant_summary(v, bin, range)).collect::<Vec<_>>(),
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
    if r.variants.iter().any(|v| v.pooled.sidelink.is_some()) {
        write_table(dir, "sidelink_losses.csv", &sidelink_losses(r)?)?;
    }

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

    if r.scenario.relay.enabled {
        let mut hops = table(&[
            "variant",
            "hops",
            "generated",
            "verified",
            "e2e_ms_mean",
            "e2e_ms_max",
            "per_hop_ms_mean",
            "per_hop_ms_max",
            "at_receiver_ms_mean",
        ]);
        for v in &r.variants {
            let relay = &v.pooled.relay;
            for (k, h) in relay.hops.iter().enumerate() {
                row(
                    &mut hops,
                    [
                        v.name.clone(),
                        (k + 1).to_string(),
                        relay.generated.to_string(),
                        h.e2e.count.to_string(),
                        f(h.e2e.mean_ms()),
                        f(h.e2e.max_ns as f64 / 1e6),
                        f(h.per_hop.mean_ms()),
                        f(h.per_hop.max_ns as f64 / 1e6),
                        f(h.at_receiver.mean_ms()),
                    ],
                )?;
            }
        }
        write_table(dir, "relay_hops.csv", &finish(hops)?)?;
    }

    let figures = plots(r)?;
    let mut png_missing = None;
    for f in &figures {
        let written = v2x_report::plot::write_figure(dir, f.stem, &f.svg).map_err(|e| SimError::Output {
            path: dir.join(f.stem).display().to_string(),
            source: e,
        })?;
        png_missing = png_missing.or(written.png_missing);
    }
    write(
        dir,
        "report.html",
        &report_html(r, &sum, &figures, png_missing.as_deref()),
    )?;
    Ok(())
}

/// Per variant, replication (and all pooled) and distance bin: attempts, receptions and
/// losses by cause on the sidelink.
fn sidelink_losses(r: &SimResults) -> Result<String, SimError> {
    let bin = r.scenario.metrics.distance_bin_m;
    let mut t = table(&[
        "variant",
        "replication",
        "distance_from_m",
        "distance_to_m",
        "attempts",
        "received",
        "half_duplex",
        "sensing",
        "propagation",
        "collision",
        "pdr",
    ]);
    for v in &r.variants {
        let runs = v.runs.iter().enumerate().map(|(i, m)| (i.to_string(), m));
        for (rep, m) in runs.chain(std::iter::once(("pooled".to_string(), &v.pooled))) {
            let Some(s) = &m.sidelink else { continue };
            for (i, (b, l)) in m.bins.iter().zip(&s.losses).enumerate() {
                let pdr = if b.attempts == 0 {
                    f64::NAN
                } else {
                    b.received as f64 / b.attempts as f64
                };
                row(
                    &mut t,
                    [
                        v.name.clone(),
                        rep.clone(),
                        (i as f64 * bin).to_string(),
                        ((i + 1) as f64 * bin).to_string(),
                        b.attempts.to_string(),
                        b.received.to_string(),
                        l.half_duplex.to_string(),
                        l.sensing.to_string(),
                        l.propagation.to_string(),
                        l.collision.to_string(),
                        f(pdr),
                    ],
                )?;
            }
        }
    }
    finish(t)
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

/// A distribution of every variant as steps: CDF (or CCDF) over the histogram's counts,
/// normalised by `total` (the histogram's count, or the CAMs received).
fn distribution_lines(
    r: &SimResults,
    sel: fn(&RunMetrics) -> &Histogram,
    ccdf: bool,
    norm_by_received: bool,
) -> (Vec<Line>, Scale) {
    let cums: Vec<Vec<(f64, f64)>> = r
        .variants
        .iter()
        .map(|v| {
            let h = sel(&v.pooled);
            let total = if norm_by_received {
                v.pooled.security_arrivals.max(1) as f64
            } else {
                h.count.max(1) as f64
            };
            h.cumulative()
                .into_iter()
                .map(|(x, c)| {
                    let cdf = c as f64 / total;
                    (x, if ccdf { 1.0 - cdf } else { cdf })
                })
                .collect()
        })
        .collect();
    let x_scale = Scale::for_values(cums.iter().flatten().map(|p| p.0));
    let lines = r
        .variants
        .iter()
        .zip(cums)
        .enumerate()
        .map(|(i, (v, cum))| {
            let x0 = match x_scale {
                Scale::Linear => 0.0,
                Scale::Log => cum.first().map_or(1.0, |p| p.0),
            };
            Line {
                label: v.name.clone(),
                colour: i,
                points: steps(x0, if ccdf { 1.0 } else { 0.0 }, &cum),
                ..Line::default()
            }
        })
        .collect();
    (lines, x_scale)
}

/// PDR vs distance per variant: decoded by the radio (dashed) and verified (solid) in the
/// variant's colour, the mean over replications with its 95 % confidence interval.
fn pdr_lines(r: &SimResults) -> Vec<Line> {
    let bin = r.scenario.metrics.distance_bin_m;
    let mut lines = Vec::new();
    for (i, v) in r.variants.iter().enumerate() {
        let nbins = v.runs.iter().map(|m| m.bins.len()).max().unwrap_or(0);
        for (what, dashed, sel) in [
            (
                "decoded",
                true,
                (|b: &crate::metrics::DistanceBin| b.received) as fn(&crate::metrics::DistanceBin) -> u64,
            ),
            ("verified", false, |b: &crate::metrics::DistanceBin| b.verified),
        ] {
            let mut points = Vec::new();
            let mut band = Vec::new();
            for k in 0..nbins {
                let ratios: Vec<f64> = v
                    .runs
                    .iter()
                    .filter_map(|m| m.bins.get(k))
                    .filter(|b| b.attempts > 0)
                    .map(|b| sel(b) as f64 / b.attempts as f64)
                    .collect();
                if ratios.is_empty() {
                    continue;
                }
                let x = (k as f64 + 0.5) * bin;
                let (mean, ci) = mean_ci(&ratios);
                points.push((x, mean));
                if ci.is_finite() {
                    band.push((x, (mean - ci).max(0.0), (mean + ci).min(1.0)));
                }
            }
            lines.push(Line {
                label: format!("{} {what}", v.name),
                colour: i,
                dashed,
                points,
                band,
                ..Line::default()
            });
        }
    }
    lines
}

/// A figure of the report: its file stem, what it shows and the drawing.
pub struct Figure {
    pub stem: &'static str,
    pub title: String,
    pub caption: String,
    pub svg: String,
}

fn plots(r: &SimResults) -> Result<Vec<Figure>, SimError> {
    let reps = r.scenario.replications;
    let range = r.scenario.metrics.headline_range_m;
    let interval_note = if reps > 1 {
        format!("mean of {reps} replications; bars: 95 % confidence interval")
    } else {
        "one replication: no confidence interval".to_string()
    };
    let distribution_note = "steps of the streaming histogram (bins of 1/128 relative width)".to_string();
    struct Spec {
        stem: &'static str,
        chart: LineChart,
        caption: String,
    }
    let chart = |title: &str,
                 x_label: &str,
                 y_label: &str,
                 (lines, x_scale): (Vec<Line>, Scale),
                 y_scale,
                 y_range,
                 note: &str| LineChart {
        title: title.into(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        x_scale,
        y_scale,
        y_range,
        lines,
        note: Some(note.to_string()),
    };
    let specs = [
        Spec {
            stem: "pdr_vs_distance",
            chart: chart(
                "CAMs decoded and verified vs distance",
                "sender to receiver (m)",
                "delivery ratio",
                (pdr_lines(r), Scale::Linear),
                Scale::Linear,
                Some((0.0, 1.0)),
                &format!("dashed: decoded by the radio; solid: verified; {interval_note}"),
            ),
            caption: format!(
                "Share of the CAMs sent to receivers at each distance that the radio decoded (PDR network) and that \
                 were verified in time (PDR verified); the headline table counts receivers within {range} m."
            ),
        },
        Spec {
            stem: "mac_delay_ccdf",
            chart: chart(
                "Channel access delay of sent frames (CCDF)",
                "MAC delay (ms)",
                "P(delay > x)",
                distribution_lines(r, |m| &m.mac_delay, true, false),
                Scale::Log,
                Some((1e-5, 1.0)),
                &distribution_note,
            ),
            caption: "Time from a frame entering the MAC queue to the start of its transmission, all stations.".into(),
        },
        Spec {
            stem: "verification_latency_cdf",
            chart: chart(
                "Reception to verified: share of CAMs received (CDF)",
                "reception to verified (ms)",
                "share of CAMs received",
                distribution_lines(r, |m| &m.verification_latency, false, true),
                Scale::Linear,
                Some((0.0, 1.0)),
                "normalised by CAMs received by the radio (as paper 004 Fig. 5)",
            ),
            caption: "Queueing plus verification at the receiver; the curve ends below 1 by the share never verified."
                .into(),
        },
        Spec {
            stem: "e2e_delay_cdf",
            chart: chart(
                "End-to-end delay of verified CAMs (CDF)",
                "generation to verified (ms)",
                "fraction of verified CAMs",
                distribution_lines(r, |m| &m.e2e_delay, false, false),
                Scale::Linear,
                Some((0.0, 1.0)),
                &distribution_note,
            ),
            caption: "From the sender's generation to the receiver's verification, CAMs verified in time.".into(),
        },
        Spec {
            stem: "inter_arrival_cdf",
            chart: chart(
                "Time between verified CAMs of one sender (CDF)",
                "inter-arrival (ms)",
                "fraction",
                distribution_lines(r, |m| &m.inter_arrival, false, false),
                Scale::Linear,
                Some((0.0, 1.0)),
                &distribution_note,
            ),
            caption: "Gap between two consecutive verified CAMs of the same sender at a receiver.".into(),
        },
    ];
    specs
        .into_iter()
        .map(|s| {
            Ok(Figure {
                stem: s.stem,
                title: s.chart.title.clone(),
                caption: s.caption,
                svg: s.chart.render().map_err(|e| SimError::Plot(e.to_string()))?,
            })
        })
        .collect()
}

/// `mean [low–high]` of a summary statistic (`{mean, ci95}`), three decimals.
fn interval_cell(v: &Value) -> Cell {
    let (m, ci) = (
        v["mean"].as_f64().unwrap_or(f64::NAN),
        v["ci95"].as_f64().unwrap_or(f64::NAN),
    );
    Cell::with_class(with_interval(m, ci, |x| format!("{x:.3}")), "num")
}

fn report_html(r: &SimResults, sum: &Value, figures: &[Figure], png_missing: Option<&str>) -> String {
    let sc = &r.scenario;
    let mut page = Page::new(&format!("v2x sim: {}", sc.name));
    page.h1(&format!("Simulation: {}", sc.name))
        .p(&sc.description)
        .p(&format!(
            "{} s simulated ({} s warm-up), {} replication(s), seed {}, wall time {:.2} s.",
            sc.duration_s, sc.warmup_s, sc.replications, sc.seed, r.wall_s
        ));
    if !r.warnings.is_empty() {
        page.h2("Warnings").list(&r.warnings);
    }
    let variants = || sum["variants"].as_array().into_iter().flatten();
    let text = |v: &Value, k: &str| Cell::from(v[k].as_str().unwrap_or(""));
    let range = sc.metrics.headline_range_m;
    page.h2("Headline metrics").p(&format!(
        "Each value is the mean over replications with its 95 % confidence interval (Student t) in brackets; \
         PDR and crypto loss are counted as described below the table, within {range} m where stated."
    ));
    page.table(
        &[
            "variant",
            "protocol",
            "profile",
            "PDR network",
            "PDR verified",
            "crypto loss (all distances)",
            "E2E mean (ms)",
            "inter-arrival mean (ms)",
            "awareness",
            "weighted awareness",
            "CBR",
            "query success",
        ],
        variants().map(|v| {
            vec![
                text(v, "name"),
                text(v, "protocol"),
                text(v, "profile"),
                interval_cell(&v["pdr_network"]),
                interval_cell(&v["pdr_application"]),
                interval_cell(&v["crypto_loss_ratio"]),
                interval_cell(&v["e2e_delay_ms"]["over_replications"]),
                interval_cell(&v["inter_arrival_ms"]["over_replications"]),
                interval_cell(&v["awareness"]),
                interval_cell(&v["weighted_awareness"]),
                interval_cell(&v["channel_busy_ratio"]),
                interval_cell(&v["query"]["success_rate"]),
            ]
        }),
    );
    page.p(&format!(
        "What each counts. PDR network: of the CAMs sent to receivers within {range} m, the share the radio decoded. \
         PDR verified: of the same CAMs, the share verified in time; so PDR verified = PDR network x the share of \
         decoded CAMs verified. Crypto loss: of every CAM the radio decoded, at any distance, the share lost to \
         security processing (deadline, TESLA key missing, unknown certificate); it is not the gap between the two \
         PDRs, which also holds CAMs neither verified nor lost (still waiting in a verification queue when the run \
         ended, or rejected). Awareness: the share of neighbours within the awareness radius verified within the \
         window; weighted awareness weighs each by its position error."
    ));
    page.h3(&format!("Where the CAMs decoded within {range} m went")).table(
        &[
            "variant",
            "verified",
            "lost to security processing",
            "neither (queued at the end, rejected)",
        ],
        variants().map(|v| {
            let f = &v["decoded_within_headline_range"];
            vec![
                text(v, "name"),
                interval_cell(&f["verified"]),
                interval_cell(&f["crypto_lost"]),
                interval_cell(&f["neither"]),
            ]
        }),
    );
    page.h2("Security costs, sizes and settings used").p(
        "Every cost with its profile key and how it was chosen: `scenario` when the variant names it, `default` with \
         the defaults that picked it (the protocol's curve, the beacon message, the signer form).",
    );
    page.table(
        &["variant", "role", "cost", "mean (µs)", "source", "chosen by"],
        r.variants.iter().flat_map(|v| {
            v.costs.iter().map(|c| {
                vec![
                    Cell::from(v.name.as_str()),
                    Cell::from(c.role),
                    Cell::from(c.key.clone().unwrap_or_default()),
                    Cell::with_class(format!("{:.2}", c.mean_us), "num"),
                    Cell::from(c.source.as_str()),
                    Cell::from(c.chosen_by.as_str()),
                ]
            })
        }),
    );
    page.table(
        &["variant", "setting", "value", "set by"],
        r.variants.iter().flat_map(|v| {
            v.settings.iter().map(|s| {
                vec![
                    Cell::from(v.name.as_str()),
                    Cell::from(s.name),
                    Cell::with_class(s.value.clone(), "num"),
                    Cell::from(s.from.as_str()),
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
    let notes: Vec<String> = r
        .variants
        .iter()
        .flat_map(|v| v.notes.iter().map(move |n| format!("{}: {n}", v.name)))
        .collect();
    if !notes.is_empty() {
        page.h3("Notes and warnings").list(notes);
    }
    page.h2("Figures");
    if let Some(why) = png_missing {
        page.p(&format!("PNG copies not written: {why}"));
    }
    for (i, f) in figures.iter().enumerate() {
        page.h3(&format!("Figure {}. {}", i + 1, f.title))
            .figure(&f.svg, &format!("{} Files: {}.svg, {}.png.", f.caption, f.stem, f.stem));
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
