//! Figures 1-5 of paper 003 and today's versions, as SVG (plotters), drawn for a journal
//! column: 480 px wide with 14-17 px text (7-9 pt when scaled to a 3.5-inch column), the
//! paper's axes and units (security cost in ms against the number of nodes n), the legend
//! below the plot so it never covers data, one colour per combination in every figure.

use crate::costs::CostSet;
use crate::model::{self, Combination, Line, ModelError};
use crate::paper003::{Paper003, Reading, FIGURE_NODES, SWEEP_MESSAGE_BYTES};
use crate::scheme::{Scheme, Topology};
use crate::today::{combination_security, RadioResult, MODERN_SECURITY_BITS};
use plotters::prelude::*;
use serde::Serialize;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum FigureError {
    #[error("drawing a figure: {0}")]
    Draw(String),
    #[error(transparent)]
    Model(#[from] ModelError),
}

fn draw_err<E: std::fmt::Display>(e: E) -> FigureError {
    FigureError::Draw(e.to_string())
}

/// Okabe-Ito colours (distinguishable with colour-blindness), then a few more.
const PALETTE: [RGBColor; 9] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(230, 159, 0),   // orange
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(0, 0, 0),       // black
    RGBColor(140, 86, 75),   // brown
    RGBColor(127, 127, 0),   // olive
];
const GREY: RGBColor = RGBColor(150, 150, 150);

/// The paper's six combinations keep these colours in every figure.
const PAPER_COLOURS: [(&str, usize); 6] = [
    ("dsa+aes", 0),
    ("rsa+aes", 1),
    ("dsa+ecc", 5),
    ("rsa+ecc", 3),
    ("dsa+rsa", 2),
    ("rsa+rsa", 4),
];

fn paper_colour(c: &Combination) -> RGBColor {
    let pair = c.pair();
    let i = PAPER_COLOURS.iter().find(|(p, _)| *p == pair).map_or(6, |(_, i)| *i);
    PALETTE[i]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Marker {
    None,
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
}

const SIZE_MARKERS: [Marker; 5] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Diamond,
    Marker::Cross,
];

/// How a line is stroked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
    LongDash,
}

impl Dash {
    /// (dash, gap) in pixels.
    fn pattern(self) -> Option<(i32, i32)> {
        match self {
            Dash::Solid => None,
            Dash::Dashed => Some((8, 5)),
            Dash::Dotted => Some((2, 4)),
            Dash::LongDash => Some((16, 5)),
        }
    }
}

/// A curve, with markers at `marker_points` (none for `Marker::None`).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub colour: RGBColor,
    pub dash: Dash,
    pub points: Vec<(f64, f64)>,
    pub marker: Marker,
    pub marker_points: Vec<(f64, f64)>,
}

impl Series {
    fn line(colour: RGBColor, dash: Dash, points: Vec<(f64, f64)>) -> Series {
        Series {
            colour,
            dash,
            points,
            marker: Marker::None,
            marker_points: Vec::new(),
        }
    }
}

/// A legend entry: a line sample, a marker, or both.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    pub label: String,
    pub colour: RGBColor,
    /// None: a marker alone.
    pub line: Option<Dash>,
    pub marker: Marker,
}

/// A figure ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// File name without extension, e.g. `fig1`.
    pub name: String,
    /// What it shows (for the report).
    pub caption: String,
    pub x_desc: String,
    pub y_desc: String,
    pub x_range: (f64, f64),
    pub series: Vec<Series>,
    pub legend: Vec<LegendEntry>,
}

const WIDTH: u32 = 480;
const PLOT_HEIGHT: u32 = 330;
const LEGEND_ROW: u32 = 21;
const LEGEND_COLUMNS: usize = 2;
const FONT: &str = "sans-serif";

/// A marker centred on `at` (data or pixel coordinates).
fn marker_at<'a, DB: DrawingBackend + 'a, C: Clone + 'static>(
    at: C,
    marker: Marker,
    colour: RGBColor,
) -> DynElement<'a, DB, C> {
    let filled = colour.filled();
    let e = EmptyElement::at(at);
    match marker {
        Marker::None => e.into_dyn(),
        Marker::Circle => (e + Circle::new((0, 0), 4, filled)).into_dyn(),
        Marker::Triangle => (e + TriangleMarker::new((0, 0), 5, filled)).into_dyn(),
        Marker::Square => (e + Rectangle::new([(-4, -4), (4, 4)], filled)).into_dyn(),
        Marker::Diamond => (e + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], filled)).into_dyn(),
        Marker::Cross => (e + Cross::new((0, 0), 4, ShapeStyle::from(&colour).stroke_width(2))).into_dyn(),
    }
}

