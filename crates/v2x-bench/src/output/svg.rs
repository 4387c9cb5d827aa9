//! SVG plots (plotters, SVG backend): ops/s per procedure, latency per curve, overhead per
//! procedure. Horizontal bars, one per measurement, so long labels stay readable.

use crate::result::{BenchResult, Measurement};
use crate::{BenchError, Suite};
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use v2x_profile::{CurveId, Level, Operation, SignerKind};

/// The three plots as SVG documents.
pub struct Plots {
    pub ops_per_sec: String,
    pub latency_per_curve: String,
    pub overhead: String,
}

fn plot_err<E: std::fmt::Display>(e: E) -> BenchError {
    BenchError::Plot(e.to_string())
}

/// Horizontal bar chart; `log` uses a logarithmic value axis.
pub fn bars(title: &str, axis: &str, items: &[(String, f64)], log: bool) -> Result<String, BenchError> {
    let mut out = String::new();
    let n = items.len().max(1);
    let height = (90 + 22 * n) as u32;
    {
        let root = SVGBackend::with_string(&mut out, (960, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        if items.is_empty() {
            root.draw(&Text::new(
                format!("{title}: nothing measured"),
                (20, 40),
                ("sans-serif", 16),
            ))
            .map_err(plot_err)?;
            root.present().map_err(plot_err)?;
            drop(root);
            return Ok(out);
        }
        let max = items.iter().map(|(_, v)| *v).fold(f64::MIN_POSITIVE, f64::max) * 1.15;
        let min_pos = items
            .iter()
            .map(|(_, v)| *v)
            .filter(|v| *v > 0.0)
            .fold(f64::INFINITY, f64::min);
        let labels: Vec<String> = items.iter().map(|(l, _)| l.clone()).collect();
        let label_area = (labels.iter().map(|l| l.chars().count()).max().unwrap_or(10) as u32 * 7 + 10).min(460);
        let y_fmt = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => usize::try_from(*i)
                .ok()
                .and_then(|i| labels.get(i))
                .cloned()
                .unwrap_or_default(),
            SegmentValue::Last => String::new(),
        };
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(label_area);
        let y_range = (0..n as i32).into_segmented();
        if log {
            let lo = (min_pos / 2.0).max(1e-3);
            let mut chart = builder
                .build_cartesian_2d((lo..max).log_scale(), y_range)
                .map_err(plot_err)?;
            chart
                .configure_mesh()
                .x_desc(axis)
                .y_labels(n)
                .y_label_formatter(&y_fmt)
                .disable_y_mesh()
                .label_style(("sans-serif", 11))
                .draw()
                .map_err(plot_err)?;
            chart
                .draw_series(items.iter().enumerate().map(|(i, (_, v))| {
                    let i = i as i32;
                    Rectangle::new(
                        [(lo, SegmentValue::Exact(i)), (v.max(lo), SegmentValue::Exact(i + 1))],
                        BLUE.mix(0.6).filled(),
                    )
                }))
                .map_err(plot_err)?;
        } else {
            let mut chart = builder.build_cartesian_2d(0f64..max, y_range).map_err(plot_err)?;
            chart
                .configure_mesh()
                .x_desc(axis)
                .y_labels(n)
                .y_label_formatter(&y_fmt)
                .disable_y_mesh()
                .label_style(("sans-serif", 11))
                .draw()
                .map_err(plot_err)?;
            chart
                .draw_series(items.iter().enumerate().map(|(i, (_, v))| {
                    let i = i as i32;
                    Rectangle::new(
                        [(0.0, SegmentValue::Exact(i)), (*v, SegmentValue::Exact(i + 1))],
                        GREEN.mix(0.6).filled(),
                    )
                }))
                .map_err(plot_err)?;
        }
        root.present().map_err(plot_err)?;
    }
    Ok(out)
}

fn is_reference_stack(m: &Measurement) -> bool {
    m.suite == Suite::Stack && m.variant.curve == Some(CurveId::P256) && m.payload_bytes == Some(100)
}

fn short(m: &Measurement) -> String {
    format!("{} {} {}", m.protocol, m.operation, m.variant)
}

pub fn all(r: &BenchResult) -> Result<Plots, BenchError> {
    // ops/s per procedure: raw P-256 ECDSA, the stack at P-256 / 100 B, every protocol.
    let mut ops: Vec<(String, f64)> = r
        .measurements
        .iter()
        .filter(|m| {
            (m.suite == Suite::Raw
                && m.variant.curve == Some(CurveId::P256)
                && matches!(m.operation, Operation::Sign | Operation::Verify))
                || is_reference_stack(m)
                || m.suite == Suite::Protocols
        })
        .map(|m| (short(m), m.latency.ops_per_sec_robust()))
        .collect();
    ops.truncate(60);

    // Latency per curve: raw sign/verify and the stack's sign-only digest CAM per curve.
    let mut lat: Vec<(String, f64)> = Vec::new();
    use CurveId::*;
    for curve in [P192, P224, P256, Bp256, P384, Bp384] {
        for m in r.measurements.iter().filter(|m| m.variant.curve == Some(curve)) {
            let wanted = (m.suite == Suite::Raw
                && matches!(m.operation, Operation::Sign | Operation::Verify | Operation::Ecdh))
                || (m.suite == Suite::Stack
                    && m.variant.level == Some(Level::Sign)
                    && m.variant.signer == Some(SignerKind::Digest)
                    && m.payload_bytes == Some(100));
            if wanted {
                lat.push((format!("{curve}: {} {}", m.protocol, m.operation), m.latency.median_us));
            }
        }
    }
    lat.truncate(60);

    // Overhead per procedure: bytes a protocol adds (encap side).
    let mut over: Vec<(String, f64)> = r
        .measurements
        .iter()
        .filter(|m| m.operation == Operation::Encap && m.overhead_bytes.is_some())
        .filter(|m| m.suite == Suite::Protocols || is_reference_stack(m))
        .filter_map(|m| {
            m.overhead_bytes
                .map(|b| (format!("{} {}", m.protocol, m.variant), b as f64))
        })
        .collect();
    over.truncate(60);

    Ok(Plots {
        ops_per_sec: bars(
            "Operations per second, one core (1e6 / median latency)",
            "ops/s (log scale)",
            &ops,
            true,
        )?,
        latency_per_curve: bars("Latency per curve (µs, median)", "µs (log scale)", &lat, true)?,
        overhead: bars(
            "Security overhead per procedure (bytes added to the payload)",
            "bytes",
            &over,
            false,
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_bars_and_empty_charts() {
        let svg = bars("t", "x", &[("a".into(), 10.0), ("b".into(), 1000.0)], true).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>") && svg.contains("<rect"));
        let svg = bars("t", "x", &[("a".into(), 3.0)], false).unwrap();
        assert!(svg.contains("<rect"));
        let svg = bars("empty", "x", &[], false).unwrap();
        assert!(svg.contains("nothing measured"));
    }
}
