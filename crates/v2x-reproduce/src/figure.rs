//! Paper versus ours for a simulated scenario, as a journal-column SVG: one category per
//! published statistic, one colour per variant in both panels (those of
//! [`v2x_report::plot`]), our mean (filled circle) with its 95% confidence interval over
//! replications (bar), the paper's value (hollow triangle) beside it, fractions on a linear
//! 0-1 axis and delays on a log axis (their range spans three decades), the legend below
//! the plot.

use crate::sim::value_of;
use plotters::coord::Shift;
use plotters::prelude::*;
use v2x_bench::metric::Metric;
use v2x_bench::papers::PaperValue;
use v2x_model::figures::FigureError;
use v2x_report::plot::colour;
use v2x_sim::SimResults;

const WIDTH: u32 = 480;
const PLOT_HEIGHT: u32 = 330;
const FONT: &str = "sans-serif";

fn err<E: std::fmt::Display>(e: E) -> FigureError {
    FigureError::Draw(e.to_string())
}

/// One point: category, variant index, ours (mean, CI half-width), the paper's value.
struct Point {
    category: usize,
    variant: usize,
    ours: Option<(f64, f64)>,
    paper: f64,
}

/// The figure of `metric` (fractions or delays) for `entries` of one scenario; None when
/// no entry has that metric.
pub fn comparison(
    title: &str,
    metric: Metric,
    entries: &[&PaperValue],
    results: &SimResults,
) -> Result<Option<String>, FigureError> {
    let entries: Vec<&&PaperValue> = entries.iter().filter(|e| e.metric == metric).collect();
    if entries.is_empty() {
        return Ok(None);
    }
    let variants: Vec<String> = results.variants.iter().map(|v| v.name.clone()).collect();
    let mut categories: Vec<String> = Vec::new();
    let mut points = Vec::new();
    for e in &entries {
        let Some(m) = &e.sim else { continue };
        let label = short(&e.source, &e.procedure);
        let category = match categories.iter().position(|c| *c == label) {
            Some(i) => i,
            None => {
                categories.push(label);
                categories.len() - 1
            }
        };
        let Some(variant) = variants.iter().position(|v| *v == m.variant) else {
            continue;
        };
        points.push(Point {
            category,
            variant,
            ours: value_of(results, m).map(|o| (o.value, o.half_width())),
            paper: e.value,
        });
    }
    let log = metric == Metric::DelayMs;
    let legend_rows = variants.len() as u32 + 1;
    let height = PLOT_HEIGHT + 60 + legend_rows * 20;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_vertically(PLOT_HEIGHT + 50);
        let n = categories.len() as f64;
        let x = -0.5..(n - 0.5);
        let labels = categories.clone();
        let x_fmt = move |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        let offset = |p: &Point| p.category as f64 + (p.variant as f64 - (variants.len() as f64 - 1.0) / 2.0) * 0.2;
        if log {
            let mut chart = ChartBuilder::on(&plot)
                .caption(title, (FONT, 16))
                .margin(8)
                .x_label_area_size(60)
                .y_label_area_size(60)
                .build_cartesian_2d(x, (0.1f64..1000.0).log_scale())
                .map_err(err)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(categories.len() * 2 + 1)
                .x_label_formatter(&x_fmt)
                .y_desc("delay (ms, log scale)")
                .y_label_formatter(&|v| format!("{v}"))
                .axis_desc_style((FONT, 15))
                .label_style((FONT, 12))
                .bold_line_style(RGBColor(225, 225, 225))
                .light_line_style(WHITE)
                .draw()
                .map_err(err)?;
            draw_points(&mut chart, &points, offset, 0.1)?;
        } else {
            let mut chart = ChartBuilder::on(&plot)
                .caption(title, (FONT, 16))
                .margin(8)
                .x_label_area_size(60)
                .y_label_area_size(60)
                .build_cartesian_2d(x, 0f64..1.0)
                .map_err(err)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(categories.len() * 2 + 1)
                .x_label_formatter(&x_fmt)
                .y_desc("fraction")
                .y_label_formatter(&|v| format!("{v:.1}"))
                .axis_desc_style((FONT, 15))
                .label_style((FONT, 12))
                .bold_line_style(RGBColor(225, 225, 225))
                .light_line_style(WHITE)
                .draw()
                .map_err(err)?;
            draw_points(&mut chart, &points, offset, 0.0)?;
        }
        draw_legend(&legend, &variants)?;
        root.present().map_err(err)?;
    }
    Ok(Some(svg))
}