fn nice_max(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(v.log10().floor());
    for m in [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0] {
        if m * mag >= v {
            return m * mag;
        }
    }
    10.0 * mag
}

/// Draws a figure as an SVG document.
pub fn render(fig: &Figure) -> Result<String, FigureError> {
    let rows = fig.legend.len().div_ceil(LEGEND_COLUMNS) as u32;
    let height = PLOT_HEIGHT + 12 + rows * LEGEND_ROW;
    let y_max = nice_max(
        fig.series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .fold(0.0, f64::max)
            * 1.02,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let (plot, legend) = root.split_vertically(PLOT_HEIGHT);
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(10)
            .margin_right(16)
            .margin_left(6)
            .x_label_area_size(46)
            .y_label_area_size(64)
            .build_cartesian_2d(fig.x_range.0..fig.x_range.1, 0.0..y_max)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .x_desc(fig.x_desc.as_str())
            .y_desc(fig.y_desc.as_str())
            .axis_desc_style((FONT, 17))
            .label_style((FONT, 15))
            .x_labels(8)
            .y_labels(7)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .map_err(draw_err)?;
        for s in &fig.series {
            let style = ShapeStyle::from(&s.colour).stroke_width(2);
            match s.dash.pattern() {
                Some((dash, gap)) => chart
                    .draw_series(DashedLineSeries::new(s.points.iter().copied(), dash, gap, style))
                    .map(|_| ()),
                None => chart
                    .draw_series(LineSeries::new(s.points.iter().copied(), style))
                    .map(|_| ()),
            }
            .map_err(draw_err)?;
            for &p in &s.marker_points {
                chart
                    .plotting_area()
                    .draw(&marker_at(p, s.marker, s.colour))
                    .map_err(draw_err)?;
            }
        }
        let col_w = (WIDTH as i32 - 70) / LEGEND_COLUMNS as i32;
        for (i, e) in fig.legend.iter().enumerate() {
            let x = 70 + (i % LEGEND_COLUMNS) as i32 * col_w;
            let y = 8 + (i / LEGEND_COLUMNS) as i32 * LEGEND_ROW as i32 + 8;
            let style = ShapeStyle::from(&e.colour).stroke_width(2);
            if let Some(dash) = e.line {
                let (on, off) = dash.pattern().unwrap_or((30, 0));
                let mut a = x;
                while a < x + 30 {
                    let b = (a + on).min(x + 30);
                    legend
                        .draw(&PathElement::new(vec![(a, y), (b, y)], style))
                        .map_err(draw_err)?;
                    a = b + off;
                }
            }
            let shape = marker_at((x + 15, y), e.marker, e.colour);
            legend.draw(&shape).map_err(draw_err)?;
            legend
                .draw(&Text::new(
                    e.label.clone(),
                    (x + 38, y - 8),
                    (FONT, 14).into_font().color(&BLACK),
                ))
                .map_err(draw_err)?;
        }
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

fn nodes() -> impl Iterator<Item = u32> {
    FIGURE_NODES.0..=FIGURE_NODES.1
}

/// The line's two ends: a straight line drawn through every node would be snapped to
/// whole pixels at each one (the SVG backend's coordinates are integers) and look stepped.
fn points(line: &Line) -> Vec<(f64, f64)> {
    [FIGURE_NODES.0, FIGURE_NODES.1]
        .map(|n| (f64::from(n), line.at(f64::from(n))))
        .to_vec()
}

/// Points every 4 nodes, for markers that stay apart.
fn sparse(line: &Line) -> Vec<(f64, f64)> {
    nodes()
        .step_by(4)
        .map(|n| (f64::from(n), line.at(f64::from(n))))
        .collect()
}

const X_DESC: &str = "Number of nodes n";
const Y_DESC: &str = "Security cost (ms)";

fn line_entry(label: String, colour: RGBColor, dash: Dash) -> LegendEntry {
    LegendEntry {
        label,
        colour,
        line: Some(dash),
        marker: Marker::None,
    }
}

/// Figures 1 and 2: every pairwise combination of a scheme, the corrected model solid,
/// the paper's printed line dashed where it differs, and no security.
fn cost_figure(paper: &Paper003, scheme: Scheme, name: &str, caption: &str) -> Result<Figure, FigureError> {
    let mut series = Vec::new();
    let mut legend = Vec::new();
    let mut combos = model::combinations(&paper.inputs, scheme, Topology::Pairwise);
    // The paper's table order: RSA before DSA.
    combos.sort_by_key(|c| (c.signature != "rsa", c.cipher != "rsa"));
    for c in &combos {
        let colour = paper_colour(c);
        let corrected = paper.evaluate(c, Reading::Corrected)?.line;
        let printed = paper.evaluate(c, Reading::AsPrinted)?.line;
        series.push(Series::line(colour, Dash::Solid, points(&corrected)));
        legend.push(line_entry(c.label(&paper.inputs), colour, Dash::Solid));
        if (corrected.at(f64::from(FIGURE_NODES.1)) - printed.at(f64::from(FIGURE_NODES.1))).abs() > 0.5 {
            series.push(Series::line(colour, Dash::Dashed, points(&printed)));
            legend.push(line_entry(
                format!("{} as printed", c.label(&paper.inputs)),
                colour,
                Dash::Dashed,
            ));
        }
    }
    let ns = model::non_secure(&paper.inputs, &paper.radio);
    series.push(Series::line(GREY, Dash::Solid, points(&ns)));
    legend.push(line_entry("no security".into(), GREY, Dash::Solid));
    Ok(Figure {
        name: name.into(),
        caption: caption.into(),
        x_desc: X_DESC.into(),
        y_desc: Y_DESC.into(),
        x_range: (f64::from(FIGURE_NODES.0), f64::from(FIGURE_NODES.1)),
        series,
        legend,
    })
}

/// Figures 3-5: combinations at every message size of the sweep; colour = combination,
/// marker = message size.
fn sweep_figure(paper: &Paper003, combos: &[Combination], name: &str, caption: &str) -> Result<Figure, FigureError> {
    let mut series = Vec::new();
    let mut legend = Vec::new();
    for c in combos {
        let colour = paper_colour(c);
        legend.push(line_entry(c.label(&paper.inputs), colour, Dash::Solid));
        for (bytes, marker) in SWEEP_MESSAGE_BYTES.iter().zip(SIZE_MARKERS) {
            let set = model::with_message_bytes(&paper.inputs, *bytes);
            let line = model::evaluate(&set, c, &paper.conditions(), &[])?.line;
            series.push(Series {
                marker,
                marker_points: sparse(&line),
                ..Series::line(colour, Dash::Solid, points(&line))
            });
        }
    }
    for (bytes, marker) in SWEEP_MESSAGE_BYTES.iter().zip(SIZE_MARKERS) {
        legend.push(LegendEntry {
            label: format!("{bytes} B message"),
            colour: BLACK,
            line: None,
            marker,
        });
    }
    Ok(Figure {
        name: name.into(),
        caption: caption.into(),
        x_desc: X_DESC.into(),
        y_desc: Y_DESC.into(),
        x_range: (f64::from(FIGURE_NODES.0), f64::from(FIGURE_NODES.1)),
        series,
        legend,
    })
}

/// Figures 1-5 of the paper, from the model.
pub fn paper_figures(paper: &Paper003) -> Result<Vec<Figure>, FigureError> {
    let pair = |s, sig: &str, c: &str| Combination::new(s, Topology::Pairwise, sig, c);
    Ok(vec![
        cost_figure(
            paper,
            Scheme::Wang,
            "fig1",
            "Fig. 1: security cost of Wang et al.'s scheme per combination (paper 003 inputs, 11 Mbit/s, 250 m hops); dashed: the paper's printed line where it differs",
        )?,
        cost_figure(
            paper,
            Scheme::RayaHubaux,
            "fig2",
            "Fig. 2: security cost of Raya & Hubaux's scheme per combination; dashed: the paper's printed (DSA, ECC) line, which leaves out the ECC decryption",
        )?,
        sweep_figure(
            paper,
            &[pair(Scheme::Wang, "rsa", "aes"), pair(Scheme::Wang, "dsa", "aes")],
            "fig3",
            "Fig. 3: Wang et al.'s scheme at several message sizes (marker = message size)",
        )?,
        sweep_figure(
            paper,
            &[pair(Scheme::RayaHubaux, "rsa", "rsa"), pair(Scheme::RayaHubaux, "rsa", "ecc")],
            "fig4",
            "Fig. 4: Raya & Hubaux's scheme with RSA signatures at several message sizes",
        )?,
        sweep_figure(
            paper,
            &[pair(Scheme::RayaHubaux, "dsa", "rsa"), pair(Scheme::RayaHubaux, "dsa", "ecc")],
            "fig5",
            "Fig. 5: Raya & Hubaux's scheme with DSA signatures at several message sizes",
        )?,
    ])
}

/// Most lines a today figure shows.
pub const TODAY_MAX_LINES: usize = 8;

/// Today's pairwise figures for one radio: per scheme, the cheapest (at the largest n)
/// combinations of at least 112-bit algorithms, colours consistent across both figures.
pub fn today_figures(set: &CostSet, result: &RadioResult) -> Vec<Figure> {
    let last = f64::from(FIGURE_NODES.1);
    let mut chosen: Vec<Vec<&crate::model::Evaluation>> = Vec::new();
    for scheme in Scheme::ALL {
        let mut evs: Vec<_> = result
            .evaluations
            .iter()
            .filter(|e| {
                e.combination.scheme == *scheme
                    && e.combination.topology == Topology::Pairwise
                    && combination_security(set, &e.combination) >= MODERN_SECURITY_BITS
            })
            .collect();
        evs.sort_by(|a, b| a.line.at(last).total_cmp(&b.line.at(last)));
        evs.truncate(TODAY_MAX_LINES);
        chosen.push(evs);
    }
    // Colour per signature algorithm, stroke per cipher: a combination looks the same in
    // both schemes' figures.
    let mut sigs: Vec<&str> = set.signatures.keys().map(String::as_str).collect();
    sigs.sort_by_key(|n| set.signatures[*n].family != "ecdsa");
    let asymmetric = set.ciphers_of(crate::costs::CipherKind::Asymmetric);
    let strokes = [Dash::Solid, Dash::Dashed, Dash::Dotted, Dash::LongDash];
    let style = |c: &Combination| {
        let colour = PALETTE[sigs.iter().position(|s| *s == c.signature).unwrap_or(0) % PALETTE.len()];
        let dash = asymmetric
            .iter()
            .position(|x| *x == c.cipher)
            .map_or(Dash::Solid, |i| strokes[i % strokes.len()]);
        (colour, dash)
    };
    let radio = &result.radio;
    Scheme::ALL
        .iter()
        .zip(chosen)
        .map(|(scheme, evs)| {
            let mut series = Vec::new();
            let mut legend = Vec::new();
            for e in evs {
                let (c, dash) = style(&e.combination);
                series.push(Series::line(c, dash, points(&e.line)));
                legend.push(line_entry(e.label.clone(), c, dash));
            }
            series.push(Series::line(GREY, Dash::Solid, points(&result.non_secure)));
            legend.push(line_entry("no security".into(), GREY, Dash::Solid));
            Figure {
                name: format!("today-{}-{}mbps", scheme, radio.rate_mbps),
                caption: format!(
                    "{} on {} with {}: the {} cheapest pairwise combinations of >= {MODERN_SECURITY_BITS}-bit algorithms",
                    scheme, radio, set.name, TODAY_MAX_LINES
                ),
                x_desc: X_DESC.into(),
                y_desc: Y_DESC.into(),
                x_range: (f64::from(FIGURE_NODES.0), last),
                series,
                legend,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_figures_render_complete_svg() {
        let p = Paper003::load().unwrap();
        let figs = paper_figures(&p).unwrap();
        assert_eq!(figs.len(), 5);
        for f in &figs {
            let svg = render(f).unwrap();
            assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{}", f.name);
            assert!(svg.trim_end().ends_with("</svg>"));
            assert!(svg.contains(X_DESC) && svg.contains(Y_DESC));
            for e in &f.legend {
                assert!(
                    svg.contains(&e.label.replace('&', "&amp;")),
                    "{}: legend {}",
                    f.name,
                    e.label
                );
            }
        }
        // Fig. 2 overlays the printed (DSA, ECC) line; Fig. 1 the printed (DSA, AES) line.
        assert!(figs[1]
            .legend
            .iter()
            .any(|e| e.label == "(DSA, ECC) as printed" && e.line == Some(Dash::Dashed)));
        assert!(figs[0].legend.iter().any(|e| e.label == "(DSA, AES) as printed"));
        assert_eq!(figs[2].series.len(), 2 * 5, "two combinations x five sizes");
    }

    #[test]
    fn a_combination_keeps_its_colour_across_figures() {
        let p = Paper003::load().unwrap();
        let figs = paper_figures(&p).unwrap();
        let colour_of = |f: &Figure, label: &str| f.legend.iter().find(|e| e.label == label).map(|e| e.colour);
        assert_eq!(colour_of(&figs[0], "(DSA, AES)"), colour_of(&figs[2], "(DSA, AES)"));
        assert_eq!(colour_of(&figs[1], "(RSA, ECC)"), colour_of(&figs[3], "(RSA, ECC)"));
        assert_eq!(colour_of(&figs[1], "(DSA, RSA)"), colour_of(&figs[4], "(DSA, RSA)"));
        let solid: Vec<_> = figs[1]
            .legend
            .iter()
            .filter(|e| e.line == Some(Dash::Solid))
            .map(|e| e.colour)
            .collect();
        for (i, c) in solid.iter().enumerate() {
            assert!(!solid[i + 1..].contains(c), "two combinations share a colour");
        }
    }

    #[test]
    fn axis_maximum_is_round_and_above_data() {
        assert_eq!(nice_max(945.0), 1000.0);
        assert_eq!(nice_max(231.0), 250.0);
        assert_eq!(nice_max(0.0), 1.0);
        assert!(nice_max(12.3) >= 12.3);
    }
}
