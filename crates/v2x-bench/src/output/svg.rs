//! SVG plots: ops/s per procedure, latency per curve, overhead per procedure. Dot charts
//! ([`v2x_report::plot::DotChart`]), one row per measurement so that long labels stay
//! readable, each dot with the spread of its samples and coloured by operation.

use crate::result::{BenchResult, Measurement};
use crate::{BenchError, Suite};
use v2x_profile::{CurveId, Level, Operation, SignerKind};
use v2x_report::plot::{Dot, DotChart, Scale};

/// One figure: file stem, what it shows, a caption, the SVG.
pub struct Figure {
    pub stem: &'static str,
    pub title: &'static str,
    pub caption: &'static str,
    pub svg: String,
}

/// The three figures.
pub struct Plots {
    pub ops_per_sec: Figure,
    pub latency_per_curve: Figure,
    pub overhead: Figure,
}

impl Plots {
    pub fn all(&self) -> [&Figure; 3] {
        [&self.ops_per_sec, &self.latency_per_curve, &self.overhead]
    }
}

fn is_reference_stack(m: &Measurement) -> bool {
    m.suite == Suite::Stack && m.variant.curve == Some(CurveId::P256) && m.payload_bytes == Some(100)
}

fn short(m: &Measurement) -> String {
    format!("{} {} {}", m.protocol, m.operation, m.variant)
}

/// The colour groups: an operation each (what a reader compares across rows).
const GROUPS: [&str; 7] = [
    "sign / encap",
    "verify / decap",
    "ECDH",
    "encrypt",
    "decrypt",
    "other",
    "bytes added",
];

fn group(op: Operation) -> usize {
    match op {
        Operation::Sign | Operation::Encap => 0,
        Operation::Verify | Operation::Decap => 1,
        Operation::Ecdh => 2,
        _ => {
            let name = op.to_string();
            if name.contains("encrypt") || name.contains("wrap") {
                3
            } else if name.contains("decrypt") || name.contains("unwrap") {
                4
            } else {
                5
            }
        }
    }
}

/// The latency at quantile `q` (one of the profile quantiles), if measured.
fn quantile(m: &Measurement, q: f64) -> Option<f64> {
    m.latency
        .quantiles
        .iter()
        .find(|(x, _)| (x - q).abs() < 1e-9)
        .map(|(_, v)| *v)
}

fn chart(title: &str, x_label: &str, dots: Vec<Dot>, note: &str, log_if_wide: bool) -> Result<String, BenchError> {
    let x_scale = if log_if_wide {
        Scale::for_values(dots.iter().map(|d| d.value))
    } else {
        Scale::Linear
    };
    // Colours are those of the operation; only the groups present get a legend row.
    DotChart {
        title: title.into(),
        x_label: x_label.into(),
        x_scale,
        dots,
        groups: GROUPS.iter().map(|g| (*g).to_string()).collect(),
        note: Some(note.into()),
    }
    .render()
    .map_err(|e| BenchError::Plot(e.to_string()))
}

pub fn all(r: &BenchResult) -> Result<Plots, BenchError> {
    // ops/s per procedure: raw P-256 ECDSA, the stack at P-256 / 100 B, every protocol.
    let mut ops: Vec<Dot> = r
        .measurements
        .iter()
        .filter(|m| {
            (m.suite == Suite::Raw
                && m.variant.curve == Some(CurveId::P256)
                && matches!(m.operation, Operation::Sign | Operation::Verify))
                || is_reference_stack(m)
                || m.suite == Suite::Protocols
        })
        .map(|m| Dot {
            label: short(m),
            group: group(m.operation),
            value: m.latency.ops_per_sec_robust(),
            spread: quantile(m, 0.95)
                .zip(quantile(m, 0.05))
                .map(|(slow, fast)| (1e6 / slow, 1e6 / fast)),
        })
        .collect();
    ops.truncate(60);

    // Latency per curve: raw sign/verify/ECDH and the stack's sign-only digest CAM per curve.
    let mut lat: Vec<Dot> = Vec::new();
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
                lat.push(Dot {
                    label: format!("{curve}: {} {}", m.protocol, m.operation),
                    group: group(m.operation),
                    value: m.latency.median_us,
                    spread: quantile(m, 0.05).zip(quantile(m, 0.95)),
                });
            }
        }
    }
    lat.truncate(60);

    // Overhead per procedure: bytes a protocol adds (encap side).
    let mut over: Vec<Dot> = r
        .measurements
        .iter()
        .filter(|m| m.operation == Operation::Encap && m.overhead_bytes.is_some())
        .filter(|m| m.suite == Suite::Protocols || is_reference_stack(m))
        .filter_map(|m| {
            m.overhead_bytes.map(|b| Dot {
                label: format!("{} {}", m.protocol, m.variant),
                group: 6,
                value: b as f64,
                spread: None,
            })
        })
        .collect();
    over.truncate(60);

    let spread = "dot: median; line: 5th to 95th percentile of the samples";
    let figure = |stem, title, caption, x_label, dots, note, log| -> Result<Figure, BenchError> {
        Ok(Figure {
            stem,
            title,
            caption,
            svg: chart(title, x_label, dots, note, log)?,
        })
    };
    Ok(Plots {
        ops_per_sec: figure(
            "ops_per_sec",
            "Operations per second on one core, by procedure",
            "Raw P-256 ECDSA, the IEEE 1609.2 stack at P-256 with a 100-byte payload, and every protocol's \
             ENCAP/DECAP; rate = 1e6 / median latency.",
            "ops/s (1e6 / median latency)",
            ops,
            spread,
            true,
        )?,
        latency_per_curve: figure(
            "latency_per_curve",
            "Sign, verify and ECDH latency by curve",
            "Raw primitives and the stack's digest-signed 100-byte message per curve (median and 5th-95th \
             percentiles).",
            "latency (µs)",
            lat,
            spread,
            true,
        )?,
        overhead: figure(
            "overhead",
            "Bytes each protocol adds to a message",
            "Security overhead measured on the encoded messages (ENCAP side), per protocol and layout.",
            "bytes added to the payload",
            over,
            "bytes the protocol adds to a message (encap side)",
            false,
        )?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_keep_their_colour_group() {
        assert_eq!(group(Operation::Sign), group(Operation::Encap));
        assert_eq!(group(Operation::Verify), group(Operation::Decap));
        assert_ne!(group(Operation::Sign), group(Operation::Verify));
    }

    #[test]
    fn draws_dots_and_empty_charts() {
        let dot = |label: &str, value| Dot {
            label: label.into(),
            group: 0,
            value,
            spread: Some((value * 0.9, value * 1.2)),
        };
        let svg = chart("t", "x", vec![dot("a", 10.0), dot("b", 5000.0)], "note", true).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>") && svg.contains("<circle"));
        assert!(
            svg.contains("(log scale)"),
            "a range of two decades is drawn on a log axis"
        );
        let svg = chart("empty", "x", vec![], "note", false).unwrap();
        assert!(svg.contains("nothing measured"));
    }
}