/// An axis label that fits a column-width category: `F17 PDR`, `T7 query E2E`.
fn short(source: &str, procedure: &str) -> String {
    let src = source.replace("Fig. ", "F").replace("Table ", "T");
    let what = if procedure.contains("PDR") {
        "PDR"
    } else if procedure.contains("loss ratio") {
        "CLR"
    } else if procedure.contains("awareness") {
        "awareness"
    } else if procedure.contains("success") {
        "query ok"
    } else if procedure.contains("query") {
        "query E2E"
    } else if procedure.contains("inter-arrival") {
        "inter-arrival"
    } else if procedure.contains("end-to-end") {
        "E2E"
    } else {
        procedure
    };
    format!("{src} {what}")
}

fn draw_points<X, Y>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    points: &[Point],
    offset: impl Fn(&Point) -> f64,
    floor: f64,
) -> Result<(), FigureError>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    for p in points {
        let colour = colour(p.variant);
        let x = offset(p);
        let area = chart.plotting_area();
        if let Some((v, ci)) = p.ours {
            if ci.is_finite() && ci > 0.0 {
                area.draw(&PathElement::new(
                    vec![(x, (v - ci).max(floor)), (x, v + ci)],
                    colour.stroke_width(2),
                ))
                .map_err(err)?;
            }
            area.draw(&Circle::new((x, v.max(floor)), 4, colour.filled()))
                .map_err(err)?;
        }
        area.draw(&TriangleMarker::new(
            (x + 0.07, p.paper.max(floor)),
            6,
            colour.stroke_width(2),
        ))
        .map_err(err)?;
    }
    Ok(())
}

fn draw_legend(area: &DrawingArea<SVGBackend<'_>, Shift>, variants: &[String]) -> Result<(), FigureError> {
    for (i, v) in variants.iter().enumerate() {
        let colour = colour(i);
        let y = 10 + i as i32 * 20;
        area.draw(&Circle::new((70, y), 4, colour.filled())).map_err(err)?;
        area.draw(&TriangleMarker::new((90, y), 6, colour.stroke_width(2)))
            .map_err(err)?;
        area.draw(&Text::new(
            format!("{v}: ours (mean, 95% CI bar) | paper"),
            (104, y - 7),
            (FONT, 13),
        ))
        .map_err(err)?;
    }
    let y = 10 + variants.len() as i32 * 20;
    area.draw(&Text::new(
        "paper values read from its text; 'up to' values beside our largest point over distance",
        (70, y - 7),
        (FONT, 12),
    ))
    .map_err(err)?;
    Ok(())
}

/// Paper 003's relay chains, one figure per cost set: delay until the vehicle k hops away
/// has verified the message against k, the closed form (dashed, once: it is the same for
/// every chain of the cost set) and each chain's simulation (solid, a marker per hop count).
/// Returns (cost set, SVG) pairs.
pub fn relay_chain(chains: &[v2x_model::relay::ChainComparison]) -> Result<Vec<(String, String)>, FigureError> {
    use v2x_report::plot::{Line, LineChart, Scale};
    let mut sets: Vec<&str> = chains.iter().map(|c| c.costs.as_str()).collect();
    sets.dedup();
    let mut out = Vec::new();
    for set in sets {
        let of_set: Vec<&v2x_model::relay::ChainComparison> = chains.iter().filter(|c| c.costs == set).collect();
        let first = of_set[0];
        let mut lines = vec![Line {
            label: format!(
                "closed form ({} Mbit/s, sign + k x (tx + prop + verify))",
                first.setup.rate_mbps
            ),
            colour: 6,
            dashed: true,
            markers: false,
            points: first
                .rows
                .iter()
                .map(|r| (f64::from(r.hops), r.closed_form_ms))
                .collect(),
            band: Vec::new(),
        }];
        for (i, c) in of_set.iter().enumerate() {
            lines.push(Line {
                label: format!("{} — simulated", c.setup.label),
                colour: i,
                dashed: false,
                markers: true,
                points: c
                    .rows
                    .iter()
                    .filter(|r| r.simulated_ms.is_finite())
                    .map(|r| (f64::from(r.hops), r.simulated_ms))
                    .collect(),
                band: Vec::new(),
            });
        }
        let svg = LineChart {
            title: format!("Paper 003 relay chain, {set} costs"),
            x_label: "hops k (vehicles: k + 1)".into(),
            y_label: "delay until verified k hops away (ms)".into(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            y_range: None,
            lines,
            note: Some("simulated: mean over the messages verified at that hop".into()),
        }
        .render()
        .map_err(err)?;
        out.push((set.to_string(), svg));
    }
    Ok(out)
}

/// Paper 004 Fig. 5: per variant, the share of the CAMs that reached the security layer
/// verified within x ms of their reception by the radio (a staircase over the pooled
/// replications, 0.8 % buckets), with the paper's quoted values as single markers in the
/// variant's colour; None when no entry is a `verified_within_share`.
pub fn verification_latency_cdf(
    title: &str,
    entries: &[&PaperValue],
    results: &SimResults,
) -> Result<Option<String>, FigureError> {
    use v2x_bench::papers::SimStatistic;
    use v2x_report::plot::{steps, Line, LineChart, Scale};
    let quoted: Vec<(&PaperValue, &v2x_bench::papers::SimMatch)> = entries
        .iter()
        .filter_map(|e| e.sim.as_ref().map(|m| (*e, m)))
        .filter(|(_, m)| m.statistic == SimStatistic::VerifiedWithinShare)
        .collect();
    if quoted.is_empty() {
        return Ok(None);
    }
    let mut lines = Vec::new();
    for (i, v) in results.variants.iter().enumerate() {
        let p = &v.pooled;
        if p.security_arrivals == 0 {
            continue;
        }
        let n = p.security_arrivals as f64;
        let cumulative: Vec<(f64, f64)> = p
            .verification_latency
            .cumulative()
            .into_iter()
            .map(|(x, c)| (x, c as f64 / n))
            .collect();
        lines.push(Line {
            label: format!("{} (ours)", v.name),
            colour: i,
            dashed: false,
            markers: false,
            points: steps(0.0, 0.0, &cumulative),
            band: Vec::new(),
        });
        for (e, m) in quoted.iter().filter(|(_, m)| m.variant == v.name) {
            let t = m.threshold_ms.unwrap_or(f64::NAN);
            lines.push(Line {
                label: format!("{} — paper: {} within {t} ms", v.name, e.value),
                colour: i,
                dashed: true,
                markers: true,
                points: vec![(t, e.value)],
                band: Vec::new(),
            });
        }
    }
    LineChart {
        title: title.into(),
        x_label: "latency from PHY reception to verified (ms)".into(),
        y_label: "share of receivable packets verified".into(),
        x_scale: Scale::Linear,
        y_scale: Scale::Linear,
        y_range: Some((0.0, 1.0)),
        lines,
        note: Some(
            "ours: pooled replications, 0.8 % buckets; paper: the values its text quotes (a marker each)".into(),
        ),
    }
    .render()
    .map(Some)
    .map_err(err)
}
